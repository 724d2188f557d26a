// The results state folded incrementally (docs/results.md "Incremental results"): per visitor,
// what their first exposure and matching events give each goal; per experience, the totals the
// results read (visitors per variation, day and split; goal sums per goal, variation and day).
// Both stores keep this state in the database with the event and exposure seqs it covers, and
// fold into it only what arrived since; the I/O is theirs, the arithmetic is here.
//
// Exactness: the float sums (revenue, squares, probabilities) are kept as exact sums (Shewchuk's
// partials, as Python's math.fsum), so adding a visitor's new contribution and taking away the
// old one leaves what a sum from scratch gives, bit for bit, whatever the order. A visitor's own
// revenue is summed in seq order, both when folded event by event and when read whole.

import { matchDomain, matchPagePath } from "@storefit/contract";
import type { GoalDefinition } from "@storefit/contract";
import { GOAL_EVENT_TYPES, MAX_DATE_MS, NAMED_TYPES, countedAmount } from "../store/event-fields.js";
import type { ExposureDay, GoalSums, ResultsAggregate, VariationVisitors } from "../store/types.js";

/** A visitor's first randomised exposure, as first_exposures keeps it. */
export type FirstExposure = { variation_id: string; requested_time: number; probability: number | null; split: string | null };

/** A stored event as the fold reads it (the columns the results read; never event_json). */
export type CandidateEvent = {
  user_id: string;
  event_timestamp: number;
  event_type: string;
  event_name: string | null;
  page_path: string | null;
  domain: string;
  revenue_amount: number;
};

/** A visitor's matching events for one goal, split at their first exposure (docs/results.md). */
export type GoalState = { post: number; pre: number; first: number | null; orders: number; amount: number; preAmount: number };

/** A visitor as counted: their first exposure and, per goal (by position), their state (null: no matching event). */
export type CountedVisitor = FirstExposure & { goals: (GoalState | null)[] };

/**
 * What an experience's goals are, as far as the state is concerned: a change of any of them
 * (an edit of the goals) makes the state start again from nothing.
 */
export const goalsKey = (goals: readonly GoalDefinition[]): string => `${STATE_FORMAT} ${JSON.stringify(goals)}`;

/**
 * What a state row's rows mean, in its goals column: a node reading a state of another format
 * (one of another version, during a rolling deploy) takes it for other goals and makes the state
 * again from nothing, rather than folding into it by other rules. Any change to what a visitor
 * row, or its absence, means needs a new format. Format 3: a visitor without a row is one with
 * few events, recounted from their exposures and events up to the watermark (STATE_ROW_EVENTS);
 * format 2 took a visitor without a row for a new one (a node of that version beside this one
 * counted such visitors twice); format 2 and 3 read the variations each visitor saw from the
 * exposures; format 1 (no prefix) kept them in results_seen rows. Format 4 counts an amount above
 * MAX_REVENUE_AMOUNT as 0, where format 3 counted it (a state of format 3 may hold amounts of 1e308
 * and infinite sums: it is made again). Format 5 takes a REVENUE event whose amount counts 0 (a
 * refund, a free order, an invalid amount) for no order, where format 4 counted it as one.
 * Format 6 counts visitors seen in a variation whose id is an Object.prototype name (`__proto__`,
 * `toString`: addSeen), which format 5 lost or stored as text.
 */
const STATE_FORMAT = 6;

/** The event types the goals read: the fold reads only these events. */
export const goalTypes = (goals: readonly GoalDefinition[]): string[] => [...new Set(goals.map((g) => GOAL_EVENT_TYPES[g.kind]))];

/** Which goals an event matches (the SQL's `hits`): type, name, page path and domain, as the contract matches them. */
export class GoalMatcher {
  private readonly paths = new Map<string, boolean[]>();
  private readonly domains = new Map<string, boolean[]>();
  constructor(readonly goals: readonly GoalDefinition[]) {}

