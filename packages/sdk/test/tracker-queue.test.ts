// The track queue (spec §7, §9): PAGE at once, other events in batches of the queue size, the
// rest flushed as a beacon when the page is hidden or left, or on single-page teardown.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Properties, User } from "@storefit/contract";
// Types only: the modules themselves are imported once the globals exist (beforeAll).
import type { createTracker as CreateTrackerFn } from "../src/track/tracker.js";
import type { createScope as CreateScopeFn } from "../src/core/scope.js";

type CreateTracker = typeof CreateTrackerFn;
type CreateScope = typeof CreateScopeFn;

type Sent = { path: string; body: { events: { event_type: string; event_customer_id: string; insert_id: string; properties: Record<string, unknown>; last_page_duration?: number }[] }; unload: boolean };
const sent: Sent[] = [];
vi.mock("../src/track/transport.js", () => ({
  post: (_ep: unknown, path: string, body: Sent["body"], unload = false) => {
    sent.push({ path, body, unload });
    return Promise.resolve({ ok: true, status: 200, data: null });
  },
}));

// The tracker reaches the browser through env/globals.ts: give it a window and a document.
const win = Object.assign(new EventTarget(), { crypto: globalThis.crypto });
const doc = Object.assign(new EventTarget(), { visibilityState: "visible" as string });

let createTracker: CreateTracker;
let createScope: CreateScope;

beforeAll(async () => {
  Object.assign(globalThis, { window: win, document: doc });
  ({ createTracker } = await import("../src/track/tracker.js"));
  ({ createScope } = await import("../src/core/scope.js"));
});
const scopes: { dispose: () => void }[] = [];
beforeEach(() => {
  // Trackers of earlier tests are torn down first, so their listeners do not answer here.
  for (const s of scopes.splice(0)) s.dispose();
  sent.length = 0;
  doc.visibilityState = "visible";
});

function tracker(over: Partial<Parameters<typeof createTracker>[0]> = {}) {
  const scope = createScope();
  const t = createTracker({
    ep: { apiHost: "https://api.example", clientKey: "ck" },
    user: { user_customer_id: "c1", anonymous: true },
    domain: "shop.example",
    sessionId: "s1",
    pagePath: "/p",
    mergedPath: null,
    lastPageDuration: null,
    queueSize: 5,
    scope,
    enabled: true,
    ...over,
  });
  scopes.push(scope);
  return { t, scope };
}
const events = () => sent.flatMap((s) => s.body.events);

describe("track queue", () => {
  it("sends PAGE at once and other events in batches of the queue size", () => {
    const { t } = tracker();
    t.track("PAGE", "page_view");
    expect(sent).toHaveLength(1);
    for (let i = 1; i <= 6; i++) t.track("TRACK", `e${i}`);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body.events.map((e) => e.event_customer_id)).toEqual([1, 2, 3, 4, 5].map((i) => `shop.example|e${i}`));
    expect(sent.every((s) => s.path === "/v1/cfe/" && !s.unload)).toBe(true);
  });

  it("flushes what is queued with a beacon on pagehide, on a hidden page, and on teardown", () => {
    const { t, scope } = tracker();
    t.track("CLICK", "a");
    win.dispatchEvent(new Event("pagehide"));
    expect(sent.map((s) => s.unload)).toEqual([true]);
    t.track("CLICK", "b");
    doc.visibilityState = "hidden";
    doc.dispatchEvent(new Event("visibilitychange"));
    t.track("CLICK", "c");
    scope.dispose();
    expect(sent.map((s) => [s.unload, s.body.events.map((e) => e.event_customer_id)])).toEqual([
      [true, ["shop.example|a"]],
      [true, ["shop.example|b"]],
      [true, ["shop.example|c"]],
    ]);
    // After teardown its listeners are gone.
    t.track("CLICK", "d");
    win.dispatchEvent(new Event("pagehide"));
    expect(sent).toHaveLength(3);
  });

  it("a larger queue size batches more; nothing is sent for an empty queue", () => {
    const { t } = tracker({ queueSize: 8 });
    for (let i = 0; i < 7; i++) t.track("TRACK", `e${i}`);
    t.flush();
    win.dispatchEvent(new Event("pagehide"));
    expect(sent.map((s) => s.body.events.length)).toEqual([7]);
  });

  it("sends nothing when disabled (preview, blacklisted pages)", () => {
    const { t, scope } = tracker({ enabled: false });
    t.track("PAGE", "page_view");
    t.track("TRACK", "x");
    t.flush(true);
    scope.dispose();
    expect(sent).toEqual([]);
  });
});

