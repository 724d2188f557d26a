// How long the operators' regular expressions may run for one piece of work. Every accepted
// pattern backtracks at most quadratically (admin/patterns.ts) and reads at most 2,048 characters
// (contract testRegExp), so one test costs at most a few milliseconds — but one request can make
// thousands: an audience of 2,000 `.*checkout.*` clauses in the audience tester, an experience
// with 200 such page patterns and a config call for a fresh 3 KB path, an array of 30 long strings
// in a visitor's properties, an overlaps check over planted page paths. An audit held a node for
// 5 s to over 10 minutes that way. So each piece of work gets a time budget (contract
// `regexBudget`): once spent, its remaining tests match nothing, as a pattern refused when stored
// does, and the node logs it. Ordinary work spends microseconds of it, so only work built to be
// slow reaches it (being time, where such work stops can differ between nodes and loads); what
// was computed past it is never kept (a page plan, a kept answer).

import { regexBudget } from "@storefit/contract";
import { performance } from "node:perf_hooks";

/** Milliseconds of regular expressions per piece of work. */
export const REGEX_BUDGET_MS = {
  /** One config call's decision: the page plan and the audiences. */
  decision: 50,
  /** One operator's read or test: the audience tester, an overlaps check, the results' diagnostics. */
  admin: 250,
} as const;

/** The least time between two warnings of a spent budget (a flood of them would be its own load). */
const WARN_EVERY_MS = 10_000;
let warnedAt = -Infinity;

const now = (): number => performance.now();

/**
 * Runs `work` (synchronous) with at most `ms` of regular expressions: tests after that match
 * nothing. Inside another budget, the smaller of the two applies and the time is spent from both.
 * `spent` is true when the budget ran out (the caller may refuse to keep what it computed).
 */
export function withRegexBudget<T>(ms: number, what: string, work: () => T): { value: T; spent: boolean } {
  const outer = regexBudget.clock ? regexBudget.left : null;
  const budget = outer === null ? ms : Math.min(ms, outer);
  regexBudget.left = budget;
  regexBudget.clock = now;
  let spent = false;
  try {
    const value = work();
    spent = regexBudget.left <= 0;
    return { value, spent };
  } finally {
    const used = budget - regexBudget.left;
    if (regexBudget.left <= 0) warnSpent(what, ms);
    if (outer === null) {
      regexBudget.left = 1;
      regexBudget.clock = undefined;
    } else {
      regexBudget.left = outer - used;
    }
  }
}

/** Whether the budget of the work now running is spent (false outside any budget). */
export const regexBudgetSpent = (): boolean => regexBudget.clock !== undefined && regexBudget.left <= 0;

function warnSpent(what: string, ms: number): void {
  const t = now();
  if (t - warnedAt < WARN_EVERY_MS) return;
  warnedAt = t;
  console.warn(`storefit: the regular expressions of ${what} ran past their ${ms} ms; its remaining tests matched nothing`);
}