  matches(e: CandidateEvent, goal: number): boolean {
    const g = this.goals[goal]!;
    if (GOAL_EVENT_TYPES[g.kind] !== e.event_type) return false;
    if (g.kind === "page_view") {
      const page = g.page ?? { page_path: "", page_match: "exact_match" as const };
      if (e.page_path === null || !this.pathHits(e.page_path)[goal]) return false;
      if (page.domain && !this.cached(this.domains, e.domain, (i) => {
        const d = this.goals[i]!.page?.domain;
        return this.goals[i]!.kind === "page_view" && !!d && matchDomain(e.domain, d);
      })[goal]) return false;
      return true;
    }
    // An order is a REVENUE event whose amount counts (> 0): not a refund, a free or an invalid one.
    if (g.kind === "revenue") return countedAmount(e.revenue_amount) > 0;
    if (!g.event_name) return true;
    return NAMED_TYPES.includes(e.event_type) && e.event_name === g.event_name;
  }

  /** Whether a page path is on any page goal's path (the domain aside): what a fold reads PAGE events for. */
  onGoalPage(path: string): boolean {
    return this.pathHits(path).includes(true);
  }

  /**
   * Whether a page path is on goal `goal`'s path (a page goal; the domain aside), remembered per
   * path: a date range's statement picks each page goal's paths among all the account's, and a
   * pattern tested again on each of thousands of stored paths on every call (anyone with the
   * client key can store page views) would cost each call what only the first needs to.
   */
  onGoalPagePath(path: string, goal: number): boolean {
    return this.pathHits(path)[goal] === true;
  }

  /** Per goal, whether it is a page goal whose path matches `path`. */
  private pathHits(path: string): boolean[] {
    return this.cached(this.paths, path, (i) => {
      const p = this.goals[i]!.page ?? { page_path: "", page_match: "exact_match" as const };
      return this.goals[i]!.kind === "page_view" && matchPagePath(p.page_match, p.page_path, path);
    });
  }

  /** Per path (or domain), every goal's answer, computed once: paths repeat across events. */
  private cached(map: Map<string, boolean[]>, key: string, test: (goal: number) => boolean): boolean[] {
    let hit = map.get(key);
    if (!hit) {
      if (map.size >= MATCHER_CACHE_KEYS) map.clear();
      map.set(key, (hit = this.goals.map((_, i) => test(i))));
    }
    return hit;
  }
}

/** Paths (and domains) whose answers a matcher remembers; beyond, it starts again. */
const MATCHER_CACHE_KEYS = 50_000;
/** Goal sets whose matchers a node keeps. */
const MATCHERS = 64;
const matchers = new Map<string, GoalMatcher>();

/**
 * The matcher of a goal set, kept across calls: matching page paths again (the contract's
 * normalisation, regular expressions) took about a third of a fold after 1,000 events when the
 * matcher was made afresh each time (a profile; docs/benchmarks.md, "Results").
 */
export function matcherFor(goals: readonly GoalDefinition[]): GoalMatcher {
  const key = goalsKey(goals);
  let m = matchers.get(key);
  if (!m) {
    if (matchers.size >= MATCHERS) matchers.delete(matchers.keys().next().value!);
    matchers.set(key, (m = new GoalMatcher(structuredClone(goals))));
  }
  return m;
}

/** One matching event into a visitor's state for a goal (docs/results.md "Goals and conversions"). */
function addHit(state: GoalState | null, e: CandidateEvent, t: number, revenue: boolean): GoalState {
  const s = state ?? { post: 0, pre: 0, first: null, orders: 0, amount: 0, preAmount: 0 };
  // As the SQL counts it: an amount above MAX_REVENUE_AMOUNT (or not a finite number > 0) counts 0.
  const amount = revenue ? countedAmount(e.revenue_amount) : 0;
  if (e.event_timestamp >= t) {
    s.post = 1;
    s.first = s.first === null ? e.event_timestamp : Math.min(s.first, e.event_timestamp);
    s.orders++;
    s.amount += amount;
  } else {
    s.pre = 1;
    s.preAmount += amount;
  }
  return s;
}

