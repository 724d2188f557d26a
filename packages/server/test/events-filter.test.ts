// GET /api/events filters (docs/api.md "Events"): type, domain and q (page path or event name),
// combined; `total` counts the matching events; the newest first within the limit.
import { beforeEach, describe, expect, it } from "vitest";
import type { EventListResponse } from "@storefit/contract";
import { call, DEMO_CLIENT_KEY, FORM, SHOP_ORIGIN, signedInEachTest, UK_ORIGIN, user } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;
signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

let n = 0;
async function send(origin: string, domain: string, events: [type: string, path: string, name?: string][]) {
  const res = await t.app.inject({
    method: "POST",
    url: `/v1/cfe/?cfenc=${DEMO_CLIENT_KEY}`,
    headers: { "content-type": FORM, origin },
    payload: JSON.stringify({
      user: user("v1"),
      events: events.map(([event_type, page_path, name]) => ({
        event_type,
        ...(name ? { name } : {}),
        event_customer_id: `${domain}|${name ?? page_path}`,
        domain,
        insert_id: `f${n++}`,
        event_timestamp: 1_700_000_000_000 + n,
        properties: { page_path },
      })),
    }),
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function list(query: string): Promise<EventListResponse> {
  const res = await call(t.app, owner, "GET", `/api/events${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as EventListResponse;
}

const summary = (r: EventListResponse) => r.events.map((e) => `${e.event_type} ${e.domain} ${e.page_path}`);

describe("GET /api/events filters", () => {
  beforeEach(async () => {
    await send(SHOP_ORIGIN, "littlesprouts.localhost", [
      ["PAGE", "/products/gentle-baby-wash"],
      ["CLICK", "/products/gentle-baby-wash", "Add_To_Cart"],
      ["PAGE", "/checkout"],
      ["TRACK", "/checkout", "checkout_started"],
    ]);
    await send(UK_ORIGIN, "littlesprouts-uk.localhost", [["PAGE", "/products/100%_cotton"]]);
  });

  it("by type (any case), by domain (whole, any case), by q in the page path or the name (any case), combined", async () => {
    const all = await list("");
    expect(all.total).toBe(5);

    const pages = await list("?type=page");
    expect(pages.total).toBe(3);
    expect(summary(pages)).toEqual([
      "PAGE littlesprouts-uk.localhost /products/100%_cotton",
      "PAGE littlesprouts.localhost /checkout",
      "PAGE littlesprouts.localhost /products/gentle-baby-wash",
    ]);

    const uk = await list("?domain=LittleSprouts-UK.localhost");
    expect(summary(uk)).toEqual(["PAGE littlesprouts-uk.localhost /products/100%_cotton"]);
    expect((await list("?domain=sprouts")).total).toBe(0); // whole domains only

    expect((await list("?q=CHECKOUT")).total).toBe(2); // the page /checkout and the event checkout_started
    expect(summary(await list("?q=add_to")).map((s) => s.split(" ")[0])).toEqual(["CLICK"]); // by name only
    expect(summary(await list("?q=100%25_")).length).toBe(1); // % and _ are plain characters
    expect((await list("?q=0%25")).total).toBe(1);
    expect((await list("?q=%25%25")).total).toBe(0);

    const combined = await list("?type=PAGE&domain=littlesprouts.localhost&q=products&limit=1");
    expect(combined.total).toBe(1);
    expect(summary(combined)).toEqual(["PAGE littlesprouts.localhost /products/gentle-baby-wash"]);

    expect((await list("?type=NOPE")).total).toBe(0);
    expect((await list("?type=&domain=&q=")).total).toBe(5); // empty: no filter
  });

  it("limits apply after filtering: the newest matching events", async () => {
    const r = await list("?domain=littlesprouts.localhost&limit=2");
    expect(r.total).toBe(4);
    expect(summary(r)).toEqual(["TRACK littlesprouts.localhost /checkout", "PAGE littlesprouts.localhost /checkout"]);
  });

  it("refuses overlong filters with 400", async () => {
    const res = await call(t.app, owner, "GET", `/api/events?q=${"x".repeat(201)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: "invalid_body" } });
  });
});
