// The admin API's rate limits per operator and per secret key, with a tighter budget for the
// expensive reads (http/admin-limit.ts, docs/security.md "Rate limits and sign-in").
import { afterEach, describe, expect, it } from "vitest";
import type { SecretKeyCreated } from "@storefit/contract";
import { isHeavyRead } from "../src/http/admin-limit.js";
import { DEFAULT_RATE_LIMITS } from "../src/http/rate-limit.js";
import { FIXED_NOW, addOperator, call, makeApp, MEMBER_PASSWORD, signIn } from "./helpers.js";
import type { TestApp } from "./helpers.js";

const VIEWER = { email: "viewer@test.example", password: MEMBER_PASSWORD };

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe("isHeavyRead", () => {
  it("names the expensive reads from the route and query", () => {
    const results = "/api/results/:experienceId";
    expect(isHeavyRead("GET", results, {})).toBe(false);
    expect(isHeavyRead("GET", results, { engine: "sequential", correction: "holm", alpha: "0.05" })).toBe(false);
    expect(isHeavyRead("GET", results, { from: "2026-11-01" })).toBe(true);
    expect(isHeavyRead("GET", results, { to: "2026-11-01" })).toBe(true);
    expect(isHeavyRead("GET", results, { engine: "bayesian" })).toBe(true);
    expect(isHeavyRead("GET", results, { correction: "bh" })).toBe(true);
    expect(isHeavyRead("GET", results, { alpha: "0.1" })).toBe(true);
    expect(isHeavyRead("GET", "/api/events", { limit: "50" })).toBe(false);
    expect(isHeavyRead("GET", "/api/events", { limit: "50", before: "120" })).toBe(false);
    expect(isHeavyRead("GET", "/api/events", { q: "  " })).toBe(false);
    for (const filter of ["type", "domain", "q", "visitor", "experience"]) {
      expect(isHeavyRead("GET", "/api/events", { [filter]: "x" }), filter).toBe(true);
    }
    expect(isHeavyRead("GET", "/api/visitors/:visitor/timeline", {})).toBe(true);
    expect(isHeavyRead("GET", "/api/events/names", { type: "TRACK" })).toBe(true);
    expect(isHeavyRead("POST", "/api/audiences/evaluate", {})).toBe(true);
    expect(isHeavyRead("POST", "/api/page-check", {})).toBe(true);
    // Overlaps run every running experience's page patterns on up to 500 shoppers' paths.
    expect(isHeavyRead("GET", "/api/experiences/:id/overlaps", {})).toBe(true);
    expect(isHeavyRead("GET", "/api/experiences", {})).toBe(false);
    expect(isHeavyRead("POST", "/api/experiences", {})).toBe(false);
  });
});

