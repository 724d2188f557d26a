// The regular expressions of one piece of work run within a time budget (decide/regex-budget.ts):
// an audit held a node for 5 s to 10 minutes with many tests of accepted (quadratic) patterns on
// long values — 2,000 `$regex` clauses in the audience tester, an array of long strings against
// an audience, page patterns against a fresh 3 KB path. These tests assert what is answered, not
// how long it took: without the budget each answer below would be a match, seconds later.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { regexBudget, testRegExp } from "@storefit/contract";
import type { ConfigsResponse } from "@storefit/contract";
import { fromInput } from "../src/admin/experiences.js";
import { decide } from "../src/decide/decide.js";
import type { PagePlan } from "../src/decide/decide.js";
import { MAX_CONDITION_REGEXES } from "../src/decide/conditions.js";
import { REGEX_BUDGET_MS, withRegexBudget } from "../src/decide/regex-budget.js";
import type { Experience } from "../src/store/types.js";
import { DEMO_CLIENT_KEY, FORM, MEMBER_PASSWORD, SHOP_ORIGIN, addOperator, call, experienceBody, makeApp, signIn, user } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

/** Accepted by the save check (quadratic) and about 3 ms a test on 2,048 characters that hold no "zz". */
const QUADRATIC = ".*zz.*";
const LONG = "a".repeat(3000);

describe("withRegexBudget", () => {
  it("once the budget is spent, every further test matches nothing; outside a budget tests are as before", () => {
    const slow = new RegExp(QUADRATIC);
    let matched = 0;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { spent } = withRegexBudget(20, "a test", () => {
      for (let i = 0; i < 5_000; i++) {
        testRegExp(slow, LONG);
        if (testRegExp(/b/, "abc")) matched++;
      }
    });
    // The node says so (at most once every 10 s).
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual(["storefit: the regular expressions of a test ran past their 20 ms; its remaining tests matched nothing"]);
    warn.mockRestore();
    expect(spent).toBe(true);
    expect(matched).toBeGreaterThan(0);
    expect(matched).toBeLessThan(5_000);
    // The browser's behaviour (no clock) is back: no budget, every test runs.
    expect(regexBudget.clock).toBeUndefined();
    expect(testRegExp(/b/, "abc")).toBe(true);
  });

  it("an inner budget spends from the outer one, and a budget nobody spends says so", () => {
    const re = new RegExp(QUADRATIC);
    const outer = withRegexBudget(30, "outer", () => {
      const inner = withRegexBudget(1_000, "inner", () => {
        for (let i = 0; i < 1_000; i++) testRegExp(re, LONG);
      });
      expect(inner.spent).toBe(true);
      return testRegExp(/b/, "b");
    });
    expect(outer).toEqual({ value: false, spent: true });
    expect(withRegexBudget(50, "quiet", () => testRegExp(/b/, "abc"))).toEqual({ value: true, spent: false });
  });

  it("a page plan made past the budget is not kept, nor is the answer marked for the script's cache", () => {
    const pages = Array.from({ length: 60 }, (_, i) => ({ domain: "shop.example", page_path: `.*zz${i}.*`, page_match: "regex" as const }));
    const exp = {
      ...fromInput("acc", "exp_many", experienceBody({ name: "Many patterns", pages }) as never, "running"),
      created_at: "2026-11-01T00:00:00.000Z",
      updated_at: "2026-11-01T00:00:00.000Z",
    } as Experience;
    const planCache = new Map<string, PagePlan>();
    const decideOn = (path: string) =>
      decide({ request: { user: user("v"), current_page_path: path, current_domain: "shop.example" } as never, visitorId: "v", experiences: [exp], audiences: new Map(), assignments: new Map(), attributes: {}, mainDomain: "shop.example", planCache });
    const slow = decideOn("/" + LONG);
    expect(planCache.size).toBe(0);
    expect(slow.cache).toBeNull();
    const fast = decideOn("/zz3/");
    expect(planCache.size).toBe(1);
    expect(fast.cache).not.toBeNull();
    expect(Object.keys(fast.configs).length).toBeGreaterThan(0);
  });
});

