// The results' reads (docs/results.md), on SQLite: exposures and goal sums per variation and
// day, the results cache's version, and the page views of the diagnostics and the overlaps.

import { matchDomain } from "@storefit/contract";
import type { GoalDefinition } from "@storefit/contract";
import type { Awaitable, ExposureDay, FoldedResults, GoalSums, PageViews, ResultsAggregate, ResultsRange, ResultsStore, Sync, VariationVisitors } from "../types.js";
import { Fold, addSeen, aggregateOf, countAllInSlices, foldVisitors, matcherFor, applyEvent, countVisitor, emptyTotals, exposedOf, goalTypes, goalsKey, newlySeen, parseVisitor, toRecount, visitorJson } from "../../results/incremental.js";
import type { CandidateEvent, CountedVisitor, ExposureRow, FirstExposure, Totals, GoalMatcher } from "../../results/incremental.js";
import { GOAL_EVENT_TYPES, MAX_DATE_MS, NAMED_TYPES, countedAmountSql, goalCandidates } from "../event-fields.js";
import { randomUUID } from "node:crypto";
import { BUILDING_SEQ, CLAIM_HEARTBEAT_MS, CLAIM_POLL_MS, ResultsBuildBusy, claimFresh, claimJson, foldExposureRows, nextSlice, parseClaim, sliceEnd, startSlices, sleep, stateBuild } from "../../results/build.js";
import { count } from "./db.js";
import type { SqlParams, SqliteDb } from "./db.js";
import type { ReadWorker, WorkerStatement } from "./read-worker.js";

/**
 * The results aggregation (docs/results.md). One pass over the account's events keeps the
 * candidates of every goal (`scan`: events of the goals' types, on the goal pages' paths, with a
 * goal's name), then:
 *  - hits: each candidate with every goal it matches (the goal's own name, paths and domain);
 *  - placed: each hit with its visitor's first exposure to the experience (variation, moment);
 *  - per_visitor: per visitor and goal, post/pre flags, capped revenue, orders, first conversion;
 *  - the outer query sums those per goal, variation and day of first conversion.
 * The exposures are summed apart (EXPOSURE_DAYS_SQL): visitors per variation and day.
 *
 * No index on events serves this: one on (account, type, page path) cut the rate of a bare
 * event insert loop to about half, on the client API's hot path, for a query the dashboard runs
 * now and then (docs/benchmarks.md, "Results").
 */
/**
 * A visitor's first exposure to the experience, for a row `h` with a user_id: one seek in
 * first_exposures (migration 12), which the exposure insert keeps.
 */
const FIRST_OF_VISITOR = (column: "requested_time" | "variation_id") => `(
  SELECT x.${column} FROM first_exposures x
  WHERE x.account_id = @account AND x.experience_id = @experience AND x.user_id = h.user_id)`;

/**
 * An event's name and a REVENUE event's amount are read from their columns (migration 9, filled
 * by `writeEvents`), never from event_json: a stored event that SQLite's JSON parser refuses
 * (nested too deep) must not fail the queries that read the others.
 */
const EVENT_NAME = "e.event_name";

/** An event's columns the incremental fold reads (results/incremental.ts CandidateEvent). */
const CANDIDATE_COLUMNS = "e.user_id, e.event_timestamp, e.event_type, e.event_name, e.page_path, e.domain, e.revenue_amount";
/** A REVENUE event's amount as it counts (docs/results.md "Revenue": above the limit, 0). */
const REVENUE_AMOUNT = countedAmountSql("e.revenue_amount");

/**
 * The one pass's filter over events `e`: each goal type's events, narrowed to the goal pages'
 * paths (`paths`; null: no page goal) or the goals' names. Sets its parameters in `params`.
 */
function candidateFilter(paths: ReadonlySet<string> | null, namesByType: ReadonlyMap<string, Set<string> | "any">, revenue: boolean, params: SqlParams): string {
  const kept: string[] = [];
  if (paths) {
    params.all_paths = JSON.stringify([...paths]);
    kept.push("(e.event_type = 'PAGE' AND e.page_path IN (SELECT value FROM json_each(@all_paths)))");
  }
  for (const [type, names] of namesByType) {
    if (names === "any") {
      kept.push(`e.event_type = '${type}'`);
    } else {
      params[`names_${type}`] = JSON.stringify([...names]);
      kept.push(`(e.event_type = '${type}' AND ${EVENT_NAME} IN (SELECT value FROM json_each(@names_${type})))`);
    }
  }
  if (revenue) kept.push("e.event_type = 'REVENUE'");
  return kept.length ? kept.join(" OR ") : "0";
}

/** The candidate filter of goals (`candidateFilter`), from the goals and the account's page paths. */
function goalsFilter(goals: readonly GoalDefinition[], pagePaths: readonly string[], params: SqlParams): string {
  const { paths, namesByType, revenue } = goalCandidates(goals, pagePaths);
  return candidateFilter(paths, namesByType, revenue, params);
}

/**
 * The goal sums statement and its parameters. `pagePaths` are the account's distinct PAGE paths:
 * the contract's page matcher (normalisation, query parts, regular expressions: what the
 * storefront script does) picks each page goal's paths among them.
 */
