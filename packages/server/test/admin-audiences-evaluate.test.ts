// POST /api/audiences/evaluate: the dashboard's "would this visitor match" tester. It runs the
// very attribute derivation and evaluator of the config call, validates the condition first,
// explains each clause, and stores nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXED_NOW, MEMBER_PASSWORD, addOperator, call, makeApp, signIn } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;

beforeAll(async () => {
  t = await makeApp();
  owner = await signIn(t.app);
});
afterAll(async () => {
  await t.close();
});

type Verdict = { path: string; depth: number; attribute: string | null; operator: string | null; expected: unknown; actual?: unknown; matches: boolean };
type Answer = { matches: boolean; clauses: Verdict[]; attributes: Record<string, unknown> };

const mobileFromSpring = { cf_device_type: "mobile", utm_campaign: { $in: ["spring", "summer"] } };
const visitor = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}, url?: string) => ({
  user: { user_customer_id: "v1", anonymous: true, properties, ...extra },
  ...(url ? { url } : {}),
});

async function evaluate(condition: unknown, v: unknown, auth: Auth = owner): Promise<Answer> {
  const res = await call(t.app, auth, "POST", "/api/audiences/evaluate", { condition, visitor: v });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Answer;
}

describe("POST /api/audiences/evaluate", () => {
  it("matches a visitor whose derived properties and campaign fields fit", async () => {
    const answer = await evaluate(mobileFromSpring, visitor({ cf_device_type: "mobile" }, { utm_campaign: "spring" }));
    expect(answer.matches).toBe(true);
    expect(answer.clauses).toEqual([
      { path: "cf_device_type", depth: 0, attribute: "cf_device_type", operator: null, expected: "mobile", actual: "mobile", matches: true },
      { path: "utm_campaign", depth: 0, attribute: "utm_campaign", operator: null, expected: { $in: ["spring", "summer"] }, actual: "spring", matches: true },
    ]);
    expect(answer.attributes).toMatchObject({ cf_device_type: "mobile", utm_campaign: "spring" });
  });

  it("sees the decision time as a config call does (now)", async () => {
    const answer = await evaluate({ now: { $gte: FIXED_NOW - 1000 } }, visitor({}));
    expect(answer.attributes.now).toBe(FIXED_NOW);
    expect(answer.matches).toBe(true);
    expect((await evaluate({ now: { $gt: FIXED_NOW } }, visitor({}))).matches).toBe(false);
  });

  it("refuses a pattern that could backtrack exponentially, before running it", async () => {
    const started = Date.now();
    const res = await call(t.app, owner, "POST", "/api/audiences/evaluate", {
      condition: { url: { $regex: "^(a+)+$" } },
      visitor: visitor({}, {}, `https://littlesprouts.localhost/${"a".repeat(40)}!`),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/exponential time/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("says which clause failed, with the visitor's value (or none)", async () => {
    const answer = await evaluate(mobileFromSpring, visitor({ cf_device_type: "desktop" }));
    expect(answer.matches).toBe(false);
    expect(answer.clauses.map((c) => [c.attribute, c.matches, c.actual])).toEqual([
      ["cf_device_type", false, "desktop"],
      ["utm_campaign", false, undefined],
    ]);
    expect(answer.clauses[1]).not.toHaveProperty("actual");
  });

  it("explains groups and their parts, and derives path and domain from the URL", async () => {
    const condition = { $or: [{ path: { $regex: "^/products/" } }, { tags: "vip" }], $not: { domain: "example.com" } };
    const answer = await evaluate(condition, visitor({}, { tags: ["new"] }, "https://littlesprouts.localhost/products/oat-cream?x=1"));
    expect(answer.matches).toBe(true);
    expect(answer.clauses.map((c) => [c.path, c.depth, c.operator, c.matches])).toEqual([
      ["$or", 0, "$or", true],
      ["$or[0].path", 1, null, true],
      ["$or[1].tags", 1, null, false],
      ["$not", 0, "$not", true],
      ["$not.domain", 1, null, false],
    ]);
    expect(answer.clauses[1]!.actual).toBe("/products/oat-cream");
    expect(answer.clauses[4]!.actual).toBe("littlesprouts.localhost");
  });

  it("reads first-time visitors and versions as the config call does", async () => {
    const condition = { is_first_time_visitor: true, cf_browser_version: { $vgte: "120" } };
    expect((await evaluate(condition, visitor({ is_first_time_visitor: true, cf_browser_version: "131.0.1" }))).matches).toBe(true);
    expect((await evaluate(condition, visitor({ is_first_time_visitor: false, cf_browser_version: "131.0.1" }))).matches).toBe(false);
    expect((await evaluate(condition, visitor({ is_first_time_visitor: true, cf_browser_version: "119" }))).matches).toBe(false);
  });

  it("refuses an invalid condition with 400 invalid_condition naming where", async () => {
    const res = await call(t.app, owner, "POST", "/api/audiences/evaluate", { condition: { age: { $near: 1 } }, visitor: visitor({}) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: "invalid_condition", message: expect.stringContaining("age.$near") } });
  });

  it("refuses bodies of the wrong shape", async () => {
    for (const body of [{ condition: {} }, { condition: [], visitor: visitor({}) }, { condition: {}, visitor: { url: "x" } }, { condition: {}, visitor: visitor({}), extra: 1 }]) {
      const res = await call(t.app, owner, "POST", "/api/audiences/evaluate", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it("is open to viewers (it changes nothing) and closed to anonymous callers", async () => {
    await addOperator(t.store, t.account.id, "viewer@test.example", "viewer");
    const viewer = await signIn(t.app, { email: "viewer@test.example", password: MEMBER_PASSWORD });
    const revision = t.store.getAccount(t.account.id)!.revision;
    expect((await evaluate({ cf_device_type: "mobile" }, visitor({ cf_device_type: "mobile" }), viewer)).matches).toBe(true);
    expect(t.store.getAccount(t.account.id)!.revision).toBe(revision);
    expect(t.store.listAudiences(t.account.id)).toHaveLength(1);
    const anonymous = await call(t.app, null, "POST", "/api/audiences/evaluate", { condition: {}, visitor: visitor({}) });
    expect(anonymous.statusCode).toBe(401);
  });
});
