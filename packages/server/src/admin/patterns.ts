// Regular expressions an operator saves: page targeting (experiences, configs, goals), audience
// `$regex` conditions and the account's page, revenue, merge and blacklist patterns. The service
// matches experience pages against the path every config call names and audience patterns
// against what visitors send; the script matches the account's patterns against every visitor's
// URL and referrer — all chosen by whoever sends the request or the link. A pattern that can
// backtrack for exponential time ("(a+)+b", "(a|a)*") would let one crafted path hold a node, or
// a shopper's tab, for seconds to hours; such patterns are refused when saved, and an experience
// holding one (saved before this check) cannot be started.
//
// Every test of a saved pattern reads at most REGEX_INPUT_MAX_LENGTH (2,048) characters of its
// text (contract testRegExp; a longer URL or attribute is cut), so what a pattern may cost is
// bounded by its backtracking degree at that length. Two checks:
// - nestedRepetitionProblem, cheap (star height: repetition inside repetition, "(a+)+", can take
//   exponential time even on 2,048 characters), synchronous: validateCondition and the evaluator
//   (decide/conditions.ts) use it too;
// - recheck's analysis (https://makenowjust-labs.github.io/recheck/), which decides whether
//   backtracking can take exponential or polynomial time. It can take seconds, so it never runs on
//   the event loop: `check` hands it to recheck's agent (its native binary, or the JAR, as a child
//   process; without either, a worker thread), one pattern at a time per node, each within
//   CHECK_BUDGET_MS. Accepted: "safe", and polynomial of degree 2 at most (every unanchored
//   pattern with a `.*` is quadratic, "/products/.*/reviews", and 2,048² steps stay within
//   milliseconds). Refused: exponential, degree 3 or more (2,048³ is 10^10 steps), and every
//   pattern the analysis cannot settle within its budget ("unknown": a time-out, or syntax it
//   does not support). A pattern that only times out the analysis is no proof of safety: one of
//   400 alternatives beside three "\d*" timed the analysis out and took seconds per config call.
// Where patterns are checked:
// - when saved or evaluated by an operator (experiences, goals, configs, audiences, the audience
//   tester, the account's settings): refused with a 400 naming the field;
// - when an account's data is prepared for decisions (decide/snapshots.ts, storedPatternsCleared),
//   and before the admin API matches stored experiences' page and goal patterns against stored
//   page views (results, their diagnostics, overlaps): a stored pattern the analysis proves unsafe
//   (exponential, degree 3 or more) matches nothing on this node (a page pattern no page, a
//   `$regex` no value) and is logged once per node. One it cannot settle (a time-out, which
//   depends on the node's load, a failed analyser, unsupported syntax) is logged and kept with the
//   cheap check: an operator saved it, and turning it off for good on one node's busy moment would
//   break a safe pattern; a time-out is analysed again at the account's next preparation.
// The analyser is a process of its own (or a worker thread) and may die (the OOM killer) or stall:
// each analysis has a timer of its own, and an analyser that dies or overruns is thrown away so
// the next analysis starts a fresh one; the queue never waits on a dead process.

import type { ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { check } from "recheck";
import type { Diagnostics } from "recheck";
import { HttpError } from "../http/errors.js";

/** Highest polynomial degree of backtracking accepted (at 2,048 characters: about 4 million steps). */
const MAX_DEGREE = 2;

/**
 * Why a pattern nests repetition (and could take exponential time), or null. Cheap enough for the
 * evaluator, which runs no pattern this refuses; the save check refuses it first.
 */
export function nestedRepetitionProblem(pattern: string): string | null {
  return repeatsARepetition(pattern) ? "nests repetition (like (a+)+) and could take exponential time" : null;
}

/**
 * Whether a group holding a repetition is itself repeated: the star height above 1 that can
 * backtrack exponentially. Unlike safe-regex2, an optional group (`?`, `{0,1}`) is no
 * repetition — `^/products(/[a-z-]+)?$` is as cheap as its parts — while `*`, `+`, `{n,}` and
 * `{n,m}` with m ≥ 2 are. One pass over the source: escapes and character classes are skipped,
 * each open group records whether it holds a repetition.
 */
function repeatsARepetition(source: string): boolean {
  const holds: boolean[] = [false];
  let groupJustClosed = false;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const closed = groupJustClosed;
    groupJustClosed = false;
    if (c === "\\") {
      i += 2;
    } else if (c === "[") {
      // A class ends at the first "]" not escaped (a "]" right after "[" or "[^" is literal).
      let j = i + 1;
      if (source[j] === "^") j++;
      if (source[j] === "]") j++;
      while (j < source.length && source[j] !== "]") j += source[j] === "\\" ? 2 : 1;
      i = j + 1;
    } else if (c === "(") {
      holds.push(false);
      i++;
    } else if (c === ")") {
      const inner = holds.length > 1 ? holds.pop()! : false;
      if (inner) holds[holds.length - 1] = true;
      groupJustClosed = inner;
      i++;
    } else if (c === "*" || c === "+" || c === "?" || c === "{") {
      const braces = c === "{" ? /^\{(\d*)(,(\d*))?\}/.exec(source.slice(i, i + 24)) : null;
      if (c === "{" && !braces) {
        i++; // a literal "{"
        continue;
      }
      const repeats = c === "*" || c === "+" || (braces !== null && (braces[2] !== undefined ? braces[3] === "" || Number(braces[3]) >= 2 : Number(braces[1]) >= 2));
      if (repeats && closed) return true;
      if (repeats) holds[holds.length - 1] = true;
      i += braces ? braces[0].length : 1;
      if (source[i] === "?") i++; // lazy
    } else {
      i++;
    }
  }
  return false;
}

