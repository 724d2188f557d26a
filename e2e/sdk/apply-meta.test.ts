// customfit_meta through storefit.js against the fake provider (spec §3 customfit_meta,
// Appendix A): move, swap, edit, duplicate, advanced click actions, onclick / onload actions with
// inline JS from the CDN (spec §7), and global actions (CSS, query parameters, JS timing,
// redirection with the rules of spec §5). A second loopback server plays the CDN and records
// which scripts the page asked for.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../harness.js";
import { useSdkHarness } from "./sdk-harness.js";
import type { Opened } from "./sdk-harness.js";
import { answer, el, meta } from "./fixtures/configs.js";
import { startStaticServer } from "./fixtures/static-server.js";
import type { StaticServer } from "./fixtures/static-server.js";
import type { FixturePage } from "../fake-provider.js";

const h = useSdkHarness();
let cdn: StaticServer;
beforeAll(async () => void (cdn = await startStaticServer()));
afterEach(() => cdn.reset());
afterAll(() => cdn?.close());

const DIM = "dim_test";
const open = (path: string, fixture: FixturePage, opts?: Parameters<typeof h.open>[2]) =>
  h.open(path, { ...fixture, settings: { cdn_host: cdn.url(""), dimension_id: DIM, ...fixture.settings } }, opts);
const settled = (o: Opened) => o.page.waitForFunction(() => (window as unknown as { __sf: { type: string }[] }).__sf.some((e) => e.type === "storefit:applied"));
const ids = (o: Opened, sel: string) => o.page.evaluate((s) => Array.from(document.querySelectorAll(s), (e) => e.id || e.textContent), sel);
/** A CDN script that records its name and the document's state when it ran. */
const recorder = (name: string) => `(window.__ran = window.__ran || []).push(${JSON.stringify(name)} + ":" + document.readyState);`;
const ran = (o: Opened) => o.page.evaluate(() => (window as unknown as { __ran?: string[] }).__ran ?? []);
const jss = (id: string, trigger: string) => `/${DIM}/jss/cfg_${id}_var_${id}_exp_${id}_${trigger}.js`;
/** Events the page sent, after leaving it (the tracker flushes its queue on pagehide). */
async function eventsAfterLeaving(o: Opened, want: (e: { event_type: string; name: string }) => boolean) {
  await o.page.goto(h.fake.shopUrl("/elsewhere"));
  return eventually(() => {
    const all = h.fake.to("/v1/cfe/").flatMap((r) => r.body?.events ?? []);
    return all.some(want) ? all : false;
  }, 8000, "the tracked events");
}

