// Issue #17: a regular expression is run at a bounded cost whatever a visitor sends. Values
// tested by audience `$regex`, page patterns and blacklists are cut to REGEX_INPUT_MAX_LENGTH
// characters, and the save check and the evaluator agree on which patterns run at all.
// Timings are generous bounds (a shared, loaded machine): before the cap, the quadratic case
// below took seconds, orders of magnitude past them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchesAnyPattern, matchPagePath, REGEX_INPUT_MAX_LENGTH } from "@storefit/contract";
import { evalCondition, validateCondition } from "../src/decide/conditions.js";
import { nestedRepetitionProblem, patternProblem } from "../src/admin/patterns.js";
import { call, makeApp, signIn } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

// Before the cap these took 15 s to 150 s; a bound this far below still fails on that code, and
// leaves room for a loaded machine (a first run once took 220 ms).
const BOUND_MS = 1_000;

function timed(fn: () => unknown): [result: unknown, ms: number] {
  const start = performance.now();
  const result = fn();
  return [result, performance.now() - start];
}

/** A 320 KB visitor value that makes "/products/.*\/reviews" scan to its end from each of its 32,000 starts. */
const LONG = "/products/".repeat(32_000);

describe("bounded regular expressions", () => {
  it("a quadratic $regex against a 320 KB attribute stays within the bound", () => {
    const condition = { url: { $regex: "/products/.*/reviews" } };
    expect(validateCondition(condition)).toEqual({ ok: true }); // the save check accepts it
    const [matched, ms] = timed(() => evalCondition({ url: LONG }, condition));
    expect(matched).toBe(false);
    expect(ms).toBeLessThan(BOUND_MS);
    // Within the first 2,048 characters it still matches; past them it is not seen.
    expect(evalCondition({ url: "/products/a/reviews" + "x".repeat(400_000) }, condition)).toBe(true);
    expect(evalCondition({ url: "x".repeat(REGEX_INPUT_MAX_LENGTH) + "/products/a/reviews" }, condition)).toBe(false);
  }, 60_000); // the save check's analysis of this pattern takes seconds

  it("page patterns and blacklists test a long URL within the bound", () => {
    const [page, pageMs] = timed(() => matchPagePath("regex", "/products/.*/reviews", LONG));
    expect(page).toBe(false);
    expect(pageMs).toBeLessThan(BOUND_MS);
    const [listed, listMs] = timed(() => matchesAnyPattern(["/products/.*/reviews"], LONG));
    expect(listed).toBe(false);
    expect(listMs).toBeLessThan(BOUND_MS);
    expect(matchPagePath("regex", "^/products/[^/]+/reviews", "/products/a/reviews?" + "q".repeat(10_000))).toBe(true);
  });

  it("a pattern that nests repetition is refused when saved and never run by the evaluator", async () => {
    const nested = "^(a+)+$";
    expect(await patternProblem(nested, true)).toMatch(/nests repetition|exponential/);
    expect(validateCondition({ name: { $regex: nested } })).toMatchObject({ ok: false });
    // Stored before the check: it matches nothing, at once. Run, it takes 2^28 steps: seconds even
    // on an idle machine (26 a's took only 0.3 s once, under the bound, so it proved nothing).
    const [matched, ms] = timed(() => evalCondition({ name: "a".repeat(28) + "!" }, { name: { $regex: nested } }));
    expect(matched).toBe(false);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(evalCondition({ name: "aaa" }, { name: { $regex: "^a+$" } })).toBe(true);
  });

  it("every pattern the save check accepts, the evaluator runs; every one it runs is bounded", async () => {
    const patterns = [
      "/products/.*/reviews", "^/products/[^/]+$", "^/(en|fr)/.*", "sale", "(a+)+b", "(x*)*y", "([a-z]+)*$",
      "a.*b.*c", "(a|a)*b", "^https?://[^/]+/collections/.*", "[0-9]{3,}-[0-9]+", "(\\w+\\s?)+$",
    ];
    for (const p of patterns) {
      const saved = (await patternProblem(p, true)) === null;
      const run = nestedRepetitionProblem(p) === null;
      if (saved) expect(run, p).toBe(true);
      if (!run) expect(saved, p).toBe(false);
      if (saved) {
        // Worst inputs of each family: long runs of one character, with and without the rest.
        for (const input of ["a".repeat(300_000), LONG, "x".repeat(300_000) + "!"]) {
          const [, ms] = timed(() => evalCondition({ v: input }, { v: { $regex: p } }));
          expect(ms, `${p} on ${input.slice(0, 12)}…`).toBeLessThan(BOUND_MS * 4);
        }
      }
    }
  }, 60_000);
});

describe("nested repetition", () => {
  it("is a repeated group that holds a repetition; an optional group is not repeated", () => {
    for (const p of ["(a+)+", "(x*)*y", "([a-z]+)*$", "(\\w+\\s?)+$", "((a+))+", "(?:a+){2,}", "(a*){2,5}", "(a+)+?"]) {
      expect(nestedRepetitionProblem(p), p).not.toBeNull();
    }
    for (const p of ["^/products(/[a-z-]+)?$", "(a+)?", "(a+){0,1}", "(a+){1}", "/products/.*/reviews", "[(a+)]+", "\\(a+\\)+", "(?<=/p/)shoes", "a{2,}b+", "(ab){3}c*"]) {
      expect(nestedRepetitionProblem(p), p).toBeNull();
    }
  });
});

describe("the audience save", () => {
  let t: TestApp;
  let owner: Auth;
  // One app for the file's one test, with room for scrypt's sign-in on a loaded machine.
  beforeAll(async () => {
    t = await makeApp();
    owner = await signIn(t.app);
  }, 60_000);
  afterAll(() => t.close());

  it("refuses a $regex that nests repetition with a 400 naming it", async () => {
    const res = await call(t.app, owner, "POST", "/api/audiences", { name: "Nested", condition: { url: { $regex: "(x+x+)+y" } } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: "invalid_condition" } });
    expect(res.body).toMatch(/repetition|exponential/);
    const ok = await call(t.app, owner, "POST", "/api/audiences", { name: "Reviews", condition: { url: { $regex: "/products/.*/reviews" } } });
    expect(ok.statusCode, ok.body).toBeLessThan(300);
  }, 60_000);
});