/** What one analysis may take (recheck's own time-out, measured from when it starts). */
export const CHECK_BUDGET_MS = 2000;
/**
 * What the analysis of a stored pattern may take. Larger than an operator's: such a pattern was
 * accepted when saved, and a time-out here settles nothing (it is analysed again at the next
 * preparation), so a loaded node should rather finish it once. A decision waits for it only at
 * the first config call of a revision, and only for a pattern not yet settled on this node.
 */
export const STORED_CHECK_BUDGET_MS = 4000;
/**
 * Beyond its budget, how long an analysis may go unanswered before the analyser is deemed stuck
 * (starting the agent, a stalled or dead process): the job answers "busy" and the analyser is
 * replaced.
 */
export const CHECK_SLACK_MS = 3000;
/** Operators' checks waiting for the analysis beyond this are refused (try again): the queue is bounded. */
const MAX_WAITING = 16;

/**
 * recheck's backends as its module holds them: `agent` the child process (undefined: start one
 * at the next check), `pool` the worker threads. recheck 4.5.0 exports this as `__mock__` from
 * lib/main.js (its index re-exports only check): it never settles a check whose agent died and
 * keeps using the dead agent, so this module drops it itself. Undefined if a later recheck
 * removes it: then a dead agent is still timed out, but cannot be replaced.
 */
type Backends = { agent?: { child: ChildProcess; kill(): void } | null; pool: { kill(): void } | null };
const backends: Backends | undefined = (() => {
  try {
    const mock = (createRequire(import.meta.url)("recheck/lib/main.js") as { __mock__?: Backends }).__mock__;
    return mock && typeof mock === "object" && "pool" in mock ? mock : undefined;
  } catch {
    return undefined;
  }
})();

/** Where the analyser's failures are logged. */
let logAnalyserFailure = (message: string): void => console.warn(`storefit: the regular-expression analysis ${message}`);
/** For tests: where the analyser's failures go; returns the previous sink. */
export function setAnalyserFailureLog(log: (message: string) => void): (message: string) => void {
  const previous = logAnalyserFailure;
  logAnalyserFailure = log;
  return previous;
}

/** Throws the analyser away (killing it if alive): the next check starts a fresh one. */
function discardAnalyser(): void {
  if (!backends) return;
  const agent = backends.agent;
  backends.agent = undefined;
  if (agent) {
    try {
      agent.kill();
    } catch {
      // already gone
    }
  }
  const pool = backends.pool;
  backends.pool = null;
  pool?.kill();
}

/** Agents this module watches for an exit of their own. */
const watched = new WeakSet<object>();
/** The running job's way out when its agent dies under it. */
let failRunning: ((why: string) => void) | null = null;

/**
 * Watches the current agent: when it dies on its own it is dropped (recheck would keep writing
 * to it) and the analysis it held answers at once. Its stdin gets an error listener: a write to a
 * dead agent's pipe (EPIPE) would otherwise be an uncaught error.
 */
function watchAgent(): void {
  const agent = backends?.agent;
  if (!agent || watched.has(agent)) return;
  watched.add(agent);
  agent.child.stdin?.on("error", () => {});
  agent.child.once("exit", (code, signal) => {
    if (backends?.agent !== agent) return; // thrown away by this module
    backends.agent = undefined;
    const why = `agent exited (${signal ?? `code ${code}`})`;
    if (failRunning) failRunning(why);
    else logAnalyserFailure(`${why}; the next analysis starts a new one`);
  });
}

