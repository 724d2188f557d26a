// The service's own hostile-input suite (issue #17): a seeded fuzzer over the five client calls
// and the admin API. Every request is a valid body with one part made hostile — nesting deep
// enough to break a recursive parser, strings far over every limit, wrong types, prototype keys,
// odd unicode, numbers JSON cannot hold, truncated text, the wrong content type. Whatever comes
// in, the answer is never a 5xx, the node still answers /healthz, and its memory stays bounded.
// In-process (Fastify's inject): no socket, nothing leaves the machine. A failure prints the seed
// and the request, so it can be replayed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { DEMO_CLIENT_KEY, FORM, SHOP_ORIGIN, experienceBody, makeApp, signIn } from "./helpers.js";
import type { TestApp } from "./helpers.js";

const SEED = 0x5f0_17;
const CLIENT_REQUESTS = 2400;
const ADMIN_REQUESTS = 1200;
/** Heap growth allowed over the whole run: generous, but far under what a leak per request makes. */
const MAX_HEAP_GROWTH_BYTES = 256 * 1024 * 1024;

/** mulberry32: small, fast and the same on every machine. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

/** JSON text: hostile values are written as text, since some (1e309, lone surrogates) have no JS value that round-trips. */
type Raw = { raw: string };
const raw = (text: string): Raw => ({ raw: text });
type Tree = null | boolean | number | string | Raw | Tree[] | { [key: string]: Tree };

