// The reveal's task ends with the reveal (issue #19, docs/benchmarks.md "How long the page stays
// hidden"): the config summaries, the page view and the rest of the initialization wait for the
// revealed page's first frame, so their work (about 10 ms of a first view's main thread) never
// holds back the paint the visitor is waiting for. A redirect still reports before it leaves
// (e2e/sdk/redirect-report.test.ts), and a page left before that frame reports as it goes.

import { describe, expect, it } from "vitest";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";
import { el } from "./fixtures/configs.js";

const h = useSdkHarness();

const price = el("#price", { innerHTML: "$8.00" }, { id: "price" });

// Records, in the page, when the reveal happened, when the next animation frame after it ran, and
// when each request to the service was started.
const RECORD = `<script>
  window.__paint = { fetches: [] };
  document.addEventListener("storefit:revealed", function () {
    window.__paint.revealed = performance.now();
    requestAnimationFrame(function () { window.__paint.frame = performance.now(); });
  });
  var realFetch = window.fetch;
  window.fetch = function (url) {
    window.__paint.fetches.push({ url: String(url), at: performance.now() });
    return realFetch.apply(this, arguments);
  };
</script>`;

type Recorded = { revealed?: number; frame?: number; fetches: { url: string; at: number }[] };

describe("after the reveal", () => {
  it("the summaries and the page view are sent after the revealed page's first frame, not in the reveal's task", async () => {
    h.fake.configs({ configs: { price }, user_id: "u_paint" });
    const o = await h.open("/products/soap", { body: `<span id="price">$10.00</span>`, head: RECORD });
    await eventually(() => h.fake.to("/v1/config/request/summary/")[0], 5000, "the config summaries");
    await eventually(() => h.fake.to("/v1/cfe/")[0], 5000, "the page view");
    const rec = await o.page.evaluate(() => (window as unknown as { __paint: Recorded }).__paint);
    expect(rec.revealed).toBeGreaterThan(0);
    expect(rec.frame).toBeGreaterThan(rec.revealed!);
    const at = (path: string) => rec.fetches.find((f) => f.url.includes(path))!.at;
    // Without the wait both went out synchronously right after the reveal, before any frame.
    expect(at("/v1/config/request/summary/")).toBeGreaterThanOrEqual(rec.frame!);
    expect(at("/v1/cfe/")).toBeGreaterThanOrEqual(rec.frame!);
    expect(await o.page.locator("#price").innerText()).toBe("$8.00");
    expect(o.errors).toEqual([]);
  });

  it("a page left before its first frame still sends its summaries and page view, as it goes", async () => {
    h.fake.configs({ configs: { price }, user_id: "u_paint" });
    // The page is left right after the reveal, before any frame: pagehide comes in the reveal's task.
    const leave = `<script>document.addEventListener("storefit:revealed", function () {
      queueMicrotask(function () { window.dispatchEvent(new PageTransitionEvent("pagehide")); });
    });</script>`;
    const o = await h.open("/products/soap", { body: `<span id="price">$10.00</span>`, head: RECORD + leave });
    await eventually(() => h.fake.to("/v1/config/request/summary/")[0], 5000, "the config summaries");
    await eventually(() => h.fake.to("/v1/cfe/").find((r) => r.body.events.some((e: { event_type: string }) => e.event_type === "PAGE")), 5000, "the page view");
    const rec = await o.page.evaluate(() => (window as unknown as { __paint: Recorded }).__paint);
    const at = (path: string) => rec.fetches.find((f) => f.url.includes(path))!.at;
    // Sent at the pagehide, before the frame the report otherwise waits for.
    expect(at("/v1/config/request/summary/")).toBeLessThan(rec.frame!);
    expect(o.errors).toEqual([]);
  });
});