type Job = { source: string; flags: string; budget: number; resolve: (d: Diagnostics | null) => void };
/** Checks of stored patterns go first: decisions wait for them (storedPatternsCleared). */
const stored: Job[] = [];
const operators: Job[] = [];
let running = false;

function runNext(): void {
  const job = stored.shift() ?? operators.shift();
  if (!job) {
    running = false;
    return;
  }
  running = true;
  let settled = false;
  const settle = (d: Diagnostics | null, failure?: string): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    failRunning = null;
    watchAgent(); // an agent this check started, from now on
    if (failure !== undefined) {
      logAnalyserFailure(`${failure}; the pattern ${JSON.stringify(job.source.slice(0, 200))} is answered "busy" and the analyser replaced`);
      discardAnalyser();
    }
    job.resolve(d);
    runNext();
  };
  const timer = setTimeout(() => settle(null, `gave no answer within ${(job.budget + CHECK_SLACK_MS) / 1000} s`), job.budget + CHECK_SLACK_MS);
  failRunning = (why) => settle(null, why);
  watchAgent();
  check(job.source, job.flags, { timeout: job.budget }).then(
    (d) => settle(d),
    (e: unknown) => settle(null, `failed (${e instanceof Error ? e.message : String(e)})`),
  );
}

/** recheck's diagnostics, off the event loop; null when the analysis failed or the queue is full. */
function analyse(source: string, flags: string, budget: number, priority: boolean): Promise<Diagnostics | null> {
  if (!priority && operators.length >= MAX_WAITING) return Promise.resolve(null);
  return new Promise((resolve) => {
    (priority ? stored : operators).push({ source, flags, budget, resolve });
    if (!running) runNext();
  });
}

const BUSY = "could not be analysed just now (the pattern check is busy or failed); try again";

/** Why recheck's diagnostics refuse a pattern, or null when they accept it. */
export function diagnosticsProblem(d: Diagnostics, budget = CHECK_BUDGET_MS): string | null {
  if (d.status === "safe") return null;
  if (d.status === "unknown") {
    return d.error.kind === "timeout"
      ? `could not be shown to run in bounded time within ${budget / 1000} s of analysis: the check ran out of time (the server may be busy); try again, or if the pattern is very long, simplify it`
      : `could not be shown to run in bounded time (the analysis does not support its syntax: ${d.error.kind}); simplify it`;
  }
  const c = d.complexity;
  return c.type === "exponential"
    ? "can take exponential time on some inputs (a repetition of alternatives or repetitions that overlap, like (a|a)* or (a+)+); simplify it"
    : c.degree > MAX_DEGREE
      ? `can take time growing as the input's length to the power ${c.degree} (repetitions side by side, like a.*b.*c or \\d*\\d*x); anchor it or use [^/]* instead of .*`
      : null;
}

/**
 * What the analysis says of a pattern. `unsafe`: proved to backtrack too much (exponential, degree
 * 3 or more, nested repetition); `unsettled`: the analysis does not support its syntax (as
 * deterministic as a proof, so cached); `busy`: it timed out, the analyser failed or its queue was
 * full — a matter of this node's moment as much as of the pattern, so not cached.
 */
type Verdict = { kind: "safe"; problem: null } | { kind: "unsafe" | "unsettled" | "busy"; problem: string };

// Verdicts per pattern, shared by every account on this node (the same pattern costs one analysis).
// Keyed without the budget: a settled verdict does not depend on it. Cleared when full, so
// distinct patterns cannot grow it without bound; a "busy" one is not kept. `pending`: analyses
// under way, so concurrent asks share one.
const verdicts = new Map<string, Verdict>();
const pending = new Map<string, Promise<Verdict>>();
const VERDICT_CACHE_SIZE = 2000;
/** Time-outs, for knownPatternProblem only: a check under a write sees the analysis made just before it. */
const timedOut = new Map<string, string>();

function verdictOf(d: Diagnostics | null, budget: number): Verdict {
  if (d === null) return { kind: "busy", problem: BUSY };
  const problem = diagnosticsProblem(d, budget);
  if (problem === null) return { kind: "safe", problem: null };
  if (d.status !== "unknown") return { kind: "unsafe", problem };
  return { kind: d.error.kind === "unsupported" || d.error.kind === "invalid" ? "unsettled" : "busy", problem };
}

