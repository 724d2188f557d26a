// Route tests of the client API (spec §7) without a socket, against real SQLite.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import type { FastifyInstance } from "fastify";
import type { ConfigsResponse } from "@storefit/contract";
import { DEMO_CLIENT_KEY } from "../src/seed/demo.js";
import { mintPreviewToken, previewTokenKey } from "../src/auth/preview-token.js";
import { REMEMBERED_TEXT_MAX_LENGTH, UserIds, pageUrl, rememberedPageUrls, userIdFor } from "../src/routes/client.js";
import type { Account } from "../src/store/types.js";
import type { SqliteStore } from "../src/store/sqlite/index.js";
import { FIXED_NOW, FORM, OTHER, SHOP_ORIGIN, UK_ORIGIN, addOtherAccount, makeApp, user } from "./helpers.js";
import type { TestApp } from "./helpers.js";

let t: TestApp;
let app: FastifyInstance;
let store: SqliteStore;
let account: Account;

beforeEach(async () => {
  t = await makeApp();
  ({ app, store, account } = t);
});
afterEach(async () => {
  await t.close();
});

const q = `?cfenc=${DEMO_CLIENT_KEY}`;
const usProduct = () => {
  const page = account.settings.pages.find((p) => p.domain === account.settings.domain)!;
  return page.page_path;
};
const ukProduct = () => account.settings.pages.find((p) => p.domain !== account.settings.domain)!.page_path;

/**
 * A client call, answered once the writes a config call makes behind its answer have committed
 * too (routes/client.ts), since most tests here check what is stored. The tests of what a page
 * sees before those commits call `answerOnly`.
 */
async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await answerOnly(url, body, headers);
  await app.clientWritesBehind.drain();
  return res;
}

function answerOnly(url: string, body: unknown, headers: Record<string, string> = {}) {
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

  it("accepts a beacon: text/plain with a charset, cfenc in the query, no Origin", async () => {
    const body = { user: user(), events: [event("beacon-1")] };
    for (const type of ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded;charset=UTF-8"]) {
      const res = await app.inject({ method: "POST", url: `/v1/cfe/${q}`, headers: { "content-type": type }, payload: JSON.stringify({ ...body, events: [event(type)] }) });
      expect(res.statusCode, type).toBe(200);
    }
    expect(store.countEvents(account.id)).toBe(2);
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
    // The events also record their visitor.
    expect(store.countRows("visitors", account.id)).toBe(1);
  });
});

