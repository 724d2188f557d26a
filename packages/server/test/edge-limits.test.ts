// Bounded input at the edge (issue #17 finding 3): bodies are measured on their text before
// JSON.parse runs — nesting depth, string lengths — and each route family has its own size cap.
// Each limit answers a 4xx JSON error, never a 5xx.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { FastifyInstance } from "fastify";
import { jsonLimitProblem } from "../src/http/json-limits.js";
import { CLIENT_JSON_LIMITS } from "../src/http/edge.js";
import { DEMO_CLIENT_KEY, FORM, SHOP_ORIGIN, call, makeApp, signIn, user } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

const LIMITS = { maxDepth: 4, maxStringLength: 10 };

describe("jsonLimitProblem", () => {
  it("counts the depth of objects and arrays, and only outside strings", () => {
    expect(jsonLimitProblem('{"a":[{"b":[1]}]}', LIMITS)).toBeNull();
    expect(jsonLimitProblem('{"a":[{"b":[[1]]}]}', LIMITS)).toMatch(/deeper than 4 levels/);
    expect(jsonLimitProblem('[[[["[[[[[["]]]]', LIMITS)).toBeNull();
    expect(jsonLimitProblem("[[],[],[],[],[[[]]]]", LIMITS)).toBeNull();
  });

  it("measures every string, keys too, and knows an escaped quote from the closing one", () => {
    expect(jsonLimitProblem('{"abcdefghij":"0123456789"}', LIMITS)).toBeNull();
    expect(jsonLimitProblem('{"abcdefghijk":1}', LIMITS)).toMatch(/longer than 10 characters/);
    expect(jsonLimitProblem('["01234567890"]', LIMITS)).toMatch(/longer than 10/);
    // \" does not end the string: its brackets are text, and its length runs to the real quote.
    expect(jsonLimitProblem('["a\\"[[[[[[[b"]', LIMITS)).toMatch(/longer than 10/);
    expect(jsonLimitProblem('["a\\"[[[b"]', LIMITS)).toBeNull();
    // \\ is an escaped backslash: the quote after it closes the string.
    expect(jsonLimitProblem('["ab\\\\",[[[[1]]]]]', LIMITS)).toMatch(/deeper than 4/);
    // An unterminated string is measured to the end of the text (JSON.parse refuses it later).
    expect(jsonLimitProblem('["abc', LIMITS)).toBeNull();
    expect(jsonLimitProblem(`["${"x".repeat(11)}`, LIMITS)).toMatch(/longer than 10/);
  });

  it("stops at the first limit passed, in time linear in the text", () => {
    const deep = "[".repeat(1_000_000);
    expect(jsonLimitProblem(deep, CLIENT_JSON_LIMITS)).toMatch(/deeper than 32/);
    const flat = JSON.stringify(Array.from({ length: 50_000 }, (_, i) => ({ k: `v${i}\\"`, n: [i] })));
    expect(jsonLimitProblem(flat, CLIENT_JSON_LIMITS)).toBeNull();
  });
});

