// Route tests of the client API (spec §7) without a socket, against real SQLite.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import type { ConfigsResponse } from "@storefit/contract";
import { DEMO_CLIENT_KEY } from "../src/seed/demo.js";
import type { Account, Store } from "../src/store/types.js";
import { FORM, SHOP_ORIGIN, UK_ORIGIN, makeApp, user } from "./helpers.js";

let app: FastifyInstance;
let store: Store;
let account: Account;

beforeEach(async () => {
  ({ app, store, account } = await makeApp());
});
afterEach(async () => {
  await app.close();
  store.close();
});

const q = `?cfenc=${DEMO_CLIENT_KEY}`;
const usProduct = () => {
  const page = account.settings.pages.find((p) => p.domain === account.settings.domain)!;
  return page.page_path;
};
const ukProduct = () => account.settings.pages.find((p) => p.domain !== account.settings.domain)!.page_path;

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: "POST",
    url,
    headers: { "content-type": FORM, origin: SHOP_ORIGIN, ...headers },
    payload: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function event(insertId: string, type = "PAGE") {
  return {
    event_type: type,
    event_customer_id: "littlesprouts.localhost|page_view",
    domain: "littlesprouts.localhost",
    name: "page_view",
    insert_id: insertId,
    event_timestamp: 1_790_000_000_000,
    session_id: "s1",
    pageview_seq_number: 1,
    properties: { page_path: "/products/x" },
  };
}

describe("POST /v1/users/configs/", () => {
  it("answers the running A/B test's config for a US product page, with CORS for the shop", async () => {
    const res = await post(`/v1/users/configs/${q}`, {
      user: user(),
      current_page_path: usProduct(),
      current_domain: "littlesprouts.localhost",
      session_id: "s1",
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe(SHOP_ORIGIN);
    const body = res.json() as ConfigsResponse;
    expect(body.user_id).toMatch(/^u_[0-9a-f]{24}$/);
    const configs = Object.values(body.configs);
    expect(configs).toHaveLength(1);
    expect(configs[0]!.properties?.element_path).toBe("#product-price");
    expect(["var_price_control", "var_price_free_shipping"]).toContain(configs[0]!.variation_id);
    expect(configs[0]!.experience_behaviour_response?.experience_id).toBe("exp_price_message");
  });

  it("gives the same visitor the same variation every time, and splits visitors between both", async () => {
    const variationOf = async (id: string) => {
      const res = await post(`/v1/users/configs/${q}`, {
        user: user(id),
        current_page_path: usProduct(),
        current_domain: "littlesprouts.localhost",
      });
      return Object.values((res.json() as ConfigsResponse).configs)[0]!.variation_id;
    };
    expect(await variationOf("alice")).toBe(await variationOf("alice"));
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) seen.add(await variationOf(`v${i}`));
    expect(seen).toEqual(new Set(["var_price_control", "var_price_free_shipping"]));
  });

  it("answers the UK personalization on the UK domain and nothing on a page without experiences", async () => {
    const uk = await post(
      `/v1/users/configs/${q}`,
      { user: user(), current_page_path: ukProduct(), current_domain: "littlesprouts-uk.localhost" },
      { origin: UK_ORIGIN },
    );
    expect(uk.statusCode).toBe(200);
    expect(uk.headers["access-control-allow-origin"]).toBe(UK_ORIGIN);
    const ukConfigs = Object.values((uk.json() as ConfigsResponse).configs);
    expect(ukConfigs.map((c) => c.properties?.element_path)).toEqual(["#product-tax"]);

    const home = await post(`/v1/users/configs/${q}`, {
      user: user(),
      current_page_path: "/",
      current_domain: "littlesprouts.localhost",
    });
    expect((home.json() as ConfigsResponse).configs).toEqual({});
  });

  it("accepts cfenc as a header, and text/plain and application/json bodies", async () => {
    const body = { user: user(), current_page_path: "/", current_domain: "littlesprouts.localhost" };
    for (const type of ["text/plain", "application/json", FORM]) {
      const res = await post("/v1/users/configs/", body, { cfenc: DEMO_CLIENT_KEY, "content-type": type });
      expect(res.statusCode, type).toBe(200);
    }
  });
});

describe("POST /v1/cfe/", () => {
  it("stores events once per insert_id and turns unknown types into TRACK", async () => {
    const first = await post(`/v1/cfe/${q}`, { user: user(), events: [event("e1"), event("e2", "WHATEVER")] });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ accepted: 2, duplicates: 0 });
    const retry = await post(`/v1/cfe/${q}`, { user: user(), events: [event("e1")] });
    expect(retry.json()).toEqual({ accepted: 0, duplicates: 1 });
    expect(store.countEvents(account.id)).toBe(2);
    const types = store.listEvents(account.id, 10).map((e) => e.event_type).sort();
    expect(types).toEqual(["PAGE", "TRACK"]);
  });
});