describe("structural actions (move, swap, edit, duplicate)", () => {
  it("moves the element above or below a target, or another element (first_element), in move order", async () => {
    h.fake.configs(
      answer(
        meta("#c", { move_action: { target: "#a", position: "above" } }, { id: "m1" }),
        meta("#two > li:nth-child(1)", { move_action: { first_element: "#y", target: "#z", position: "below" } }, { id: "m2" }),
        // Same depth: order decides who moves first.
        meta("#q2", { move_action: { target: "#q0", position: "below", order: 2 } }, { id: "m3" }),
        meta("#q3", { move_action: { target: "#q0", position: "below", order: 1 } }, { id: "m4" }),
      ),
    );
    const o = await open("/p", {
      body: `<ul id="one"><li id="a">A</li><li id="b">B</li><li id="c">C</li></ul>
             <ul id="two"><li id="x">X</li><li id="y">Y</li><li id="z">Z</li></ul>
             <ul id="three"><li id="q0"></li><li id="q1"></li><li id="q2"></li><li id="q3"></li></ul>`,
    });
    await settled(o);
    expect(await ids(o, "#one li")).toEqual(["c", "a", "b"]);
    expect(await ids(o, "#two li")).toEqual(["x", "z", "y"]);
    // q3 (order 1) goes below q0 first, then q2 (order 2) goes right below q0, above q3.
    expect(await ids(o, "#three li")).toEqual(["q0", "q2", "q3", "q1"]);
  });

  it("swaps the element with its target", async () => {
    h.fake.configs(answer(meta("#left .item", { swap_action: { target: "#right .item" } }, { id: "s" })));
    const o = await open("/p", { body: `<div id="left"><i class="item" id="l">L</i><b>1</b></div><div id="right"><b>2</b><i class="item" id="r">R</i></div>` });
    await settled(o);
    expect(await o.page.locator("#left").innerHTML()).toBe('<i class="item" id="r">R</i><b>1</b>');
    expect(await o.page.locator("#right").innerHTML()).toBe('<b>2</b><i class="item" id="l" data-storefit="1">L</i>');
  });

  it("edits: replace_html, insert_before_html, insert_after_html, append_html (scripts in the HTML do not run)", async () => {
    const edit = (id: string, action_type: "replace_html" | "insert_before_html" | "insert_after_html" | "append_html") =>
      meta(`#${id}`, { edit_elem_action: { action_type, action_txt: `<em>${action_type}</em><script>window.__bad = 1</script>` } }, { id });
    h.fake.configs(answer(edit("r", "replace_html"), edit("b", "insert_before_html"), edit("a", "insert_after_html"), edit("p", "append_html")));
    const o = await open("/p", { body: `<div id="w1"><span id="r">r</span></div><div id="w2"><span id="b">b</span></div><div id="w3"><span id="a">a</span></div><div id="w4"><span id="p">p</span></div>` });
    await settled(o);
    const scriptless = (s: string) => s.replace(/<script>.*?<\/script>/g, "");
    expect(scriptless(await o.page.locator("#w1").innerHTML())).toBe("<em>replace_html</em>");
    expect(scriptless(await o.page.locator("#w2").innerHTML())).toBe('<em>insert_before_html</em><span id="b" data-storefit="1">b</span>');
    expect(scriptless(await o.page.locator("#w3").innerHTML())).toBe('<span id="a" data-storefit="1">a</span><em>insert_after_html</em>');
    expect(scriptless(await o.page.locator("#w4").innerHTML())).toBe('<span id="p" data-storefit="1">p<em>append_html</em></span>');
    expect(await o.page.evaluate(() => (window as unknown as { __bad?: number }).__bad)).toBeUndefined();
  });

  it("duplicates above with cloned_elem_id and below without an id, once, however often the page changes afterwards", async () => {
    h.fake.configs(
      answer(
        el(".card", { innerHTML: "changed", customfit_meta: { duplicate_actions: [{ position: "above", cloned_elem_id: "card-copy" }, { position: "below" }] } }, { id: "d" }),
        meta("#m", { move_action: { target: "#anchor", position: "below" } }, { id: "mv" }),
      ),
    );
    const o = await open("/p", {
      body: `<div id="list"><div class="card" id="card">orig</div></div><p id="anchor"></p><p id="m">m</p><div id="churn"></div>
        <script>document.addEventListener("storefit:applied", () => { let i = 0; const t = setInterval(() => { document.getElementById("churn").append(document.createElement("i")); if (++i === 10) { clearInterval(t); window.__churned = true; } }, 30); });</script>`,
    });
    await o.page.waitForFunction(() => (window as unknown as { __churned?: boolean }).__churned);
    expect(await o.page.locator("#list").innerHTML()).toBe(
      '<div class="card" id="card-copy" data-storefit="1">changed</div><div class="card" id="card" data-storefit="1">changed</div><div class="card" data-storefit="1">changed</div>',
    );
    expect(await ids(o, "body > p")).toEqual(["anchor", "m"]);
  });
});

