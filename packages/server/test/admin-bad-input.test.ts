// Every write of the admin API against bad input: invalid JSON, a wrong type, an unknown key, a
// body over 1 MiB, the wrong content type. Each gets a 4xx JSON error, nothing is stored, and the
// service keeps answering.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, makeApp, signIn } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;
let snapshot: () => string;

beforeAll(async () => {
  t = await makeApp();
  owner = await signIn(t.app);
  const id = t.account.id;
  snapshot = () =>
    JSON.stringify([
      t.store.getAccount(id),
      t.store.listExperiences(id),
      t.store.listAudiences(id),
      t.store.listOperators(id),
      t.store.listSecretKeys(id),
    ]);
});
afterAll(async () => {
  await t.close();
});

type Write = { method: "POST" | "PUT" | "PATCH"; url: string; wrongType: unknown; unknownKey: unknown };

const WRITES: Write[] = [
  { method: "PATCH", url: "/api/account", wrongType: { name: 5 }, unknownKey: { nickname: "x" } },
  { method: "POST", url: "/api/account/members", wrongType: { email: "a@b.example", password: 1234567890, role: "viewer" }, unknownKey: { email: "a@b.example", password: "long-enough-1", role: "viewer", admin: true } },
  { method: "PATCH", url: "/api/account/members/op_owner", wrongType: { role: 1 }, unknownKey: { role: "owner", email: "x@y.example" } },
  { method: "POST", url: "/api/account/keys", wrongType: { name: ["ci"] }, unknownKey: { name: "ci", scope: "all" } },
  { method: "POST", url: "/api/experiences", wrongType: { name: "x", kind: "ab_test", pages: {}, rules: [] }, unknownKey: { name: "x", kind: "ab_test", pages: [], rules: [], owner: "me" } },
  { method: "PUT", url: "/api/experiences/exp_price_message", wrongType: { name: "x", kind: "ab_test", pages: [], rules: "all" }, unknownKey: { name: "x", kind: "ab_test", pages: [], rules: [], id: "exp_other" } },
  { method: "PATCH", url: "/api/experiences/exp_price_message", wrongType: { priority: 1.5 }, unknownKey: { status: "paused" } },
  { method: "POST", url: "/api/experiences/exp_price_message/status", wrongType: { status: true }, unknownKey: { status: "paused", reason: "x" } },
  { method: "POST", url: "/api/audiences", wrongType: { name: "x", condition: "mobile" }, unknownKey: { name: "x", condition: {}, tags: [] } },
  { method: "PUT", url: "/api/audiences/aud_first_time_visitors", wrongType: { name: 1, condition: {} }, unknownKey: { name: "x", condition: {}, id: "y" } },
  { method: "POST", url: "/api/session", wrongType: { email: "a@b.example", password: 1 }, unknownKey: { email: "a@b.example", password: "x", remember: true } },
];

describe.each(WRITES)("$method $url", (w) => {
  const cases: [string, unknown, Record<string, string>, number, string][] = [
    ["invalid JSON", "{nope", {}, 400, "invalid_json"],
    ["a wrong type", w.wrongType, {}, 400, "invalid_body"],
    ["an unknown key", w.unknownKey, {}, 400, "invalid_body"],
    ["a body over 1 MiB", JSON.stringify({ name: "x".repeat(1_100_000) }), {}, 413, "payload_too_large"],
    ["a form-encoded body", JSON.stringify(w.unknownKey), { "content-type": "application/x-www-form-urlencoded" }, 415, "unsupported_media_type"],
  ];
  for (const [name, body, headers, status, code] of cases) {
    it(`${name} → ${status} ${code}, nothing stored`, async () => {
      const before = snapshot();
      const res = await call(t.app, owner, w.method, w.url, body, headers);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ error: { code } });
      expect(snapshot()).toBe(before);
      expect((await t.app.inject("/healthz")).statusCode).toBe(200);
    });
  }
});

describe("anonymous callers and client keys", () => {
  it("get 401 on every admin route but sign-in and the OpenAPI document", async () => {
    const doc = (await t.app.inject("/api/openapi.json")).json() as { paths: Record<string, Record<string, unknown>> };
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith("/api/") || path === "/api/openapi.json") continue;
      for (const method of Object.keys(ops)) {
        if (path === "/api/session" && method === "post") continue;
        const url = path.replace(/\{[^}]+\}/g, "x1");
        for (const headers of [{}, { cfenc: "ck_demo_littlesprouts" }, { authorization: "Bearer ck_demo_littlesprouts" }]) {
          const res = await t.app.inject({ method: method.toUpperCase() as "GET", url, headers });
          expect(res.statusCode, `${method} ${url}`).toBe(401);
          expect(res.json()).toMatchObject({ error: { code: "unauthorized" } });
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
