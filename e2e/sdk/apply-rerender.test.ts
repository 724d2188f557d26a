// A framework that re-renders the target continuously (spec §4 Config replacement, §9 limits),
// through storefit.js: the change stays applied on every frame the visitor sees, our work is
// bounded (one apply per new element, never more than the page's own renders; at most three
// re-applies per element when the page rewrites its text), and the page stays responsive.

import { describe, expect, it } from "vitest";
import { TEXT_OBSERVER_MAX_REPLACEMENTS } from "@storefit/contract";
import { useSdkHarness } from "./sdk-harness.js";
import { answer, el } from "./fixtures/configs.js";

const h = useSdkHarness();

type Stats = { renders: number; ourApplies: number; frames: number; framesWrong: number; maxPerNode: number; maxGapMs: number };

/**
 * The fixture's "framework": every 16 ms it either replaces the element (`node`) or rewrites its
 * text (`text`). Before throwing a node away it reads our mark (data-storefit counts our applies
 * to that node). A requestAnimationFrame loop checks, just before each paint, whether the visitor
 * would see our text, and measures the longest gap between frames (a responsiveness probe).
 */
const framework = (mode: "node" | "text", seconds: number) => `<div id="app"><span id="price">$10.00</span></div><script>
  const s = (window.__stats = { renders: 0, ourApplies: 0, frames: 0, framesWrong: 0, maxPerNode: 0, maxGapMs: 0 });
  const app = document.getElementById("app");
  const count = (n) => { const c = Number(n.getAttribute("data-storefit")) || 0; s.ourApplies += c; s.maxPerNode = Math.max(s.maxPerNode, c); };
  document.addEventListener("storefit:applied", () => {
    const end = performance.now() + ${seconds * 1000};
    const t = setInterval(() => {
      if (performance.now() > end) { clearInterval(t); count(app.firstElementChild); s.done = true; return; }
      s.renders++;
      if (${JSON.stringify(mode)} === "node") { count(app.firstElementChild); app.innerHTML = '<span id="price">$10.00</span>'; }
      else app.firstElementChild.firstChild.data = "$10.00";
    }, 16);
    let last = performance.now();
    const frame = (now) => {
      if (s.done) return;
      s.frames++;
      s.maxGapMs = Math.max(s.maxGapMs, now - last);
      last = now;
      if (app.firstElementChild.textContent !== "$8.00") s.framesWrong++;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
</script>`;

const run = async (mode: "node" | "text", retain: boolean) => {
  h.fake.configs(answer(el("#price", { innerHTML: "$8.00", cf_retain_value: retain }, { id: "price" })));
  const o = await h.open("/p", { body: framework(mode, 2) });
  await o.page.waitForFunction(() => (window as unknown as { __stats: { done?: boolean } }).__stats.done, null, { timeout: 20_000 });
  // The page answers at once: nothing of ours keeps its main thread busy.
  const t0 = Date.now();
  await o.page.evaluate(() => 1);
  const roundTripMs = Date.now() - t0;
  const stats = await o.page.evaluate(() => (window as unknown as { __stats: Stats }).__stats);
  return { o, stats, roundTripMs };
};

describe("a continuously re-rendering framework", () => {
  it("replacing the element every 16 ms: the change is on every frame, one apply per new element, bounded by the page's renders", async () => {
    const { o, stats, roundTripMs } = await run("node", false);
    expect(stats.renders).toBeGreaterThan(20);
    expect(stats.frames).toBeGreaterThan(10);
    expect(stats.framesWrong).toBe(0);
    expect(stats.maxPerNode).toBe(1);
    // The first element plus one per render, never more.
    expect(stats.ourApplies).toBeLessThanOrEqual(stats.renders + 1);
    expect(stats.ourApplies).toBeGreaterThanOrEqual(stats.renders);
    expect(roundTripMs).toBeLessThan(1000);
    expect(o.errors).toEqual([]);
  });

  it(`rewriting the text every 16 ms with cf_retain_value: at most ${TEXT_OBSERVER_MAX_REPLACEMENTS} re-applies, then the page's text stays`, async () => {
    const { o, stats, roundTripMs } = await run("text", true);
    expect(stats.renders).toBeGreaterThan(20);
    // First apply plus the re-applies of spec §9.
    expect(stats.ourApplies).toBe(1 + TEXT_OBSERVER_MAX_REPLACEMENTS);
    expect(await o.page.locator("#price").innerText()).toBe("$10.00");
    expect(roundTripMs).toBeLessThan(1000);
    expect(o.errors).toEqual([]);
  });

  it("rewriting the text every 16 ms without cf_retain_value: the page's update wins at once, no re-apply", async () => {
    const { o, stats } = await run("text", false);
    expect(stats.ourApplies).toBe(1);
    expect(await o.page.locator("#price").innerText()).toBe("$10.00");
  });
});