describe("admin rate limits", () => {
  it("refuse an operator over the heavy budget its heavy reads only; another operator's pass", async () => {
    let now = FIXED_NOW;
    t = await makeApp({ clock: () => now, rateLimits: { adminHeavy: { burst: 3, perSecond: 1 } } });
    await addOperator(t.store, t.account.id, VIEWER.email, "viewer");
    const viewer = await signIn(t.app, VIEWER);
    const owner = await signIn(t.app);
    const search = (auth: typeof viewer, q: string) => call(t!.app, auth, "GET", `/api/events?limit=50&q=${q}`);

    for (const q of ["a", "b", "c"]) expect((await search(viewer, q)).statusCode).toBe(200);
    const refused = await search(viewer, "d");
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.json()).toEqual({ error: { code: "rate_limited", message: "Too many requests; retry after 1 s" } });
    // Every kind of heavy read shares the budget.
    expect((await call(t.app, viewer, "GET", "/api/visitors/visitor-1/timeline")).statusCode).toBe(429);
    const experiences = (await call(t.app, viewer, "GET", "/api/experiences")).json() as { experiences: { id: string }[] };
    const id = experiences.experiences[0]!.id;
    expect((await call(t.app, viewer, "GET", `/api/results/${id}?from=2026-11-01`)).statusCode).toBe(429);

    // Its light reads still pass: the newest page, results as the list asks them, the account.
    expect((await call(t.app, viewer, "GET", "/api/events?limit=50")).statusCode).toBe(200);
    expect((await call(t.app, viewer, "GET", `/api/results/${id}`)).statusCode).toBe(200);
    expect((await call(t.app, viewer, "GET", "/api/account")).statusCode).toBe(200);
    // Another operator's heavy reads pass.
    expect((await search(owner, "d")).statusCode).toBe(200);
    // Signing in again gives no fresh budget: it is the operator's.
    expect((await search(await signIn(t.app, VIEWER), "e")).statusCode).toBe(429);

    now += 1000;
    expect((await search(viewer, "e")).statusCode).toBe(200);
    expect((await search(viewer, "f")).statusCode).toBe(429);
  });

  it("limit an operator's other requests with their own budget", async () => {
    t = await makeApp({ rateLimits: { adminSession: { burst: 2, perSecond: 1 }, adminHeavy: false } });
    const owner = await signIn(t.app);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(t.app, owner, "GET", "/api/experiences")).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    // The heavy reads have their own budget (turned off here).
    expect((await call(t.app, owner, "GET", "/api/events?limit=50&q=x")).statusCode).toBe(200);
  });

  it("hold a secret key's heavy reads to the heavy budget", async () => {
    t = await makeApp({ rateLimits: { adminHeavy: { burst: 2, perSecond: 1 } } });
    const owner = await signIn(t.app);
    const key = ((await call(t.app, owner, "POST", "/api/account/keys", { name: "k" })).json() as SecretKeyCreated).secret;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(t.app, { bearer: key }, "GET", `/api/events?limit=50&type=PAGE`)).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await call(t.app, { bearer: key }, "GET", "/api/events?limit=50")).statusCode).toBe(200);
    expect((await call(t.app, owner, "GET", "/api/events?limit=50&type=PAGE")).statusCode).toBe(200);
  });

  it("never refuse the dashboard's normal use under the defaults (a minute of fake time)", async () => {
    let now = FIXED_NOW;
    // The default budgets, spelled out: a change to them must keep this test passing.
    t = await makeApp({ clock: () => now, rateLimits: { adminSession: DEFAULT_RATE_LIMITS.adminSession, adminHeavy: DEFAULT_RATE_LIMITS.adminHeavy } });
    const owner = await signIn(t.app);
    const refused: string[] = [];
    const get = async (url: string) => {
      const res = await call(t!.app, owner, "GET", url);
      if (res.statusCode === 429) refused.push(`${(now - FIXED_NOW) / 1000} s ${url}`);
    };
    const experiences = (await call(t.app, owner, "GET", "/api/experiences")).json() as { experiences: { id: string }[] };
    const id = experiences.experiences[0]!.id;

    // The experiences list: one results call per experience that is not a draft, all at once
    // (ExperiencesTable's HeadlineResult); 300 experiences.
    for (let i = 0; i < 300; i++) await get(`/api/results/${id}`);
    now += 10_000;
    // The results screen with a date range, then two other ranges and another engine.
    await get(`/api/experiences/${id}`);
    await get("/api/account");
    for (const from of ["2026-11-01", "2026-11-08", "2026-11-15"]) await get(`/api/results/${id}?from=${from}&to=2026-11-22`);
    await get(`/api/results/${id}?engine=bayesian&from=2026-11-15&to=2026-11-22`);
    now += 5_000;
    // Live events (api/events.ts): the newest page every 2 s; the operator types a 30-character
    // search at 8 keystrokes a second, one filtered read per keystroke (no pause is waited for),
    // with a visitor's timeline open; then the filtered page and the timeline are polled every
    // 2 s, beside the newest page, for a minute.
    await get("/api/session");
    await get("/api/account");
    await get("/api/experiences");
    const search = "/products/organic-cotton-onesi";
    for (let i = 1; i <= search.length; i++) {
      if (i % 16 === 1) {
        await get("/api/events?limit=50");
        await get("/api/visitors/visitor-1/timeline");
      }
      await get(`/api/events?limit=50&q=${encodeURIComponent(search.slice(0, i))}`);
      now += 125;
    }
    for (let s = 0; s < 60; s += 2) {
      await get("/api/events?limit=50");
      await get(`/api/events?limit=50&q=${encodeURIComponent(search)}`);
      await get("/api/visitors/visitor-1/timeline");
      now += 2_000;
    }
    expect(refused).toEqual([]);
  });
});
