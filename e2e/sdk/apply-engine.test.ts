// The apply engine alone (built from source into a test bundle, no boot): revert restores the
// page exactly (conventions, habit 6), the watch window ends, re-apply limits hold, the re-apply
// timer catches drift the observer cannot see, and garbage from the service never throws.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Config } from "@storefit/contract";
import { launchBrowser, newVisitor } from "../browser.js";
import { applyInPage, loadEngine } from "./fixtures/engine-bundle.js";
import type { EngineOptions, Tracked } from "./fixtures/engine-bundle.js";
import { el, meta } from "./fixtures/configs.js";
import { startStaticServer } from "./fixtures/static-server.js";
import type { StaticServer } from "./fixtures/static-server.js";
import type { ApplyResult } from "../../packages/sdk/src/dom/engine.js";

let browser: Browser;
let server: StaticServer;
const contexts: BrowserContext[] = [];
beforeAll(async () => void ([browser, server] = await Promise.all([launchBrowser(), startStaticServer()])));
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
  server.reset();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Opened = { page: Page; errors: string[] };
async function open(body: string, path = "/page", head = ""): Promise<Opened> {
  server.set(path.split("?")[0]!, `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`);
  const context = await newVisitor(browser);
  contexts.push(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(server.url(path, "shop.localhost"));
  return { page, errors };
}
const apply = (o: Opened, configs: Config[], opts?: EngineOptions) => applyInPage(o.page, configs, opts);
const revert = (o: Opened) => o.page.evaluate(() => (window as unknown as { __engine: { revert: () => void } }).__engine.revert());
const counts = (o: Opened) => o.page.evaluate(() => (window as unknown as { __result: ApplyResult }).__result.counts!);
const tracked = (o: Opened) => o.page.evaluate(() => (window as unknown as { __tracked: Tracked[] }).__tracked);

/**
 * A canonical picture of the whole document: every node in order, attributes sorted by name,
 * class tokens sorted, inline styles as parsed declarations, form values as properties. The DOM
 * cannot put an attribute back at its old position, and the style attribute is re-serialised when
 * it is written, so those orders are the only things this picture ignores.
 */
const snapshot = (page: Page) =>
  page.evaluate(() => {
    const walk = (n: Node): string => {
      if (n.nodeType === 3) return JSON.stringify((n as Text).data);
      if (n.nodeType === 8) return `<!--${(n as Comment).data}-->`;
      if (n.nodeType !== 1) return "";
      const e = n as HTMLElement;
      const attrs = Array.from(e.attributes)
        .map((a) => [a.name, a.name === "class" ? a.value.split(/\s+/).filter(Boolean).sort().join(" ") : a.name === "style" ? e.style.cssText : a.value])
        .sort((a, b) => (a[0]! < b[0]! ? -1 : 1))
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(" ");
      const value = "value" in e && e.tagName !== "LI" ? ` .value=${JSON.stringify((e as HTMLInputElement).value)}` : "";
      return `<${e.tagName.toLowerCase()} ${attrs}${value}>${Array.from(e.childNodes, walk).join("")}</>`;
    };
    return { dom: walk(document.documentElement), url: location.href };
  });

const PAGE = `<style>.hidden{display:none}</style>
  <h1 id="title" class="title big">Soap</h1>
  <span id="price">$10.00</span>
  <img id="hero" src="/a.png" srcset="/a-1x.png 1x" alt="">
  <input id="qty" value="1">
  <a id="buy" href="/cart">Buy</a>
  <div id="box" class="old card" style="color: green">box</div>
  <ul id="list"><li id="a">A</li><li id="b">B</li><li id="c">C</li></ul>
  <div id="left"><i id="l">L</i></div><div id="right"><i id="r">R</i></div>
  <div id="w1"><span id="e1">1</span></div><div id="w2"><span id="e2">2</span></div><div id="w3"><span id="e3">3</span></div><div id="w4"><span id="e4">4</span></div>
  <div id="dup">dup</div>
  <button id="btn">btn</button><div id="banner">banner</div><div id="secret" class="hidden">secret</div>`;

describe("revert (conventions, habit 6)", () => {
  it("restores the page exactly after every kind of change, clicks included, and stops everything", async () => {
    const o = await open(PAGE, "/page?keep=1&drop=2");
    await loadEngine(o.page);
    const before = await snapshot(o.page);
    const result = await apply(o, [
      el("#price", { innerHTML: "<b>$8.00</b>", cf_retain_value: true }),
      el("#qty", { value: "3" }),
      el("#hero", { src: "/b.png", srcset: "" }),
      el("#buy", { href_target: { href: "/sale", target: "_blank" } }),
      el("#box", { style: { color: "red", "font-size": "20px !important" }, cf_classes_add: "sale", cf_classes_remove: ["old"] }),
      el("#title", { cf_classes_edit_option: "overwrite_classes", cf_classes_overwrite: "headline" }),
      meta("#c", { move_action: { target: "#a", position: "above" } }),
      meta("#l", { swap_action: { target: "#r" } }),
      meta("#e1", { edit_elem_action: { action_type: "replace_html", action_txt: "<em>r</em>x" } }),
      meta("#e2", { edit_elem_action: { action_type: "insert_before_html", action_txt: "<em>b</em>" } }),
      meta("#e3", { edit_elem_action: { action_type: "insert_after_html", action_txt: "<em>a</em>" } }),
      meta("#e4", { edit_elem_action: { action_type: "append_html", action_txt: "<em>p</em>" } }),
      meta("#dup", { duplicate_actions: [{ position: "above", cloned_elem_id: "dup2" }, { position: "below" }] }),
      meta("#btn", {
        advanced_click_actions: [
          { action_type: "hide_element", target: "#banner" },
          { action_type: "unhide_element", target: "#secret" },
        ],
        onclick_action: { action_type: "track_click", action_txt: { goal_name: "g" } },
      }),
      meta(undefined, { global_actions: { css: "body{background:rgb(9, 9, 9)}", query_params: [{ key: "drop", operation: "remove" }, { key: "add", value: "1", operation: "add" }] } }),
      el("#later", { innerHTML: "later" }),
      el("#price", { innerHTML: "delayed", cf_delay_apply_time: 1500 }, { id: "delayed" }),
    ]);
    expect(result.missing).toEqual([expect.stringMatching(/^cfg_c\d+$/)]);
    expect(result.applied).toHaveLength(15);
    expect(result.pending).toEqual(["cfg_delayed"]);
    await o.page.click("#btn");
    const during = await snapshot(o.page);
    expect(during.dom).not.toBe(before.dom);
    expect(during.url).toContain("add=1");
    expect(await o.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(9, 9, 9)");

    await revert(o);
    const after = await snapshot(o.page);
    expect(after.url).toBe(before.url);
    expect(after.dom.split("><")).toEqual(before.dom.split("><"));
    expect(await o.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgba(0, 0, 0, 0)");

    // Listeners, observer, timers and the delayed apply are gone.
    await o.page.click("#btn");
    expect((await tracked(o)).filter((t) => t.type === "CLICK")).toHaveLength(1);
    await o.page.evaluate(() => {
      const d = document.createElement("div");
      d.id = "later";
      d.textContent = "x";
      document.body.append(d);
      document.getElementById("price")!.textContent = "$11.00";
    });
    // Past the delayed config's 1500 ms and a re-apply timer tick.
    await o.page.waitForTimeout(2200);
    expect(await o.page.locator("#later").innerHTML()).toBe("x");
    expect(await o.page.locator("#price").innerHTML()).toBe("$11.00");
    expect(await o.page.evaluate(() => document.querySelectorAll("[data-storefit]").length)).toBe(0);
    expect(o.errors).toEqual([]);
  });

  it("leaves the page's own later changes alone when reverting", async () => {
    const o = await open(`<span id="p">old</span><img id="i" src="/a.png" alt="">`);
    await apply(o, [el("#p", { innerHTML: "ours" }), el("#i", { src: "/ours.png" })]);
    await o.page.evaluate(() => {
      document.getElementById("p")!.textContent = "the page's newer text";
    });
    await revert(o);
    expect(await o.page.locator("#p").innerHTML()).toBe("the page's newer text");
    expect(await o.page.locator("#i").getAttribute("src")).toBe("/a.png");
  });

  it("restores the page's own value when two of our configs fought over one element (retain and a later one)", async () => {
    const o = await open(`<p id="x">page</p>`);
    await apply(o, [el("#x", { innerHTML: "A", cf_retain_value: true }), el("#x", { innerHTML: "B", cf_delay_apply_time: 200 })]);
    // B lands, A (cf_retain_value) takes the element back: a drift re-apply.
    await o.page.waitForFunction(() => (window as unknown as { __result: ApplyResult }).__result.counts!.drift > 0);
    expect(await o.page.locator("#x").innerHTML()).toBe("A");
    await revert(o);
    expect(await o.page.locator("#x").innerHTML()).toBe("page");
  });

  it("resolves a pending apply when reverted while waiting for an element", async () => {
    const o = await open(`<p>x</p>`);
    await loadEngine(o.page);
    const result = await o.page.evaluate(async () => {
      type Kit = { createEngine: (ctx: unknown) => { apply: (c: unknown) => Promise<unknown>; revert: () => void }; createScope: () => unknown };
      const k = (window as unknown as { storefitTestEngine: Kit }).storefitTestEngine;
      const e = k.createEngine({ scope: k.createScope(), settings: { api_host: "x", element_timeout_ms: 60_000, reapply_timer_ms: 2000 }, device: "desktop", track: () => {} });
      const p = e.apply([{ config_customer_id: "a", config_id: "cfg_a", variation_id: "v", variation_data_type: "HTML_ELEMENT", variation: { innerHTML: "x" }, properties: { element_path: "#never" } }]);
      setTimeout(() => e.revert(), 100);
      const t0 = performance.now();
      const r = await p;
      return { r, ms: performance.now() - t0 };
    });
    expect(result.ms).toBeLessThan(1000);
    expect(result.r).toMatchObject({ applied: [], missing: ["cfg_a"] });
  });
});

describe("re-apply (spec §4 Config replacement, §9 limits)", () => {
  it("re-applies to re-added elements only within the watch window", async () => {
    const o = await open(`<div id="app"><span id="price">$10.00</span></div>`);
    await apply(o, [el("#price", { innerHTML: "$8.00" })], { watchMs: 1000 });
    const rerender = () => o.page.evaluate(() => (document.getElementById("app")!.innerHTML = '<span id="price">$10.00</span>'));
    await rerender();
    expect(await o.page.locator("#price").innerHTML()).toBe("$8.00");
    expect(await counts(o)).toEqual({ applies: 2, readded: 1, drift: 0 });
    await o.page.waitForTimeout(1300);
    await rerender();
    await o.page.waitForTimeout(100);
    expect(await o.page.locator("#price").innerHTML()).toBe("$10.00");
    expect(await counts(o)).toEqual({ applies: 2, readded: 1, drift: 0 });
  });

  it("a click goal waits behind the apply for an element that comes later, for the watch window, not element_timeout_ms", async () => {
    const o = await open(`<main id="page">page</main>`);
    const goal = (id: string) => meta(`#${id}`, { onclick_action: { action_type: "track_click", action_txt: { goal_name: id } } }, { id });
    // The apply resolves at once: nothing visible waits; the goals' elements are still awaited.
    const r = await apply(o, [goal("cta"), goal("late")], { settings: { element_timeout_ms: 300 }, watchMs: 3000 });
    expect(r).toMatchObject({ applied: [], missing: [], pending: ["cfg_cta", "cfg_late"] });
    const add = (id: string) => o.page.evaluate((x) => document.body.insertAdjacentHTML("beforeend", `<button id="${x}">${x}</button>`), id);
    // A popup's button shown after the element time-out is still counted.
    await o.page.waitForTimeout(800);
    await add("cta");
    await o.page.click("#cta");
    await expect.poll(() => tracked(o)).toEqual([expect.objectContaining({ type: "CLICK", name: "cta" })]);
    // One shown after the watch window is given up.
    await o.page.waitForTimeout(2600);
    await add("late");
    await o.page.click("#late");
    await o.page.waitForTimeout(200);
    expect((await tracked(o)).map((t) => t.name)).toEqual(["cta"]);
    expect(o.errors).toEqual([]);
  });

  it("the re-apply timer restores attribute drift the observer does not watch (cf_retain_value), at most 3 times per element", async () => {
    const o = await open(`<img id="i" src="/a.png" class="x" alt="">`);
    await apply(o, [el("#i", { src: "/b.png", cf_classes_add: "sale", cf_retain_value: true })], { settings: { reapply_timer_ms: 200 } });
    for (let i = 1; i <= 5; i++) {
      await o.page.evaluate(() => {
        const img = document.getElementById("i")!;
        img.setAttribute("src", "/page.png");
        img.classList.remove("sale");
      });
      await o.page.waitForTimeout(450);
      const state = await o.page.evaluate(() => [document.getElementById("i")!.getAttribute("src"), document.getElementById("i")!.className]);
      // Three re-applies per element, then the page's value stays.
      expect(state).toEqual(i <= 3 ? ["/b.png", "x sale"] : ["/page.png", "x"]);
    }
    expect((await counts(o)).drift).toBe(3);
    expect(await o.page.locator("#i").getAttribute("data-storefit")).toBe("4");
  });

  it("without cf_retain_value, the page's later change of the same element wins", async () => {
    const o = await open(`<img id="i" src="/a.png" alt="">`);
    await apply(o, [el("#i", { src: "/b.png" })], { settings: { reapply_timer_ms: 200 } });
    await o.page.evaluate(() => document.getElementById("i")!.setAttribute("src", "/variant.png"));
    await o.page.waitForTimeout(500);
    expect(await o.page.locator("#i").getAttribute("src")).toBe("/variant.png");
    expect((await counts(o)).drift).toBe(0);
  });
});

describe("robustness", () => {
  it("never throws on garbage from the service, and reports what it could not apply", async () => {
    const o = await open(`<p id="x">x</p>`);
    const garbage = [
      null,
      { config_id: "no_type" },
      { config_id: "str", variation_data_type: "HTML_ELEMENT", variation: "text", properties: { element_path: "#x" } },
      { config_id: "num", variation_data_type: "NUMBER", variation: 5, properties: { element_path: "#x" } },
      { config_id: "sel_obj", variation_data_type: "HTML_ELEMENT", variation: { innerHTML: "y" }, properties: { element_path: { a: 1 } } },
      { config_id: "css_inject", variation_data_type: "HTML_ELEMENT", variation: { innerHTML: "y" }, properties: { element_path: "p{}body" } },
      {
        config_id: "bad_meta",
        variation_data_type: "HTML_ELEMENT",
        variation: {
          style: null,
          href_target: 3,
          cf_classes_edit_option: "overwrite_classes",
          cf_classes_overwrite: 7,
          customfit_meta: {
            move_action: { target: "#" },
            swap_action: { target: null },
            edit_elem_action: { action_type: "nope", action_txt: 1 },
            duplicate_actions: "x",
            advanced_click_actions: [{ action_type: "redirect_to_page", redirect_url: "javascript:alert(1)" }],
            onclick_action: { action_type: "weird" },
            global_actions: { css: 5, query_params: "a", js: { script: "", execution_type: "never" }, redirection: { url: "javascript:void 0" } },
          },
        },
        properties: { element_path: "#x" },
      },
      { config_id: "dup_delay", variation_data_type: "HTML_ELEMENT", variation: { innerHTML: "z", cf_delay_apply_time: "abc" }, properties: { element_path: "#x" } },
    ] as unknown as Config[];
    const r = await apply(o, garbage, { settings: { element_timeout_ms: 300 } });
    expect(r.missing.sort()).toEqual(["css_inject"]);
    expect(r.applied).toEqual(expect.arrayContaining(["bad_meta", "dup_delay"]));
    await o.page.click("#x");
    await o.page.waitForTimeout(100);
    expect(new URL(o.page.url()).pathname).toBe("/page");
    expect(o.errors).toEqual([]);
  });
});
