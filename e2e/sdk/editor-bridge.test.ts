// The visual editor's storefront half in Chromium (docs/visual-editor.md): a fixture dashboard,
// served on api_host's origin, opens a shop page in a frame with `utm_customfit_edit=<its origin>`.
// The shop page comes from the fake provider (shop.localhost); api_host is a second loopback
// server (api.localhost on its own port) that, like the service, serves the dashboard and
// /sdk/storefit-editor.js; a third host name on it (evil.localhost) is the foreign origin.
// storefit.js in edit mode makes no config call, reveals the page and loads storefit-editor.js;
// the bridge reports what the pointer hovers and selects, obeys the dashboard's requests, applies
// previews with the script's apply engine, and ignores — and never posts to — any other origin.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Frame } from "playwright-core";
import type { BridgeMessage, Config, ElementInfo } from "@storefit/contract";
import { isBridgeMessage } from "@storefit/contract";
import { eventually, newVisitor } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";
import { el, meta } from "./fixtures/configs.js";
import { openDashboard } from "./fixtures/editor-dashboard.js";
import { startStaticServer } from "./fixtures/static-server.js";
import type { StaticServer } from "./fixtures/static-server.js";
import type { Dashboard, Received } from "./fixtures/editor-dashboard.js";

const h = useSdkHarness();
let api: StaticServer;
beforeAll(async () => {
  api = await startStaticServer();
});
afterEach(() => api.reset());
afterAll(async () => {
  await api?.close();
});

const SDK_DIST = fileURLToPath(new URL("../../packages/sdk/dist/", import.meta.url));
/** api_host: the dashboard's origin, which also serves the script's files. */
const apiOrigin = () => api.url("", "api.localhost");
const foreign = () => api.url("", "evil.localhost");
/** Calls to a client API (api_host's or the fake provider's) that the dashboard's frames made. */
const apiCalls = (d: Dashboard) =>
  d.requested.filter((u) => new URL(u).pathname.startsWith("/v1/"));

const SHOP = `
  <header class="site-header"><nav><a href="/">Home</a><a href="/shop">Shop</a></nav></header>
  <main id="main">
    <h1 class="css-1x2y3z product-title" style="color: rgb(0, 0, 0)">Baby balm</h1>
    <div class="sc-bdVaJa price-box"><span class="price">$12</span> <span class="tax">incl. VAT</span></div>
    <button class="buy" onclick="window.__bought = (window.__bought || 0) + 1">Add to cart</button>
    <ul class="reviews"><li>Great</li><li>Soft</li><li>Nice</li></ul>
    <my-widget></my-widget>
  </main>
  <script>
    customElements.define("my-widget", class extends HTMLElement {
      constructor() { super(); this.attachShadow({ mode: "open" }).innerHTML = "<button style='padding:20px'>Inside</button>"; }
    });
  </script>`;

let n = 0;
const EDIT = "utm_customfit_edit";

/** A fresh visitor whose frames record their errors (`window.__errors`). */
async function visitor(): Promise<BrowserContext> {
  const context = await newVisitor(h.browser);
  h.contexts.push(context);
  await context.addInitScript(() => {
    const w = window as unknown as { __errors: string[] };
    w.__errors = [];
    addEventListener("error", (e) => w.__errors.push(String(e.message)));
    addEventListener("unhandledrejection", (e) => w.__errors.push(String(e.reason)));
  });
  return context;
}

/** Serves the shop page (and the script's files on api_host); answers its path. */
function shopPage(): string {
  const path = `/editor-${++n}`;
  // A missing element is given up after 1 s (default 3 s): the preview answer waits for it.
  h.fake.page(path, { body: SHOP, settings: { api_host: apiOrigin(), element_timeout_ms: 1000 } });
  for (const f of ["storefit-editor.js", "storefit-ext.js"])
    api.set(`/sdk/${f}`, {
      body: readFileSync(SDK_DIST + f, "utf8"),
      type: "application/javascript",
    });
  return path;
}