describe("through the API", () => {
  let t: TestApp;
  let viewer: Auth;

  beforeAll(async () => {
    t = await makeApp();
    await addOperator(t.store, t.account.id, "viewer@test.example", "viewer");
    viewer = await signIn(t.app, { email: "viewer@test.example", password: MEMBER_PASSWORD });
  }, 60_000);
  afterAll(() => t.close());

  it(`the audience tester refuses a condition of more than ${MAX_CONDITION_REGEXES} $regex clauses, and saves refuse it too`, async () => {
    const condition = { $or: Array.from({ length: MAX_CONDITION_REGEXES + 1 }, () => ({ path: { $regex: QUADRATIC } })) };
    const res = await call(t.app, viewer, "POST", "/api/audiences/evaluate", { condition, visitor: { user: user("t"), url: "http://littlesprouts.localhost/" + LONG } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({ code: "invalid_condition", message: expect.stringMatching(/at most 20/) });
    const owner = await signIn(t.app);
    const save = await call(t.app, owner, "POST", "/api/audiences", { name: "Too many", description: "", condition });
    expect(save.statusCode, save.body).toBe(400);
  }, 60_000);

  it("the audience tester answers 400, not a wrong verdict, when its patterns run past the budget", async () => {
    const condition = { $or: Array.from({ length: MAX_CONDITION_REGEXES }, (_, i) => ({ interests: { $regex: `.*zz${i}.*` } })) };
    const interests = Array.from({ length: 200 }, () => LONG);
    const res = await call(t.app, viewer, "POST", "/api/audiences/evaluate", { condition, visitor: { user: user("t", { properties: { interests } }) } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({ code: "invalid_condition", message: expect.stringMatching(new RegExp(`took more than ${REGEX_BUDGET_MS.admin} ms`)) });
    // The same condition on ordinary values answers.
    const ok = await call(t.app, viewer, "POST", "/api/audiences/evaluate", { condition, visitor: { user: user("t", { properties: { interests: ["a zz3 b"] } }) } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().matches).toBe(true);
  }, 60_000);

  it("a config call whose visitor sends long values against an audience's patterns is answered without the experience, and not marked for the cache", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      // Five patterns no long value matches, then the one "big sale" does: the hostile call's
      // 25 long values cost about 125 tests of a few milliseconds before "sale" is tried.
      const condition = { $or: [...Array.from({ length: 5 }, (_, i) => ({ interests: { $regex: `.*deal${i}.*` } })), { interests: { $regex: ".*sale.*" } }] };
      await t.store.saveAudience({ id: "aud_interests", account_id: t.account.id, name: "Sale lovers", description: "", condition });
      const body = experienceBody({ name: "Sale banner", pages: [{ domain: "littlesprouts.localhost", page_path: "/budget", page_match: "exact_match" }] });
      (body.rules[0] as { audience_id: string | null }).audience_id = "aud_interests";
      await t.store.saveExperience(fromInput(t.account.id, "exp_sale", body as never, "running"));
      const configCall = (interests: string[]) =>
        t.app.inject({
          method: "POST",
          url: `/v1/users/configs/?cfenc=${DEMO_CLIENT_KEY}`,
          headers: { "content-type": FORM, origin: SHOP_ORIGIN },
          payload: JSON.stringify({ user: user("v-budget", { properties: { interests } }), current_page_path: "/budget", current_domain: "littlesprouts.localhost" }),
        });
      const ids = (res: { json(): unknown }) => Object.values((res.json() as ConfigsResponse).configs).map((c) => c.experience_behaviour_response?.experience_id);
      const hostile = await configCall([...Array.from({ length: 25 }, () => "x".repeat(2048)), "big sale"]);
      expect(hostile.statusCode, hostile.body).toBe(200);
      expect(ids(hostile)).not.toContain("exp_sale");
      expect((hostile.json() as { cache?: unknown }).cache).toBeUndefined();
      const shopper = await configCall(["big sale"]);
      expect(ids(shopper)).toContain("exp_sale");
      expect((shopper.json() as { cache?: unknown }).cache).toBeDefined();
    } finally {
      warn.mockRestore();
    }
  }, 60_000);
});