function goalSumsQuery(
  goals: readonly GoalDefinition[],
  pagePaths: readonly string[],
  base: SqlParams,
): { sql: string; params: SqlParams; goalPaths: Map<string, Set<string>> } {
  const params: SqlParams = { ...base };
  const goalPaths = new Map<string, Set<string>>();
  const rows: string[] = [];
  const allPaths = new Set<string>();
  const namesByType = new Map<string, Set<string> | "any">();
  let revenue = false;
  const matcher = matcherFor(goals);
  goals.forEach((g, i) => {
    const type = GOAL_EVENT_TYPES[g.kind];
    params[`goal${i}`] = g.id;
    params[`type${i}`] = type;
    params[`name${i}`] = null;
    params[`paths${i}`] = null;
    params[`domain${i}`] = null;
    params[`cap${i}`] = g.kind === "revenue" && g.revenue_cap !== undefined ? g.revenue_cap : null;
    if (g.kind === "page_view") {
      const page = g.page ?? { page_path: "", page_match: "exact_match" as const };
      const paths = pagePaths.filter((p) => matcher.onGoalPagePath(p, i));
      for (const p of paths) allPaths.add(p);
      params[`paths${i}`] = paths.length;
      goalPaths.set(g.id, new Set(paths));
      params[`domain${i}`] = page.domain || null;
    } else if (g.kind === "revenue") {
      revenue = true;
    } else {
      const names = namesByType.get(type);
      if (!g.event_name) namesByType.set(type, "any");
      else if (names !== "any") namesByType.set(type, (names ?? new Set()).add(g.event_name));
      params[`name${i}`] = g.event_name || null;
    }
    rows.push(`(@goal${i}, @type${i}, @name${i}, @paths${i}, @domain${i}, @cap${i})`);
  });
  const kept = candidateFilter(goals.some((g) => g.kind === "page_view") ? allPaths : null, namesByType, revenue, params);
  const sql = `
    WITH goals (goal_id, event_type, name, paths, domain, cap) AS (VALUES ${rows.join(", ")}),
    scan AS MATERIALIZED (
      SELECT e.user_id, e.event_timestamp AS ts, e.event_type, e.page_path AS path, e.domain,
             CASE WHEN e.event_type IN ('${NAMED_TYPES.join("', '")}') THEN ${EVENT_NAME} END AS name,
             CASE WHEN e.event_type = 'REVENUE' THEN ${REVENUE_AMOUNT} ELSE 0 END AS amount
      FROM events e
      WHERE e.account_id = @account AND e.event_timestamp < @to_ms AND (${kept})
    ),
    hits AS MATERIALIZED (
      SELECT s.user_id, s.ts, g.goal_id, g.cap, s.amount
      FROM scan s JOIN goals g ON g.event_type = s.event_type
      -- An order is a REVENUE event whose amount counts (> 0): not a refund, a free or an invalid one.
      WHERE (g.name IS NULL OR g.name = s.name) AND (s.event_type <> 'REVENUE' OR s.amount > 0)
        AND (g.paths IS NULL OR storefit_goal_path(g.goal_id, s.path) = 1)
        AND (g.domain IS NULL OR storefit_domain_match(s.domain, g.domain) = 1)
    ),
    -- Each hit gets its visitor's first exposure by an index seek: the hits are few (goal events)
    -- next to the experience's visitors, and no join plan is left to SQLite's row estimates
    -- (a nested scan of two CTEs was seen: quadratic). Materialized: otherwise SQLite repeats
    -- the seek for every use of t below.
    placed AS MATERIALIZED (
      SELECT h.user_id, h.goal_id, h.cap, h.amount, h.ts,
             ${FIRST_OF_VISITOR("requested_time")} AS t,
             ${FIRST_OF_VISITOR("variation_id")} AS variation_id
      FROM hits h
    ),
    per_visitor AS (
      SELECT variation_id, goal_id, cap,
             max(CASE WHEN ts >= t THEN 1 ELSE 0 END) AS post,
             max(CASE WHEN ts < t THEN 1 ELSE 0 END) AS pre,
             min(CASE WHEN ts >= t THEN ts END) AS first_ts,
             sum(CASE WHEN ts >= t THEN 1 ELSE 0 END) AS orders,
             sum(CASE WHEN ts >= t THEN amount ELSE 0 END) AS post_amount,
             sum(CASE WHEN ts < t THEN amount ELSE 0 END) AS pre_amount
      FROM placed
      WHERE t >= @from_ms AND t < @to_ms
      GROUP BY user_id, variation_id, goal_id, cap
    ),
    capped AS (
      SELECT variation_id, goal_id, post, pre, first_ts, orders,
             CASE WHEN cap IS NOT NULL AND post_amount > cap THEN cap ELSE post_amount END AS v,
             CASE WHEN cap IS NOT NULL AND pre_amount > cap THEN cap ELSE pre_amount END AS pv
      FROM per_visitor
    )
    SELECT goal_id, variation_id,
           CASE WHEN first_ts BETWEEN 0 AND ${MAX_DATE_MS} THEN date(first_ts / 1000, 'unixepoch') END AS date,
           count(*) AS visitors, sum(post) AS post, sum(pre) AS pre, sum(post * pre) AS post_pre,
           sum(v) AS value, sum(v * v) AS value_squares, sum(pv) AS pre_value, sum(pv * pv) AS pre_value_squares,
           sum(v * pv) AS value_pre_value, sum(orders) AS orders, sum(orders * orders) AS orders_squares,
           sum(v * orders) AS value_orders
    FROM capped
    GROUP BY goal_id, variation_id, date
    ORDER BY goal_id, variation_id, date`;
  return { sql, params, goalPaths };
}

/** The account's distinct PAGE paths among its events after `after` (seq), up to `upTo`. */
const NEW_PAGE_PATHS_SQL = `
  SELECT DISTINCT page_path FROM events
  WHERE account_id = @account AND seq > @after AND seq <= @upTo AND event_type = 'PAGE' AND page_path IS NOT NULL`;

/** Page paths remembered per account (see `pagePaths`); beyond these, the paths are read again each time. */
const PAGE_PATH_CACHE_ACCOUNTS = 64;
/** The goal pages' paths as the SQLite store reads them (tests lower the limit and count the reads). */
export const goalPagePaths = {
  /** Distinct paths of an account a node remembers for full recomputes; beyond, they are listed again each time. */
  cachePaths: 50_000,
  /** Path rows read from events to find the goal pages, since the process started. */
  rowsRead: 0,
};