describe("the other client calls", () => {
  it("stores config summaries as exposures, devices and alerts", async () => {
    const summary = {
      config_id: "cfg_1",
      user_customer_id: "visitor-1",
      requested_time: 1_790_000_000_000,
      variation_id: "var_price_control",
      experience_id: "exp_price_message",
      session_id: "s1",
    };
    const s = await post(`/v1/config/request/summary/${q}`, { user: user(), summaries: [summary] });
    expect(s.statusCode).toBe(200);
    await post(`/v1/config/request/summary/${q}`, { user: user(), summaries: [summary] });
    expect(store.countExposures(account.id)).toBe(1);

    const d = await post(`/v1/users/u_1/devices/${q}`, {
      add_devices: [{ device_customer_id: "dev-1", device_type: "WEB", user_id: "u_1" }],
      anonymous: true,
    });
    expect(d.statusCode).toBe(200);
    expect(d.json()).toMatchObject({ accepted: 1, device_ids: ["dev-1"] });

    const a = await post(`/v1/alerts/${q}`, { code: "CFJSSDK004", message: "x" });
    expect(a.statusCode).toBe(200);
    expect(store.countAlerts(account.id)).toBe(1);
  });
});

describe("bad input gets a 4xx JSON error, stores nothing, and the service stays up", () => {
  const endpoints = [
    "/v1/users/configs/",
    "/v1/cfe/",
    "/v1/config/request/summary/",
    "/v1/users/u_1/devices/",
    "/v1/alerts/",
  ];
  const cases: { name: string; url: (p: string) => string; body: string; headers?: Record<string, string>; status: number; code: string }[] = [
    { name: "invalid JSON", url: (p) => p + q, body: "{not json", status: 400, code: "invalid_json" },
    { name: "empty body", url: (p) => p + q, body: "", status: 400, code: "invalid_json" },
    { name: "a JSON array", url: (p) => p + q, body: "[1,2]", status: 400, code: "invalid_body" },
    { name: "missing client key", url: (p) => p, body: "{}", status: 401, code: "missing_client_key" },
    { name: "unknown client key", url: (p) => `${p}?cfenc=ck_nobody`, body: "{}", status: 401, code: "unknown_client_key" },
    { name: "foreign origin", url: (p) => p + q, body: "{}", headers: { origin: "https://evil.example" }, status: 403, code: "forbidden_origin" },
    { name: "look-alike origin", url: (p) => p + q, body: "{}", headers: { origin: "http://littlesprouts.localhost.evil.example" }, status: 403, code: "forbidden_origin" },
    { name: "unsupported content type", url: (p) => p + q, body: "{}", headers: { "content-type": "application/xml" }, status: 415, code: "unsupported_media_type" },
    { name: "body over 1 MiB", url: (p) => p + q, body: JSON.stringify({ pad: "x".repeat(1_100_000) }), status: 413, code: "payload_too_large" },
  ];
  for (const endpoint of endpoints) {
    for (const c of cases) {
      it(`${endpoint}: ${c.name} → ${c.status} ${c.code}`, async () => {
        const res = await post(c.url(endpoint), c.body, c.headers);
        expect(res.statusCode).toBe(c.status);
        expect(res.headers["content-type"]).toMatch(/^application\/json/);
        expect(res.json()).toMatchObject({ error: { code: c.code } });
        expect(store.countEvents(account.id) + store.countExposures(account.id) + store.countAlerts(account.id)).toBe(0);
        expect((await app.inject("/healthz")).statusCode).toBe(200);
      });
    }
  }

  const wrongBodies: [string, string, unknown][] = [
    ["/v1/users/configs/", "user missing", { current_page_path: "/", current_domain: "littlesprouts.localhost" }],
    ["/v1/users/configs/", "path is a number", { user: user(), current_page_path: 5, current_domain: "littlesprouts.localhost" }],
    ["/v1/users/configs/", "unknown top-level key", { user: user(), current_page_path: "/", current_domain: "littlesprouts.localhost", extra: 1 }],
    ["/v1/users/configs/", "empty customer id", { user: { user_customer_id: "" }, current_page_path: "/", current_domain: "x" }],
    ["/v1/cfe/", "events not an array", { user: user(), events: {} }],
    ["/v1/cfe/", "event without insert_id", { user: user(), events: [{ ...event("x"), insert_id: undefined }] }],
    ["/v1/cfe/", "timestamp as a string", { user: user(), events: [{ ...event("x"), event_timestamp: "yesterday" }] }],
    ["/v1/cfe/", "no events", { user: user(), events: [] }],
    ["/v1/config/request/summary/", "summary without config_id", { user: user(), summaries: [{ user_customer_id: "a", requested_time: 1 }] }],
    ["/v1/users/u_1/devices/", "device type not WEB", { add_devices: [{ device_customer_id: "d", device_type: "IOS", user_id: "u" }] }],
  ];
  for (const [endpoint, name, body] of wrongBodies) {
    it(`${endpoint}: ${name} → 400 invalid_body`, async () => {
      const res = await post(endpoint + q, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: "invalid_body" } });
      expect(store.countEvents(account.id) + store.countExposures(account.id)).toBe(0);
    });
  }

  it("a mixed batch with one bad event stores none of it", async () => {
    const res = await post(`/v1/cfe/${q}`, { user: user(), events: [event("ok"), { ...event("bad"), event_timestamp: "x" }] });
    expect(res.statusCode).toBe(400);
    expect(store.countEvents(account.id)).toBe(0);
  });
});

describe("preflight", () => {
  it("allows the cfenc header and the JSON content type for the shop's origin", async () => {
    const res = await app.inject({ method: "OPTIONS", url: "/v1/cfe/", headers: { origin: SHOP_ORIGIN, "access-control-request-method": "POST" } });
    expect(res.statusCode).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe(SHOP_ORIGIN);
    expect(res.headers["access-control-allow-headers"]).toContain("cfenc");
  });
});