describe("click actions (advanced_click_actions, onclick_action)", () => {
  const PAGE = `<style>.hidden{display:none}</style>
    <button id="btn">go</button><div id="banner">banner</div><div class="hidden" id="secret">secret</div>
    <div style="height:3000px"></div><div id="far">far</div>`;

  it("scroll_to_element, hide_element and unhide_element act on their targets when the element is clicked", async () => {
    h.fake.configs(
      answer(
        meta("#btn", {
          advanced_click_actions: [
            { action_type: "hide_element", target: "#banner" },
            { action_type: "unhide_element", target: "#secret" },
            { action_type: "scroll_to_element", target: "#far" },
          ],
        }, { id: "click" }),
      ),
    );
    const o = await open("/p", { body: PAGE });
    await settled(o);
    expect(await o.page.locator("#banner").isVisible()).toBe(true);
    expect(await o.page.locator("#secret").isVisible()).toBe(false);
    await o.page.click("#btn");
    expect(await o.page.locator("#banner").isVisible()).toBe(false);
    expect(await o.page.locator("#secret").isVisible()).toBe(true);
    await o.page.waitForFunction(() => window.scrollY > 2000);
  });

  it("redirect_to_page keeps the query string unless retain_params is false, and marks a same-path target", async () => {
    h.fake.configs(
      answer(
        meta("#keep", { advanced_click_actions: [{ action_type: "redirect_to_page", redirect_url: "/target" }] }, { id: "keep" }),
        meta("#drop", { advanced_click_actions: [{ action_type: "redirect_to_page", redirect_url: "/target", retain_params: false }] }, { id: "drop" }),
        meta("#same", { advanced_click_actions: [{ action_type: "redirect_to_page", redirect_url: "/p?tab=2", retain_params: true }] }, { id: "same" }),
      ),
    );
    const body = `<a id="keep" href="/default">k</a><button id="drop">d</button><button id="same">s</button>`;
    for (const [sel, want] of [
      ["#keep", "/target?utm_source=mail"],
      ["#drop", "/target"],
      ["#same", "/p?tab=2&utm_source=mail&cf_redirected=1"],
    ] as const) {
      const o = await open("/p?utm_source=mail", { body });
      await settled(o);
      await Promise.all([o.page.waitForURL((u) => u.pathname !== "/p" || u.search.includes("cf_redirected")), o.page.click(sel)]);
      const u = new URL(o.page.url());
      expect(u.pathname + u.search).toBe(want);
    }
  });

  it("redirect_to_page with open_in_new_tab opens a new tab and leaves the page", async () => {
    h.fake.configs(answer(meta("#btn", { advanced_click_actions: [{ action_type: "redirect_to_page", redirect_url: "/new", open_in_new_tab: true, retain_params: false }] }, { id: "tab" })));
    const o = await open("/p", { body: PAGE });
    await settled(o);
    const [tab] = await Promise.all([o.context.waitForEvent("page"), o.page.click("#btn")]);
    await tab.waitForURL((u) => u.pathname === "/new");
    expect(new URL(tab.url()).pathname).toBe("/new");
    expect(new URL(o.page.url()).pathname).toBe("/p");
  });

  it("onclick track_click sends a CLICK goal; execute_javascript loads the onclick file from the CDN on each click; both do both", async () => {
    cdn.set(jss("js", "onclick"), recorder("js"));
    cdn.set(jss("both", "onclick"), recorder("both"));
    h.fake.configs(
      answer(
        meta("#t", { onclick_action: { action_type: "track_click", action_txt: { goal_name: "clicked_t" } } }, { id: "track" }),
        meta("#j", { onclick_action: { action_type: "execute_javascript", action_txt: { js_code: "ignored()" } } }, { id: "js" }),
        meta("#b", { onclick_action: { action_type: "track_click_and_execute_javascript", action_txt: { goal_name: "clicked_b", js_code: "x" } } }, { id: "both" }),
      ),
    );
    const o = await open("/p", { body: `<button id="t">t</button><button id="j">j</button><button id="b">b</button>` });
    await settled(o);
    expect(await ran(o)).toEqual([]);
    await o.page.click("#t");
    await o.page.click("#j");
    await o.page.click("#j");
    await o.page.click("#b");
    await o.page.waitForFunction(() => ((window as unknown as { __ran?: string[] }).__ran ?? []).length === 3);
    expect((await ran(o)).map((r) => r.split(":")[0])).toEqual(["js", "js", "both"]);
    expect(cdn.requests.filter((r) => r.includes("_onclick.js"))).toEqual([`${jss("js", "onclick")}?v=1`, `${jss("js", "onclick")}?v=1`, `${jss("both", "onclick")}?v=1`]);
    // The loaded script elements are removed once they ran.
    expect(await o.page.evaluate(() => document.querySelectorAll("script[src*='/jss/']").length)).toBe(0);
    const events = await eventsAfterLeaving(o, (e) => e.name === "clicked_b");
    const clicks = events.filter((e: { event_type: string }) => e.event_type === "CLICK");
    expect(clicks.map((e: { name: string }) => e.name)).toEqual(["clicked_t", "clicked_b"]);
    expect(clicks[0]).toMatchObject({ event_customer_id: "shop.localhost|clicked_t", properties: { config_id: "cfg_track", variation_id: "var_track", experience_id: "exp_track" } });
  });

  it("onload_action tracks its goal and runs the onload file once, when the config is applied", async () => {
    cdn.set(jss("ol", "onload"), recorder("onload") + `window.__textAtLoad = document.getElementById("x").textContent;`);
    h.fake.configs(answer(el("#x", { innerHTML: "new", customfit_meta: { onload_action: { action_type: "track_click_and_execute_javascript", action_txt: { goal_name: "seen_x" } } } }, { id: "ol" })));
    const o = await open("/p", { body: `<p id="x">old</p>` });
    await o.page.waitForFunction(() => (window as unknown as { __ran?: string[] }).__ran?.length);
    expect(await o.page.evaluate(() => (window as unknown as { __textAtLoad: string }).__textAtLoad)).toBe("new");
    const events = await eventsAfterLeaving(o, (e) => e.name === "seen_x");
    expect(events.filter((e: { name: string }) => e.name === "seen_x")).toHaveLength(1);
    expect(cdn.requests.filter((r) => r.includes("_onload.js"))).toHaveLength(1);
  });
});