function write(value: Tree): string {
  if (value !== null && typeof value === "object" && "raw" in value && typeof value.raw === "string" && Object.keys(value).length === 1) return value.raw;
  if (Array.isArray(value)) return `[${value.map(write).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value as Record<string, Tree>).map(([k, v]) => `${JSON.stringify(k)}:${write(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const PROTO_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];

/** One hostile value. */
function hostile(r: Rng): Tree {
  switch (r.int(16)) {
    case 0: {
      // Past the edge's 32 levels, SQLite's JSON depth (1000) and JSON.stringify's stack (~4500).
      const depth = r.pick([33, 1100, 5000, 12_000]);
      return raw("[".repeat(depth) + (r.int(8) === 0 ? "" : "]".repeat(depth)));
    }
    case 1: {
      const depth = r.pick([65, 1100, 5000]);
      return raw('{"a":'.repeat(depth) + "1" + "}".repeat(depth));
    }
    case 2:
      return "x".repeat(r.pick([1024, 8193, 70_000, 300_000]));
    case 3:
      return raw(r.pick(["1e309", "-1e309", "1e-400", "-0", "123456789012345678901234567890", "0.1e-7", "9007199254740993"]));
    case 4:
      return r.pick([null, true, false, 0, -1, 1.5, "", " ", "0", "null", "NaN", "Infinity"]);
    case 5:
      return r.pick<Tree>([[], {}, [null], [[]], [{}], { a: [] }]);
    case 6:
      // Written as text: a "__proto__" key survives only there (assigning it sets a prototype).
      return raw(`{${JSON.stringify(r.pick(PROTO_KEYS))}:${write(r.pick<Tree>([{ polluted: true }, "x", 1, null, []]))}}`);
    case 7:
      return raw(`{"__proto__":{"isAdmin":true,"role":"owner","status":"running"},"constructor":{"prototype":{"polluted":1}}}`);
    case 8:
      return r.pick(["\u0000", "\u202e\u0633\u0644\u0627\u0645", "🍼".repeat(2000), "\uffff\ufeff", "e\u0301".repeat(500), "../../etc/passwd", "<script>alert(1)</script>", "%00%ff%", "a|b|c", "\r\n\r\nHTTP/1.1 200"]);
    case 9:
      return raw(r.pick(['"\\ud800"', '"\\udfff\\ud800"', '"\\u0000"', '"\\\\\\""', '"\\/"']));
    case 10:
      return Array.from({ length: r.pick([600, 5000]) }, (_, i) => i);
    case 11: {
      const o: Record<string, Tree> = {};
      for (let i = 0; i < r.pick([600, 3000]); i++) o[`k${i}`] = i;
      return o;
    }
    case 12:
      return r.pick(["(a+)+$", ".*.*.*.*.*x", "[", "\\", "(?=a)*", "/products/.*/reviews"]);
    case 13:
      return r.pick([Number.MAX_SAFE_INTEGER, -Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53 + 2, 1e21]);
    case 14:
      return { $regex: "(a|aa)+$", $options: "i", $where: "1", $gt: {} };
    default:
      return raw("{".repeat(40) + "}".repeat(40));
  }
}

/** The body with one value somewhere in it replaced (or added) by a hostile one. */
function mutate(r: Rng, body: Tree): Tree {
  if (Array.isArray(body)) {
    if (body.length === 0 || r.int(4) === 0) return [...body, hostile(r)];
    const i = r.int(body.length);
    const copy = [...body];
    copy[i] = r.int(3) === 0 ? hostile(r) : mutate(r, body[i]!);
    return copy;
  }
  if (body !== null && typeof body === "object" && !("raw" in body)) {
    const keys = Object.keys(body);
    const roll = r.int(6);
    if (keys.length === 0 || roll === 0) return { ...body, [r.pick([...PROTO_KEYS, "extra", "properties", ...keys])]: hostile(r) };
    const k = r.pick(keys);
    if (roll === 1) {
      const copy = { ...body };
      delete copy[k];
      return copy;
    }
    return { ...body, [k]: roll === 2 ? hostile(r) : mutate(r, body[k]!) };
  }
  return hostile(r);
}

/** The body as the fuzzer sends it: usually JSON text, sometimes truncated or not JSON at all. */
function text(r: Rng, body: Tree): string {
  const json = write(body);
  switch (r.int(12)) {
    case 0:
      return json.slice(0, r.int(json.length));
    case 1:
      return r.pick(["", " ", "null", "[]", "\"\"", "0", "{", "}", "\u0000", "\ufeff{}", `${json}${json}`, json.replace(/"/g, "'")]);
    case 2:
      return Buffer.from(Array.from({ length: r.int(400) }, () => r.int(256))).toString("latin1");
    default:
      return json;
  }
}

const CONTENT_TYPES = [FORM, FORM, "text/plain", "text/plain;charset=utf-8", "application/json", "application/json; charset=latin1", "multipart/form-data; boundary=x", "application/xml", "", "text/plain; charset=utf-16"];

const user = (): Tree => ({
  user_customer_id: "fuzz-visitor",
  anonymous: true,
  tags: ["a"],
  properties: { cf_current_page_url: `${SHOP_ORIGIN}/products/x?y=1`, cf_device_type: "desktop", utm_source: "news", is_first_time_visitor: true, cf_screen_width: 1280 },
  private_fields: { properties: { plan: "gold" }, tags: [] },
});
const summary = (): Tree => ({ config_id: "cfg_hero_title", version: 1, requested_time: 1_790_000_000_000, variation_id: "var_a", user_customer_id: "fuzz-visitor", session_id: "s1", experience_id: "exp_price_message", rule_id: "rule_all" });

/** The five client calls of spec §7 with a valid body each. */
const CLIENT_CALLS: { url: string; body: () => Tree }[] = [
  { url: "/v1/users/configs/", body: () => ({ user: user(), current_page_path: "/products/organic-baby-balm", current_domain: "littlesprouts.localhost", session_id: "s1", desired_experiences: [], preferred_experiences: [] }) },
  {
    url: "/v1/cfe/",
    body: () => ({
      user: user(),
      cf_client_sdk_version: "1.0.0",
      events: [{ event_type: "REVENUE", event_customer_id: "littlesprouts.localhost|purchase", domain: "littlesprouts.localhost", name: "purchase", insert_id: "ins-1", event_timestamp: 1_790_000_000_000, session_id: "s1", properties: { revenue_amount: 12.5, page_path: "/checkout" }, config_summary: [summary()] }],
    }),
  },
  { url: "/v1/config/request/summary/", body: () => ({ user: user(), summaries: [summary()] }) },
  { url: "/v1/users/fuzz-visitor/devices/", body: () => ({ anonymous: true, add_devices: [{ device_customer_id: "d1", device_type: "WEB", user_id: "fuzz-visitor" }] }) },
  { url: "/v1/alerts/", body: () => ({ code: "CFNET001", status: 0, data: null, path: "/v1/users/configs/" }) },
];

type Admin = { method: "POST" | "PUT" | "PATCH" | "GET"; url: string; body?: () => Tree };
const ADMIN_CALLS: Admin[] = [
  { method: "POST", url: "/api/experiences", body: () => experienceBody() as unknown as Tree },
  { method: "PUT", url: "/api/experiences/exp_price_message", body: () => experienceBody({ name: "Price message" }) as unknown as Tree },
  { method: "PATCH", url: "/api/experiences/exp_price_message", body: () => ({ name: "Renamed", priority: 2 }) },
  { method: "POST", url: "/api/experiences/exp_price_message/status", body: () => ({ status: "paused" }) },
  { method: "PATCH", url: "/api/account", body: () => ({ name: "Little Sprouts", settings: { sdk_timeout_ms: 4000, subdomains: ["littlesprouts-uk.localhost"] } }) },
  { method: "POST", url: "/api/audiences", body: () => ({ name: "Mobile", condition: { cf_device_type: "mobile", $or: [{ utm_source: { $regex: "^news" } }, { cf_screen_width: { $lt: 800 } }] } }) },
  { method: "POST", url: "/api/audiences/evaluate", body: () => ({ condition: { url: { $regex: "/products/.*" } }, attributes: { url: "/products/x", cf_device_type: "mobile" } }) },
  { method: "POST", url: "/api/account/keys", body: () => ({ name: "ci" }) },
  { method: "POST", url: "/api/account/members", body: () => ({ email: "fuzz@example.test", password: "long-enough-password", role: "viewer" }) },
  { method: "GET", url: "/api/events?limit=50&type=PAGE" },
  { method: "GET", url: "/api/results/exp_price_message" },
];

/** A hostile query string: odd keys and values, repeated keys, huge values. */
function query(r: Rng, base: string): string {
  const [path, q = ""] = base.split("?");
  const parts = q ? q.split("&") : [];
  const extra = r.pick([
    "",
    `limit=${r.pick(["-1", "1e309", "abc", "99999999999", "0x10", ""])}`,
    `type=${encodeURIComponent(String(r.pick(["", "%", "\u0000", "x".repeat(5000), "PAGE&type=TRACK"])))}`,
    "__proto__[x]=1",
    "constructor=1&constructor=2",
    `before=${r.pick(["-1", "NaN", "2026-13-45", "1e309"])}`,
    `from=${r.pick(["1e309", "yesterday", "-5", ""])}&to=0`,
  ]);
  return `${path}?${[...parts, extra].filter(Boolean).join("&")}`;
}

let t: TestApp;
let app: FastifyInstance;
let owner: { cookie: string; csrf: string };

beforeAll(async () => {
  // The per-key rate limit would turn most of the run into 429s before any body is read.
  t = await makeApp({ rateLimits: { clientKey: false } });
  app = t.app;
  owner = await signIn(app);
}, 60_000); // seeding and signing in hash passwords with scrypt, slow by design
afterAll(async () => {
  await t.close();
});

type Failure = { status: number; method: string; url: string; contentType: string; body: string; answer: string };

function failureOf(res: LightMyRequestResponse, method: string, url: string, contentType: string, body: string): Failure | null {
  if (res.statusCode < 500) {
    // Every refusal is the service's JSON error shape.
    if (res.statusCode >= 400 && !/^application\/json/.test(String(res.headers["content-type"]))) {
      return { status: res.statusCode, method, url, contentType, body: body.slice(0, 300), answer: `not JSON: ${res.body.slice(0, 200)}` };
    }
    return null;
  }
  return { status: res.statusCode, method, url, contentType, body: body.slice(0, 300), answer: res.body.slice(0, 300) };
}

describe(`fuzzing (seed ${SEED})`, () => {
  it(`${CLIENT_REQUESTS} hostile client calls and ${ADMIN_REQUESTS} admin calls: no 5xx, the node healthy, memory bounded`, async () => {
    const r = prng(SEED);
    const failures: Failure[] = [];
    const statuses = new Map<number, number>();
    const heapBefore = process.memoryUsage().heapUsed;

    for (let i = 0; i < CLIENT_REQUESTS; i++) {
      const call = r.pick(CLIENT_CALLS);
      const body = text(r, r.int(10) === 0 ? call.body() : mutate(r, call.body()));
      const contentType = r.int(4) === 0 ? r.pick(CONTENT_TYPES) : FORM;
      const url = r.int(8) === 0 ? query(r, `${call.url}?cfenc=${DEMO_CLIENT_KEY}`) : `${call.url}?cfenc=${DEMO_CLIENT_KEY}`;
      const headers: Record<string, string> = { origin: SHOP_ORIGIN };
      if (contentType) headers["content-type"] = contentType;
      const res = await app.inject({ method: "POST", url, headers, payload: body });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      const failure = failureOf(res, "POST", url, contentType, body);
      if (failure) failures.push(failure);
    }

    for (let i = 0; i < ADMIN_REQUESTS; i++) {
      const call = r.pick(ADMIN_CALLS);
      const url = r.int(3) === 0 ? query(r, call.url) : call.url;
      const headers: Record<string, string> = { cookie: owner.cookie, "x-csrf-token": owner.csrf };
      let body: string | undefined;
      let contentType = "";
      if (call.body) {
        body = text(r, r.int(10) === 0 ? call.body() : mutate(r, call.body()));
        contentType = r.int(5) === 0 ? r.pick(CONTENT_TYPES) : "application/json";
        if (contentType) headers["content-type"] = contentType;
      }
      const res = await app.inject({ method: call.method, url, headers, ...(body !== undefined ? { payload: body } : {}) });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      const failure = failureOf(res, call.method, url, contentType, body ?? "");
      if (failure) failures.push(failure);
    }

    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    // Readable on failure: the first requests that failed, how many did, and every status seen.
    expect(failures.slice(0, 5), `${failures.length} failed; statuses ${JSON.stringify(Object.fromEntries(statuses))}`).toEqual([]);
    // The run exercised the service, not only its refusals.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(100);
    expect((await app.inject("/healthz")).json()).toEqual({ ok: true });
    expect(heapGrowth).toBeLessThan(MAX_HEAP_GROWTH_BYTES);
    // The prototype keys reached nothing shared.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  }, 240_000);
});
