// recheck's analysis of saved and evaluated patterns (admin/patterns.ts): a pattern it cannot
// prove safe within its budget is refused, never accepted on "unknown", and the analysis runs off
// the event loop. The repro patterns are a security audit's: three "\d*" beside a repetition of
// 400 alternatives timed the analysis out and then took seconds per evaluation on 200 digits.
import { describe, expect, it } from "vitest";
import type { Diagnostics } from "recheck";
import { matchPagePath } from "@storefit/contract";
import { conditionPatterns, diagnosticsProblem, isRefusedStoredPattern, knownPatternProblem, patternProblem, slowPatternProblem, storedPatternsCleared } from "../src/admin/patterns.js";

/** The audit's pattern: cubic in "\d*\d*\d*x", padded past what the analysis settles in time. */
const auditPattern = (alternatives = 400, tag = "") =>
  "\\d*\\d*\\d*x|(?:" + Array.from({ length: alternatives }, (_, i) => "w" + i).join("|") + ")*!" + tag;

/** A cubic pattern with a backreference, which the analysis can only fuzz: it times out. */
const UNDECIDED = "(a)\\1|\\d*\\d*\\d*x";

describe("the verdict of recheck's diagnostics", () => {
  it("refuses unknown (a time-out or unsupported syntax), exponential and degree 3 or more; accepts safe and quadratic", () => {
    const base = { source: "p", flags: "" };
    const unknown = (kind: string) => ({ ...base, status: "unknown", error: { kind } }) as unknown as Diagnostics;
    expect(diagnosticsProblem(unknown("timeout"), 2000)).toMatch(/could not be shown to run in bounded time within 2 s of analysis.*simplify it/);
    expect(diagnosticsProblem(unknown("unsupported"))).toMatch(/could not be shown to run in bounded time.*simplify it/);
    const vulnerable = (complexity: object) => ({ ...base, status: "vulnerable", checker: "fuzz", complexity }) as unknown as Diagnostics;
    expect(diagnosticsProblem(vulnerable({ type: "exponential" }))).toMatch(/exponential/);
    expect(diagnosticsProblem(vulnerable({ type: "polynomial", degree: 4 }))).toMatch(/power 4/);
    expect(diagnosticsProblem(vulnerable({ type: "polynomial", degree: 2 }))).toBeNull();
    expect(diagnosticsProblem({ ...base, status: "safe", checker: "automaton", complexity: { type: "linear", summary: "", isFuzz: false } })).toBeNull();
  });
});

describe("the analysis of a pattern", () => {
  it("refuses the audit's pattern (400 alternatives beside three \\d*), and with 200 alternatives", async () => {
    for (const n of [400, 200]) {
      const problem = await patternProblem(auditPattern(n, `|unit${n}`), true);
      expect(problem, `${n} alternatives`).toMatch(/^is a regular expression that (can take time growing|could not be shown to run in bounded time)/);
    }
  }, 30_000);

  it("refuses a pattern whose analysis times out, naming the budget", async () => {
    expect(await slowPatternProblem(UNDECIDED, "", { budget: 300 })).toMatch(/within 0.3 s of analysis/);
  }, 30_000);

  it("a check under a store's write sees the time-out of the analysis made just before it", async () => {
    // A budget this short times the analysis out (at 2 s it finds the attack in about 1 s).
    const pattern = UNDECIDED + "|write";
    expect(knownPatternProblem(pattern, true, "", 300)).toBeNull(); // not analysed yet: the cheap check only
    const problem = await patternProblem(pattern, true, "", 300);
    expect(problem).toMatch(/could not be shown to run in bounded time within 0.3 s/);
    expect(knownPatternProblem(pattern, true, "", 300)).toBe(problem);
  }, 30_000);

  it("accepts linear and quadratic patterns", async () => {
    for (const p of ["^/products/[^/]+$", "/products/.*/reviews", "^/(en|fr)/collections/", "^(?!/admin)/", "sale"]) {
      expect(await patternProblem(p, true), p).toBeNull();
    }
  }, 30_000);

  it("keeps the event loop turning while it analyses", async () => {
    let turns = 0;
    const timer = setInterval(() => turns++, 20);
    const problem = await slowPatternProblem(UNDECIDED, "", { budget: 600 });
    clearInterval(timer);
    expect(problem).not.toBeNull();
    // A synchronous analysis (the checkSync this replaced) holds the loop for its whole budget: no turn.
    expect(turns).toBeGreaterThan(0);
  }, 30_000);
});

describe("conditionPatterns", () => {
  it("finds every $regex with its $options and the path validateCondition names", () => {
    expect(
      conditionPatterns({
        zip: { $regex: "^9", $options: "i" },
        $and: [{ path: { $not: { $regex: "a" } } }, { tags: { $elemMatch: { $regex: "b", $options: "x" } } }],
      }),
    ).toEqual([
      { path: "zip.$regex", source: "^9", flags: "i" },
      { path: "$and[0].path.$not.$regex", source: "a", flags: "" },
      { path: "$and[1].tags.$elemMatch.$regex", source: "b", flags: "" },
    ]);
  });
});

describe("storedPatternsCleared", () => {
  it("makes each refused page, config and goal pattern match nothing in a copy, records a refused $regex, and keeps the rest", async () => {
    // Proved polynomial in milliseconds: the audit's pattern can time the analysis out on a loaded
    // machine, and a stored pattern whose analysis only times out is kept.
    const bad = "\\d*\\d*\\d*x|^/1+$";
    const page = (page_path: string) => ({ page_path, page_match: "regex" });
    const experience = {
      id: "exp_x",
      pages: [page(bad), page("^/products/")],
      rules: [{ behaviour: { variations: [{ configs: [{ properties: page(bad) }, { properties: { element_path: "#x" } as { page_path?: string; page_match?: string } }] }] } }],
      goals: [{ page: page(bad) }, { page: page("^/checkout$") }],
    };
    const untouched = { ...experience, id: "exp_safe", pages: [page("^/cart$")], rules: [], goals: [] };
    const warnings: string[] = [];
    const [copy, same] = await storedPatternsCleared("acc", [experience, untouched], [{ id: "aud_x", condition: { zip: { $regex: bad } } }], (m) => warnings.push(m));
    expect(same).toBe(untouched);
    expect(copy!.pages.map((p) => p.page_match)).toEqual(["regex_refused", "regex"]);
    expect(copy!.rules[0]!.behaviour.variations[0]!.configs[0]!.properties.page_match).toBe("regex_refused");
    expect(copy!.goals.map((g) => g.page.page_match)).toEqual(["regex_refused", "regex"]);
    expect(matchPagePath(copy!.pages[0]!.page_match, bad, "/111")).toBe(false); // run, it matches
    expect(matchPagePath(experience.pages[0]!.page_match, bad, "/111")).toBe(true);
    expect(experience.pages[0]!.page_match).toBe("regex"); // the stored object is not changed
    expect(isRefusedStoredPattern(bad, "")).toBe(true);
    expect(isRefusedStoredPattern("^/products/", "")).toBe(false);
    // One warning per pattern and node: the audience's and the experience's share the pattern.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^account acc, audience aud_x at zip\.\$regex: the stored pattern .* matches nothing until it is changed$/);
  }, 30_000);
});