describe("global actions", () => {
  it("adds the CSS before the page is revealed", async () => {
    h.fake.configs(answer(meta(undefined, { global_actions: { css: "#x{color:rgb(1, 2, 3)}" } }, { id: "css" })));
    const o = await open("/p", {
      body: `<p id="x">x</p><script>document.addEventListener("storefit:revealed", () => (window.__color = getComputedStyle(document.getElementById("x")).color));</script>`,
    });
    await settled(o);
    expect(await o.page.evaluate(() => (window as unknown as { __color: string }).__color)).toBe("rgb(1, 2, 3)");
    expect((await o.events()).find((e) => e.type === "storefit:applied")!.detail).toEqual(["cfg_css"]);
  });

  it("adds and removes query parameters with history.replaceState, without a reload", async () => {
    h.fake.configs(
      answer(
        meta(undefined, {
          global_actions: {
            query_params: [
              { key: "promo", value: "spring", operation: "add" },
              { key: "drop", operation: "remove" },
            ],
          },
        }, { id: "qp" }),
      ),
    );
    const o = await open("/p?keep=1&drop=2", { body: "<p>x</p>" });
    await settled(o);
    const u = new URL(o.page.url());
    expect(u.search).toBe("?keep=1&promo=spring");
    expect(await o.page.evaluate(() => performance.getEntriesByType("navigation").length)).toBe(1);
    expect(h.fake.to("/v1/users/configs/")).toHaveLength(1);
  });

  it("loads the global JS file asap, at document_ready or at document_load", async () => {
    for (const id of ["asap", "ready", "load"]) cdn.set(jss(id, "global"), recorder(id));
    h.fake.answer("/v1/slow-image/", () => ({ delayMs: 1500, json: {} }));
    h.fake.configs(
      answer(
        meta(undefined, { global_actions: { js: { script: "x", execution_type: "document_load" } } }, { id: "load" }),
        meta(undefined, { global_actions: { js: { script: "x", execution_type: "asap" } } }, { id: "asap" }),
        meta(undefined, { global_actions: { js: { script: "x", execution_type: "document_ready" } } }, { id: "ready" }),
      ),
    );
    const o = await open("/p", { body: `<p>x</p><img src="${h.fake.apiUrl}/v1/slow-image/" alt="">` }, { waitUntil: "commit" });
    await o.page.waitForFunction(() => (window as unknown as { __ran?: string[] }).__ran?.length === 3, null, { timeout: 10_000 });
    const r = await ran(o);
    expect(r[2]).toBe("load:complete");
    expect(r.slice(0, 2).sort()).toEqual(["asap:interactive", "ready:interactive"]);
  });

  it("uses the jss-stage folder in the stage environment", async () => {
    cdn.set(`/${DIM}/jss-stage/cfg_st_var_st_exp_st_global.js`, recorder("stage"));
    h.fake.configs(answer(meta(undefined, { global_actions: { js: { script: "x", execution_type: "asap" } } }, { id: "st" })));
    const o = await open("/p", { body: "<p>x</p>", settings: { environment: "stage" } });
    await o.page.waitForFunction(() => (window as unknown as { __ran?: string[] }).__ran?.length);
    expect(cdn.requests).toEqual([`/${DIM}/jss-stage/cfg_st_var_st_exp_st_global.js?v=1`]);
  });

  it("redirects (keeping the query string), and a page redirecting to itself is marked and not redirected again", async () => {
    h.fake.configs((req) => {
      const path: string = req.body.current_page_path;
      if (path.startsWith("/from")) return answer(meta(undefined, { global_actions: { redirection: { url: "/to" } } }, { id: "r1" }));
      if (path.startsWith("/self")) return answer(meta(undefined, { global_actions: { redirection: { url: "/self?v=2", retain_params: false } } }, { id: "r2" }));
      return answer();
    });
    h.fake.page("/to", { body: "<p>to</p>" });
    const a = await open("/from?utm_source=x", { body: "<p>from</p>" });
    await a.page.waitForURL((u) => u.pathname === "/to");
    expect(new URL(a.page.url()).search).toBe("?utm_source=x");

    const b = await open("/self", { body: "<p>self</p>" });
    await b.page.waitForURL((u) => u.search.includes("cf_redirected"));
    await b.page.waitForFunction(() => getComputedStyle(document.documentElement).visibility === "visible");
    expect(new URL(b.page.url()).search).toBe("?v=2&cf_redirected=1");
    await b.page.waitForTimeout(300);
    const selfCalls = h.fake.to("/v1/users/configs/").filter((r) => r.body.current_page_path.startsWith("/self"));
    expect(selfCalls.map((r) => r.body.current_page_path)).toEqual(["/self", "/self?v=2&cf_redirected=1"]);
  });
});