describe("looser forms a client may send are accepted and stored in the one form (product.md Appendix A)", () => {
  it("derives event_customer_id from domain and name (spec §3 domain|name), or from the account's domain", async () => {
    const { event_customer_id: _omitted, ...withDomain } = event("loose-1");
    const { event_customer_id: _alsoOmitted, domain: _noDomain, ...bare } = { ...event("loose-2"), name: "add_to_cart", event_type: "TRACK" };
    const piped = { ...bare, insert_id: "loose-3", name: "other.example|signup" };
    const res = await post(`/v1/cfe/${q}`, { user: user(), events: [withDomain, bare, piped] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 3, duplicates: 0 });
    const ids = store.listEvents(account.id, 10).map((e) => e.event_customer_id).sort();
    expect(ids).toEqual(["littlesprouts.localhost|add_to_cart", "littlesprouts.localhost|page_view", "other.example|signup"]);
  });

  it("refuses an event with neither event_customer_id nor a name: nothing to derive it from", async () => {
    const { event_customer_id: _a, name: _b, ...nameless } = event("loose-4");
    const res = await post(`/v1/cfe/${q}`, { user: user(), events: [nameless] });
    expect(res.statusCode).toBe(400);
    expect(store.countEvents(account.id)).toBe(0);
  });

  it("takes requested_time and event_timestamp as ISO text, and refuses text that is no date", async () => {
    const iso = "2026-09-22T10:00:00.000Z";
    const summary = { config_id: "cfg_1", user_customer_id: "visitor-iso", requested_time: iso, variation_id: "var_price_control", experience_id: "exp_price_message", session_id: "s1" };
    const ok = await post(`/v1/config/request/summary/${q}`, { user: user("visitor-iso"), summaries: [summary] });
    expect(ok.statusCode).toBe(200);
    // Stored as epoch milliseconds: the same summary sent in milliseconds is the same row.
    const again = await post(`/v1/config/request/summary/${q}`, { user: user("visitor-iso"), summaries: [{ ...summary, requested_time: Date.parse(iso) }] });
    expect(again.json()).toEqual({ accepted: 0, duplicates: 1 });
    expect(store.countRows("exposures", account.id)).toBe(1);

    const ev = await post(`/v1/cfe/${q}`, { user: user(), events: [{ ...event("loose-iso"), event_timestamp: iso }] });
    expect(ev.statusCode).toBe(200);
    expect(store.listEvents(account.id, 10)[0]!.event_timestamp).toBe(Date.parse(iso));

    const bad = await post(`/v1/config/request/summary/${q}`, { user: user("visitor-iso"), summaries: [{ ...summary, requested_time: "yesterday" }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain("summaries[0].requested_time");
    // A number past what a Date holds, or before the epoch, is no time either.
    for (const requested_time of [1e300, -1]) {
      expect((await post(`/v1/config/request/summary/${q}`, { user: user("visitor-iso"), summaries: [{ ...summary, requested_time }] })).statusCode).toBe(400);
    }
    expect(store.countRows("exposures", account.id)).toBe(1);
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
    expect(store.countRows("exposures", account.id)).toBe(1);

    const d = await post(`/v1/users/u_1/devices/${q}`, {
      add_devices: [{ device_customer_id: "dev-1", device_type: "WEB", user_id: "u_1" }],
      anonymous: true,
    });
    expect(d.statusCode).toBe(200);
    expect(d.json()).toMatchObject({ accepted: 1, device_ids: ["dev-1"] });

    const a = await post(`/v1/alerts/${q}`, { code: "CFJSSDK004", message: "x" });
    expect(a.statusCode).toBe(200);
    expect(store.countRows("alerts", account.id)).toBe(1);
  });
});

/** Everything a client call can store, in the given account. */
const storedIn = (accountId: string) =>
  store.countEvents(accountId) +
  store.countRows("exposures", accountId) +
  store.countRows("alerts", accountId) +
  store.countRows("visitors", accountId) +
  store.countRows("assignments", accountId) +
  store.countRows("devices", accountId);

/** A valid body for each client call (the configs one decides the seeded price test: it stores a visitor and assignments). */
const VALID_BODIES: [endpoint: string, body: Record<string, unknown>][] = [
  ["/v1/users/configs/", { user: user(), current_page_path: "/products/gentle-baby-wash", current_domain: "littlesprouts.localhost" }],
  ["/v1/cfe/", { user: user(), events: [event("valid-1")] }],
  [
    "/v1/config/request/summary/",
    { user: user(), summaries: [{ config_id: "cfg_1", user_customer_id: "visitor-1", requested_time: 1_790_000_000_000, variation_id: "var_price_control", experience_id: "exp_price_message", session_id: "s1" }] },
  ],
  ["/v1/users/u_1/devices/", { add_devices: [{ device_customer_id: "dev-1", device_type: "WEB", user_id: "u_1" }], anonymous: true }],
  ["/v1/alerts/", { code: "CFJSSDK004", message: "x" }],
];

describe("bad input gets a 4xx JSON error, stores nothing, and the service stays up", () => {
  const endpoints = [
    "/v1/users/configs/",
    "/v1/cfe/",
    "/v1/config/request/summary/",
    "/v1/users/u_1/devices/",
    "/v1/alerts/",
  ];
  const cases: { name: string; url: (p: string) => string; body: string; headers?: Record<string, string>; status: number; code: string; message?: string }[] = [
    { name: "invalid JSON", url: (p) => p + q, body: "{not json", status: 400, code: "invalid_json", message: "The body is not valid JSON" },
    { name: "empty body", url: (p) => p + q, body: "", status: 400, code: "invalid_json", message: "The body is empty" },
    { name: "blank body", url: (p) => p + q, body: " \n\t ", status: 400, code: "invalid_json", message: "The body is empty" },
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
        expect(res.json()).toMatchObject({ error: { code: c.code, ...(c.message ? { message: c.message } : {}) } });
        expect(storedIn(account.id)).toBe(0);
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
      expect(storedIn(account.id)).toBe(0);
    });
  }

  // Not alerts: an alert is "an error object" (spec §7), kept as sent (up to 50 keys).
  for (const [endpoint, body] of VALID_BODIES.filter(([e]) => e !== "/v1/alerts/")) {
    it(`${endpoint}: a valid body stores something, the same body with an unknown top-level key → 400 and nothing`, async () => {
      const res = await post(endpoint + q, { ...body, unexpected: true });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: "invalid_body" } });
      expect(storedIn(account.id)).toBe(0);
      expect((await post(endpoint + q, body)).statusCode).toBe(200);
      expect(storedIn(account.id)).toBeGreaterThan(0);
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

  it("with cfenc in the query, allows the account's origins only", async () => {
    const preflight = (origin: string, key = DEMO_CLIENT_KEY) =>
      app.inject({ method: "OPTIONS", url: `/v1/users/configs/?cfenc=${key}`, headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    for (const origin of [SHOP_ORIGIN, UK_ORIGIN]) {
      expect((await preflight(origin)).headers["access-control-allow-origin"]).toBe(origin);
    }
    for (const [origin, key] of [["https://evil.example", DEMO_CLIENT_KEY], ["http://littlesprouts.localhost.evil.example", DEMO_CLIENT_KEY], [SHOP_ORIGIN, "ck_nobody"]] as const) {
      const res = await preflight(origin, key);
      expect(res.statusCode).toBe(204);
      expect(res.headers["access-control-allow-origin"], `${origin} ${key}`).toBeUndefined();
      expect(res.headers["access-control-allow-methods"]).toBeUndefined();
      expect(res.headers.vary).toBe("Origin");
    }
  });
});

describe("the config answer (product.md Appendix A)", () => {
  it("carries user_id, page_paths and long_url", async () => {
    const path = usProduct();
    const res = await post(`/v1/users/configs/${q}`, {
      user: user("v-answer", { properties: { cf_current_page_url: `${SHOP_ORIGIN}${path}?utm_source=x#top` } }),
      current_page_path: path,
      current_domain: "littlesprouts.localhost",
    });
    const body = res.json() as ConfigsResponse;
    expect(body.user_id).toMatch(/^u_[0-9a-f]{24}$/);
    expect(body.page_paths).toEqual(expect.arrayContaining(["/products/", "/"]));
    // UK-only paths are not listed on the US domain.
    expect(body.page_paths).not.toContain(ukProduct());
    expect(body.long_url).toBe(`${SHOP_ORIGIN}${path}?utm_source=x`);
    const bare = await post(`/v1/users/configs/${q}`, { user: user(), current_page_path: path, current_domain: "littlesprouts.localhost" });
    expect((bare.json() as ConfigsResponse).long_url).toBe(`${SHOP_ORIGIN}${path}`);
  });

  it("says a repeat view may keep it, at the account's revision, with the attributes its audiences read", async () => {
    const ask = async (path: string) =>
      (await post(`/v1/users/configs/${q}`, { user: user("v-cache"), current_page_path: path, current_domain: "littlesprouts.localhost" })).json() as ConfigsResponse;
    const before = await ask(usProduct());
    expect(before.cache).toEqual({ revision: store.getAccountByClientKey(DEMO_CLIENT_KEY)!.revision, attributes: expect.any(Array) });
    // The home page's welcome popup is for first-time visitors: that attribute is named.
    expect((await ask("/")).cache!.attributes).toContain("is_first_time_visitor");
    // A publish moves the revision every kept answer is checked against.
    const price = store.getExperience(account.id, "exp_price_message")!;
    store.saveExperience({ ...price, name: `${price.name} (edited)` });
    expect((await ask(usProduct())).cache!.revision).toBeGreaterThan(before.cache!.revision);
    // Forced answers are never kept.
    const forced = await post(`/v1/users/configs/${q}`, { user: user("v-cache"), current_page_path: usProduct(), current_domain: "littlesprouts.localhost", desired_experiences: ["exp_price_message"] });
    expect((forced.json() as ConfigsResponse).cache).toBeUndefined();
  });

  it("answers a page path of any script whole: the tail of the answer is measured in UTF-8 bytes", async () => {
    const path = "/produkte/für-kinder-子供-🍼";
    const res = await post(`/v1/users/configs/${q}`, { user: user("v-utf8"), current_page_path: path, current_domain: "littlesprouts.localhost" });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers["content-length"])).toBe(res.rawPayload.length);
    expect((JSON.parse(res.rawPayload.toString("utf8")) as ConfigsResponse).long_url).toBe(`${SHOP_ORIGIN}${path}`);
  });

  it("answers long_url from a reported page URL of any length, without its fragment", async () => {
    const path = usProduct();
    const ask = async (url: string) =>
      ((await post(`/v1/users/configs/${q}`, { user: user("v-long", { properties: { cf_current_page_url: url } }), current_page_path: path, current_domain: "littlesprouts.localhost" })).json() as ConfigsResponse).long_url;
    const short = `${SHOP_ORIGIN}${path}?ref=short`;
    expect(await ask(short)).toBe(short);
    for (let i = 0; i < 3; i++) {
      const long = `${SHOP_ORIGIN}${path}?pad=${i}${"x".repeat(6_000)}`;
      expect(await ask(`${long}#frag`)).toBe(long);
    }
    // Non-ASCII characters come back percent-encoded, as the URL parser writes them.
    const wide = `${SHOP_ORIGIN}${path}?q=${"€".repeat(1_500)}`;
    expect(await ask(wide)).toBe(new URL(wide).href);
  });

  it("is exactly the JSON of its parts in UTF-8, with its byte length, for any text and any number of configs", async () => {
    const price = structuredClone(store.getExperience(account.id, "exp_price_message")!);
    const text = "Free delivery over £40 — für Kinder, 子供, 🍼 \"quoted\" \\ \u2028";
    for (const rule of price.rules) {
      for (const v of rule.behaviour.variations) {
        for (const c of v.configs) c.variation = { innerHTML: text };
        // A second config, so that the answer joins several.
        v.configs.push({ ...v.configs[0]!, config_customer_id: `${v.configs[0]!.config_customer_id}_2`, config_id: `${v.configs[0]!.config_id}_2`, properties: { ...v.configs[0]!.properties, element_path: "#second" } });
      }
    }
    store.saveExperience(price);
    // On "/" a first-time visitor gets the welcome popup (one config).
    const ask = (path: string) =>
      post(`/v1/users/configs/${q}`, { user: user("v-bytes", { properties: { is_first_time_visitor: true } }), current_page_path: path, current_domain: "littlesprouts.localhost" });
    for (const path of [usProduct(), "/", "/nothing-runs-here"]) {
      const res = await ask(path);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(Number(res.headers["content-length"])).toBe(res.rawPayload.length);
      const body = res.json() as ConfigsResponse;
      // The joined bytes are the serialization of the parsed answer, key for key.
      expect(res.body).toBe(JSON.stringify({ configs: body.configs, user_id: body.user_id, page_paths: body.page_paths, long_url: body.long_url, ...(body.cache ? { cache: body.cache } : {}) }));
      if (path === usProduct()) expect(Object.values(body.configs).map((c) => (c.variation as { innerHTML: string }).innerHTML)).toEqual([text, text]);
      if (path === "/") expect(Object.keys(body.configs)).toHaveLength(1);
      if (path === "/nothing-runs-here") expect(body.configs).toEqual({});
    }
  });

  it("shows first-time visitors the welcome popup template on the home page, and no one else", async () => {
    const ask = (props: Record<string, unknown>) =>
      post(`/v1/users/configs/${q}`, { user: user("v-home", { properties: props }), current_page_path: "/", current_domain: "littlesprouts.localhost" });
    const first = (await ask({ is_first_time_visitor: true })).json() as ConfigsResponse;
    const popup = first.configs.welcome_popup_us!;
    expect(popup.experience_behaviour_response).toMatchObject({ experience_id: "exp_welcome_popup", audience_name: "First-time visitors" });
    const template = (popup.variation as { customfit_meta: { custom_template: { properties: { settings: unknown } } } }).customfit_meta.custom_template;
    expect(template.properties.settings).toMatchObject({ config_selected: "on_entry", close_settings: { close_config_selected: "next_session" } });
    expect(popup.properties?.custom_template).toEqual(template);
    expect(((await ask({ is_first_time_visitor: false })).json() as ConfigsResponse).configs).toEqual({});
  });

  it("answers the device-specific gallery image with mobile and desktop sub-variations", async () => {
    const page = account.settings.pages.find((p) => p.page_path === "/products/oatmeal-eczema-cream")!;
    const res = await post(`/v1/users/configs/${q}`, { user: user(), current_page_path: page.page_path, current_domain: page.domain });
    const configs = Object.values((res.json() as ConfigsResponse).configs);
    const gallery = configs.find((c) => c.properties?.element_path === "#product-media-main")!;
    expect(gallery.experience_behaviour_response?.config_modifications).toEqual({ device_specific: true });
    expect(gallery.variation).toEqual({
      mobile: { src: "/images/oatmeal-eczema-cream-2.svg" },
      desktop: { src: "/images/oatmeal-eczema-cream-3.svg" },
    });
    // The price A/B test changes another element of the same page: both apply.
    expect(configs.map((c) => c.properties?.element_path).sort()).toEqual(["#product-media-main", "#product-price"]);
  });
});

describe("exposures carry the assignment probability (product.md §3)", () => {
  it("looks the probability up from the visitor's stored assignment", async () => {
    const res = await post(`/v1/users/configs/${q}`, { user: user("v-exp"), current_page_path: usProduct(), current_domain: "littlesprouts.localhost" });
    const config = Object.values((res.json() as ConfigsResponse).configs)[0]!;
    const summary = (variation_id: string) => ({
      config_id: config.config_id,
      user_customer_id: "v-exp",
      requested_time: FIXED_NOW,
      variation_id,
      experience_id: "exp_price_message",
      rule_id: "rule_price_everyone",
      behaviour_id: "beh_price_message",
      session_id: "s1",
    });
    const other = config.variation_id === "var_price_control" ? "var_price_free_shipping" : "var_price_control";
    expect((await post(`/v1/config/request/summary/${q}`, { user: user("v-exp"), summaries: [summary(config.variation_id), { ...summary(other), session_id: "s2" }] })).statusCode).toBe(200);
    const stored = store.listExposures(account.id, 10);
    // 50/50 with full traffic: 0.5. A variation the visitor was not assigned: unknown (null).
    expect(stored.find((x) => x.variation_id === config.variation_id)).toMatchObject({ probability: 0.5, user_id: (res.json() as ConfigsResponse).user_id });
    expect(stored.find((x) => x.variation_id === other)?.probability).toBeNull();
  });

  it("finds the assignment of the summary's rule when the visitor has one under several rules", async () => {
    const uid = (await post(`/v1/users/configs/${q}`, { user: user("v-rules"), current_page_path: "/", current_domain: "littlesprouts.localhost" })).json() as ConfigsResponse;
    const assignment = (rule_id: string, variation_id: string, probability: number) => ({ experience_id: "exp_price_message", rule_id, behaviour_id: "beh", variation_id, probability });
    store.commitClientWrites([
      {
        kind: "decision",
        accountId: account.id,
        userId: uid.user_id,
        user: user("v-rules"),
        now: "2026-11-22T12:00:00.000Z",
        assignments: [assignment("rule_a", "var_x", 0.25), assignment("rule_b", "var_y", 0.75)],
      },
    ]);
    const summary = (rule_id: string | undefined, variation_id: string, session_id: string) => ({
      config_id: "cfg",
      user_customer_id: "v-rules",
      requested_time: FIXED_NOW,
      variation_id,
      experience_id: "exp_price_message",
      ...(rule_id ? { rule_id } : {}),
      session_id,
    });
    const summaries = [summary("rule_b", "var_y", "s1"), summary("rule_a", "var_x", "s2"), summary("rule_b", "var_x", "s3"), summary(undefined, "var_y", "s4")];
    expect((await post(`/v1/config/request/summary/${q}`, { user: user("v-rules"), summaries })).statusCode).toBe(200);
    const bySession = Object.fromEntries(store.listExposures(account.id, 10).map((x) => [x.session_id, x.probability]));
    // Its own rule's probability; a variation its rule did not give: none (forced); no rule: found by the variation.
    expect(bySession).toEqual({ s1: 0.75, s2: 0.25, s3: null, s4: 0.75 });
  });
});

describe("preview mode", () => {
  it("answers a draft experience and stores no visitor and no assignment", async () => {
    const draft = structuredClone(store.getExperience(account.id, "exp_price_message")!);
    store.saveExperience({ ...draft, id: "exp_draft_price", status: "draft", priority: 99 });
    // An operator's preview token (auth/preview-token.ts; preview-token.test.ts: none is a normal visit).
    const preview_token = mintPreviewToken(await previewTokenKey(store), account.id, FIXED_NOW).token;
    const body = { user: user("v-preview"), current_page_path: usProduct(), current_domain: "littlesprouts.localhost", preview_mode: true, preview_token };
    const res = await post(`/v1/users/configs/${q}`, body);
    const configs = Object.values((res.json() as ConfigsResponse).configs);
    expect(configs[0]!.experience_behaviour_response?.experience_id).toBe("exp_draft_price");
    expect(store.countRows("visitors", account.id)).toBe(0);
    expect(store.countRows("assignments", account.id)).toBe(0);
    // The same call outside preview does not show the draft, and records the visit.
    const live = await post(`/v1/users/configs/${q}`, { ...body, preview_mode: false });
    expect(Object.values((live.json() as ConfigsResponse).configs)[0]!.experience_behaviour_response?.experience_id).toBe("exp_price_message");
    expect(store.countRows("visitors", account.id)).toBe(1);
    expect(store.countRows("assignments", account.id)).toBe(1);
  });
});

describe("devices", () => {
  it("stores each device once", async () => {
    const body = { add_devices: [{ device_customer_id: "dev-9", device_type: "WEB", user_id: "u_9" }], anonymous: true };
    expect((await post(`/v1/users/u_9/devices/${q}`, body)).json()).toEqual({ accepted: 1, duplicates: 0, device_ids: ["dev-9"] });
    expect((await post(`/v1/users/u_9/devices/${q}`, body)).json()).toEqual({ accepted: 0, duplicates: 1, device_ids: ["dev-9"] });
    expect(store.countRows("devices", account.id)).toBe(1);
    const raw = new Database(t.file, { readonly: true });
    expect(raw.prepare("SELECT device_customer_id, device_type, user_id, anonymous FROM devices").all()).toEqual([
      { device_customer_id: "dev-9", device_type: "WEB", user_id: "u_9", anonymous: 1 },
    ]);
    // Without the flag: not known (NULL); false: 0.
    await post(`/v1/users/u_9/devices/${q}`, { add_devices: [{ device_customer_id: "dev-10", device_type: "WEB", user_id: "u_9" }] });
    await post(`/v1/users/u_9/devices/${q}`, { add_devices: [{ device_customer_id: "dev-11", device_type: "WEB", user_id: "u_9" }], anonymous: false });
    expect(raw.prepare("SELECT device_customer_id, anonymous FROM devices ORDER BY device_customer_id").all()).toEqual([
      { device_customer_id: "dev-10", anonymous: null },
      { device_customer_id: "dev-11", anonymous: 0 },
      { device_customer_id: "dev-9", anonymous: 1 },
    ]);
    raw.close();
  });

  it("refuses a device of another visitor than the path's, storing none of the call's", async () => {
    const body = {
      add_devices: [
        { device_customer_id: "dev-1", device_type: "WEB", user_id: "u_1" },
        { device_customer_id: "dev-2", device_type: "WEB", user_id: "u_2" },
      ],
    };
    const res = await post(`/v1/users/u_1/devices/${q}`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: "invalid_body", message: expect.stringContaining("add_devices[1].user_id") } });
    expect(store.countRows("devices", account.id)).toBe(0);
  });
});

