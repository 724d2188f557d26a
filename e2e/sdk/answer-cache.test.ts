// The repeat-view answer cache (docs/api.md "Answer cache", issue #19): a visitor's repeat view of
// a page is revealed with the answer kept from their last view, before the config call completes,
// while the snippet names the revision the answer was decided at and the attributes it depends on
// are unchanged; the call then runs behind the reveal and a different answer replaces the kept one.

import { describe, expect, it } from "vitest";
import type { Config, ConfigsResponse } from "@storefit/contract";
import { storagePrefix } from "../../packages/sdk/src/core/settings.js";
import { newVisitor } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";
import type { Opened } from "./sdk-harness.js";
import type { Captured, FixturePage } from "../fake-provider.js";
import { el } from "./fixtures/configs.js";
import { firstShown, framesOf, recordFrames, revealed } from "./frames.js";

const h = useSdkHarness();

const BODY = `<h1>Soap</h1><span id="price">$10.00</span>`;

const price = (variation: string): Config => ({
  config_customer_id: "price",
  config_id: "cfg_price",
  variation_id: `var_${variation}`,
  variation: { innerHTML: variation },
  variation_data_type: "HTML_ELEMENT",
  properties: { element_path: "#price" },
  experience_behaviour_response: { experience_id: "exp_1", behaviour_id: "beh_1", rule_id: "rule_1" },
});

const answerOf = (variation: string | null, cache: ConfigsResponse["cache"] | null): ConfigsResponse => ({
  configs: variation ? { price: price(variation) } : {},
  user_id: "u_cache",
  ...(cache ? { cache } : {}),
});

/** The reveal, and the price the first frame that showed it showed. */
async function reveal(o: Opened) {
  const { text, ...at } = await firstShown(o.page);
  return { ...at, price: text };
}
const watchReveal = (o: Opened) => recordFrames(o.context, { target: "price", first: "top" });

const configCalls = () => h.fake.to("/v1/users/configs/");
const summaries = () => h.fake.to("/v1/config/request/summary/").flatMap((r: Captured) => r.body.summaries as { variation_id: string }[]);

/** A first view that keeps an answer, then the same visitor's repeat view, with `second` answering the call. */
async function twoViews(
  path: string,
  opts: { first: ConfigsResponse; second: ConfigsResponse; secondDelayMs: number; secondRevision?: number; between?: (o: Opened) => Promise<void>; page?: FixturePage },
) {
  let calls = 0;
  h.fake.answer("/v1/users/configs/", () => (++calls === 1 ? { json: opts.first } : { json: opts.second, delayMs: opts.secondDelayMs }));
  const fixture = opts.page ?? { body: BODY };
  const o = await h.open(path, { ...fixture, settings: { revision: 3 } });
  await o.page.waitForFunction(() => (window as unknown as { __sf: { type: string }[] }).__sf.some((e) => e.type === "storefit:revealed"));
  // The answer is kept after the reveal; let the first view finish.
  await o.page.waitForTimeout(300);
  if (opts.between) await opts.between(o);
  await watchReveal(o);
  if (opts.secondRevision !== undefined) h.fake.page(path, { ...fixture, settings: { revision: opts.secondRevision } });
  await o.page.goto(h.fake.shopUrl(path), { waitUntil: "commit" });
  await revealed(o.page);
  return o;
}