describe("inline JS never breaks the page", () => {
  it("reveals the page when a config's custom JS throws or is missing; only the custom JS's own error reaches the page", async () => {
    cdn.set(jss("boom", "global"), `throw new Error("custom code failed");`);
    cdn.set(jss("boom2", "onload"), `null.x;`);
    h.fake.configs(
      answer(
        meta(undefined, { global_actions: { js: { script: "x", execution_type: "asap" } } }, { id: "boom" }),
        el("#x", { innerHTML: "applied", customfit_meta: { onload_action: { action_type: "execute_javascript" } } }, { id: "boom2" }),
        meta(undefined, { global_actions: { js: { script: "x", execution_type: "asap" } } }, { id: "missing" }),
        el("#", { innerHTML: "x" }, { id: "badsel" }),
      ),
    );
    const o = await open("/p", { body: `<p id="x">x</p>`, settings: { sdk_timeout_ms: 3000, element_timeout_ms: 500 } });
    await o.page.waitForFunction(() => getComputedStyle(document.documentElement).visibility === "visible", null, { timeout: 3000 });
    await eventually(() => cdn.requests.length === 3, 5000, "three script requests");
    await o.page.waitForTimeout(200);
    expect(await o.page.locator("#x").innerHTML()).toBe("applied");
    expect(o.errors).toHaveLength(2);
    expect(o.errors.join("\n")).toMatch(/custom code failed/);
    expect(o.errors.join("\n")).toMatch(/Cannot read properties of null/);
    const revealed = (await o.events()).find((e) => e.type === "storefit:revealed")!;
    expect(revealed.at).toBeLessThan(3000);
  });
});
