// Faults of recheck's analyser (admin/patterns.ts): an agent that dies or stalls mid-analysis
// settles the check as "busy" and the next check runs in a fresh agent (recheck 4.5.0 alone never
// settles it and keeps the dead agent, so every later check waited forever); a stored pattern the
// analysis only fails to settle (a time-out, unsupported syntax) is kept, never turned off for good.
// The agent tests run the real native agent (or JAR) and are skipped where neither is installed.
import { createRequire } from "node:module";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Diagnostics } from "recheck";
import type * as Recheck from "recheck";
import {
  CHECK_BUDGET_MS,
  isRefusedStoredPattern,
  patternProblem,
  setAnalyserFailureLog,
  slowPatternProblem,
  storedPatternsCleared,
} from "../src/admin/patterns.js";

/** Sources holding these words get a fixed answer from "recheck"; every other pattern is analysed for real. */
const answered = vi.hoisted(() => ({ calls: new Map<string, number>() }));
vi.mock("recheck", async (importOriginal) => {
  const real = await importOriginal<typeof Recheck>();
  const unknown = (source: string, flags: string, kind: string) => ({ source, flags, status: "unknown", error: { kind } }) as unknown as Diagnostics;
  return {
    ...real,
    check: (source: string, flags: string, params?: object) => {
      answered.calls.set(source, (answered.calls.get(source) ?? 0) + 1);
      if (source.includes("force-timeout")) return Promise.resolve(unknown(source, flags, "timeout"));
      if (source.includes("force-unsupported")) return Promise.resolve(unknown(source, flags, "unsupported"));
      return real.check(source, flags, params);
    },
  };
});

const BUSY = /could not be analysed just now \(the pattern check is busy or failed\); try again/;
/** Cubic with a backreference: the analysis can only fuzz it, and runs its whole budget. */
const LONG_ANALYSIS = "(a)\\1|\\d*\\d*\\d*x";

type Backends = { agent?: { child: ChildProcess } | null };
const backends = (createRequire(import.meta.url)("recheck/lib/main.js") as { __mock__: Backends }).__mock__;

const failures: string[] = [];
let previousLog: (m: string) => void;
let agentPresent = false;
beforeAll(async () => {
  previousLog = setAnalyserFailureLog((m) => failures.push(m));
  // Starts the agent (native binary, else the JAR), as any first check does.
  expect(await patternProblem("^/warm-up$", true)).toBeNull();
  agentPresent = backends.agent != null;
  if (!agentPresent) console.warn("regex-analysis-faults: recheck has no agent here (no native binary for this platform, no java): the agent tests are skipped");
}, 60_000);
afterAll(() => setAnalyserFailureLog(previousLog));

const agentPid = (): number => {
  const pid = backends.agent?.child.pid;
  if (pid === undefined) throw new Error("no agent running");
  return pid;
};

describe("the analyser's faults", () => {
  it("an agent killed mid-analysis: the check answers busy, is logged, and the next check runs in a new agent", async (ctx) => {
    if (!agentPresent) ctx.skip();
    const pid = agentPid();
    failures.length = 0;
    // Stopped first, so the agent cannot answer before it dies, however fast the machine.
    process.kill(pid, "SIGSTOP");
    const analysing = slowPatternProblem(LONG_ANALYSIS + "|killed", "", { budget: 20_000 });
    await new Promise((r) => setTimeout(r, 300));
    process.kill(pid, "SIGKILL");
    expect(await analysing).toMatch(BUSY);
    expect(failures.join("\n")).toMatch(/agent exited \(SIGKILL\)/);
    // The queue moved on, and a fresh agent answers.
    expect(await patternProblem("^/after-the-kill$", true)).toBeNull();
    expect(await patternProblem("(a|a)*b-after-kill", true)).toMatch(/exponential/);
    expect(agentPid()).not.toBe(pid);
  }, 30_000);

  it("an agent dead between analyses is replaced at the next check", async (ctx) => {
    if (!agentPresent) ctx.skip();
    const pid = agentPid();
    process.kill(pid, "SIGKILL");
    await new Promise((r) => setTimeout(r, 300));
    expect(await patternProblem("^/after-an-idle-death$", true)).toBeNull();
    expect(agentPid()).not.toBe(pid);
  }, 30_000);

  it("a stalled agent: the check answers busy after its budget and slack, the agent is replaced and the next check works", async (ctx) => {
    if (!agentPresent) ctx.skip();
    const pid = agentPid();
    failures.length = 0;
    process.kill(pid, "SIGSTOP"); // gets no CPU, as under a load spike or a hung process
    try {
      expect(await slowPatternProblem("^/stalled/[a-z]+$", "", { budget: 300 })).toMatch(BUSY);
    } finally {
      try {
        process.kill(pid, "SIGCONT");
      } catch {
        // killed as stuck
      }
    }
    expect(failures.join("\n")).toMatch(/gave no answer within 3.3 s/);
    expect(await patternProblem("^/after-the-stall$", true)).toBeNull();
    expect(agentPid()).not.toBe(pid);
  }, 30_000);

  it("a stored pattern whose analysis the agent's death interrupts is kept, and warned", async (ctx) => {
    if (!agentPresent) ctx.skip();
    const source = LONG_ANALYSIS.replace("x", "y") + "|stored-kill";
    const warnings: string[] = [];
    const pid = agentPid();
    process.kill(pid, "SIGSTOP");
    setTimeout(() => process.kill(pid, "SIGKILL"), 300);
    await storedPatternsCleared("acc", [], [{ id: "aud_k", condition: { zip: { $regex: source } } }], (m) => warnings.push(m));
    expect(isRefusedStoredPattern(source, "")).toBe(false);
    expect(warnings.join("\n")).toMatch(/could not be analysed just now.*it is kept \(not proved unsafe\)/);
  }, 30_000);
});

