// GET /api/events paging (seq cursors `before` / `after`, `older` / `newer` in the answer), the
// visitor and experience filters, and GET /api/visitors/{visitor}/timeline (docs/api.md
// "Events"): real SQLite, events and exposures sent through the client API as a shop's pages do.
import { beforeAll, describe, expect, it } from "vitest";
import type { EventListResponse, VisitorTimelineResponse } from "@storefit/contract";
import { userIdFor } from "../src/routes/client.js";
import { call, DEMO_CLIENT_KEY, FORM, makeApp, SHOP_ORIGIN, signedInEachTest } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

// The seeded database every test copies is built once per process, in the first test's set-up;
// building it here, with time to spare, keeps that set-up within its budget on a busy machine.
beforeAll(async () => (await makeApp()).close(), 120_000);

let t: TestApp;
let owner: Auth;
signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

const DOMAIN = "littlesprouts.localhost";
const T0 = 1_700_000_000_000;
let n = 0;

type Sent = { type: string; name: string; path?: string; properties?: Record<string, unknown>; at?: number };

async function client(path: string, body: unknown) {
  const res = await t.app.inject({
    method: "POST",
    url: `${path}?cfenc=${DEMO_CLIENT_KEY}`,
    headers: { "content-type": FORM, origin: SHOP_ORIGIN },
    payload: JSON.stringify(body),
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** One events call of visitor `customerId` (spec §7 /v1/cfe/). */
async function send(customerId: string, events: Sent[]) {
  await client("/v1/cfe/", {
    user: { user_customer_id: customerId, anonymous: true },
    events: events.map((e) => ({
      event_type: e.type,
      name: e.name,
      event_customer_id: `${DOMAIN}|${e.name}`,
      domain: DOMAIN,
      insert_id: `p${n++}`,
      event_timestamp: e.at ?? T0 + n * 1000,
      session_id: `s_${customerId}`,
      properties: { page_path: e.path ?? "/", ...e.properties },
    })),
  });
}

/** An exposure of `customerId` to a demo experience's variation (spec §7 summaries). */
async function expose(customerId: string, experienceId: string, variationId: string, at: number) {
  await client("/v1/config/request/summary/", {
    user: { user_customer_id: customerId, anonymous: true },
    summaries: [{ config_id: `cfg_${experienceId}`, user_customer_id: customerId, requested_time: at, variation_id: variationId, experience_id: experienceId, session_id: `s_${customerId}` }],
  });
}

async function list(query: string): Promise<EventListResponse> {
  const res = await call(t.app, owner, "GET", `/api/events${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as EventListResponse;
}

async function timeline(visitor: string, query = ""): Promise<VisitorTimelineResponse> {
  const res = await call(t.app, owner, "GET", `/api/visitors/${encodeURIComponent(visitor)}/timeline${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as VisitorTimelineResponse;
}

const names = (r: EventListResponse) => r.events.map((e) => e.name);

describe("GET /api/events paging", () => {
  it("pages by seq: older from the newest page down to the first event, newer back up, each page newest first", async () => {
    await send("shopper-a", Array.from({ length: 12 }, (_, i) => ({ type: "TRACK", name: `e${i}` })));

    const first = await list("?limit=5");
    expect(first.total).toBe(12);
    expect(names(first)).toEqual(["e11", "e10", "e9", "e8", "e7"]);
    expect(first.newer).toBeNull();
    expect(first.older).toBe(first.events.at(-1)!.seq);
    expect(first.events.map((e) => e.seq)).toEqual([...first.events.map((e) => e.seq)].sort((a, b) => b - a));

    const second = await list(`?limit=5&before=${first.older}`);
    expect(names(second)).toEqual(["e6", "e5", "e4", "e3", "e2"]);
    expect(second.total).toBe(12); // the count ignores the cursor
    expect(second.newer).toBe(second.events[0]!.seq);

    const last = await list(`?limit=5&before=${second.older}`);
    expect(names(last)).toEqual(["e1", "e0"]);
    expect(last.older).toBeNull();

    // Newer from the last page: the nearest five above it, still listed newest first.
    const up = await list(`?limit=5&after=${last.newer}`);
    expect(names(up)).toEqual(names(second));
    const top = await list(`?limit=5&after=${up.newer}`);
    expect(names(top)).toEqual(names(first));
    expect(top.newer).toBeNull();

    // A page's cursor stays put while new events arrive: the older page does not shift.
    await send("shopper-a", [{ type: "TRACK", name: "late" }]);
    expect(names(await list(`?limit=5&before=${first.older}`))).toEqual(names(second));
    const live = await list("?limit=5");
    expect(names(live)[0]).toBe("late");
    expect((await list(`?limit=5&after=${first.events[0]!.seq}`)).events.map((e) => e.name)).toEqual(["late"]);
  });

  it("pages within the filters", async () => {
    await send("shopper-a", Array.from({ length: 6 }, (_, i) => ({ type: i % 2 ? "CLICK" : "PAGE", name: i % 2 ? `click${i}` : "page_view" })));
    const clicks = await list("?type=click&limit=2");
    expect(clicks.total).toBe(3);
    expect(names(clicks)).toEqual(["click5", "click3"]);
    const rest = await list(`?type=click&limit=2&before=${clicks.older}`);
    expect(names(rest)).toEqual(["click1"]);
    expect(rest.older).toBeNull();
    expect(rest.newer).toBe(rest.events[0]!.seq);
  });

  it("answers the event's name and its plain properties for the screen's labels", async () => {
    await send("shopper-a", [
      { type: "REVENUE", name: "revenue", properties: { revenue_amount: 24, currency: "GBP", order: { nested: true } } },
      { type: "CLICK", name: "Add_To_Cart", properties: { click_count: 2 } },
    ]);
    const { events } = await list("");
    expect(events[0]).toMatchObject({ name: "Add_To_Cart", event_customer_id: `${DOMAIN}|Add_To_Cart`, properties: { page_path: "/", click_count: 2 } });
    expect(events[1]!.properties).toEqual({ page_path: "/", revenue_amount: 24, currency: "GBP" }); // nested values left out
  });

  it("refuses bad cursors and both directions at once with 400; takes good ones", async () => {
    for (const query of ["?before=5", "?after=0", `?visitor=${"v".repeat(256)}`, "?experience=exp_price_message"]) {
      expect((await call(t.app, owner, "GET", `/api/events${query}`)).statusCode, query).toBe(200);
    }
    for (const query of ["?before=abc", "?after=-1", "?before=1.5", "?before=1&after=2", `?visitor=${"v".repeat(257)}`, "?limit=0"]) {
      const res = await call(t.app, owner, "GET", `/api/events${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ error: { code: "invalid_body" } });
    }
  });
});

describe("GET /api/events by visitor and by experience", () => {
  it("by visitor: their user id or their customer id; nobody's id matches nothing", async () => {
    await send("shopper-a", [{ type: "PAGE", name: "page_view", path: "/a" }]);
    await send("shopper-b", [{ type: "PAGE", name: "page_view", path: "/b" }, { type: "TRACK", name: "add_to_cart", path: "/b" }]);
    const b = userIdFor(t.account.id, "shopper-b");

    const byCustomerId = await list("?visitor=shopper-b");
    expect(byCustomerId.total).toBe(2);
    expect(byCustomerId.events.every((e) => e.user_id === b)).toBe(true);
    expect((await list(`?visitor=${b}`)).total).toBe(2);
    expect((await list(`?visitor=${b}&type=TRACK`)).total).toBe(1);
    expect((await list("?visitor=nobody")).total).toBe(0);
    expect((await list("?visitor=")).total).toBe(3); // empty: no filter
  });

  it("by experience: the events of visitors exposed to it, before and after the exposure; not of the others", async () => {
    await send("shopper-a", [{ type: "PAGE", name: "page_view", path: "/products/a" }]);
    await send("shopper-b", [{ type: "PAGE", name: "page_view", path: "/products/b" }]);
    await send("shopper-c", [{ type: "PAGE", name: "page_view", path: "/products/c" }]);
    await expose("shopper-a", "exp_price_message", "var_price_control", T0 + 10);
    await expose("shopper-b", "exp_price_message", "var_price_free_shipping", T0 + 20);
    await expose("shopper-c", "exp_welcome_popup", "var_welcome_popup", T0 + 30);

    const price = await list("?experience=exp_price_message");
    expect(price.total).toBe(2);
    expect(price.events.map((e) => e.page_path).sort()).toEqual(["/products/a", "/products/b"]);
    expect((await list("?experience=exp_price_message&visitor=shopper-b")).events.map((e) => e.page_path)).toEqual(["/products/b"]);
    expect((await list("?experience=exp_none")).total).toBe(0);
  });
});

describe("GET /api/visitors/{visitor}/timeline", () => {
  it("lists the visitor's events and exposures in time order, with experience and variation names", async () => {
    await send("shopper-t", [{ type: "PAGE", name: "page_view", path: "/products/x", at: T0 }]);
    await expose("shopper-t", "exp_price_message", "var_price_free_shipping", T0 + 5);
    await send("shopper-t", [
      { type: "TRACK", name: "add_to_cart", path: "/products/x", at: T0 + 10 },
      { type: "REVENUE", name: "revenue", path: "/thank-you", at: T0 + 20, properties: { revenue_amount: 24 } },
    ]);
    await send("someone-else", [{ type: "PAGE", name: "page_view", path: "/", at: T0 + 1 }]);

    const byCustomerId = await timeline("shopper-t");
    expect(byCustomerId.visitor).toMatchObject({ user_id: userIdFor(t.account.id, "shopper-t"), user_customer_id: "shopper-t" });
    expect(byCustomerId.truncated).toBe(false);
    const steps = byCustomerId.items.map((i) => (i.kind === "event" ? `${i.event.event_type} ${i.event.name}` : `exposure ${i.experience_name} / ${i.variation_name}`));
    expect(steps).toEqual(["PAGE page_view", "exposure Price message: free shipping / Free shipping", "TRACK add_to_cart", "REVENUE revenue"]);
    expect(await timeline(byCustomerId.visitor.user_id)).toEqual(byCustomerId);
  });

  it("keeps only the span both lists cover when one is cut at the limit, and says so", async () => {
    await expose("shopper-t", "exp_price_message", "var_price_control", T0);
    await send("shopper-t", [1, 2, 3].map((i) => ({ type: "PAGE", name: "page_view", path: `/p${i}`, at: T0 + i * 100 })));
    const cut = await timeline("shopper-t", "?limit=2");
    expect(cut.truncated).toBe(true);
    // The two newest page views; the exposure is older than the events kept, so it is left out.
    expect(cut.items.map((i) => (i.kind === "event" ? i.event.page_path : "exposure"))).toEqual(["/p2", "/p3"]);
  });

  it("answers 404 for a visitor the account never saw, and 400 for a bad limit", async () => {
    const res = await call(t.app, owner, "GET", "/api/visitors/nobody/timeline");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: "not_found" } });
    expect((await call(t.app, owner, "GET", "/api/visitors/x/timeline?limit=501")).statusCode).toBe(400);
  });
});