/** slowPatternProblem's verdict, with its kind. */
function analysedVerdict(pattern: string, flags: string, opts: { priority?: boolean; budget?: number }): Promise<Verdict> {
  const nested = nestedRepetitionProblem(pattern);
  if (nested) return Promise.resolve({ kind: "unsafe", problem: nested });
  const budget = opts.budget ?? CHECK_BUDGET_MS;
  const key = `${flags}/${pattern}`;
  const known = verdicts.get(key);
  if (known !== undefined) return Promise.resolve(known);
  const pendingKey = `${budget}/${key}`;
  let verdict = pending.get(pendingKey);
  if (!verdict) {
    verdict = analyse(pattern, flags, budget, opts.priority === true).then((d) => {
      pending.delete(pendingKey);
      const v = verdictOf(d, budget);
      // A time-out depends on the machine's load as much as on the pattern: not kept, so a retry
      // analyses it again (a hostile pattern costs the same as a new one would).
      if (d?.status === "unknown" && d.error.kind === "timeout") {
        if (timedOut.size >= VERDICT_CACHE_SIZE) timedOut.clear();
        timedOut.set(pendingKey, v.problem!);
      } else if (v.kind !== "busy") {
        timedOut.delete(pendingKey);
        if (verdicts.size >= VERDICT_CACHE_SIZE) verdicts.clear();
        verdicts.set(key, v);
      }
      return v;
    });
    pending.set(pendingKey, verdict);
  }
  return verdict;
}

/**
 * Why a pattern that compiles could take too long, or null when it is proved safe. Never blocks
 * the event loop for the analysis. `priority`: a stored pattern a decision waits for.
 */
export function slowPatternProblem(pattern: string, flags = "", opts: { priority?: boolean; budget?: number } = {}): Promise<string | null> {
  return analysedVerdict(pattern, flags, opts).then((v) => v.problem);
}

/** Why `pattern` cannot be saved, or null. `invalid`: whether a pattern that does not compile is refused too. */
export async function patternProblem(pattern: string, invalid: boolean, flags = "", budget = CHECK_BUDGET_MS): Promise<string | null> {
  const compiled = compileProblem(pattern, invalid, flags);
  if (compiled !== undefined) return compiled;
  const slow = await slowPatternProblem(pattern, flags, { budget });
  return slow ? `is a regular expression that ${slow}` : null;
}

/**
 * As patternProblem, synchronously, from what this node knows: the cheap check and a cached
 * verdict. For checks inside a store's atomic write, which must not wait (ARCHITECTURE.md); the
 * route analyses the same patterns before the write, so the verdict is normally cached. One that
 * is not (a pattern saved meanwhile by another node, which analysed it) passes here, and is
 * analysed again when the account is prepared for decisions.
 */
export function knownPatternProblem(pattern: string, invalid: boolean, flags = "", budget = CHECK_BUDGET_MS): string | null {
  const compiled = compileProblem(pattern, invalid, flags);
  if (compiled !== undefined) return compiled;
  const slow = nestedRepetitionProblem(pattern) ?? verdicts.get(`${flags}/${pattern}`)?.problem ?? timedOut.get(`${budget}/${flags}/${pattern}`) ?? null;
  return slow ? `is a regular expression that ${slow}` : null;
}

/** null: a valid pattern that needs no analysis (none); a reason: it does not compile; undefined: analyse it. */
function compileProblem(pattern: string, invalid: boolean, flags: string): string | null | undefined {
  try {
    new RegExp(pattern, flags);
  } catch {
    return invalid ? "is not a valid regular expression" : null;
  }
  return undefined;
}

/** Throws a 400 `invalid_body` naming `where` when the pattern cannot be saved. */
export async function checkPattern(where: string, pattern: string, invalid = true): Promise<void> {
  const problem = await patternProblem(pattern, invalid);
  if (problem) throw new HttpError(400, "invalid_body", `${where}: the pattern ${JSON.stringify(pattern)} ${problem}`);
}

type PageLike = { page_path: string; page_match?: string | undefined };