/**
 * A results range as statement parameters. An open bound is the largest double: SQLite compares
 * it with integers by value, so even a browser clock far beyond year 9999 (1e18) stays inside.
 */
const rangeParams = (range: ResultsRange) => ({
  from_ms: range.from_ms ?? -Number.MAX_VALUE,
  to_ms: range.to_ms ?? Number.MAX_VALUE,
});

/**
 * Visitors per variation, UTC day of first exposure (whole days since the epoch; the text date is
 * made once per group, in JS) and split, of those first exposed in the range: one range of
 * first_exposures' primary key.
 */
const EXPOSURE_DAYS_SQL = `
  SELECT variation_id, CASE WHEN requested_time BETWEEN 0 AND ${MAX_DATE_MS} THEN requested_time / 86400000 END AS day,
         split, count(*) AS visitors, coalesce(sum(probability), 0) AS probability_sum, count(probability) AS probability_count
  FROM first_exposures
  WHERE account_id = @account AND experience_id = @experience AND requested_time >= @from_ms AND requested_time < @to_ms
  GROUP BY variation_id, day, split
  ORDER BY variation_id, day, split`;

/** A date range with a bound: the whole-history reads of such a range go to the read worker. */
const bounded = (range: ResultsRange): boolean => range.from_ms !== undefined || range.to_ms !== undefined;

/** The exposure days' rows as the store answers them (the day's text made once per group). */
const exposureDays = (rows: unknown[]): ExposureDay[] =>
  (rows as (Omit<ExposureDay, "date"> & { day: number | null })[]).map(
    ({ day, ...x }): ExposureDay => ({ ...x, date: day === null ? null : new Date(day * 86_400_000).toISOString().slice(0, 10) }),
  );

/** The two statements of exposureVisitors: distinct visitors in all, then per variation. */
const EXPOSURE_VISITORS_SQL = (() => {
  const inRange = "requested_time >= @from_ms AND requested_time < @to_ms";
  return {
    distinct: `SELECT count(DISTINCT user_id) AS n FROM exposures WHERE account_id = @account AND experience_id = @experience AND forced = 0 AND ${inRange}`,
    byVariation: `SELECT variation_id, count(DISTINCT user_id) AS visitors FROM exposures
       WHERE account_id = @account AND experience_id = @experience AND user_id IS NOT NULL AND forced = 0 AND ${inRange}
       GROUP BY variation_id ORDER BY variation_id`,
  };
})();

/**
 * The page views of a window (Store.pageViews: the overlaps' sample pages, the diagnostics): per
 * domain, and the most viewed pages. Every PAGE event of the account in the window is read (no
 * index serves it, as for the results aggregation above), seconds at 500,000 events, so a file database
 * reads them on the read worker, as it does pageVisitors.
 */
const PAGE_VIEWS_SQL = (() => {
  const where = "account_id = @account AND event_type = 'PAGE' AND event_timestamp >= @from_ms AND event_timestamp < @to_ms";
  return {
    byDomain: `SELECT domain, count(*) AS views FROM events WHERE ${where} GROUP BY domain ORDER BY views DESC, domain`,
    pages: `SELECT domain, page_path, count(*) AS views FROM events WHERE ${where} AND page_path IS NOT NULL
       GROUP BY domain, page_path ORDER BY views DESC, domain, page_path LIMIT @limit`,
  };
})();

/**
 * Distinct visitors with a PAGE view of one of these pages (domain and path as stored) in the
 * window: one pass over the account's events; the pages become a lookup table (IN with a subquery).
 */
const PAGE_VISITORS_SQL = `SELECT count(DISTINCT e.user_id) AS n FROM events e
  WHERE e.account_id = @account AND e.event_type = 'PAGE' AND e.event_timestamp >= @from_ms AND e.event_timestamp < @to_ms
    AND (e.domain, e.page_path) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(@pages))`;

/**
 * Without a date range these answer synchronously (tests read them so); with a bound, on a file
 * database, the read worker answers (read-worker.ts): the route awaits either.
 */
export type RangedResultsReads = {
  resultsAggregate: {
    (accountId: string, experienceId: string, goals: readonly GoalDefinition[]): ResultsAggregate;
    (accountId: string, experienceId: string, goals: readonly GoalDefinition[], range?: ResultsRange): Awaitable<ResultsAggregate>;
  };
  exposureVisitors: {
    (accountId: string, experienceId: string): { distinct: number; byVariation: VariationVisitors[] };
    (accountId: string, experienceId: string, range?: ResultsRange): Awaitable<{ distinct: number; byVariation: VariationVisitors[] }>;
  };
};

/**
 * Synchronous but for foldResults, which builds a state from nothing in slices (results/build.ts),
 * the ranged reads, and the page views and visitors (on a file database, the read worker).
 */
export type SqliteResults = Sync<Omit<ResultsStore, "foldResults" | "resultsAggregate" | "exposureVisitors" | PageReads>> &
  Pick<ResultsStore, "foldResults" | PageReads> &
  RangedResultsReads;

/** Store reads that a file database always answers on its read worker (a ":memory:" one in the thread). */
export type PageReads = "pageViews" | "pageVisitors";

