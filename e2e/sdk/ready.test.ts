// `storefit.ready(callback)` (product.md §2: "runs once configs are applied (or given up on)"):
// when the provider never answers, or answers after sdk_timeout_ms, the callbacks run when the page
// is revealed at the time-out, once; a late answer is still applied afterwards
// (personalize_after_timeout) and announced by storefit:applied, without a second ready.

import { describe, expect, it } from "vitest";
import type { Config, ConfigsResponse } from "@storefit/contract";
import type { Page } from "playwright-core";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";
import type { RecordedEvent } from "./sdk-harness.js";

const h = useSdkHarness();

const BODY = `<h1>Soap</h1><span id="price">$10.00</span>`;
const TIMEOUT_MS = 400;

const price: Config = {
  config_customer_id: "price",
  config_id: "cfg_price",
  variation_id: "var_price",
  variation: { innerHTML: "late" },
  variation_data_type: "HTML_ELEMENT",
  properties: { element_path: "#price" },
  experience_behaviour_response: { experience_id: "exp_1", behaviour_id: "beh_1", rule_id: "rule_1" },
};
const answer: ConfigsResponse = { configs: { price }, user_id: "u_late" };

// Registered through the queue right after the script ran, long before any answer: each call
// records when it ran, whether the page was shown then, and what the price said.
const REGISTER_READY = `<script>
  window.readyCalls = [];
  (window.storefitQueue = window.storefitQueue || []).push(function (sf) {
    sf.ready(function () {
      window.readyCalls.push({
        at: performance.now(),
        visible: getComputedStyle(document.documentElement).visibility === "visible",
        price: document.getElementById("price") ? document.getElementById("price").textContent : "not parsed",
      });
    });
  });
</script>`;

type ReadyCall = { at: number; visible: boolean; price: string };
const readyCalls = (o: { page: Page }) => o.page.evaluate(() => (window as unknown as { readyCalls: ReadyCall[] }).readyCalls);
const readyEvents = (events: RecordedEvent[]) => events.filter((e) => e.type === "storefit:ready");

describe("storefit.ready(callback) when configs are given up on", () => {
  it("runs at sdk_timeout_ms, with the page revealed, when the provider never answers", async () => {
    // Never answers within the test: the request stays open.
    h.fake.answer("/v1/users/configs/", () => ({ delayMs: 30_000, json: answer }));
    const o = await h.open("/never", { body: BODY, settings: { sdk_timeout_ms: TIMEOUT_MS }, head: REGISTER_READY }, { waitUntil: "commit" });
    await o.page.waitForFunction(() => (window as unknown as { readyCalls?: unknown[] }).readyCalls?.length === 1, null, { timeout: 15_000 });
    const [call] = await readyCalls(o);
    expect(call!.visible).toBe(true);
    expect(call!.price).toBe("$10.00");
    expect(call!.at).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    // The config call was made and is still unanswered.
    expect(h.fake.to("/v1/users/configs/")).toHaveLength(1);
    const events = await o.events();
    expect(readyEvents(events).map((e) => e.detail)).toEqual([{ state: "timed_out", timed_out: true }]);
    // ready fired with the reveal, not before it.
    const revealed = events.find((e) => e.type === "storefit:revealed")!;
    expect(readyEvents(events)[0]!.at).toBeGreaterThanOrEqual(revealed.at);
    // A callback registered afterwards runs at once.
    expect(await o.page.evaluate(() => new Promise<boolean>((resolve) => { window.storefit!.ready(() => resolve(true)); setTimeout(() => resolve(false), 1000); }))).toBe(true);
    expect(o.errors).toEqual([]);
  });

  it("runs at the time-out when the answer is late; the late configs still apply after, and ready does not run again", async () => {
    h.fake.answer("/v1/users/configs/", () => ({ delayMs: 1500, json: answer }));
    const o = await h.open("/late", { body: BODY, settings: { sdk_timeout_ms: TIMEOUT_MS }, head: REGISTER_READY }, { waitUntil: "commit" });
    await o.page.waitForFunction(() => document.getElementById("price")?.textContent === "late", null, { timeout: 15_000 });
    const calls = await readyCalls(o);
    expect(calls).toHaveLength(1);
    // It ran before the answer: the price still said the page's own text, and the page showed.
    expect(calls[0]).toMatchObject({ visible: true, price: "$10.00" });
    const events = await o.events();
    expect(readyEvents(events).map((e) => e.detail)).toEqual([{ state: "timed_out", timed_out: true }]);
    const applied = await eventually(async () => (await o.events()).find((e) => e.type === "storefit:applied"), 5000, "storefit:applied");
    expect(applied.detail).toEqual(["cfg_price"]);
    expect(applied.at).toBeGreaterThan(readyEvents(events)[0]!.at);
    // The late page still reports its exposure.
    const summary = await eventually(() => h.fake.to("/v1/config/request/summary/")[0], 5000, "the summary");
    expect(summary.body.summaries[0]).toMatchObject({ config_id: "cfg_price", variation_id: "var_price" });
    expect(await readyCalls(o)).toHaveLength(1);
    expect(o.errors).toEqual([]);
  });

  it("runs once, after the apply, when the answer comes in time", async () => {
    h.fake.configs(answer);
    const o = await h.open("/in-time", { body: BODY, settings: { sdk_timeout_ms: 5000 }, head: REGISTER_READY });
    await o.page.waitForFunction(() => (window as unknown as { readyCalls?: unknown[] }).readyCalls?.length === 1, null, { timeout: 15_000 });
    expect((await readyCalls(o))[0]).toMatchObject({ visible: true, price: "late" });
    expect(readyEvents(await o.events()).map((e) => e.detail)).toEqual([{ state: "received", timed_out: false, applied: ["cfg_price"] }]);
  });
});