describe("the service's bodies", () => {
  let t: TestApp;
  let app: FastifyInstance;
  let owner: Auth;
  beforeAll(async () => {
    t = await makeApp();
    app = t.app;
    owner = await signIn(app);
  });
  afterAll(async () => {
    await t.close();
  });

  const q = `?cfenc=${DEMO_CLIENT_KEY}`;
  const CLIENT_URLS = [`/v1/users/configs/${q}`, `/v1/cfe/${q}`, `/v1/config/request/summary/${q}`, `/v1/users/u1/devices/${q}`, `/v1/alerts/${q}`];
  const post = (url: string, payload: string, contentType = FORM) =>
    app.inject({ method: "POST", url, headers: { "content-type": contentType, origin: SHOP_ORIGIN }, payload });

  /** A config-call body whose user properties hold `value` (as JSON text). */
  const configsWith = (value: string) =>
    `{"user":{"user_customer_id":"v1","properties":{"x":${value}}},"current_page_path":"/","current_domain":"littlesprouts.localhost"}`;

  it("refuses deep nesting on every client call before parsing it: 400, JSON.parse never sees the body", async () => {
    // Under the 64 KiB of a visitor's calls, so that the depth is what is refused.
    const deep = "[".repeat(30_000) + "]".repeat(30_000);
    const parse = vi.spyOn(JSON, "parse");
    try {
      for (const url of CLIENT_URLS) {
        for (const contentType of [FORM, "text/plain", "application/json"]) {
          const res = await post(url, configsWith(deep), contentType);
          expect(res.statusCode, `${url} ${contentType}`).toBe(400);
          expect(res.json()).toEqual({ error: { code: "invalid_body", message: "The body nests objects and arrays deeper than 32 levels" } });
        }
      }
      expect(parse.mock.calls.filter(([text]) => typeof text === "string" && text.length > 100_000)).toEqual([]);
    } finally {
      parse.mockRestore();
    }
  });

  it("answers 400, never 500, for nesting deep enough to break JSON.stringify, on the client and the admin API", async () => {
    const deep = (n: number) => "[".repeat(n) + "1" + "]".repeat(n);
    for (const n of [33, 1_100, 5_000, 20_000]) {
      const res = await post(`/v1/cfe/${q}`, `{"user":{"user_customer_id":"v1"},"events":[{"event_type":"TRACK","name":"x","event_customer_id":"a|x","insert_id":"i${n}","event_timestamp":1,"properties":{"p":${deep(n)}}}]}`);
      expect(res.statusCode, `client ${n}`).toBe(400);
      const admin = await call(app, owner, "POST", "/api/audiences", `{"name":"deep","condition":{"$and":${deep(n)}}}`);
      expect(admin.statusCode, `admin ${n}`).toBe(400);
      // Past 64 levels the edge refuses it; under, the condition check does.
      expect(admin.json().error.code).toBe(n > 64 ? "invalid_body" : "invalid_condition");
    }
    // Within the limits, the same shapes still pass.
    const ok = await post(`/v1/cfe/${q}`, `{"user":{"user_customer_id":"v1"},"events":[{"event_type":"TRACK","name":"x","event_customer_id":"a|x","insert_id":"ok","event_timestamp":1,"properties":{"p":${deep(20)}}}]}`);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("refuses a visitor-supplied string over 8 KiB wherever it sits, and takes one at 8 KiB", async () => {
    const long = JSON.stringify("x".repeat(8 * 1024 + 1));
    for (const body of [configsWith(long), configsWith(`{${long}:1}`), configsWith(`[[${long}]]`)]) {
      const res = await post(`/v1/users/configs/${q}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code: "invalid_body", message: "A string in the body is longer than 8192 characters" } });
    }
    const fits = await post(`/v1/users/configs/${q}`, configsWith(JSON.stringify("x".repeat(8 * 1024))));
    expect(fits.statusCode, fits.body).toBe(200);
  });

  it("caps bodies per route family: 64 KiB for every client call (no browser sends the script's more), 1 MiB for the admin API", async () => {
    const padded = (bytes: number) => configsWith(JSON.stringify(Array.from({ length: Math.ceil(bytes / 1000) }, () => "y".repeat(990))));
    const big = await post(`/v1/users/configs/${q}`, padded(70 * 1024));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: { code: "payload_too_large", message: "The body is larger than 64 KiB" } });
    // Batches too: the script sends them by keep-alive fetch or beacon, neither over 64 KiB.
    const events = (n: number) => Array.from({ length: n }, (_, i) => ({ event_type: "TRACK", name: "x", event_customer_id: "a|x", insert_id: `b${n}-${i}`, event_timestamp: 1, properties: { pad: "z".repeat(900) } }));
    const batch = JSON.stringify({ user: user("v-batch"), events: events(60) });
    expect(batch.length).toBeLessThan(64 * 1024);
    const fits = await post(`/v1/cfe/${q}`, batch);
    expect(fits.statusCode, fits.body).toBe(200);
    for (const url of [`/v1/cfe/${q}`, `/v1/config/request/summary/${q}`]) {
      const tooBig = await post(url, JSON.stringify({ user: user("v-batch"), events: events(70) }));
      expect(tooBig.statusCode, url).toBe(413);
      expect(tooBig.json().error.message).toBe("The body is larger than 64 KiB");
    }
    const admin = await call(app, owner, "POST", "/api/audiences", JSON.stringify({ name: "x".repeat(200_000), condition: {} }));
    expect(admin.statusCode).toBe(400);
    expect(admin.json().error.code).toBe("invalid_body");
    const signInBody = await app.inject({ method: "POST", url: "/api/session", headers: { "content-type": "application/json" }, payload: JSON.stringify({ email: "a@b.example", password: "p".repeat(20_000) }) });
    expect(signInBody.statusCode).toBe(413);
    expect(signInBody.json().error.message).toBe("The body is larger than 16 KiB");
  });
});