/** A visitor counted from their first exposure and all their events (in seq order). */
export function countVisitor(first: FirstExposure, events: Iterable<CandidateEvent>, matcher: GoalMatcher): CountedVisitor {
  const v: CountedVisitor = { ...first, goals: matcher.goals.map(() => null) };
  for (const e of events) applyEvent(v, e, matcher);
  return v;
}

/** One more event (the next in seq order) into a counted visitor. */
export function applyEvent(v: CountedVisitor, e: CandidateEvent, matcher: GoalMatcher): void {
  matcher.goals.forEach((g, i) => {
    if (matcher.matches(e, i)) v.goals[i] = addHit(v.goals[i]!, e, v.requested_time, g.kind === "revenue");
  });
}

export const sameFirst = (v: FirstExposure, f: FirstExposure): boolean =>
  v.variation_id === f.variation_id && v.requested_time === f.requested_time && v.probability === f.probability && v.split === f.split;

// ---- exact sums ----

/**
 * An exact sum of doubles: non-overlapping partials (Shewchuk), with the infinities counted
 * apart so that they can be taken away again.
 */
export type ExactSum = { p: number[]; inf?: number; ninf?: number };

function addExact(s: ExactSum, x: number): void {
  if (x === Infinity || x === -Infinity) {
    if (x > 0) s.inf = (s.inf ?? 0) + 1;
    else s.ninf = (s.ninf ?? 0) + 1;
    return;
  }
  const p = s.p;
  let i = 0;
  for (let j = 0; j < p.length; j++) {
    let y = p[j]!;
    if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
    const hi = x + y;
    const lo = y - (hi - x);
    if (lo !== 0) p[i++] = lo;
    x = hi;
  }
  p.length = i;
  if (x !== 0) p.push(x);
}

function subtractExact(s: ExactSum, x: number): void {
  if (x === Infinity) s.inf = (s.inf ?? 1) - 1;
  else if (x === -Infinity) s.ninf = (s.ninf ?? 1) - 1;
  else addExact(s, -x);
}