/** Serves the shop page and opens it in a dashboard on `origin` (default: api_host's). */
async function editor(
  o: { origin?: string; param?: string | null; sibling?: boolean; frameName?: string } = {},
): Promise<Dashboard> {
  const path = shopPage();
  const param = o.param === undefined ? apiOrigin() : o.param;
  const frameUrl =
    h.fake.shopUrl(path) + (param === null ? "" : `?${EDIT}=${encodeURIComponent(param)}`);
  return openDashboard(api, await visitor(), {
    origin: o.origin ?? apiOrigin(),
    frameUrl,
    ...(o.sibling ? { siblingOrigin: foreign() } : {}),
    ...(o.frameName !== undefined ? { frameName: o.frameName } : {}),
  });
}

/** The first message of `type` (answering `re`, when given) the dashboard received after `from`. */
async function waitFor<T extends BridgeMessage["type"]>(
  d: Dashboard,
  type: T,
  re?: string,
  from = 0,
): Promise<Extract<BridgeMessage, { type: T }>> {
  const got = await eventually(
    async () =>
      (await d.received())
        .slice(from)
        .find((m) => m.data.type === type && (re === undefined || m.data.re === re)),
    // Generous: the machine is shared, and a first page load under load can take seconds.
    20_000,
    `a "${type}" message${re ? ` answering ${re}` : ""}`,
  );
  return got.data as Extract<BridgeMessage, { type: T }>;
}

/** Sends `message` with a fresh id and waits for the bridge's answer of `type`. */
let ids = 0;
async function ask<T extends BridgeMessage["type"]>(
  d: Dashboard,
  message: Record<string, unknown>,
  type: T,
): Promise<Extract<BridgeMessage, { type: T }>> {
  const id = `m${++ids}`;
  await d.send({ ...message, id });
  return waitFor(d, type, id);
}