/** `reader`: the read worker of a file database; null (":memory:"): every read in this thread. */
export function sqliteResults(d: SqliteDb, reader: ReadWorker | null = null): SqliteResults {
  /** During a results statement: goal id → the page paths that match the goal page. */
  let goalPaths = new Map<string, Set<string>>();
  /** Per account, its distinct PAGE paths among the events up to `seq` (results: goal pages). */
  const pagePathCache = new Map<string, { seq: number; paths: Set<string> }>();
  // Whether a page path matches a goal page: a set lookup per candidate event (a JSON list of
  // paths per goal in SQL was parsed again for every row: quadratic in paths).
  d.db.function("storefit_goal_path", { deterministic: false }, (goalId: unknown, path: unknown) =>
    typeof goalId === "string" && typeof path === "string" && goalPaths.get(goalId)?.has(path) ? 1 : 0,
  );
  // A goal page's domain (contract matchDomain: case, ports and `*.` wildcards).
  d.db.function("storefit_domain_match", { deterministic: true }, (domain: unknown, pattern: unknown) =>
    typeof domain === "string" && typeof pattern === "string" && matchDomain(domain, pattern) ? 1 : 0,
  );

  /**
   * The account's distinct PAGE paths, as of this transaction. Listing them reads every event of
   * the account — as long as a bare count — so a node remembers them with the last seq read and
   * next time reads only the events stored since. Events are only ever added, and SQLite commits
   * one writer at a time, so a seq below the remembered one can never appear later.
   */
  const pagePaths = (accountId: string): Set<string> => {
    const upTo = (d.sql("SELECT max(seq) FROM events WHERE account_id = ?").pluck(true).get(accountId) as number | null) ?? 0;
    const known = pagePathCache.get(accountId);
    const paths = new Set(known?.paths);
    const fresh = d.sql(NEW_PAGE_PATHS_SQL).pluck(true).all({ account: accountId, after: known?.seq ?? 0, upTo }) as string[];
    goalPagePaths.rowsRead += fresh.length;
    for (const p of fresh) paths.add(p);
    remember(accountId, upTo, paths);
    return paths;
  };
  /** Keeps an account's page paths as of `upTo` (unless a later listing is kept already). */
  const remember = (accountId: string, upTo: number, paths: Set<string>): void => {
    if ((pagePathCache.get(accountId)?.seq ?? -1) > upTo) return;
    pagePathCache.delete(accountId);
    if (paths.size <= goalPagePaths.cachePaths) {
      if (pagePathCache.size >= PAGE_PATH_CACHE_ACCOUNTS) pagePathCache.delete(pagePathCache.keys().next().value!);
      pagePathCache.set(accountId, { seq: upTo, paths });
    }
  };
  /** `pagePaths`, listed on the read worker: a node's first listing reads every PAGE event of the account. */
  const pagePathsOnWorker = async (worker: ReadWorker, accountId: string): Promise<Set<string>> => {
    const known = pagePathCache.get(accountId);
    const params = { account: accountId, after: known?.seq ?? 0 };
    // One snapshot: the listing's end and its rows.
    const [top, fresh] = await worker.read([
      { sql: "SELECT coalesce(max(seq), 0) AS n FROM events WHERE account_id = @account", params: { account: accountId } },
      { sql: NEW_PAGE_PATHS_SQL.replace("@upTo", "(SELECT max(seq) FROM events WHERE account_id = @account)"), params },
    ]);
    const paths = new Set(known?.paths);
    goalPagePaths.rowsRead += fresh!.length;
    for (const r of fresh as { page_path: string }[]) paths.add(r.page_path);
    remember(accountId, count(top![0]), paths);
    return paths;
  };

  /**
   * These visitors' randomised exposures stored up to `upTo` (seq), by visitor, in
   * first_exposures' order (one statement, the experience's index by visitor): what each one's
   * first exposure was at any watermark up to `upTo`.
   */
  const exposuresOf = (key: SqlParams, users: ReadonlySet<string>, upTo: number): Map<string, ExposureRow[]> => {
    const out = new Map<string, ExposureRow[]>();
    if (!users.size) return out;
    for (const x of d.sql(
      `SELECT user_id, coalesce(variation_id, '') AS variation_id, requested_time, probability, split, seq FROM exposures INDEXED BY exposures_experience_user_random
       WHERE account_id = @account AND experience_id = @experience AND user_id IN (SELECT value FROM json_each(@users)) AND forced = 0 AND seq <= @upTo
       ORDER BY user_id, requested_time, coalesce(variation_id, ''), seq`,
    ).iterate({ ...key, users: JSON.stringify([...users]), upTo }) as Iterable<ExposureRow>) {
      let list = out.get(x.user_id);
      if (!list) out.set(x.user_id, (list = []));
      list.push(x);
    }
    return out;
  };
  /** These visitors as counted in the state, by visitor (one statement); absent: not counted. */
  const storedVisitors = (key: SqlParams, users: ReadonlySet<string>): Map<string, CountedVisitor> => {
    const out = new Map<string, CountedVisitor>();
    if (!users.size) return out;
    const rows = d.sql(
      `SELECT user_id, state FROM results_visitors
       WHERE account_id = @account AND experience_id = @experience AND user_id IN (SELECT value FROM json_each(@users))`,
    ).all({ ...key, users: JSON.stringify([...users]) }) as { user_id: string; state: string }[];
    for (const r of rows) out.set(r.user_id, parseVisitor(r.state));
    return out;
  };
  const saveVisitor = (p: SqlParams, v: CountedVisitor) =>
    d.sql("INSERT OR REPLACE INTO results_visitors (account_id, experience_id, user_id, state) VALUES (@account, @experience, @user, @state)").run({ ...p, state: visitorJson(v) });

  /**
   * The account's distinct PAGE paths up to `upTo`, listed in slices of seqs (a build from
   * nothing: the first listing reads every PAGE event of the account), remembered as `pagePaths`
   * remembers them.
   */
  const pagePathsInSlices = async (accountId: string, upTo: number, slice: (step: string) => Promise<boolean>): Promise<Set<string> | null> => {
    const known = pagePathCache.get(accountId);
    const paths = new Set(known?.paths);
    // From the last seq listed, or the account's first event: seqs are shared by every account.
    const start = known?.seq ?? ((d.sql("SELECT min(seq) FROM events WHERE account_id = ?").pluck(true).get(accountId) as number | null) ?? upTo + 1) - 1;
    for (let lo = start; lo < upTo; lo += stateBuild.sliceRows) {
      const params = { account: accountId, after: lo, upTo: Math.min(lo + stateBuild.sliceRows, upTo) };
      const fresh = d.sql(NEW_PAGE_PATHS_SQL).pluck(true).all(params) as string[];
      goalPagePaths.rowsRead += fresh.length;
      for (const p of fresh) paths.add(p);
      if (!(await slice("page paths"))) return null;
    }
    if (paths.size <= goalPagePaths.cachePaths && (pagePathCache.get(accountId)?.seq ?? 0) < upTo) {
      pagePathCache.delete(accountId);
      if (pagePathCache.size >= PAGE_PATH_CACHE_ACCOUNTS) pagePathCache.delete(pagePathCache.keys().next().value!);
      pagePathCache.set(accountId, { seq: upTo, paths });
    }
    return paths;
  };

  /** The builder's claim renewed, if it is still its own (compare and set): false once another took it over. */
  const renewClaim = (key: SqlParams, token: string): boolean =>
    d.sql(
      `UPDATE results_state SET totals = @claim
       WHERE account_id = @account AND experience_id = @experience AND event_seq = ${BUILDING_SEQ} AND json_extract(totals, '$.building') = @token`,
    ).run({ ...key, token, claim: claimJson(token) }).changes === 1;

  /**
   * The state from nothing, up to the seqs `upE` and `upX` read when the claim was taken, in
   * slices (results/build.ts): no transaction spans two slices, so a slice may see rows stored
   * after those seqs; the catch-up fold from (upE, upX) at the end takes them in, as a fold does.
   *  1. first exposures, by visitor (first_exposures' key), with the variations each was exposed
   *     to up to upX (their exposures, by the experience's index);
   *  2. candidate events up to upE, in seq order (spans of seqs, by the account's seq index);
   *  3. the totals, in memory;
   *  4. the visitor and variation rows, written in short transactions that check the claim;
   *  5. the state and its watermark, if the claim is still the builder's (the caller then folds
   *     what arrived meanwhile).
   * Rows of an earlier state are written over: first exposures and exposures are only ever added,
   * so every visitor an earlier state (or an abandoned build) wrote is in this one.
   * False: another builder took the claim over.
   */
  const build = async (key: SqlParams, goals: readonly GoalDefinition[], matcher: GoalMatcher, token: string, upE: number, upX: number): Promise<boolean> => {
    const n = stateBuild.sliceRows;
    let renewed = Date.now();
    startSlices();
    /** The next slice (the event loop runs first), renewing the claim now and then; false: it was taken over. */
    const slice = async (step: string): Promise<boolean> => {
      await nextSlice(step);
      if (Date.now() - renewed < CLAIM_HEARTBEAT_MS) return true;
      d.syncAt("NORMAL");
      if (!d.db.transaction(() => renewClaim(key, token)).immediate()) return false;
      renewed = Date.now();
      return true;
    };
    const visitors = new Map<string, CountedVisitor>();
    const totals = emptyTotals();
    for (let after: string | null = null; ; ) {
      const bound = after === null ? "" : "AND user_id > @after";
      const firsts = d.sql(
        `SELECT user_id, variation_id, requested_time, probability, split FROM first_exposures
         WHERE account_id = @account AND experience_id = @experience ${bound} ORDER BY user_id LIMIT @n`,
      ).all({ ...key, after, n }) as (FirstExposure & { user_id: string })[];
      for (const f of firsts) visitors.set(f.user_id, countVisitor({ variation_id: f.variation_id, requested_time: f.requested_time, probability: f.probability, split: f.split }, [], matcher));
      const last = firsts.length === n ? firsts[n - 1]!.user_id : null;
      const pairs = d.sql(
        `SELECT DISTINCT user_id, variation_id FROM exposures
         WHERE account_id = @account AND experience_id = @experience AND forced = 0 AND user_id IS NOT NULL AND variation_id IS NOT NULL
           AND seq <= @upX ${bound} ${last === null ? "" : "AND user_id <= @last"}`,
      ).all({ ...key, after, last, upX }) as { user_id: string; variation_id: string }[];
      for (const x of pairs) addSeen(totals, x.variation_id);
      if (!(await slice("first exposures"))) return false;
      if (last === null) break;
      after = last;
    }
    if (goals.length) {
      const pageGoals = goals.some((g) => g.kind === "page_view");
      const paths = pageGoals ? await pagePathsInSlices(key.account as string, upE, slice) : [];
      if (!paths) return false;
      const params: SqlParams = { ...key };
      const filter = goalsFilter(goals, [...paths], params);
      const events = d.db.prepare(`SELECT ${CANDIDATE_COLUMNS} FROM events e WHERE e.account_id = @account AND e.seq > @lo AND e.seq <= @hi AND (${filter}) ORDER BY e.seq`);
      // In seq order: each visitor's revenue is summed in the order a fold event by event sums it.
      // From the account's first event: seqs are shared by every account.
      const first = (d.sql("SELECT min(seq) FROM events WHERE account_id = ?").pluck(true).get(key.account) as number | null) ?? upE + 1;
      for (let lo = first - 1; lo < upE; lo += n) {
        for (const e of events.iterate({ ...params, lo, hi: Math.min(lo + n, upE) }) as Iterable<CandidateEvent>) {
          const v = visitors.get(e.user_id);
          if (v) applyEvent(v, e, matcher);
        }
        if (!(await slice("events"))) return false;
      }
    }
    if (!(await countAllInSlices(totals, goals, visitors, n, slice))) return false;
    const rows = [...visitors];
    // A fifth of a slice per transaction: a row written (into a b-tree of 100,000 rows) costs
    // several times a row read; 5,000 made the longest slice of a build (docs/benchmarks.md,
    // "Results").
    const w = Math.max(1, Math.floor(n / 5));
    for (let i = 0; i < rows.length; i += w) {
      d.syncAt("NORMAL");
      const ours = d.db
        .transaction((): boolean => {
          if (!renewClaim(key, token)) return false;
          for (const [user, v] of rows.slice(i, i + w)) saveVisitor({ ...key, user }, v);
          return true;
        })
        .immediate();
      if (!ours) return false;
      renewed = Date.now();
      if (!(await slice("rows written"))) return false;
    }
    // The state at the build's watermark; what arrived during the build is folded by the caller
    // as any fold is (in slices when it is more than a slice's worth: foldResults).
    d.syncAt("NORMAL");
    return d.db
      .transaction((): boolean => {
        if (!renewClaim(key, token)) return false;
        writeState(key, goals, totals, upE, upX);
        return true;
      })
      .immediate();
  };

  /** What arrived after the state's seqs, up to upE and upX, folded into `totals`. */
  const foldForward = (key: SqlParams, goals: readonly GoalDefinition[], matcher: GoalMatcher, totals: Totals, from: { e: number; x: number }, upE: number, upX: number): void => {
    const fold = new Fold(goals, matcher);
    // The goals' event types as literals (fixed words, GOAL_EVENT_TYPES): a json_each list was
    // set up again (a bloom filter) for each visitor's read.
    const types = goalTypes(goals).map((t) => `'${t}'`).join(", ") || "NULL";
    // New exposures: the variations seen, and the visitors whose first exposure is new or moved.
    // A range of rowids (seq): the experience's index would read all of its exposures.
    const exposed = d.sql(
      `SELECT user_id, variation_id FROM exposures NOT INDEXED
       WHERE seq > @after AND seq <= @upTo AND account_id = @account AND experience_id = @experience AND forced = 0 AND user_id IS NOT NULL`,
    ).all({ ...key, after: from.x, upTo: upX }) as { user_id: string; variation_id: string | null }[];
    // The new events, read once: a visitor counted again takes theirs from here, and only their
    // older events by the (account, user, seq) index (none, for most new visitors).
    let events: CandidateEvent[] = [];
    if (goals.length) {
      // Only the goals' candidates (on a goal page's paths, with a goal's name): most new events
      // are page views of other pages. A range of rowids: what arrived since, without the
      // account's index.
      const params: SqlParams = { ...key, after: from.e, upE };
      const { paths, namesByType, revenue } = goalCandidates(goals, []);
      // The goal pages among the new events' paths only, each matched once per node (the
      // matcher's cache): the account's every path, matched again per fold, re-read all of its
      // PAGE events each time once it had more paths than a node remembers.
      if (paths) {
        const fresh = d.sql(NEW_PAGE_PATHS_SQL.replace("FROM events", "FROM events NOT INDEXED")).pluck(true).all({ ...key, after: from.e, upTo: upE }) as string[];
        goalPagePaths.rowsRead += fresh.length;
        for (const p of fresh) if (matcher.onGoalPage(p)) paths.add(p);
      }
      const filter = candidateFilter(paths, namesByType, revenue, params);
      events = d.sql(
        `SELECT ${CANDIDATE_COLUMNS} FROM events e NOT INDEXED
         WHERE e.seq > @after AND e.seq <= @upE AND e.account_id = @account AND (${filter})
         ORDER BY e.seq`,
      ).all(params) as CandidateEvent[];
    }
    const touched = new Set(exposed.map((x) => x.user_id));
    for (const e of events) touched.add(e.user_id);
    const stored = storedVisitors(key, touched);
    const exposures = exposuresOf(key, touched, upX);
    // A visitor's variation is new to them if none of their exposures up to the watermark was to
    // it. Kept in a table of its own (results_seen, until the state's format 2) it cost a row
    // written at a random place per new visitor, about half of what a fold wrote
    // (docs/benchmarks.md, "Results").
    for (const variation of newlySeen(exposed.filter((x): x is { user_id: string; variation_id: string } => x.variation_id !== null), exposures, from.x)) {
      addSeen(totals, variation);
    }
    const recount = toRecount(touched, stored, exposures, upX);
    const older = new Map<string, CandidateEvent[]>();
    if (goals.length && recount.length) {
      for (const e of d.sql(
        `SELECT ${CANDIDATE_COLUMNS} FROM events e
         WHERE e.account_id = @account AND e.user_id IN (SELECT value FROM json_each(@users)) AND e.seq <= @after AND e.event_type IN (${types})
         ORDER BY e.user_id, e.seq`,
      ).iterate({ ...key, users: JSON.stringify(recount), after: from.e }) as Iterable<CandidateEvent>) {
        let list = older.get(e.user_id);
        if (!list) older.set(e.user_id, (list = []));
        list.push(e);
      }
    }
    const keep = foldVisitors(fold, recount, stored, exposures, older, events, from, upX);
    fold.finish(totals);
    if (keep.length) {
      d.sql(
        `INSERT OR REPLACE INTO results_visitors (account_id, experience_id, user_id, state)
         SELECT @account, @experience, value ->> 0, value ->> 1 FROM json_each(@rows)`,
      ).run({ ...key, rows: JSON.stringify(keep.map((user) => [user, visitorJson(fold.changed.get(user)!.after)])) });
    }
  };

  /**
   * Folds what arrived after `from` into `totals` (up to `up`, or the last seqs now) and writes
   * the state with its new watermark. In the caller's write transaction.
   */
  const foldFrom = (key: SqlParams, goals: readonly GoalDefinition[], matcher: GoalMatcher, totals: Totals, from: { e: number; x: number }, up?: { upE: number; upX: number }): FoldedResults => {
    const upE = up?.upE ?? (d.sql("SELECT max(seq) FROM events WHERE account_id = ?").pluck(true).get(key.account) as number | null) ?? 0;
    const upX = up?.upX ?? (d.sql("SELECT max(seq) FROM exposures").pluck(true).get() as number | null) ?? 0;
    foldForward(key, goals, matcher, totals, from, upE, upX);
    writeState(key, goals, totals, upE, upX);
    return { aggregate: aggregateOf(totals, goals), exposed: exposedOf(totals) };
  };

  const writeState = (key: SqlParams, goals: readonly GoalDefinition[], totals: Totals, upE: number, upX: number): void => {
    d.sql(
      `INSERT OR REPLACE INTO results_state (account_id, experience_id, goals, event_seq, exposure_seq, totals)
       VALUES (@account, @experience, @goals, @upE, @upX, @totals)`,
    ).run({ ...key, goals: goalsKey(goals), upE, upX, totals: JSON.stringify(totals) });
  };

  /**
   * Where the next slice of a fold from `from` towards `to` ends (results/build.ts
   * `sliceEnd`): the account's events by its (account, seq) index, which finds the seq of its
   * `sliceRows`-th next event; exposures have no index by account and seq here, and a fold reads
   * them by a range of rowids, so a span of foldExposureRows() seqs bounds what a slice reads.
   */
  const foldSliceEnd = (account: string, from: { e: number; x: number }, to: { upE: number; upX: number }) =>
    sliceEnd(
      from,
      to,
      (after) => d.sql("SELECT seq FROM events WHERE account_id = ? AND seq > ? ORDER BY seq LIMIT 1 OFFSET ?").pluck(true).get(account, after, stateBuild.sliceRows - 1) as number | undefined,
      (after) => after + foldExposureRows(),
    );

  return {
  /**
   * Without a state for these goals, the caller that claims the state row builds it (`build`);
   * a caller that finds another's fresh claim waits for that build and then folds from it.
   */
  async foldResults(accountId: string, experienceId: string, goals: readonly GoalDefinition[]): Promise<FoldedResults> {
    const key = { account: accountId, experience: experienceId };
    const matcher = matcherFor(goals);
    const waitUntil = Date.now() + stateBuild.claimWaitMs;
    /** Where a fold in slices ends: the seqs read at its first slice (so that it ends under any rate of arrivals). */
    let target: { upE: number; upX: number } | null = null;
    for (;;) {
      // Not fsynced (NORMAL, as config calls): the state is derived data, committed with its
      // watermark, so an OS crash can only lose the last fold, which the next call redoes. An
      // fsync here took about half of a fold's time (docs/benchmarks.md, "Results").
      d.syncAt("NORMAL");
      // BEGIN IMMEDIATE: one node (process) folds or claims at a time, and reads what the last one wrote.
      const step = d.db
        .transaction((): FoldedResults | { build: string; upE: number; upX: number } | { slice: { upE: number; upX: number } } | "wait" => {
          const upE = (d.sql("SELECT max(seq) FROM events WHERE account_id = ?").pluck(true).get(accountId) as number | null) ?? 0;
          const upX = (d.sql("SELECT max(seq) FROM exposures").pluck(true).get() as number | null) ?? 0;
          const state = d.sql("SELECT goals, event_seq, exposure_seq, totals FROM results_state WHERE account_id = @account AND experience_id = @experience").get(key) as
            | { goals: string; event_seq: number; exposure_seq: number; totals: string }
            | undefined;
          if (state && state.event_seq !== BUILDING_SEQ && state.goals === goalsKey(goals)) {
            const totals = JSON.parse(state.totals) as Totals;
            const from = { e: state.event_seq, x: state.exposure_seq };
            const to = target ?? { upE, upX };
            if (from.e >= to.upE && from.x >= to.upX) return { aggregate: aggregateOf(totals, goals), exposed: exposedOf(totals) };
            // More than a slice's worth behind (an experience left unopened while events
            // arrived, or a long build's arrivals): this slice only, in its own transaction.
            const end = foldSliceEnd(accountId, from, to);
            // To `end`, not `to`: another caller's slices may have carried one watermark past this
            // caller's target, and folding "to" it would move that watermark back (counted twice).
            if (end.last) return foldFrom(key, goals, matcher, totals, from, end);
            foldFrom(key, goals, matcher, totals, from, end);
            return { slice: to };
          }
          if (state?.event_seq === BUILDING_SEQ && claimFresh(parseClaim(state.totals))) return "wait";
          const token = randomUUID();
          d.sql(
            `INSERT OR REPLACE INTO results_state (account_id, experience_id, goals, event_seq, exposure_seq, totals)
             VALUES (@account, @experience, @goals, ${BUILDING_SEQ}, ${BUILDING_SEQ}, @claim)`,
          ).run({ ...key, goals: goalsKey(goals), claim: claimJson(token) });
          return { build: token, upE, upX };
        })
        .immediate();
      if (step === "wait") {
        if (Date.now() > waitUntil) throw new ResultsBuildBusy();
        await sleep(CLAIM_POLL_MS);
        continue;
      }
      if ("slice" in step) {
        if (!target) startSlices();
        target = step.slice;
        await nextSlice("fold");
        continue;
      }
      if (!("build" in step)) return step;
      let built: boolean;
      try {
        built = await build(key, goals, matcher, step.build, step.upE, step.upX);
      } catch (error) {
        // Others need not wait for the claim to go stale (CLAIM_STALE_MS): the next caller builds.
        try {
          d.sql(
            `DELETE FROM results_state
             WHERE account_id = @account AND experience_id = @experience AND event_seq = ${BUILDING_SEQ} AND json_extract(totals, '$.building') = @token`,
          ).run({ ...key, token: step.build });
        } catch {
          // The connection is gone (the store closed): the claim goes stale.
        }
        throw error;
      }
      // Built: the next pass folds what arrived during the build (in slices if it is many).
      if (!built) stateBuild.abandoned++;
    }
  },

  exposureVisitors: ((accountId: string, experienceId: string, range: ResultsRange = {}): Awaitable<{ distinct: number; byVariation: VariationVisitors[] }> => {
    const params = { account: accountId, experience: experienceId, ...rangeParams(range) };
    if (reader && bounded(range)) {
      return reader
        .read([
          { sql: EXPOSURE_VISITORS_SQL.distinct, params },
          { sql: EXPOSURE_VISITORS_SQL.byVariation, params },
        ])
        .then(([distinct, byVariation]) => ({ distinct: count(distinct![0]), byVariation: byVariation as VariationVisitors[] }));
    }
    const distinct = count(d.sql(EXPOSURE_VISITORS_SQL.distinct).get(params));
    const byVariation = d.sql(EXPOSURE_VISITORS_SQL.byVariation).all(params) as VariationVisitors[];
    return { distinct, byVariation };
  }) as RangedResultsReads["exposureVisitors"],

  /**
   * The account's events by the (account, seq) index. Exposures have no index by account and seq
   * (one more index on the summaries' path), so the last exposure of any account is taken: the
   * max of the rowid, one seek. Another account's exposure then only costs a recomputation.
   */
  resultsVersion(accountId: string): { revision: number; eventSeq: number; exposureSeq: number } {
    const row = d.sql(
      `SELECT (SELECT revision FROM accounts WHERE id = @account) AS revision,
              (SELECT max(seq) FROM events WHERE account_id = @account) AS eventSeq,
              (SELECT max(seq) FROM exposures) AS exposureSeq`,
    ).get({ account: accountId }) as { revision: number | null; eventSeq: number | null; exposureSeq: number | null };
    return { revision: row.revision ?? 0, eventSeq: row.eventSeq ?? 0, exposureSeq: row.exposureSeq ?? 0 };
  },

  resultsAggregate: ((accountId: string, experienceId: string, goals: readonly GoalDefinition[], range: ResultsRange = {}): Awaitable<ResultsAggregate> => {
    const experience = { account: accountId, experience: experienceId, ...rangeParams(range) };
    if (reader && bounded(range)) {
      // Two requests: the page paths (remembered per account: after the first call only the
      // events since are read), then the exposures and the goal sums in one snapshot of their
      // own. A goal page's path first stored between the two counts from the next call on.
      return (async () => {
        const paths = goals.some((g) => g.kind === "page_view") ? [...(await pagePathsOnWorker(reader, accountId))] : [];
        const query = goals.length ? goalSumsQuery(goals, paths, experience) : null;
        const statements: WorkerStatement[] = [{ sql: EXPOSURE_DAYS_SQL, params: experience }];
        if (query) statements.push({ sql: query.sql, params: query.params });
        const [days, sums] = await reader.read(statements, query?.goalPaths);
        return { exposures: exposureDays(days!), goals: (sums ?? []) as GoalSums[] };
      })();
    }
    // One snapshot: the exposures, the page paths and the goal sums see the same rows.
    return d.read((): ResultsAggregate => {
      const exposures = exposureDays(d.sql(EXPOSURE_DAYS_SQL).all(experience));
      if (!goals.length) return { exposures, goals: [] };
      const paths = goals.some((g) => g.kind === "page_view") ? [...pagePaths(accountId)] : [];
      const query = goalSumsQuery(goals, paths, experience);
      // Read by storefit_goal_path during this statement (better-sqlite3 runs it synchronously).
      goalPaths = query.goalPaths;
      try {
        // Not cached: the text depends on the goals (preparing costs far less than the query).
        return { exposures, goals: d.db.prepare(query.sql).all(query.params) as GoalSums[] };
      } finally {
        goalPaths = new Map();
      }
    });
  }) as RangedResultsReads["resultsAggregate"],

  pageViews(accountId: string, range: ResultsRange, limit: number): Awaitable<PageViews> {
    const params = { account: accountId, ...rangeParams(range), limit };
    if (reader) {
      return reader
        .read([
          { sql: PAGE_VIEWS_SQL.byDomain, params },
          { sql: PAGE_VIEWS_SQL.pages, params },
        ])
        .then(([byDomain, pages]) => ({ byDomain: byDomain as PageViews["byDomain"], pages: pages as PageViews["pages"] }));
    }
    return d.read(
      (): PageViews => ({
        byDomain: d.sql(PAGE_VIEWS_SQL.byDomain).all(params) as PageViews["byDomain"],
        pages: d.sql(PAGE_VIEWS_SQL.pages).all(params) as PageViews["pages"],
      }),
    );
  },

  pageVisitors(accountId: string, range: ResultsRange, pages: readonly { domain: string; page_path: string }[]): Awaitable<number> {
    if (!pages.length) return 0;
    const params = { account: accountId, ...rangeParams(range), pages: JSON.stringify(pages.map((p) => [p.domain, p.page_path])) };
    if (reader) return reader.read([{ sql: PAGE_VISITORS_SQL, params }]).then(([rows]) => count(rows![0]));
    return count(d.sql(PAGE_VISITORS_SQL).get(params));
  },
  };
}