/** The exact sum rounded once to the nearest double (CPython's fsum, ties to even). */
export function exactValue(s: ExactSum): number {
  if (s.inf && s.ninf) return NaN;
  if (s.inf) return Infinity;
  if (s.ninf) return -Infinity;
  const p = s.p;
  let n = p.length;
  if (n === 0) return 0;
  let hi = p[--n]!;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = p[--n]!;
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  if (n > 0 && ((lo < 0 && p[n - 1]! < 0) || (lo > 0 && p[n - 1]! > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

// ---- totals ----

type DayTotals = { visitors: number; probability_sum: ExactSum; probability_count: number };
const INT_FIELDS = ["visitors", "post", "pre", "post_pre", "orders", "orders_squares"] as const;
const FLOAT_FIELDS = ["value", "value_squares", "pre_value", "pre_value_squares", "value_pre_value", "value_orders"] as const;
type SumTotals = Record<(typeof INT_FIELDS)[number], number> & Record<(typeof FLOAT_FIELDS)[number], ExactSum>;

/** What the results read, kept per experience (results_state.totals, JSON). Keys: JSON arrays. */
export type Totals = {
  /** Distinct visitors with a first (randomised) exposure. */
  visitors: number;
  /** Per variation, distinct visitors with any (randomised) exposure to it. */
  seen: Record<string, number>;
  /** Per [variation, date, split]. */
  days: Record<string, DayTotals>;
  /** Per [goal, variation, date of first conversion]. */
  sums: Record<string, SumTotals>;
};

export const emptyTotals = (): Totals => ({ visitors: 0, seen: {}, days: {}, sums: {} });

/**
 * One more visitor seen in `variation`. The count is an own property whatever the id: `seen` is
 * plain JSON (a state read back is an ordinary object), and there `seen["__proto__"] = n` would set
 * the prototype (the count lost) and `seen.toString ?? 0` read Object.prototype's function.
 */
export function addSeen(totals: Totals, variation: string): void {
  const n = Object.hasOwn(totals.seen, variation) ? totals.seen[variation] : 0;
  Object.defineProperty(totals.seen, variation, { value: (typeof n === "number" ? n : 0) + 1, enumerable: true, writable: true, configurable: true });
}

/** Day strings by day number: formatting a Date per visitor and goal took a tenth of a fold's totals. */
const days = new Map<number, string>();
const isoDay = (ms: number): string | null => {
  if (!(ms >= 0 && ms <= MAX_DATE_MS)) return null;
  const n = Math.floor(ms / 86_400_000);
  let day = days.get(n);
  if (day === undefined) {
    if (days.size >= 100_000) days.clear();
    days.set(n, (day = new Date(n * 86_400_000).toISOString().slice(0, 10)));
  }
  return day;
};

/** Adds (sign 1) or takes away (sign -1) a counted visitor's part of the totals. */
export function countIn(totals: Totals, goals: readonly GoalDefinition[], v: CountedVisitor, sign: 1 | -1): void {
  const add = (s: ExactSum, x: number) => (sign > 0 ? addExact(s, x) : subtractExact(s, x));
  const dayKey = JSON.stringify([v.variation_id, isoDay(v.requested_time), v.split]);
  const day = (totals.days[dayKey] ??= { visitors: 0, probability_sum: { p: [] }, probability_count: 0 });
  day.visitors += sign;
  if (v.probability !== null) {
    add(day.probability_sum, v.probability);
    day.probability_count += sign;
  }
  if (day.visitors === 0) delete totals.days[dayKey];
  goals.forEach((g, i) => {
    const s = v.goals[i];
    if (!s) return;
    const cap = g.kind === "revenue" ? g.revenue_cap : undefined;
    const value = cap !== undefined && s.amount > cap ? cap : s.amount;
    const pre = cap !== undefined && s.preAmount > cap ? cap : s.preAmount;
    const key = JSON.stringify([g.id, v.variation_id, s.first === null ? null : isoDay(s.first)]);
    const t = (totals.sums[key] ??= {
      visitors: 0, post: 0, pre: 0, post_pre: 0, orders: 0, orders_squares: 0,
      value: { p: [] }, value_squares: { p: [] }, pre_value: { p: [] }, pre_value_squares: { p: [] }, value_pre_value: { p: [] }, value_orders: { p: [] },
    });
    t.visitors += sign;
    t.post += sign * s.post;
    t.pre += sign * s.pre;
    t.post_pre += sign * s.post * s.pre;
    t.orders += sign * s.orders;
    t.orders_squares += sign * s.orders * s.orders;
    add(t.value, value);
    add(t.value_squares, value * value);
    add(t.pre_value, pre);
    add(t.pre_value_squares, pre * pre);
    add(t.value_pre_value, value * pre);
    add(t.value_orders, value * s.orders);
    if (t.visitors === 0) delete totals.sums[key];
  });
}

/**
 * Every visitor of a state made from nothing counted into `totals`, `n` at a time, with `slice`
 * between two groups (results/build.ts); false when `slice` says the build was given up.
 */
export async function countAllInSlices(
  totals: Totals,
  goals: readonly GoalDefinition[],
  visitors: ReadonlyMap<string, CountedVisitor>,
  n: number,
  slice: (step: string) => Promise<boolean>,
): Promise<boolean> {
  const rows = [...visitors.values()];
  for (let i = 0; i < rows.length; i += n) {
    for (const v of rows.slice(i, i + n)) {
      totals.visitors++;
      countIn(totals, goals, v, 1);
    }
    if (!(await slice("totals"))) return false;
  }
  return true;
}

const byText = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/** The totals as the results aggregate, in the SQL's order (null dates and splits first). */
export function aggregateOf(totals: Totals, goals: readonly GoalDefinition[]): ResultsAggregate {
  const exposures = Object.entries(totals.days)
    .map(([key, d]): ExposureDay => {
      const [variation_id, date, split] = JSON.parse(key) as [string, string | null, string | null];
      return { variation_id, date, split, visitors: d.visitors, probability_sum: exactValue(d.probability_sum), probability_count: d.probability_count };
    })
    .sort((a, b) => byText(a.variation_id, b.variation_id) || byText(a.date, b.date) || byText(a.split, b.split));
  if (!goals.length) return { exposures, goals: [] };
  const sums = Object.entries(totals.sums)
    .map(([key, t]): GoalSums => {
      const [goal_id, variation_id, date] = JSON.parse(key) as [string, string, string | null];
      const out = { goal_id, variation_id, date } as GoalSums;
      for (const f of INT_FIELDS) out[f] = t[f];
      for (const f of FLOAT_FIELDS) out[f] = exactValue(t[f]);
      return out;
    })
    .sort((a, b) => byText(a.goal_id, b.goal_id) || byText(a.variation_id, b.variation_id) || byText(a.date, b.date));
  return { exposures, goals: sums };
}

/** The distinct visitors, in all and per variation seen (exposureVisitors without a range). */
export function exposedOf(totals: Totals): { distinct: number; byVariation: VariationVisitors[] } {
  const byVariation = Object.entries(totals.seen)
    .filter(([, visitors]) => typeof visitors === "number" && visitors > 0)
    .map(([variation_id, visitors]) => ({ variation_id, visitors }))
    .sort((a, b) => byText(a.variation_id, b.variation_id));
  return { distinct: totals.visitors, byVariation };
}

/**
 * The visitors one fold changes: each one's counted state before (null: new) and after. Their
 * old parts leave the totals and the new ones come in once, at the end.
 */
export class Fold {
  readonly changed = new Map<string, { before: CountedVisitor | null; after: CountedVisitor }>();
  /** Visitors counted again from all their events up to the fold's seq: its new events are in already. */
  private readonly recounted = new Set<string>();

  constructor(
    readonly goals: readonly GoalDefinition[],
    readonly matcher = new GoalMatcher(goals),
  ) {}

  /** A visitor counted again from scratch (a new or moved first exposure). */
  recount(user: string, before: CountedVisitor | null, after: CountedVisitor): void {
    const known = this.changed.get(user);
    this.changed.set(user, { before: known ? known.before : before, after });
    this.recounted.add(user);
  }

  /** A new event of a visitor already counted (`stored`: their state as stored, when not yet changed in this fold). */
  event(user: string, stored: CountedVisitor, e: CandidateEvent): void {
    if (this.recounted.has(user)) return;
    let c = this.changed.get(user);
    if (!c) this.changed.set(user, (c = { before: stored, after: structuredClone(stored) }));
    applyEvent(c.after, e, this.matcher);
  }

  finish(totals: Totals): void {
    for (const { before, after } of this.changed.values()) {
      if (before) countIn(totals, this.goals, before, -1);
      else totals.visitors++;
      countIn(totals, this.goals, after, 1);
    }
  }
}

// ---- the visitors a fold changes ----

/**
 * A visitor's randomised exposure as a fold reads it, with its seq, in first_exposures' order:
 * requested_time, then variation id (in the database's own ordering of text), then seq.
 */
export type ExposureRow = FirstExposure & { user_id: string; seq: number };

/** The first of a visitor's exposures (listed in first_exposures' order) stored up to the seq `upTo`. */
export function firstUpTo(xs: readonly ExposureRow[] | undefined, upTo: number): FirstExposure | null {
  for (const x of xs ?? []) {
    if (x.seq <= upTo) return { variation_id: x.variation_id, requested_time: x.requested_time, probability: x.probability, split: x.split };
  }
  return null;
}

/**
 * A visitor with more candidate events than this keeps their counted state in a row
 * (results_visitors), and a fold adds their new events to it. A visitor with fewer is counted
 * again from their exposures and events whenever something of theirs arrives: their state before
 * is what their exposures and events up to the watermark give, which is what was counted then.
 * Writing a row per new visitor, at a random place in the table, was most of what a fold wrote
 * and most of its commit (docs/benchmarks.md, "Results"); reading a light visitor's few events
 * again by the (account, user, seq) index costs less. A build writes a row for every visitor.
 */
export const STATE_ROW_EVENTS = 64;

/**
 * The touched visitors a fold counts again from their events: those without a stored row, and
 * those whose first exposure up to `upX` is not the one their row counted (new, or an earlier
 * one that arrived late). The others' new events are added to their row.
 */
export function toRecount(touched: Iterable<string>, stored: ReadonlyMap<string, CountedVisitor>, exposures: ReadonlyMap<string, ExposureRow[]>, upX: number): string[] {
  const out: string[] = [];
  for (const user of touched) {
    const first = firstUpTo(exposures.get(user), upX);
    // Never exposed up to the watermark: their events wait for their exposure.
    if (!first) continue;
    const row = stored.get(user);
    if (!row || !sameFirst(row, first)) out.push(user);
  }
  return out;
}

/**
 * The visitors one fold changes, into `fold`, from what the store read: `fresh`, the new
 * candidate events in seq order; `older`, the candidate events up to `from.e` of the visitors
 * `toRecount` gave. Returns the visitors whose state is to be written (a row they had, or more
 * than STATE_ROW_EVENTS events).
 */
export function foldVisitors(
  fold: Fold,
  recount: readonly string[],
  stored: ReadonlyMap<string, CountedVisitor>,
  exposures: ReadonlyMap<string, ExposureRow[]>,
  older: ReadonlyMap<string, CandidateEvent[]>,
  fresh: readonly CandidateEvent[],
  from: { e: number; x: number },
  upX: number,
): string[] {
  const theirs = new Map<string, CandidateEvent[]>(recount.map((u) => [u, []]));
  for (const e of fresh) theirs.get(e.user_id)?.push(e);
  const keep: string[] = [];
  for (const user of recount) {
    const before = older.get(user) ?? [];
    const all = [...before, ...theirs.get(user)!];
    const firstBefore = firstUpTo(exposures.get(user), from.x);
    const counted = stored.get(user) ?? (firstBefore ? countVisitor(firstBefore, before, fold.matcher) : null);
    fold.recount(user, counted, countVisitor(firstUpTo(exposures.get(user), upX)!, all, fold.matcher));
    if (stored.has(user) || all.length > STATE_ROW_EVENTS) keep.push(user);
  }
  for (const e of fresh) {
    const row = stored.get(e.user_id);
    if (row && !theirs.has(e.user_id)) fold.event(e.user_id, row, e);
  }
  for (const user of stored.keys()) if (!theirs.has(user) && fold.changed.has(user)) keep.push(user);
  return keep;
}

/**
 * The variations the new exposures `pairs` (visitor, variation) show a visitor for the first
 * time: none of their exposures up to `from` (seq) was to it.
 */
export function newlySeen(pairs: Iterable<{ user_id: string; variation_id: string }>, exposures: ReadonlyMap<string, ExposureRow[]>, from: number): string[] {
  const out: string[] = [];
  const done = new Set<string>();
  for (const { user_id, variation_id } of pairs) {
    const key = JSON.stringify([user_id, variation_id]);
    if (done.has(key)) continue;
    done.add(key);
    if (!(exposures.get(user_id) ?? []).some((x) => x.variation_id === variation_id && x.seq <= from)) out.push(variation_id);
  }
  return out;
}

/** A counted visitor as stored (results_visitors.state) and back. */
export const visitorJson = (v: CountedVisitor): string => JSON.stringify(v);
export const parseVisitor = (text: string): CountedVisitor => JSON.parse(text) as CountedVisitor;