describe("stored patterns the analysis does not settle", () => {
  const page = (page_path: string) => ({ page_path, page_match: "regex" });
  const experience = (id: string, path: string) => ({ id, pages: [page(path)], rules: [], goals: [] });

  it("a time-out keeps the pattern (cheap check only), warns, and analyses it again at the next preparation", async () => {
    const source = "^/(en|fr)/products/(a-force-timeout|b)$";
    const warnings: string[] = [];
    const exp = experience("exp_t", source);
    const conditions = [{ id: "aud_t", condition: { "page.url": { $regex: source } } }];
    const [first] = await storedPatternsCleared("acc", [exp], conditions, (m) => warnings.push(m));
    expect(first).toBe(exp); // not neutralised
    expect(isRefusedStoredPattern(source, "")).toBe(false);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^account acc, audience aud_t at page\.url\.\$regex: the stored pattern .* ran out of time.*it is kept \(not proved unsafe\)$/);
    const before = answered.calls.get(source)!;
    await storedPatternsCleared("acc", [exp], conditions, (m) => warnings.push(m));
    expect(answered.calls.get(source)).toBeGreaterThan(before); // not cached: analysed again
    expect(isRefusedStoredPattern(source, "")).toBe(false);
  });

  it("unsupported syntax keeps the pattern and is warned once per node", async () => {
    const source = "^/force-unsupported/[a-z]+$";
    const warnings: string[] = [];
    const conditions = [{ id: "aud_u", condition: { zip: { $regex: source } } }];
    await storedPatternsCleared("acc", [], conditions, (m) => warnings.push(m));
    await storedPatternsCleared("acc", [], conditions, (m) => warnings.push(m));
    expect(isRefusedStoredPattern(source, "")).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/does not support its syntax: unsupported.*it is kept/);
  });

  it("a proved-unsafe stored pattern is still turned off", async () => {
    const source = "^/(x|x)*y-stored$";
    const warnings: string[] = [];
    const [copy] = await storedPatternsCleared("acc", [experience("exp_u", source)], [], (m) => warnings.push(m));
    expect(copy!.pages[0]!.page_match).toBe("regex_refused");
    expect(warnings[0]).toMatch(/exponential.*matches nothing until it is changed/);
  }, 30_000);

  it("an operator's time-out says the check ran out of time, not only that the pattern is too complex", async () => {
    expect(await patternProblem("^/force-timeout/operator$", true)).toMatch(
      new RegExp(`within ${CHECK_BUDGET_MS / 1000} s of analysis: the check ran out of time \\(the server may be busy\\); try again, or if the pattern is very long, simplify it`),
    );
  });

  it("a verdict settled by an operator's save serves the stored check (no second analysis for its larger budget)", async () => {
    const source = "^/saved-then-stored/[a-z-]+$";
    expect(await patternProblem(source, true)).toBeNull();
    await storedPatternsCleared("acc", [experience("exp_s", source)], [], () => {});
    expect(answered.calls.get(source)).toBe(1);
  }, 30_000);
});