/** The centre of `selector` in the dashboard page's coordinates. */
async function centre(shop: Frame, selector: string): Promise<{ x: number; y: number }> {
  const box = (await shop.locator(selector).first().boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

const overlayInFrame = (shop: Frame) =>
  shop.evaluate(() => !!document.querySelector("storefit-editor-overlay"));
const settle = () => new Promise((r) => setTimeout(r, 300));

describe("edit mode loads the bridge", () => {
  it("makes no config call, reveals the page, loads storefit-editor.js from api_host and says ready to the dashboard", async () => {
    const d = await editor();
    const ready = await waitFor(d, "ready");
    expect(ready).toMatchObject({
      source: "storefit-bridge",
      v: 1,
      title: "fixture",
      viewport: { width: 1000, height: 700 },
    });
    expect(ready.url).toContain(`${EDIT}=`);
    // Every message the dashboard gets is well-formed and comes from the shop's origin.
    const all = await d.received();
    expect(
      all.every((m) => isBridgeMessage(m.data) && m.origin === new URL(h.fake.shopUrl()).origin),
    ).toBe(true);

    expect(d.requested).toContain(`${apiOrigin()}/sdk/storefit-editor.js`);
    expect(d.requested.filter((u) => u.includes("storefit-ext"))).toEqual([]);
    expect(await d.shop.evaluate(() => getComputedStyle(document.documentElement).visibility)).toBe(
      "visible",
    );
    expect(await d.shop.evaluate(() => !!document.getElementById("storefit-hide"))).toBe(false);
    await settle();
    expect(apiCalls(d)).toEqual([]);
    expect(h.fake.requests).toEqual([]);
    expect(
      await d.shop.evaluate(() => (window as unknown as { __errors: string[] }).__errors),
    ).toEqual([]);
    expect(d.errors).toEqual([]);
  });

  it("answers hello with ready, and a message of another protocol version with an error", async () => {
    const d = await editor();
    await waitFor(d, "ready");
    expect(await ask(d, { type: "hello" }, "ready")).toMatchObject({ re: expect.any(String) });
    expect(await ask(d, { type: "hello", v: 2 }, "error")).toMatchObject({
      code: "unsupported-version",
    });
    expect(await ask(d, { type: "select-path" }, "error")).toMatchObject({
      code: "invalid-message",
    });
  });
});

describe("hover and selection", () => {
  it("highlights and reports the element under the pointer, and selects it on click with a unique path", async () => {
    const d = await editor();
    await waitFor(d, "ready");
    const at = await centre(d.shop, "h1");
    const before = (await d.received()).length;
    await d.page.mouse.move(at.x, at.y);
    const hover = await eventually(
      async () =>
        (await d.received())
          .slice(before)
          .map((m) => m.data)
          .find((m) => m.type === "hover" && m.path),
      15_000,
      "hover",
    );
    expect(hover).toMatchObject({
      type: "hover",
      path: ".product-title",
      matchCount: 1,
      tagName: "h1",
    });
    expect(await overlayInFrame(d.shop)).toBe(true);

    await d.page.mouse.click(at.x, at.y);
    const { selection } = await waitFor(d, "selected", undefined, before);
    const box = (await d.shop.locator("h1").boundingBox())!;
    expect(selection).toMatchObject({
      path: ".product-title",
      matchCount: 1,
      tagName: "h1",
      text: "Baby balm",
      html: "Baby balm",
      htmlTruncated: false,
      attributes: { class: "css-1x2y3z product-title", style: "color: rgb(0, 0, 0)" },
      styles: { color: "rgb(0, 0, 0)", display: "block" },
      can: { parent: true, child: false, next: true, previous: false },
      // The panel's move up/down and swap targets: unique paths of the neighbours.
      siblings: { previous: null, next: ".price-box" },
    });
    // The frame sits at the dashboard's top left: the frame's viewport box is the page's.
    expect(selection!.rect.x).toBeCloseTo(box.x, 0);
    expect(selection!.rect.y).toBeCloseTo(box.y, 0);
    expect(selection!.rect.width).toBeCloseTo(box.width, 0);
  });

  it("a click that selects does not reach the page; with select mode off it does", async () => {
    const d = await editor();
    await waitFor(d, "ready");
    const at = await centre(d.shop, "button.buy");
    await d.page.mouse.click(at.x, at.y);
    expect((await waitFor(d, "selected")).selection).toMatchObject({
      path: ".buy",
      tagName: "button",
    });
    expect(
      await d.shop.evaluate(() => (window as unknown as { __bought?: number }).__bought),
    ).toBeUndefined();

    await d.send({ type: "select-mode", on: false });
    // Messages are handled in order: once hello is answered, select mode is off.
    await ask(d, { type: "hello" }, "ready");
    await d.page.mouse.click(at.x, at.y);
    await eventually(
      () => d.shop.evaluate(() => (window as unknown as { __bought?: number }).__bought === 1),
      15_000,
      "the page's own click",
    );
  });

  it("moves the selection with the arrow keys and with navigate-selection; Escape clears it", async () => {
    const d = await editor();
    await waitFor(d, "ready");
    const at = await centre(d.shop, "ul.reviews li:nth-child(2)");
    let from = (await d.received()).length;
    await d.page.mouse.click(at.x, at.y);
    expect((await waitFor(d, "selected", undefined, from)).selection).toMatchObject({
      path: ".reviews > li:nth-of-type(2)",
      text: "Soft",
    });

    const key = async (k: string) => {
      from = (await d.received()).length;
      await d.page.keyboard.press(k);
      return (await waitFor(d, "selected", undefined, from)).selection;
    };
    expect(await key("ArrowUp")).toMatchObject({ path: ".reviews", tagName: "ul" });
    expect(await key("ArrowDown")).toMatchObject({
      path: ".reviews > li:nth-of-type(1)",
      text: "Great",
    });
    expect(await key("ArrowRight")).toMatchObject({
      path: ".reviews > li:nth-of-type(2)",
      text: "Soft",
    });
    expect(await key("ArrowLeft")).toMatchObject({
      text: "Great",
      can: { previous: false, next: true },
    });

    expect(
      (await ask(d, { type: "navigate-selection", direction: "next" }, "selected")).selection,
    ).toMatchObject({ text: "Soft" });
    expect(
      (await ask(d, { type: "navigate-selection", direction: "parent" }, "selected")).selection,
    ).toMatchObject({ path: ".reviews" });
    expect(
      (await ask(d, { type: "navigate-selection", direction: "previous" }, "selected")).selection,
    ).toMatchObject({ path: ".buy", tagName: "button" });
    // Upwards ends below <body>: #main is the last stop.
    expect(
      (await ask(d, { type: "navigate-selection", direction: "parent" }, "selected")).selection,
    ).toMatchObject({ path: "#main", can: { parent: false } });
    expect(
      (await ask(d, { type: "navigate-selection", direction: "parent" }, "selected")).selection,
    ).toMatchObject({ path: "#main" });

    expect(await key("Escape")).toBeNull();
    expect(await ask(d, { type: "navigate-selection", direction: "child" }, "error")).toMatchObject(
      { code: "no-selection" },
    );
  });

  it("selects and hovers by path, reporting how many elements match; refuses invalid and empty paths", async () => {
    const d = await editor();
    await waitFor(d, "ready");
    expect(await ask(d, { type: "hover-path", path: ".reviews li" }, "hover")).toMatchObject({
      path: ".reviews li",
      matchCount: 3,
      tagName: "li",
    });
    const sel = (await ask(d, { type: "select-path", path: ".reviews li" }, "selected"))
      .selection as ElementInfo;
    expect(sel).toMatchObject({ path: ".reviews li", matchCount: 3, text: "Great" });
    expect(await ask(d, { type: "select-path", path: "##" }, "error")).toMatchObject({
      code: "invalid-path",
    });
    expect(await ask(d, { type: "select-path", path: ".nothing" }, "error")).toMatchObject({
      code: "no-match",
    });
    expect(await ask(d, { type: "hover-path", path: "a[" }, "error")).toMatchObject({
      code: "invalid-path",
    });
    expect(await ask(d, { type: "hover-path", path: null }, "hover")).toMatchObject({
      path: null,
      matchCount: 0,
      rect: null,
    });
  });

  it("selects a shadow root's host: the apply engine queries the document", async () => {
    const d = await editor();
    await waitFor(d, "ready");
    const at = await centre(d.shop, "my-widget");
    await d.page.mouse.click(at.x, at.y);
    expect((await waitFor(d, "selected")).selection).toMatchObject({
      path: "#main > my-widget",
      tagName: "my-widget",
      text: "",
    });
  });

  it("the highlight is not under the pointer, does not move the page, and is gone when nothing is shown", async () => {
    const d = await editor();
    await waitFor(d, "ready");
    const layout = () =>
      d.shop.evaluate(() => ({
        body: [document.body.scrollWidth, document.body.scrollHeight],
        rects: Array.from(document.querySelectorAll("main *")).map((e) =>
          JSON.stringify(e.getBoundingClientRect()),
        ),
        bodyChildren: document.body.children.length,
      }));
    const before = await layout();
    const at = await centre(d.shop, "h1");
    await d.page.mouse.click(at.x, at.y);
    await waitFor(d, "selected");
    const host = await d.shop.evaluate(() => {
      const o = document.querySelector("storefit-editor-overlay")!;
      const h1 = document.querySelector("h1")!.getBoundingClientRect();
      return {
        parent: o.parentElement!.localName,
        position: getComputedStyle(o).position,
        size: [o.getBoundingClientRect().width, o.getBoundingClientRect().height],
        pointer: getComputedStyle(o).pointerEvents,
        under: document.elementFromPoint(h1.x + h1.width / 2, h1.y + h1.height / 2)!.localName,
        // A closed shadow root: the page's scripts and styles do not reach the boxes.
        shadow: o.shadowRoot,
      };
    });
    expect(host).toEqual({
      parent: "html",
      position: "fixed",
      size: [0, 0],
      pointer: "none",
      under: "h1",
      shadow: null,
    });
    expect(await layout()).toEqual(before);

    // Paths made while it is shown are the same as without it.
    expect(
      (await ask(d, { type: "select-path", path: "body > header" }, "selected")).selection!.path,
    ).toBe("body > header");
    await d.send({ type: "select-mode", on: false });
    await ask(d, { type: "clear-selection" }, "selected");
    await eventually(
      async () => !(await overlayInFrame(d.shop)) || undefined,
      15_000,
      "the overlay to be removed",
    );
  });
});

describe("preview", () => {
  const title = (innerHTML: string, color: string): Config =>
    el(".product-title", { innerHTML, style: { color } }, { id: "title" });
  const price = (innerHTML: string): Config =>
    el(".price", { innerHTML, style: { "background-color": "rgb(0, 128, 0)" } }, { id: "price" });
  const shown = (shop: Frame) =>
    shop.evaluate(() => ({
      title: document.querySelector("h1")!.textContent,
      color: getComputedStyle(document.querySelector("h1")!).color,
      price: document.querySelector(".price")!.textContent,
      priceBg: getComputedStyle(document.querySelector(".price")!).backgroundColor,
      template: document.getElementById("cf-template-t1")?.textContent ?? null,
      url: location.href,
    }));

  it("applies a list of configs, switches to another list (reverting the first), and clears", async () => {
    const d = await editor();
    await waitFor(d, "ready");
    const original = await shown(d.shop);
    expect(original).toMatchObject({
      title: "Baby balm",
      color: "rgb(0, 0, 0)",
      price: "$12",
      priceBg: "rgba(0, 0, 0, 0)",
    });

    // Select the title, then preview a change of its text and colour.
    const at = await centre(d.shop, "h1");
    await d.page.mouse.click(at.x, at.y);
    const path = (await waitFor(d, "selected")).selection!.path;
    const a = await ask(
      d,
      {
        type: "preview",
        configs: [
          el(path, { innerHTML: "Sweet balm", style: { color: "rgb(255, 0, 0)" } }, { id: "a" }),
        ],
      },
      "preview-applied",
    );
    expect(a).toMatchObject({ applied: ["cfg_a"], missing: [], pending: [], skipped: [] });
    expect(await shown(d.shop)).toMatchObject({
      title: "Sweet balm",
      color: "rgb(255, 0, 0)",
      price: "$12",
    });

    // Another variation: the first is reverted, the second applied.
    const b = await ask(
      d,
      { type: "preview", configs: [price("$9"), el(".gone", { innerHTML: "x" }, { id: "gone" })] },
      "preview-applied",
    );
    expect(b).toMatchObject({ applied: ["cfg_price"], missing: ["cfg_gone"] });
    expect(await shown(d.shop)).toMatchObject({
      title: "Baby balm",
      color: "rgb(0, 0, 0)",
      price: "$9",
      priceBg: "rgb(0, 128, 0)",
    });

    await ask(
      d,
      { type: "preview", configs: [title("Both", "rgb(0, 0, 255)"), price("$8")] },
      "preview-applied",
    );
    expect(await shown(d.shop)).toMatchObject({
      title: "Both",
      color: "rgb(0, 0, 255)",
      price: "$8",
    });

    await ask(d, { type: "clear-preview" }, "preview-cleared");
    expect(await shown(d.shop)).toEqual(original);
    // The script's marks are gone with the changes.
    expect(await d.shop.evaluate(() => document.querySelectorAll("[data-storefit]").length)).toBe(
      0,
    );
  });

  it("reports a selection's content from before the preview replaced it (original), and none for an unchanged one", async () => {
    const d = await editor();
    await waitFor(d, "ready");
    await ask(d, { type: "preview", configs: [price("<b>$9</b>")] }, "preview-applied");
    const changed = (await ask(d, { type: "select-path", path: ".price" }, "selected")).selection!;
    expect(changed).toMatchObject({
      text: "$9",
      html: "<b>$9</b>",
      original: { text: "$12", html: "$12" },
    });
    const unchanged = (await ask(d, { type: "select-path", path: ".tax" }, "selected")).selection!;
    expect(unchanged).not.toHaveProperty("original");
    // Another preview, leaving the price alone: it has no original any more.
    await ask(
      d,
      { type: "preview", configs: [title("Other", "rgb(0, 0, 255)")] },
      "preview-applied",
    );
    const now = (await ask(d, { type: "select-path", path: ".price" }, "selected")).selection!;
    expect(now).toMatchObject({ text: "$12", html: "$12" });
    expect(now).not.toHaveProperty("original");
  });

  it("applies the mobile or desktop sub-variation, shows templates at once, and leaves redirections out", async () => {
    const d = await editor();
    await waitFor(d, "ready");
    const original = await shown(d.shop);
    const device: Config = {
      ...el(
        ".product-title",
        { mobile: { innerHTML: "Mobile" }, desktop: { innerHTML: "Desktop" } },
        { id: "dev" },
      ),
      experience_behaviour_response: {
        experience_id: "e",
        behaviour_id: "b",
        config_modifications: { device_specific: true },
      },
    };
    expect(
      await ask(d, { type: "preview", configs: [device], device: "mobile" }, "preview-applied"),
    ).toMatchObject({ applied: ["cfg_dev"] });
    expect((await shown(d.shop)).title).toBe("Mobile");
    await ask(d, { type: "preview", configs: [device] }, "preview-applied");
    expect((await shown(d.shop)).title).toBe("Desktop");

    const template = meta(undefined, {}, { id: "tpl" });
    template.properties = {
      custom_template: {
        id: "t1",
        parentElement: "#main",
        html: "<div class='popup'>Sign up</div>",
        properties: {
          settings: {
            config_selected: "at_exit",
            delay: 30,
            visibility_selected: "",
            close_settings: { close_config_selected: "next_session", expiry: 0 },
          },
        },
      },
    };
    const redirect = meta(
      ".price",
      {
        global_actions: {
          redirection: { url: "https://elsewhere.example/" },
          css: ".price{font-weight:700}",
        },
      },
      { id: "away" },
    );
    const r = await ask(d, { type: "preview", configs: [template, redirect] }, "preview-applied");
    expect(r).toMatchObject({ skipped: ["cfg_away"] });
    expect(r.applied.sort()).toEqual(["cfg_away", "cfg_tpl"]);
    expect(await shown(d.shop)).toMatchObject({ template: "Sign up", url: original.url });
    expect(
      await d.shop.evaluate(() => getComputedStyle(document.querySelector(".price")!).fontWeight),
    ).toBe("700");

    await ask(d, { type: "clear-preview" }, "preview-cleared");
    expect(await shown(d.shop)).toEqual(original);
  });

  it("teardown reverts the preview, removes the highlight and stops listening", async () => {
    const d = await editor();
    await waitFor(d, "ready");
    await ask(
      d,
      { type: "preview", configs: [title("Temp", "rgb(255, 0, 0)")] },
      "preview-applied",
    );
    await ask(d, { type: "select-path", path: "h1" }, "selected");
    expect(await overlayInFrame(d.shop)).toBe(true);
    await d.send({ type: "teardown" });
    await eventually(
      () =>
        d.shop.evaluate(() => !(window as unknown as { storefitEditor?: unknown }).storefitEditor),
      15_000,
      "the bridge to stop",
    );
    expect(await overlayInFrame(d.shop)).toBe(false);
    expect((await shown(d.shop)).title).toBe("Baby balm");
    const count = (await d.received()).length;
    await d.send({ type: "hello", id: "after" });
    await settle();
    expect((await d.received()).length).toBe(count);
  });
});

describe("origins", () => {
  /** True when nothing of the bridge's reached the page `d` (after a settle). */
  const silent = async (d: Dashboard) => {
    await settle();
    return (await d.received()).length === 0;
  };

  it("a dashboard on a foreign origin cannot drive the bridge", async () => {
    // The frame names api_host's origin (the one the bridge trusts), but its parent is elsewhere.
    const d = await editor({ origin: foreign() });
    await eventually(
      () =>
        d.shop.evaluate(() => !!(window as unknown as { storefitEditor?: unknown }).storefitEditor),
      15_000,
      "the bridge",
    );
    await d.send({ type: "select-path", path: "h1" });
    await d.send({ type: "preview", configs: [el("h1", { innerHTML: "Pwned" })] });
    await settle();
    expect(await overlayInFrame(d.shop)).toBe(false);
    expect(await d.shop.evaluate(() => document.querySelector("h1")!.textContent)).toBe(
      "Baby balm",
    );
  });

  it("the bridge posts to the dashboard origin only: a foreign parent receives nothing", async () => {
    const d = await editor({ origin: foreign() });
    await eventually(
      () =>
        d.shop.evaluate(() => !!(window as unknown as { storefitEditor?: unknown }).storefitEditor),
      15_000,
      "the bridge",
    );
    // The bridge is running — the pointer highlights and a click selects — and it posts ready,
    // hover and selected; none of it may reach a parent on another origin.
    const at = await centre(d.shop, "h1");
    await d.page.mouse.move(at.x, at.y);
    await d.page.mouse.click(at.x, at.y);
    await eventually(() => overlayInFrame(d.shop), 15_000, "the highlight");
    expect(await silent(d)).toBe(true);
  });

  it("a frame whose parameter names an origin other than api_host's gets no bridge", async () => {
    const d = await editor({ origin: foreign(), param: foreign() });
    await eventually(
      () => d.shop.evaluate(() => !document.getElementById("storefit-hide")),
      15_000,
      "the reveal",
    );
    await d.send({ type: "hello", id: "x" });
    const at = await centre(d.shop, "h1");
    await d.page.mouse.click(at.x, at.y);
    expect(await silent(d)).toBe(true);
    expect(await overlayInFrame(d.shop)).toBe(false);
    expect(await d.shop.evaluate(() => "storefitEditor" in window)).toBe(false);
    expect(apiCalls(d)).toEqual([]);
  });

  it("a foreign frame next to the dashboard's is ignored; the dashboard is obeyed", async () => {
    const d = await editor({ sibling: true });
    await waitFor(d, "ready");
    const attack = (m: Record<string, unknown>) =>
      d.sibling!.evaluate(
        (m) => (window as unknown as { attack: (m: unknown) => void }).attack(m),
        { source: "storefit-dashboard", v: 1, ...m },
      );
    await attack({ type: "select-path", path: "h1", id: "evil1" });
    await attack({
      type: "preview",
      configs: [el("h1", { innerHTML: "Pwned" }, { id: "evil" })],
      id: "evil2",
    });
    // The dashboard's own message, sent after: once it is answered, the foreign ones were handled.
    expect(
      (await ask(d, { type: "select-path", path: ".price" }, "selected")).selection,
    ).toMatchObject({ path: ".price" });
    const got: Received[] = await d.received();
    expect(
      got.filter(
        (m) => m.data.re === "evil1" || m.data.re === "evil2" || m.data.type === "preview-applied",
      ),
    ).toEqual([]);
    expect(got.filter((m) => m.data.type === "selected")).toHaveLength(1);
    expect(await d.shop.evaluate(() => document.querySelector("h1")!.textContent)).toBe(
      "Baby balm",
    );
  });

  it("a second frame on the dashboard's own origin, not the parent, cannot drive the bridge", async () => {
    const d = await editor();
    await waitFor(d, "ready");
    // Same origin as the dashboard (the trusted one): only `event.source` tells it apart.
    api.set(
      "/editor-twin",
      `<!doctype html><script>window.attack = (m) => parent[0].postMessage(m, "*");</script>`,
    );
    await d.page.evaluate((src) => {
      const f = document.createElement("iframe");
      f.name = "twin";
      f.src = src;
      document.body.append(f);
    }, `${apiOrigin()}/editor-twin`);
    const twin = await eventually(
      async () => {
        const f = d.page.frame({ name: "twin" });
        return f && (await f.evaluate(() => "attack" in window).catch(() => false)) ? f : undefined;
      },
      15_000,
      "the twin frame",
    );
    expect(new URL(twin.url()).origin).toBe(new URL(d.page.url()).origin);
    const attack = (m: Record<string, unknown>) =>
      twin.evaluate((m) => (window as unknown as { attack: (m: unknown) => void }).attack(m), {
        source: "storefit-dashboard",
        v: 1,
        ...m,
      });
    await attack({ type: "select-path", path: "h1", id: "twin1" });
    await attack({
      type: "preview",
      configs: [el("h1", { innerHTML: "Pwned" }, { id: "twin" })],
      id: "twin2",
    });
    await attack({ type: "hello", v: 2, id: "twin3" });
    // The dashboard's own message, sent after: once it is answered, the twin's were handled.
    expect(
      (await ask(d, { type: "select-path", path: ".price" }, "selected")).selection,
    ).toMatchObject({ path: ".price" });
    const got: Received[] = await d.received();
    expect(
      got.filter((m) => String(m.data.re).startsWith("twin") || m.data.type === "preview-applied"),
    ).toEqual([]);
    expect(got.filter((m) => m.data.type === "selected")).toHaveLength(1);
    expect(await d.shop.evaluate(() => document.querySelector("h1")!.textContent)).toBe(
      "Baby balm",
    );
  });

  it("at top level, with a valid parameter, the bridge's file loads but the bridge does not start", async () => {
    const path = shopPage();
    const page = await (await visitor()).newPage();
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    const loaded = page.waitForEvent(
      "requestfinished",
      (r) => r.url() === `${apiOrigin()}/sdk/storefit-editor.js`,
    );
    await page.goto(`${h.fake.shopUrl(path)}?${EDIT}=${encodeURIComponent(apiOrigin())}`);
    await loaded;
    await page.waitForLoadState("load");
    await settle();
    expect(await page.evaluate(() => "storefitEditor" in window)).toBe(false);
    expect(await page.evaluate(() => !!document.querySelector("storefit-editor-overlay"))).toBe(
      false,
    );
    // Still edit mode: no config call.
    expect(requested.filter((u) => new URL(u).pathname.startsWith("/v1/"))).toEqual([]);
    expect(
      await page.evaluate(() => (window as unknown as { __errors: string[] }).__errors),
    ).toEqual([]);
  });

  it("a shopper's page (no parameter, no editor frame) never requests storefit-editor.js", async () => {
    const path = shopPage();
    const page = await (await visitor()).newPage();
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    await page.goto(h.fake.shopUrl(path));
    // The script ran as on the shop: it made its config call and showed the page.
    await eventually(
      () => requested.some((u) => u.includes("/v1/users/configs/")) || undefined,
      15_000,
      "the config call",
    );
    await page.waitForLoadState("load");
    await eventually(
      () => page.evaluate(() => !document.getElementById("storefit-hide")),
      15_000,
      "the reveal",
    );
    await settle();
    expect(requested.filter((u) => u.includes("storefit-editor"))).toEqual([]);
    expect(await page.evaluate(() => "storefitEditor" in window)).toBe(false);
  });

  it("without the parameter, a frame named storefit-editor trusts api_host's origin; an unnamed one gets no bridge", async () => {
    const named = await editor({ param: null });
    expect((await waitFor(named, "ready")).url).not.toContain(EDIT);
    expect(
      (await ask(named, { type: "select-path", path: "h1" }, "selected")).selection,
    ).toMatchObject({ tagName: "h1" });

    const unnamed = await editor({ param: null, frameName: "shop" });
    // Not edit mode at all: the script runs as on the shop (the config call is made).
    await eventually(
      () => apiCalls(unnamed).some((u) => u.includes("/v1/users/configs/")) || undefined,
      15_000,
      "the config call",
    );
    expect(await unnamed.shop.evaluate(() => "storefitEditor" in window)).toBe(false);
    expect(await silent(unnamed)).toBe(true);
  });

  it("the old flag value (utm_customfit_edit=1) is edit mode without a bridge", async () => {
    const d = await editor({ param: "1", frameName: "shop" });
    await eventually(
      () => d.shop.evaluate(() => !document.getElementById("storefit-hide")),
      15_000,
      "the reveal",
    );
    expect(await silent(d)).toBe(true);
    expect(await d.shop.evaluate(() => "storefitEditor" in window)).toBe(false);
    expect(apiCalls(d)).toEqual([]);
  });
});
