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
import type { Captured } from "../fake-provider.js";

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

type Reveal = { at: number; calls: number; price: string | null };

/** Records, at the reveal, how many config calls had completed and what the price said. */
async function watchReveal(o: Opened): Promise<void> {
  await o.context.addInitScript(() => {
    document.addEventListener("storefit:revealed", () => {
      (window as unknown as { __reveal: Reveal }).__reveal = {
        at: performance.now(),
        calls: performance.getEntriesByType("resource").filter((e) => e.name.includes("/v1/users/configs/")).length,
        price: document.getElementById("price")?.textContent ?? null,
      };
    });
  });
}

const reveal = (o: Opened) => o.page.evaluate(() => (window as unknown as { __reveal?: Reveal }).__reveal ?? null);
const configCalls = () => h.fake.to("/v1/users/configs/");
const summaries = () => h.fake.to("/v1/config/request/summary/").flatMap((r: Captured) => r.body.summaries as { variation_id: string }[]);

/** A first view that keeps an answer, then the same visitor's repeat view, with `second` answering the call. */
async function twoViews(path: string, opts: { first: ConfigsResponse; second: ConfigsResponse; secondDelayMs: number; secondRevision?: number; between?: (o: Opened) => Promise<void> }) {
  let calls = 0;
  h.fake.answer("/v1/users/configs/", () => (++calls === 1 ? { json: opts.first } : { json: opts.second, delayMs: opts.secondDelayMs }));
  const o = await h.open(path, { body: BODY, settings: { revision: 3 } });
  await o.page.waitForFunction(() => (window as unknown as { __sf: { type: string }[] }).__sf.some((e) => e.type === "storefit:revealed"));
  // The answer is kept after the reveal; let the first view finish.
  await o.page.waitForTimeout(300);
  if (opts.between) await opts.between(o);
  await watchReveal(o);
  if (opts.secondRevision !== undefined) h.fake.page(path, { body: BODY, settings: { revision: opts.secondRevision } });
  await o.page.goto(h.fake.shopUrl(path), { waitUntil: "commit" });
  await o.page.waitForFunction(() => !!(window as unknown as { __reveal?: unknown }).__reveal, null, { timeout: 15_000 });
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
    await o.page.waitForFunction(() => !!(window as unknown as { __reveal?: unknown }).__reveal, null, { timeout: 15_000 });
    expect(await reveal(o)).toMatchObject({ calls: 1, price: "B" });
  });
});