describe("repeat views from the kept answer", () => {
  it("reveals a repeat view with the kept answer before the config call completes, and sends its exposure once", async () => {
    const o = await twoViews("/kept", { first: answerOf("A", { revision: 3, attributes: [] }), second: answerOf("A", { revision: 3, attributes: [] }), secondDelayMs: 2000 });
    const r = (await reveal(o))!;
    expect(r).toMatchObject({ calls: 0, price: "A" });
    const ready = (await o.events()).find((e) => e.type === "storefit:ready")!;
    expect(ready.detail).toMatchObject({ cached: true });
    // The call still runs, behind the reveal, and its (same) answer changes nothing.
    await o.page.waitForFunction(() => performance.getEntriesByType("resource").some((e) => e.name.includes("/v1/users/configs/")), null, { timeout: 15_000 });
    expect(configCalls()).toHaveLength(2);
    expect(await o.page.textContent("#price")).toBe("A");
    await h.fake.quiet(300, 3000);
    // One exposure per page view: the first view's and the repeat view's.
    expect(summaries().map((s) => s.variation_id)).toEqual(["var_A", "var_A"]);
    expect(o.errors).toEqual([]);
  });

  it("shows a repeat view as it streams in, the kept change's element hidden until the page is parsed and changed", async () => {
    // The header now; the price 400 ms later, with more after it; the end 400 ms after that.
    const page: FixturePage = {
      body: `<header id="top">Little Sprouts</header>`,
      parts: [
        { html: `<h1>Soap</h1><span id="price">$10.00</span><p>Made by hand.</p>`, afterMs: 400 },
        { html: `<footer>Thanks</footer>`, afterMs: 400 },
      ],
    };
    const kept = answerOf("A", { revision: 3, attributes: [] });
    const o = await twoViews("/streamed", { first: kept, second: kept, secondDelayMs: 2000, page });
    expect(await reveal(o)).toMatchObject({ calls: 0, price: "A" });
    const seen = await framesOf(o.page);
    // Shown before the price arrived: the visitor sees the header while the rest streams in.
    expect(seen.some((f) => f.shown && f.first && f.text === null)).toBe(true);
    // The price arrives while the page is shown, hidden by its own rule until it is changed.
    expect(seen.some((f) => f.shown && f.loading && f.text === "$10.00" && !f.visible)).toBe(true);
    // And the original price is never shown.
    expect(seen.filter((f) => f.shown && f.visible && f.text !== "A")).toEqual([]);
    expect(o.errors).toEqual([]);
  });

  it("changes a streamed page once it is parsed: a split element, a :last-child selector, a move, several matches and a page script that rewrote the price all end as on a parsed page", async () => {
    const answer: ConfigsResponse = {
      configs: {
        // The price's element is split across two parts: changed before the rest of its text arrives,
        // the parser would append "00" to the new content.
        price: el("#price", { innerHTML: "A" }, { id: "price" }),
        // While the list streams, its first item is its last child for a moment.
        last: el("#list > li:last-child", { innerHTML: "last" }, { id: "last" }),
        // A move's destination comes later in the page.
        move: el("#badge", { customfit_meta: { move_action: { target: "#buy", position: "above" } } }, { id: "move" }),
        // Matches in two parts of the page.
        each: el(".each", { innerHTML: "E" }, { id: "each" }),
      },
      user_id: "u_cache",
      cache: { revision: 3, attributes: [] },
    };
    const page: FixturePage = {
      body: `<header id="top">Little Sprouts</header><span id="badge">New</span><ul id="list"><li>one</li>\n`,
      parts: [
        { html: `<li>two</li></ul><span id="price">$10.`, afterMs: 300 },
        // The page's own script rewrites the price while the page is parsed.
        { html: `00</span><span class="each">x</span><p>Made by hand.</p><script>document.getElementById("price").textContent += "!"</script>`, afterMs: 300 },
        { html: `<div><span class="each">y</span></div><button id="buy">Buy</button><footer>Thanks</footer>`, afterMs: 300 },
      ],
    };
    const o = await twoViews("/streamed-safe", { first: answer, second: answer, secondDelayMs: 2000, page });
    expect(await reveal(o)).toMatchObject({ calls: 0, price: "A" });
    expect((await framesOf(o.page)).filter((f) => f.shown && f.visible && f.text !== "A")).toEqual([]);
    const state = await o.page.evaluate(() => ({
      price: document.getElementById("price")!.textContent,
      items: Array.from(document.querySelectorAll("#list > li"), (li) => li.textContent),
      beforeBuy: document.getElementById("buy")!.previousElementSibling?.id,
      each: Array.from(document.querySelectorAll(".each"), (e) => e.textContent),
    }));
    expect(state).toEqual({ price: "A", items: ["one", "last"], beforeBuy: "badge", each: ["E", "E"] });
    expect(o.errors).toEqual([]);
  });

  it("never shows a kept answer of another revision: the repeat view waits for the call", async () => {
    const o = await twoViews("/revision", { first: answerOf("A", { revision: 3, attributes: [] }), second: answerOf("B", { revision: 4, attributes: [] }), secondDelayMs: 600, secondRevision: 4 });
    const r = (await reveal(o))!;
    expect(r).toMatchObject({ calls: 1, price: "B" });
    expect(summaries().map((s) => s.variation_id)).toEqual(["var_A", "var_B"]);
  });

  it("waits for the call when an attribute the answer depends on changed since it was kept", async () => {
    const o = await twoViews("/attribute", {
      first: answerOf("A", { revision: 3, attributes: ["plan"] }),
      second: answerOf("B", { revision: 3, attributes: ["plan"] }),
      secondDelayMs: 600,
      between: (o) => o.page.evaluate(() => void window.storefit!.setUserProperty("plan", "gold")),
    });
    expect(await reveal(o)).toMatchObject({ calls: 1, price: "B" });
  });

  it("keeps nothing when the answer is not marked cacheable", async () => {
    const o = await twoViews("/uncached", { first: answerOf("A", null), second: answerOf("B", null), secondDelayMs: 600 });
    expect(await reveal(o)).toMatchObject({ calls: 1, price: "B" });
  });

  it("replaces a kept answer that the call no longer gives, and reports only the new exposure", async () => {
    const o = await twoViews("/reconcile", { first: answerOf("A", { revision: 3, attributes: [] }), second: answerOf("B", { revision: 3, attributes: [] }), secondDelayMs: 500 });
    expect(await reveal(o)).toMatchObject({ calls: 0, price: "A" });
    await o.page.waitForFunction(() => document.getElementById("price")?.textContent === "B", null, { timeout: 15_000 });
    await h.fake.quiet(300, 3000);
    expect(summaries().map((s) => s.variation_id)).toEqual(["var_A", "var_A", "var_B"]);
    // B was shown after the kept A: stamped later than the view's start, so the first exposure stays the one seen first.
    const [, keptA, newB] = summaries() as unknown as { requested_time: number }[];
    expect(newB!.requested_time).toBeGreaterThan(keptA!.requested_time);
    expect(o.errors).toEqual([]);
  });

  it("reverts a kept change that the call no longer answers", async () => {
    const o = await twoViews("/gone", { first: answerOf("A", { revision: 3, attributes: [] }), second: answerOf(null, { revision: 3, attributes: [] }), secondDelayMs: 500 });
    expect(await reveal(o)).toMatchObject({ calls: 0, price: "A" });
    await o.page.waitForFunction(() => document.getElementById("price")?.textContent === "$10.00", null, { timeout: 15_000 });
  });

  it("keeps 20 pages: each under a key of its own, the oldest forgotten", async () => {
    h.fake.answer("/v1/users/configs/", () => ({ json: answerOf("A", { revision: 3, attributes: [] }) }));
    const key = storagePrefix(String(h.fake.defaultSettings().client_key)) + "ans";
    const context = await newVisitor(h.browser);
    h.contexts.push(context);
    // Twenty pages kept before this view, the oldest last.
    await context.addInitScript((k: string) => {
      if (localStorage.getItem(k)) return;
      const pages = Array.from({ length: 20 }, (_, i) => `someone shop.localhost/old/${i}`);
      localStorage.setItem(k, JSON.stringify(pages));
      for (const p of pages) localStorage.setItem(k + " " + p, "{}");
    }, key);
    h.fake.page("/kept-20", { body: BODY, settings: { revision: 3 } });
    const page = await context.newPage();
    await page.goto(h.fake.shopUrl("/kept-20"));
    await page.waitForFunction((k: string) => JSON.parse(localStorage.getItem(k) || "[]")[0]?.endsWith("/kept-20"), key, { timeout: 15_000 });
    const kept = await page.evaluate((k: string) => ({ pages: JSON.parse(localStorage.getItem(k)!) as string[], keys: Object.keys(localStorage).filter((x) => x.startsWith(k + " ")) }), key);
    expect(kept.pages).toHaveLength(20);
    expect(kept.pages).not.toContain("someone shop.localhost/old/19");
    expect(kept.keys).toHaveLength(20);
    expect(kept.keys).not.toContain(`${key} someone shop.localhost/old/19`);
    const mine = kept.pages[0]!;
    expect(JSON.parse((await page.evaluate((k: string) => localStorage.getItem(k), `${key} ${mine}`))!)).toMatchObject({ r: 3, a: [], c: [{ config_id: "cfg_price" }] });
  });

  it("asks before the reveal when the snippet names no revision (settings set by the page)", async () => {
    let calls = 0;
    h.fake.answer("/v1/users/configs/", () => (++calls === 1 ? { json: answerOf("A", { revision: 3, attributes: [] }) } : { json: answerOf("B", { revision: 3, attributes: [] }), delayMs: 600 }));
    const o = await h.open("/no-revision", { body: BODY });
    await o.page.waitForTimeout(300);
    await watchReveal(o);
    await o.page.goto(h.fake.shopUrl("/no-revision"), { waitUntil: "commit" });
    await revealed(o.page);
    expect(await reveal(o)).toMatchObject({ calls: 1, price: "B" });
  });
});