describe("one account's client key never reaches another account", () => {
  for (const [endpoint, body] of VALID_BODIES) {
    it(`${endpoint}: the other account's key from this shop's origin → 403, nothing stored in either`, async () => {
      const other = await addOtherAccount(t.store);
      const res = await post(`${endpoint}?cfenc=${OTHER.clientKey}`, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: { code: "forbidden_origin" } });
      expect(storedIn(other.id) + storedIn(account.id)).toBe(0);
      const own = await post(`${endpoint}?cfenc=${OTHER.clientKey}`, body, { origin: `https://${OTHER.domain}` });
      expect(own.statusCode, own.body).toBe(200);
      expect(storedIn(other.id)).toBeGreaterThan(0);
      expect(storedIn(account.id)).toBe(0);
    });
  }

  it("refuses the other account's key from this shop's origin, and stores nothing in either", async () => {
    const other = await addOtherAccount(t.store);
    const res = await post(`/v1/cfe/?cfenc=${OTHER.clientKey}`, { user: user(), events: [event("x1")] });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: { code: "forbidden_origin" } });
    expect(store.countEvents(other.id) + store.countEvents(account.id)).toBe(0);
    const own = await post(`/v1/cfe/?cfenc=${OTHER.clientKey}`, { user: user(), events: [event("x1")] }, { origin: `https://${OTHER.domain}` });
    expect(own.statusCode).toBe(200);
    expect([store.countEvents(other.id), store.countEvents(account.id)]).toEqual([1, 0]);
  });
});