/** Why the page's regex (when it is one) cannot be saved, or null. `known`: knownPatternProblem's verdict, at once. */
export function pagePatternProblem(where: string, page: PageLike, invalid: boolean, known: true): string | null;
export function pagePatternProblem(where: string, page: PageLike, invalid?: boolean): Promise<string | null>;
export function pagePatternProblem(where: string, page: PageLike, invalid = true, known = false): string | null | Promise<string | null> {
  const says = (problem: string | null) => (problem ? `${where}: the pattern ${JSON.stringify(page.page_path)} ${problem}` : null);
  if (page.page_match !== "regex") return known ? null : Promise.resolve(null);
  return known ? says(knownPatternProblem(page.page_path, invalid)) : patternProblem(page.page_path, invalid).then(says);
}

/** The page's regex, when it is one, checked. */
export async function checkPagePattern(where: string, page: PageLike, invalid = true): Promise<void> {
  const problem = await pagePatternProblem(where, page, invalid);
  if (problem) throw new HttpError(400, "invalid_body", problem);
}

type SettingsPatterns = {
  pages?: readonly PageLike[];
  revenue_pages?: readonly { path_check_type: string; pattern_value: string }[];
  event_merge?: readonly { path_check_type: string; pattern_value: string }[];
  page_blacklist?: readonly string[];
  referrer_blacklist?: readonly string[];
};

/**
 * The account settings' regular expressions (the script runs them on every page): a slow one is
 * refused. One that does not compile is kept, as before: spec Appendix A makes it match
 * nothing, and the dashboard shows it as typed.
 */
export async function checkSettingsPatterns(settings: SettingsPatterns): Promise<void> {
  for (const [i, p] of (settings.pages ?? []).entries()) await checkPagePattern(`Page configuration ${i + 1}`, p, false);
  for (const [field, label] of [
    ["revenue_pages", "Revenue rule"],
    ["event_merge", "Event-merge rule"],
  ] as const) {
    for (const [i, r] of (settings[field] ?? []).entries()) {
      if (r.path_check_type === "regex") await checkPattern(`${label} ${i + 1}`, r.pattern_value, false);
    }
  }
  for (const [i, p] of (settings.page_blacklist ?? []).entries()) await checkPattern(`Page blacklist entry ${i + 1}`, p, false);
  for (const [i, p] of (settings.referrer_blacklist ?? []).entries()) await checkPattern(`Referrer blacklist entry ${i + 1}`, p, false);
}

/** A `$regex` of a condition: its dotted path (as validateCondition names it), source and flags. */
export type ConditionPattern = { path: string; source: string; flags: string };

/**
 * Every `$regex` string in a condition, wherever it sits ($and, $not, $elemMatch, …), with its
 * `$options` when they are flags. Walks every object: a `$regex` the evaluator would not run is
 * checked all the same, which refuses nothing a condition needs.
 */