describe("event fields (spec §3 Event)", () => {
  it("unknown types become TRACK; ids get the domain unless they hold a pipe; insert ids are unique", () => {
    const { t } = tracker({ mergedPath: "/products/*" });
    t.track("WHATEVER", "signup");
    t.track("TRACK", "other.example|x");
    for (let i = 0; i < 3; i++) t.track("TRACK", "n");
    const evs = events();
    expect(evs[0]).toMatchObject({ event_type: "TRACK", event_customer_id: "shop.example|signup", properties: { page_path: "/p", cf_merged_page_path: "/products/*" } });
    expect(evs[1]!.event_customer_id).toBe("other.example|x");
    expect(new Set(evs.map((e) => e.insert_id)).size).toBe(5);
  });

  it("a REVENUE event with an order_id gets the insert id of that order and visitor, so a reloaded confirmation page counts the order once", () => {
    const visitor = { user_customer_id: "c1", device_id: "d1", anonymous: true };
    // Two loads of the same confirmation page: each load has its own tracker.
    const revenue = (user: User, properties: Properties) => {
      const { t } = tracker({ user });
      t.track("REVENUE", "revenue", { revenue_amount: 42.5, ...properties });
      t.flush();
      return events().slice(-1)[0]!.insert_id;
    };
    const first = revenue(visitor, { order_id: "1001", currency: "EUR" });
    expect(first).toBe("order_1001_d1");
    expect(revenue(visitor, { order_id: "1001", currency: "EUR" })).toBe(first);
    // identify() between the loads changes the customer id, not the browser's device id.
    expect(revenue({ ...visitor, user_customer_id: "alice@example.com" }, { order_id: "1001" })).toBe(first);
    // Another visitor's order 1001, and another order of this visitor, are other events.
    expect(revenue({ ...visitor, user_customer_id: "c2", device_id: "d2" }, { order_id: "1001" })).toBe("order_1001_d2");
    expect(revenue(visitor, { order_id: 1002 })).toBe("order_1002_d1");
    // Without a device id, the customer id is the visitor.
    expect(revenue({ user_customer_id: "c3", anonymous: true }, { order_id: "1001" })).toBe("order_1001_c3");
    // Within the service's 128 characters, the visitor kept whole behind a long order id.
    const long = revenue(visitor, { order_id: "x".repeat(300) });
    expect(long).toBe(`order_${"x".repeat(64)}_d1`);
    expect(revenue({ ...visitor, device_id: "d".repeat(200) }, { order_id: "1001" })).toHaveLength(128);
  });

  it("without an order_id (or on another event type) insert ids stay random", () => {
    const { t } = tracker({ user: { user_customer_id: "c1", device_id: "d1", anonymous: true } });
    t.track("REVENUE", "revenue", { revenue_amount: 5 });
    t.track("REVENUE", "revenue", { revenue_amount: 5 });
    t.track("REVENUE", "revenue", { revenue_amount: 5, order_id: "" });
    t.track("REVENUE", "revenue", { revenue_amount: 5, order_id: true });
    t.track("TRACK", "order_viewed", { order_id: "1001" });
    t.track("TRACK", "order_viewed", { order_id: "1001" });
    t.flush();
    const ids = events().map((e) => e.insert_id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect(ids.some((id) => id.startsWith("order_"))).toBe(false);
  });

  it("last_page_duration rides on PAGE events only", () => {
    const { t } = tracker({ lastPageDuration: 1234 });
    t.track("PAGE", "page_view");
    for (let i = 0; i < 5; i++) t.track("TRACK", "x");
    expect(events()[0]!.last_page_duration).toBe(1234);
    expect(events().slice(1).every((e) => e.last_page_duration === undefined)).toBe(true);
  });
});