describe("rate limits per client key", () => {
  it("answers 429 JSON with Retry-After and CORS once a key's bucket is empty, per key, and refills", async () => {
    let now = FIXED_NOW;
    const limited = await makeApp({ clock: () => now, rateLimits: { clientKey: { burst: 2, perSecond: 1 } } });
    try {
      await addOtherAccount(limited.store);
      const send = (key: string, origin = SHOP_ORIGIN) =>
        limited.app.inject({
          method: "POST",
          url: `/v1/cfe/?cfenc=${key}`,
          headers: { "content-type": FORM, origin },
          payload: JSON.stringify({ user: user(), events: [event(`e${Math.random()}`)] }),
        });
      expect((await send(DEMO_CLIENT_KEY)).statusCode).toBe(200);
      expect((await send(DEMO_CLIENT_KEY)).statusCode).toBe(200);
      const refused = await send(DEMO_CLIENT_KEY);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["retry-after"]).toBe("1");
      expect(refused.headers["access-control-allow-origin"]).toBe(SHOP_ORIGIN);
      expect(refused.json()).toMatchObject({ error: { code: "rate_limited" } });
      expect(limited.store.countEvents(limited.account.id)).toBe(2);
      // Another key has its own bucket.
      expect((await send(OTHER.clientKey, `https://${OTHER.domain}`)).statusCode).toBe(200);
      now += 1000;
      expect((await send(DEMO_CLIENT_KEY)).statusCode).toBe(200);
      expect((await send(DEMO_CLIENT_KEY)).statusCode).toBe(429);
      expect((await limited.app.inject("/healthz")).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("what a node remembers of the texts clients send is bounded", () => {
  it("user ids: remembered up to a size, ids longer than REMEMBERED_TEXT_MAX_LENGTH never, the same id whichever way", () => {
    const ids = new UserIds(100);
    const long = "v".repeat(REMEMBERED_TEXT_MAX_LENGTH + 1);
    expect(ids.of("acc", long)).toBe(userIdFor("acc", long));
    expect(ids.size).toBe(0);
    for (let i = 0; i < 250; i++) expect(ids.of("acc", `v${i}`)).toBe(userIdFor("acc", `v${i}`));
    expect(ids.size).toBeLessThanOrEqual(100);
    expect(ids.of("acc", "v249")).toBe(userIdFor("acc", "v249"));
  });

  it("page URLs: those longer than REMEMBERED_TEXT_MAX_LENGTH are parsed each time, never remembered", () => {
    const before = rememberedPageUrls();
    const long = `https://shop.example/p?${"q".repeat(REMEMBERED_TEXT_MAX_LENGTH)}#x`;
    expect(pageUrl(long)).toEqual({ hostname: "shop.example", href: long.slice(0, -2) });
    expect(rememberedPageUrls()).toBe(before);
    expect(pageUrl(`https://shop.example/short-${before}`)?.hostname).toBe("shop.example");
    expect(rememberedPageUrls()).toBe(before + 1);
  });
});