export function conditionPatterns(condition: unknown): ConditionPattern[] {
  const out: ConditionPattern[] = [];
  const walk = (value: unknown, path: string, depth: number): void => {
    if (depth > 64 || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${path}[${i}]`, depth + 1));
      return;
    }
    const o = value as Record<string, unknown>;
    for (const [key, v] of Object.entries(o)) {
      const here = path ? `${path}.${key}` : key;
      if (key === "$regex" && typeof v === "string") {
        const flags = typeof o.$options === "string" && /^[imsu]*$/.test(o.$options) ? o.$options : "";
        out.push({ path: here, source: v, flags });
      } else {
        walk(v, here, depth + 1);
      }
    }
  };
  walk(condition, "", 0);
  return out;
}

/** The first `$regex` of a condition the analysis refuses: its path and why; null when all are safe. */
export async function conditionPatternProblem(condition: unknown): Promise<{ path: string; error: string } | null> {
  for (const p of conditionPatterns(condition)) {
    try {
      new RegExp(p.source, p.flags);
    } catch {
      continue; // validateCondition names it
    }
    const slow = await slowPatternProblem(p.source, p.flags);
    if (slow) return { path: p.path, error: `the regular expression ${slow}` };
  }
  return null;
}

// ---- Patterns stored before the analysis refused them (decide/snapshots.ts) ----

/** `flags/source` of stored `$regex` patterns refused on this node: the evaluator runs none of them. */
const refusedStored = new Set<string>();
/** `flags/source` of stored patterns whose syntax the analysis does not support, logged once per node. */
const unsettledWarned = new Set<string>();

/** Whether the evaluator must not run this `$regex` (decide/conditions.ts compileRegex). */
export function isRefusedStoredPattern(source: string, flags: string): boolean {
  return refusedStored.size > 0 && refusedStored.has(`${flags}/${source}`);
}

/** page_match of a stored page pattern refused on this node: no page matches it (contract matchPagePath). */
export const REFUSED_PAGE_MATCH = "regex_refused";

type StoredPage = { page_path: string; page_match?: string | undefined };
type StoredExperience = {
  id: string;
  pages: readonly StoredPage[];
  rules: readonly { behaviour: { variations: readonly { configs: readonly { properties?: Partial<StoredPage> | null }[] }[] } }[];
  goals?: readonly { page?: StoredPage | null | undefined }[] | undefined;
};

/** Where a refused stored pattern is reported by default: the process's log. */
export const warnOnConsole = (message: string): void => console.warn(`storefit: ${message}`);

/** One experience as storedPatternsCleared answers it, for the admin API's readers of stored patterns (results, overlaps). */
export async function storedExperienceCleared<E extends StoredExperience & { account_id: string }>(experience: E, warn = warnOnConsole): Promise<E> {
  return (await storedPatternsCleared(experience.account_id, [experience], [], warn))[0]!;
}

/**
 * The account's experiences with every stored page regex the analysis proves unsafe made to match
 * nothing (a copy of each experience that holds one), and its audiences' unsafe `$regex`
 * recorded so the evaluator runs none. Each refusal is reported to `warn` once per node; a
 * pattern the analysis could not settle is reported and kept. Waits for
 * the analyses (off the event loop, ahead of operators' checks); a verdict is cached, so a pattern
 * costs one analysis per node.
 */
export async function storedPatternsCleared<E extends StoredExperience>(
  accountId: string,
  experiences: readonly E[],
  conditions: readonly { id: string; condition: unknown }[],
  warn: (message: string) => void,
): Promise<E[]> {
  const refused = async (source: string, flags: string, what: string): Promise<boolean> => {
    try {
      new RegExp(source, flags);
    } catch {
      return false; // an invalid pattern already matches nothing
    }
    const verdict = await analysedVerdict(source, flags, { priority: true, budget: STORED_CHECK_BUDGET_MS });
    const key = `${flags}/${source}`;
    if (verdict.kind === "busy" || verdict.kind === "unsettled") {
      // Not a proof (a time-out, a failed analyser, syntax the analysis does not support): the
      // evaluator's cheap check stands. Refusing would turn off a safe pattern on this node for
      // good, or every regex of the account's experiences whenever the analyser is down. A time-out
      // is analysed again at the next preparation; unsupported syntax is logged once per node.
      if (verdict.kind === "busy" || !unsettledWarned.has(key)) {
        if (verdict.kind === "unsettled") unsettledWarned.add(key);
        warn(`account ${accountId}, ${what}: the stored pattern ${JSON.stringify(source)} ${verdict.problem}; it is kept (not proved unsafe)`);
      }
      return false;
    }
    if (verdict.kind === "unsafe" && !refusedStored.has(key)) {
      refusedStored.add(key);
      warn(`account ${accountId}, ${what}: the stored pattern ${JSON.stringify(source)} is a regular expression that ${verdict.problem}; it matches nothing until it is changed`);
    }
    return verdict.kind === "unsafe";
  };
  for (const a of conditions) {
    for (const p of conditionPatterns(a.condition)) await refused(p.source, p.flags, `audience ${a.id} at ${p.path}`);
  }
  const out: E[] = [];
  for (const e of experiences) {
    const pages: StoredPage[] = [
      ...e.pages,
      ...e.rules.flatMap((r) => r.behaviour.variations.flatMap((v) => v.configs.flatMap((c) => (c.properties?.page_path ? [c.properties as StoredPage] : [])))),
      ...(e.goals ?? []).flatMap((g) => (g.page ? [g.page] : [])),
    ];
    const bad = new Set<string>();
    for (const p of pages) {
      if (p.page_match === "regex" && (await refused(p.page_path, "", `experience ${e.id}, page pattern`))) bad.add(p.page_path);
    }
    if (bad.size === 0) {
      out.push(e);
      continue;
    }
    const copy = structuredClone(e) as E;
    const neutralise = (p: Partial<StoredPage> | null | undefined): void => {
      if (p && p.page_match === "regex" && p.page_path !== undefined && bad.has(p.page_path)) (p as StoredPage).page_match = REFUSED_PAGE_MATCH;
    };
    copy.pages.forEach(neutralise);
    copy.rules.forEach((r) => r.behaviour.variations.forEach((v) => v.configs.forEach((c) => neutralise(c.properties))));
    copy.goals?.forEach((g) => neutralise(g.page));
    out.push(copy);
  }
  return out;
}
