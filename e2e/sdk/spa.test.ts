// Single-page mode (spec §2, §4): a path change through history re-initializes once and leaks
// nothing; a query-only change does nothing; back/forward counts as a change.

import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";

const h = useSdkHarness();

/** Counts our listeners on window/document and our pending timers, from before the script runs. */
function instrument() {
  const w = window as unknown as { __live: () => { listeners: number; intervals: number; timeouts: number } };
  const listeners = new Map<EventTarget, Map<string, Set<unknown>>>();
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, fn: unknown, o?: unknown) {
    if (this === window || this === document) {
      if (!listeners.has(this)) listeners.set(this, new Map());
      const byType = listeners.get(this)!;
      if (!byType.has(type)) byType.set(type, new Set());
      byType.get(type)!.add(fn);
    }
    return add.call(this, type, fn as EventListener, o as AddEventListenerOptions);
  };
  EventTarget.prototype.removeEventListener = function (this: EventTarget, type: string, fn: unknown, o?: unknown) {
    listeners.get(this)?.get(type)?.delete(fn);
    return remove.call(this, type, fn as EventListener, o as EventListenerOptions);
  };
  const intervals = new Set<number>();
  const timeouts = new Set<number>();
  const [si, ci, st, ct] = [window.setInterval, window.clearInterval, window.setTimeout, window.clearTimeout];
  window.setInterval = ((fn: () => void, ms?: number) => {
    const id = si(fn, ms);
    intervals.add(id);
    return id;
  }) as typeof setInterval;
  window.clearInterval = ((id: number) => (intervals.delete(id), ci(id))) as typeof clearInterval;
  window.setTimeout = ((fn: () => void, ms?: number) => {
    const id: number = st(() => {
      timeouts.delete(id);
      fn();
    }, ms);
    timeouts.add(id);
    return id;
  }) as typeof setTimeout;
  window.clearTimeout = ((id: number) => (timeouts.delete(id), ct(id))) as typeof clearTimeout;
  w.__live = () => ({
    listeners: [...listeners.values()].reduce((n, m) => n + [...m.values()].reduce((k, s) => k + s.size, 0), 0),
    intervals: intervals.size,
    timeouts: timeouts.size,
  });
}

const live = (page: Page) =>
  page.evaluate(() => (window as unknown as { __live: () => { listeners: number; intervals: number; timeouts: number } }).__live());

describe("single-page mode", () => {
  it("re-initializes once per path change, not on query-only changes, and leaks no listeners or timers", async () => {
    const o = await h.open("/app0", { body: `<div id="x">home</div>`, settings: { spa_mode: true } }, { waitUntil: "commit" });
    await o.page.addInitScript(instrument);
    // Navigation buttons: Chrome skips history entries pushed without a user gesture on "back",
    // so the test navigates with real clicks, as a visitor would.
    h.fake.page("/app", {
      body: `<div id="x">home</div><button id="nav" onclick="history.pushState({}, '', this.dataset.to)">go</button>`,
      settings: { spa_mode: true },
    });
    await o.page.goto(h.fake.shopUrl("/app"));
    await eventually(() => h.fake.to("/v1/cfe/").find((r) => r.body.events[0].properties.page_path === "/app"), 5000, "first PAGE");
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    const configCalls = () => h.fake.to("/v1/users/configs/").filter((r) => r.body.current_page_path.startsWith("/app"));
    const baseline = await live(o.page);
    const callsBefore = configCalls().length;

    for (let i = 1; i <= 4; i++) {
      await o.page.evaluate((n) => document.getElementById("nav")!.setAttribute("data-to", `/app/${n}`), i);
      await o.page.click("#nav");
      await eventually(() => h.fake.to("/v1/cfe/").find((r) => r.body.events[0].properties.page_path === `/app/${i}`), 5000, `PAGE for /app/${i}`);
      expect(configCalls().length).toBe(callsBefore + i);
    }
    // A query-only change and a hash change do nothing.
    await o.page.evaluate(() => history.replaceState({}, "", "/app/4?sort=price#top"));
    await o.page.evaluate(() => history.pushState({}, "", "/app/4/?sort=name"));
    await new Promise((r) => setTimeout(r, 500));
    expect(configCalls().length).toBe(callsBefore + 4);

    // Back to /app/3: a path change through popstate.
    await o.page.evaluate(() => history.go(-2));
    await o.page.waitForFunction(() => location.pathname === "/app/3");
    await eventually(() => configCalls().length === callsBefore + 5, 5000, "re-init after back");
    expect(configCalls().at(-1)!.body.current_page_path).toMatch(/^\/app\/\d/);

    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    // The page's reports and the extension (and its listeners) follow the reveal's first frame
    // and the extension's load: the counts settle back at the baseline, never above it.
    await expect.poll(async () => (await live(o.page)).listeners).toBe(baseline.listeners);
    const after = await live(o.page);
    expect(after.intervals).toBe(baseline.intervals);
    expect(after.timeouts).toBeLessThanOrEqual(baseline.timeouts);
    const seqs = h.fake.to("/v1/cfe/").flatMap((r) => r.body.events).filter((e: { event_type: string }) => e.event_type === "PAGE").map((e: { pageview_seq_number: number }) => e.pageview_seq_number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(o.errors).toEqual([]);
  });

  it("without single-page mode, history changes do nothing; storefit.uninit() stops everything", async () => {
    const o = await h.open("/plain", { body: `<div id="x">home</div>` });
    await eventually(() => h.fake.to("/v1/cfe/")[0], 5000, "PAGE");
    await o.page.evaluate(() => history.pushState({}, "", "/plain/2"));
    await new Promise((r) => setTimeout(r, 400));
    expect(h.fake.to("/v1/users/configs/")).toHaveLength(1);

    const s = await h.open("/spa", { body: `<div id="x">home</div>`, settings: { spa_mode: true } });
    await eventually(() => h.fake.to("/v1/users/configs/").length === 2, 5000, "second page's call");
    await s.page.evaluate(() => window.storefit!.uninit());
    await s.page.evaluate(() => history.pushState({}, "", "/spa/2"));
    await new Promise((r) => setTimeout(r, 400));
    expect(h.fake.to("/v1/users/configs/")).toHaveLength(2);
    // init() starts again by hand.
    await s.page.evaluate(() => window.storefit!.init());
    await eventually(() => h.fake.to("/v1/users/configs/").length === 3, 5000, "call after init()");
  });
});
