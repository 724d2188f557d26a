// The results' reads (docs/results.md), on PostgreSQL: exposures and goal sums per variation and
// day, the results cache's version, and the page views of the diagnostics. The same statements
// as the SQLite store's (store/sqlite/results.ts), giving the same numbers for the same rows:
// what SQLite asks of JS functions inside SQL (a goal page's paths, its domain) is matched in JS
// first, against the account's distinct page paths and domains, and passed in as arrays.

import type pg from "pg";
import { matchDomain } from "@storefit/contract";
import type { GoalDefinition } from "@storefit/contract";
import type { ExposureDay, FoldedResults, GoalSums, PageViews, ResultsAggregate, ResultsRange, ResultsStore, VariationVisitors } from "../types.js";
import { GOAL_EVENT_TYPES, MAX_DATE_MS, NAMED_TYPES, countedAmountSql, goalCandidates } from "../event-fields.js";
import { randomUUID } from "node:crypto";
import { execute, query, snapshot, transaction } from "./db.js";
import { BUILDING_SEQ, CLAIM_HEARTBEAT_MS, CLAIM_POLL_MS, ResultsBuildBusy, claimFresh, claimJson, foldExposureRows, nextSlice, parseClaim, sliceEnd, startSlices, sleep, stateBuild } from "../../results/build.js";
import { Fold, addSeen, aggregateOf, countAllInSlices, foldVisitors, matcherFor, applyEvent, countVisitor, emptyTotals, exposedOf, goalTypes, goalsKey, newlySeen, parseVisitor, toRecount, visitorJson } from "../../results/incremental.js";
import type { CandidateEvent, CountedVisitor, ExposureRow, FirstExposure, Totals, GoalMatcher } from "../../results/incremental.js";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A range bound for a whole-millisecond bigint column: `t >= x` is `t >= ceil(x)`, and `t < x` is
 * `t < ceil(x)`; clamped to bigint. An open bound is the far end of bigint, so every stored time
 * is inside, as SQLite's largest double keeps it.
 */
function msBound(ms: number | undefined, open: bigint): string {
  if (ms === undefined || Number.isNaN(ms)) return String(open);
  if (!Number.isFinite(ms)) return String(ms > 0 ? INT64_MAX : INT64_MIN);
  const n = BigInt(Math.ceil(ms));
  return String(n < INT64_MIN ? INT64_MIN : n > INT64_MAX ? INT64_MAX : n);
}

/** A results range as the parameters $3 (from) and $4 (to) of the statements below. */
const rangeBounds = (range: ResultsRange): [string, string] => [msBound(range.from_ms, INT64_MIN), msBound(range.to_ms, INT64_MAX)];

/** A day number (whole UTC days since the epoch) as YYYY-MM-DD. */
const dayDate = (day: number | null): string | null => (day === null ? null : new Date(day * 86_400_000).toISOString().slice(0, 10));

/**
 * Each visitor's first randomised exposure to the experience ($1 account, $2 experience): one row
 * per visitor in first_exposures (migration 2), which the exposure insert keeps.
 */
const FIRST_EXPOSURES = `
  firsts AS (
    SELECT user_id, variation_id, requested_time AS t FROM first_exposures WHERE account_id = $1 AND experience_id = $2
  )`;

/** Visitors per variation, UTC day of first exposure and split, of those first exposed in the range ($3, $4). */
const EXPOSURE_DAYS_SQL = `
  SELECT variation_id, CASE WHEN requested_time BETWEEN 0 AND ${MAX_DATE_MS} THEN requested_time / 86400000 END AS day, split,
         count(*) AS visitors, coalesce(sum(probability), 0) AS probability_sum, count(probability) AS probability_count
  FROM first_exposures
  WHERE account_id = $1 AND experience_id = $2 AND requested_time >= $3 AND requested_time < $4
  GROUP BY variation_id, day, split
  ORDER BY variation_id, day NULLS FIRST, split NULLS FIRST`;

/**
 * The one pass's filter over events `e`: each goal type's events, narrowed to the goal pages'
 * paths (`paths`; null: no page goal) or the goals' names; `param` adds a parameter.
 */
function candidateFilter(paths: ReadonlySet<string> | null, namesByType: ReadonlyMap<string, Set<string> | "any">, revenue: boolean, param: (value: unknown) => string): string {
  const kept: string[] = [];
  if (paths) kept.push(`(e.event_type = 'PAGE' AND e.page_path = ANY (${param([...paths])}::text[]))`);
  for (const [type, names] of namesByType) {
    kept.push(names === "any" ? `e.event_type = '${type}'` : `(e.event_type = '${type}' AND e.event_name = ANY (${param([...names])}::text[]))`);
  }
  if (revenue) kept.push("e.event_type = 'REVENUE'");
  return kept.length ? kept.join(" OR ") : "false";
}

/** The candidate filter of goals (`candidateFilter`), from the goals and the account's page paths. */
function goalsFilter(goals: readonly GoalDefinition[], pagePaths: readonly string[], param: (value: unknown) => string): string {
  const { paths, namesByType, revenue } = goalCandidates(goals, pagePaths);
  return candidateFilter(paths, namesByType, revenue, param);
}

/** An event's columns the incremental fold reads (results/incremental.ts CandidateEvent). */
const CANDIDATE_COLUMNS = "e.user_id, e.event_timestamp, e.event_type, e.event_name, e.page_path, e.domain, e.revenue_amount";


async function saveVisitors(client: pg.PoolClient, accountId: string, experienceId: string, rows: readonly [string, CountedVisitor][]): Promise<void> {
  if (!rows.length) return;
  await client.query(
    `INSERT INTO results_visitors (account_id, experience_id, user_id, state)
     SELECT $1, $2, u, s FROM unnest($3::text[], $4::text[]) AS r (u, s)
     ON CONFLICT (account_id, experience_id, user_id) DO UPDATE SET state = excluded.state`,
    [accountId, experienceId, rows.map(([u]) => u), rows.map(([, v]) => visitorJson(v))],
  );
}

/** What arrived after the state's seqs, up to upE and upX, folded into `totals`. */
async function foldForward(
  client: pg.PoolClient,
  accountId: string,
  experienceId: string,
  goals: readonly GoalDefinition[],
  matcher: GoalMatcher,
  totals: Totals,
  from: { e: number; x: number },
  upE: number,
  upX: number,
): Promise<void> {
  const key = [accountId, experienceId];
  const fold = new Fold(goals, matcher);
  const types = goalTypes(goals);
  // The fold's visitors' rows are looked up one visitor at a time (LATERAL over the list, by
  // index; OFFSET 0 keeps the planner from flattening it into a join): with
  // `user_id = ANY (list)` or a plain join, and a slice's ~1,500 visitors, the planner scanned
  // the account's events, exposures and stored rows whole (a seq scan of the events, hashed),
  // which made a far-behind fold in slices take 2-11x its time in one go.
  const stored = async (users: readonly string[]): Promise<Map<string, CountedVisitor>> =>
    new Map(
      (await query<{ user_id: string; state: string }>(
        client,
        `SELECT r.user_id, r.state FROM unnest($3::text[]) AS u (user_id)
         CROSS JOIN LATERAL (SELECT * FROM results_visitors r WHERE r.account_id = $1 AND r.experience_id = $2 AND r.user_id = u.user_id OFFSET 0) r`,
        [...key, users],
      )).map(
        (r) => [r.user_id, parseVisitor(r.state)],
      ),
    );
  // New exposures: the variations seen, and the visitors whose first exposure is new or moved.
  const exposed = await query<{ user_id: string; variation_id: string | null }>(
    client,
    `SELECT DISTINCT user_id, variation_id FROM exposures
     WHERE account_id = $1 AND seq > $3 AND seq <= $4 AND experience_id = $2 AND NOT forced AND user_id IS NOT NULL`,
    [...key, from.x, upX],
  );
  // The new events, read once: a visitor counted again takes theirs from here, and only their
  // older events by the (account, user, seq) index (none, for most new visitors).
  const events = goals.length
    ? await query<CandidateEvent>(
        client,
        `SELECT ${CANDIDATE_COLUMNS} FROM events e
         WHERE e.account_id = $1 AND e.seq > $2 AND e.seq <= $3 AND e.event_type = ANY ($4::text[])
         ORDER BY e.seq`,
        [accountId, from.e, upE, types],
      )
    : [];
  const touched = new Set(exposed.map((x) => x.user_id));
  for (const e of events) touched.add(e.user_id);
  const users = [...touched];
  const before = users.length ? await stored(users) : new Map<string, CountedVisitor>();
  // These visitors' randomised exposures up to upX in first_exposures' order (its ordering of
  // text: the database's), by visitor: their first exposure at any watermark up to upX.
  const exposures = new Map<string, ExposureRow[]>();
  if (users.length) {
    for (const x of await query<ExposureRow>(
      client,
      `SELECT x.user_id, x.variation_id, x.requested_time, x.probability, x.split, x.seq FROM unnest($3::text[]) AS u (user_id)
       CROSS JOIN LATERAL (
         SELECT * FROM exposures x WHERE x.account_id = $1 AND x.experience_id = $2 AND x.user_id = u.user_id AND NOT x.forced AND x.seq <= $4 OFFSET 0
       ) x
       ORDER BY x.user_id, x.requested_time, x.variation_id, x.seq`,
      [...key, users, upX],
    )) {
      let list = exposures.get(x.user_id);
      if (!list) exposures.set(x.user_id, (list = []));
      list.push(x);
    }
  }
  // A visitor's variation is new to them if none of their exposures up to the watermark was to
  // it, as on SQLite: no row per visitor and variation to write (results_seen, until the state's
  // format 2).
  for (const variation of newlySeen(exposed.filter((x): x is { user_id: string; variation_id: string } => x.variation_id !== null), exposures, from.x)) {
    addSeen(totals, variation);
  }
  const recount = toRecount(touched, before, exposures, upX);
  const older = new Map<string, CandidateEvent[]>();
  if (goals.length && recount.length) {
    for (const e of await query<CandidateEvent>(
      client,
      `SELECT ${CANDIDATE_COLUMNS} FROM unnest($2::text[]) AS u (user_id)
       CROSS JOIN LATERAL (
         SELECT * FROM events e WHERE e.account_id = $1 AND e.user_id = u.user_id AND e.seq <= $3 AND e.event_type = ANY ($4::text[]) OFFSET 0
       ) e
       ORDER BY e.seq`,
      [accountId, recount, from.e, types],
    )) {
      let list = older.get(e.user_id);
      if (!list) older.set(e.user_id, (list = []));
      list.push(e);
    }
  }
  const keep = foldVisitors(fold, recount, before, exposures, older, events, from, upX);
  fold.finish(totals);
  await saveVisitors(client, accountId, experienceId, keep.map((u) => [u, fold.changed.get(u)!.after] as [string, CountedVisitor]));
}

/**
 * The goal sums statement and its parameters (docs/results.md). One pass over the account's
 * events keeps the candidates of every goal (`scan`: events of the goals' types, on the goal
 * pages' paths, with a goal's name), then:
 *  - hits: each candidate with every goal it matches (the goal's own name, paths and domain);
 *  - placed: each hit with its visitor's first exposure to the experience (variation, moment);
 *  - per_visitor: per visitor and goal, post/pre flags, capped revenue, orders, first conversion;
 *  - the outer query sums those per goal, variation and day of first conversion.
 * `pagePaths` and `domains` are the account's distinct PAGE paths and domains: the contract's
 * matchers (what the storefront script does) pick each page goal's among them.
 */
function goalSumsQuery(
  goals: readonly GoalDefinition[],
  pagePaths: readonly string[],
  domains: readonly string[],
  base: readonly unknown[],
): { sql: string; params: unknown[] } {
  const params: unknown[] = [...base];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const goal = { id: [] as string[], type: [] as string[], name: [] as (string | null)[], onPages: [] as boolean[], domain: [] as (string | null)[], cap: [] as (number | null)[] };
  const goalPaths = { goal: [] as string[], path: [] as string[] };
  const goalDomains = { goal: [] as string[], domain: [] as string[] };
  const allPaths = new Set<string>();
  const namesByType = new Map<string, Set<string> | "any">();
  let revenue = false;
  const matcher = matcherFor(goals);
  for (const [i, g] of goals.entries()) {
    const type = GOAL_EVENT_TYPES[g.kind];
    let name: string | null = null;
    let domain: string | null = null;
    if (g.kind === "page_view") {
      const page = g.page ?? { page_path: "", page_match: "exact_match" as const };
      for (const p of pagePaths.filter((p) => matcher.onGoalPagePath(p, i))) {
        allPaths.add(p);
        goalPaths.goal.push(g.id);
        goalPaths.path.push(p);
      }
      domain = page.domain || null;
      if (domain !== null) {
        for (const d of domains.filter((d) => matchDomain(d, domain!))) {
          goalDomains.goal.push(g.id);
          goalDomains.domain.push(d);
        }
      }
    } else if (g.kind === "revenue") {
      revenue = true;
    } else {
      const names = namesByType.get(type);
      if (!g.event_name) namesByType.set(type, "any");
      else if (names !== "any") namesByType.set(type, (names ?? new Set()).add(g.event_name));
      name = g.event_name || null;
    }
    goal.id.push(g.id);
    goal.type.push(type);
    goal.name.push(name);
    goal.onPages.push(g.kind === "page_view");
    goal.domain.push(domain);
    goal.cap.push(g.kind === "revenue" && g.revenue_cap !== undefined ? g.revenue_cap : null);
  }
  const kept = candidateFilter(goals.some((g) => g.kind === "page_view") ? allPaths : null, namesByType, revenue, param);
  const sql = `
    WITH goals AS (
      SELECT * FROM unnest(${param(goal.id)}::text[], ${param(goal.type)}::text[], ${param(goal.name)}::text[],
                           ${param(goal.onPages)}::boolean[], ${param(goal.domain)}::text[], ${param(goal.cap)}::float8[])
        AS g (goal_id, event_type, name, on_pages, domain, cap)
    ),
    -- A page goal's paths and domains among the account's (the contract's matchers, in JS).
    goal_paths AS (SELECT * FROM unnest(${param(goalPaths.goal)}::text[], ${param(goalPaths.path)}::text[]) AS p (goal_id, path)),
    goal_domains AS (SELECT * FROM unnest(${param(goalDomains.goal)}::text[], ${param(goalDomains.domain)}::text[]) AS d (goal_id, domain)),
    ${FIRST_EXPOSURES},
    scan AS MATERIALIZED (
      SELECT e.user_id, e.event_timestamp AS ts, e.event_type, e.page_path AS path, e.domain,
             CASE WHEN e.event_type IN ('${NAMED_TYPES.join("', '")}') THEN e.event_name END AS name,
             CASE WHEN e.event_type = 'REVENUE' THEN ${countedAmountSql("e.revenue_amount")} ELSE 0 END AS amount
      FROM events e
      WHERE e.account_id = $1 AND e.event_timestamp < $4 AND (${kept})
    ),
    hits AS (
      SELECT s.user_id, s.ts, g.goal_id, g.cap, s.amount
      FROM scan s JOIN goals g ON g.event_type = s.event_type
      -- An order is a REVENUE event whose amount counts (> 0): not a refund, a free or an invalid one.
      WHERE (g.name IS NULL OR g.name = s.name) AND (s.event_type <> 'REVENUE' OR s.amount > 0)
        AND (NOT g.on_pages OR EXISTS (SELECT 1 FROM goal_paths p WHERE p.goal_id = g.goal_id AND p.path = s.path))
        AND (g.domain IS NULL OR EXISTS (SELECT 1 FROM goal_domains d WHERE d.goal_id = g.goal_id AND d.domain = s.domain))
    ),
    placed AS (
      SELECT h.user_id, h.goal_id, h.cap, h.amount, h.ts, f.t, f.variation_id
      FROM hits h JOIN firsts f ON f.user_id = h.user_id
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
      WHERE t >= $3 AND t < $4
      GROUP BY user_id, variation_id, goal_id, cap
    ),
    capped AS (
      SELECT variation_id, goal_id, post, pre, first_ts, orders,
             CASE WHEN cap IS NOT NULL AND post_amount > cap THEN cap ELSE post_amount END AS v,
             CASE WHEN cap IS NOT NULL AND pre_amount > cap THEN cap ELSE pre_amount END AS pv
      FROM per_visitor
    )
    SELECT goal_id, variation_id,
           CASE WHEN first_ts BETWEEN 0 AND ${MAX_DATE_MS} THEN first_ts / 86400000 END AS day,
           count(*) AS visitors, sum(post) AS post, sum(pre) AS pre, sum(post * pre) AS post_pre,
           sum(v) AS value, sum(v * v) AS value_squares, sum(pv) AS pre_value, sum(pv * pv) AS pre_value_squares,
           sum(v * pv) AS value_pre_value, sum(orders) AS orders, sum(orders * orders) AS orders_squares,
           sum(v * orders) AS value_orders
    FROM capped
    GROUP BY goal_id, variation_id, day
    ORDER BY goal_id COLLATE "C", variation_id, day NULLS FIRST`;
  return { sql, params };
}

/** The account's distinct PAGE paths, and its PAGE domains when a goal names one (they match goal pages in JS). */
async function pageKeys(client: pg.PoolClient | pg.Pool, accountId: string, goals: readonly GoalDefinition[]): Promise<{ paths: string[]; domains: string[] }> {
  const pageGoals = goals.filter((g) => g.kind === "page_view");
  if (!pageGoals.length) return { paths: [], domains: [] };
  const [row] = await query<{ paths: string[]; domains: string[] }>(
    client,
    `SELECT array(SELECT DISTINCT page_path FROM events WHERE account_id = $1 AND event_type = 'PAGE' AND page_path IS NOT NULL) AS paths,
            CASE WHEN $2 THEN array(SELECT DISTINCT domain FROM events WHERE account_id = $1 AND event_type = 'PAGE') ELSE '{}' END AS domains`,
    [accountId, pageGoals.some((g) => g.page?.domain)],
  );
  return row!;
}

/** The account's last event and exposure seqs: what a fold reads up to. */
async function watermark(client: pg.PoolClient | pg.Pool, accountId: string): Promise<{ upE: number; upX: number }> {
  const [up] = await query<{ e: number | null; x: number | null }>(
    client,
    "SELECT (SELECT max(seq) FROM events WHERE account_id = $1) AS e, (SELECT max(seq) FROM exposures WHERE account_id = $1) AS x",
    [accountId],
  );
  return { upE: up!.e ?? 0, upX: up!.x ?? 0 };
}

/**
 * Folds what arrived after `from` into `totals` (up to `up`, or the last seqs now) and writes
 * the state with its new watermark, in the caller's transaction (which holds the state row).
 */
async function foldFrom(
  client: pg.PoolClient,
  accountId: string,
  experienceId: string,
  goals: readonly GoalDefinition[],
  matcher: GoalMatcher,
  totals: Totals,
  from: { e: number; x: number },
  up?: { upE: number; upX: number },
): Promise<FoldedResults> {
  const { upE, upX } = up ?? (await watermark(client, accountId));
  await foldForward(client, accountId, experienceId, goals, matcher, totals, from, upE, upX);
  await writeState(client, accountId, experienceId, goals, totals, upE, upX);
  return { aggregate: aggregateOf(totals, goals), exposed: exposedOf(totals) };
}

async function writeState(client: pg.PoolClient, accountId: string, experienceId: string, goals: readonly GoalDefinition[], totals: Totals, upE: number, upX: number): Promise<void> {
  await client.query(
    "UPDATE results_state SET goals = $3, event_seq = $4, exposure_seq = $5, totals = $6 WHERE account_id = $1 AND experience_id = $2",
    [accountId, experienceId, goalsKey(goals), upE, upX, JSON.stringify(totals)],
  );
}

/**
 * The state from nothing, up to the seqs `upE` and `upX` read when the claim was taken, as the
 * SQLite store builds it (store/sqlite/results.ts `build`, docs/results.md "Making the state
 * from nothing"): reads in slices of rows on the pool, outside any transaction (so no
 * connection and no lock is held across the build, and the event loop runs between slices);
 * the visitor and variation rows in short transactions that check the claim (compare and set on
 * its exact text); then, under the state row's lock, the state with the build's watermark (the
 * caller folds what arrived meanwhile). False: another builder took the claim over.
 */
async function buildState(
  pool: pg.Pool,
  accountId: string,
  experienceId: string,
  goals: readonly GoalDefinition[],
  matcher: GoalMatcher,
  token: string,
  claimed: string,
  upE: number,
  upX: number,
): Promise<boolean> {
  const n = stateBuild.sliceRows;
  const key = [accountId, experienceId];
  /** The claim's text as this builder last wrote it. */
  let claim = claimed;
  let renewedAt = Date.now();
  startSlices();
  /** The claim renewed if it is still this builder's: false once another took it over. */
  /**
   * The claim's renewed text if the claim is still this builder's (null: another took it over).
   * `claim` changes only once the renewal is committed: a transaction run again after a deadlock
   * compares with the text still stored.
   */
  const renew = async (db: pg.Pool | pg.PoolClient): Promise<string | null> => {
    const next = claimJson(token);
    const rows = await execute(db, `UPDATE results_state SET totals = $4 WHERE account_id = $1 AND experience_id = $2 AND event_seq = ${BUILDING_SEQ} AND totals = $3`, [...key, claim, next]);
    return rows === 1 ? next : null;
  };
  const renewed = (next: string | null): boolean => {
    if (next === null) return false;
    claim = next;
    renewedAt = Date.now();
    return true;
  };
  const slice = async (step: string): Promise<boolean> => {
    await nextSlice(step);
    return Date.now() - renewedAt < CLAIM_HEARTBEAT_MS || renewed(await renew(pool));
  };
  const visitors = new Map<string, CountedVisitor>();
  const totals = emptyTotals();
  for (let after: string | null = null; ; ) {
    const firsts: (FirstExposure & { user_id: string })[] = await query<FirstExposure & { user_id: string }>(
      pool,
      `SELECT user_id, variation_id, requested_time, probability, split FROM first_exposures
       WHERE account_id = $1 AND experience_id = $2 AND ($3::text IS NULL OR user_id > $3) ORDER BY user_id LIMIT $4`,
      [...key, after, n],
    );
    for (const f of firsts) visitors.set(f.user_id, countVisitor({ variation_id: f.variation_id, requested_time: f.requested_time, probability: f.probability, split: f.split }, [], matcher));
    const last: string | null = firsts.length === n ? firsts[n - 1]!.user_id : null;
    const pairs = await query<{ user_id: string; variation_id: string }>(
      pool,
      `SELECT DISTINCT user_id, variation_id FROM exposures
       WHERE account_id = $1 AND experience_id = $2 AND NOT forced AND user_id IS NOT NULL AND variation_id IS NOT NULL AND seq <= $3
         AND ($4::text IS NULL OR user_id > $4) AND ($5::text IS NULL OR user_id <= $5)`,
      [...key, upX, after, last],
    );
    for (const x of pairs) addSeen(totals, x.variation_id);
    if (!(await slice("first exposures"))) return false;
    if (last === null) break;
    after = last;
  }
  if (goals.length) {
    const { paths } = await pageKeys(pool, accountId, goals);
    const params: unknown[] = [accountId];
    const filter = goalsFilter(goals, paths, (value) => {
      params.push(value);
      return `$${params.length}`;
    });
    const lo = `$${params.length + 1}`;
    const hi = `$${params.length + 2}`;
    // In seq order: each visitor's revenue is summed in the order a fold event by event sums it.
    // From the account's first event: seqs are shared by every account.
    const [first] = await query<{ seq: number | null }>(pool, "SELECT min(seq) AS seq FROM events WHERE account_id = $1", [accountId]);
    for (let from = (first?.seq ?? upE + 1) - 1; from < upE; from += n) {
      const events = await query<CandidateEvent>(
        pool,
        `SELECT ${CANDIDATE_COLUMNS} FROM events e WHERE e.account_id = $1 AND e.seq > ${lo} AND e.seq <= ${hi} AND (${filter}) ORDER BY e.seq`,
        [...params, from, Math.min(from + n, upE)],
      );
      for (const e of events) {
        const v = visitors.get(e.user_id);
        if (v) applyEvent(v, e, matcher);
      }
      if (!(await slice("events"))) return false;
    }
  }
  if (!(await countAllInSlices(totals, goals, visitors, n, slice))) return false;
  const rows = [...visitors];
  for (let i = 0; i < rows.length; i += n) {
    const next = await transaction(pool, async (client) => {
      const next = await renew(client);
      if (next === null) return null;
      await saveVisitors(client, accountId, experienceId, rows.slice(i, i + n));
      return next;
    });
    if (!renewed(next) || !(await slice("rows written"))) return false;
  }
  // The state at the build's watermark; what arrived during the build is folded by the caller as
  // any fold is (in slices when it is more than a slice's worth: foldResults).
  return transaction(pool, async (client) => {
    const [state] = await query<{ totals: string }>(
      client,
      `SELECT totals FROM results_state WHERE account_id = $1 AND experience_id = $2 AND event_seq = ${BUILDING_SEQ} FOR UPDATE`,
      key,
    );
    if (state?.totals !== claim) return false;
    await writeState(client, accountId, experienceId, goals, totals, upE, upX);
    return true;
  });
}

/**
 * Where the next slice of a fold from `from` towards `to` ends (results/build.ts `sliceEnd`):
 * the account's sliceRows-th next event and foldExposureRows()-th next exposure, by their
 * (account, seq) indexes.
 */
async function foldSliceEnd(client: pg.PoolClient, accountId: string, from: { e: number; x: number }, to: { upE: number; upX: number }) {
  const nth = async (table: "events" | "exposures", after: number, n: number): Promise<number | undefined> => {
    const [row] = await query<{ seq: number }>(client, `SELECT seq FROM ${table} WHERE account_id = $1 AND seq > $2 ORDER BY seq OFFSET $3 LIMIT 1`, [accountId, after, n - 1]);
    return row?.seq;
  };
  // sliceEnd asks synchronously: the two reads are made first when the backlog needs them.
  const e = to.upE - from.e > stateBuild.sliceRows ? await nth("events", from.e, stateBuild.sliceRows) : undefined;
  const x = to.upX - from.x > foldExposureRows() ? await nth("exposures", from.x, foldExposureRows()) : undefined;
  return sliceEnd(from, to, () => e, () => x);
}

export function postgresResults(pool: pg.Pool): ResultsStore {
  return {
    /**
     * Under the state row's lock (READ COMMITTED): a second node folding meanwhile waits, then
     * reads what the first wrote and folds only the rest. Every read is bounded by the seqs read
     * first; the account's advisory lock on inserts (client-writes.ts) makes every lower seq of
     * the account visible once a higher one is. Without a state for these goals, the caller
     * that claims the row builds it (`buildState`, in slices, outside this transaction); a
     * caller that finds another's fresh claim waits for that build and then folds from it.
     */
    async foldResults(accountId: string, experienceId: string, goals: readonly GoalDefinition[]): Promise<FoldedResults> {
      const matcher = matcherFor(goals);
      const waitUntil = Date.now() + stateBuild.claimWaitMs;
      /** Where a fold in slices ends: the seqs read at its first slice (so that it ends under any rate of arrivals). */
      let target: { upE: number; upX: number } | null = null;
      for (;;) {
        const step = await transaction(pool, async (client): Promise<FoldedResults | { build: string; claim: string; upE: number; upX: number } | { slice: { upE: number; upX: number } } | "wait"> => {
          type State = { goals: string; event_seq: number; exposure_seq: number; totals: string };
          const lockState = () =>
            query<State>(client, "SELECT goals, event_seq, exposure_seq, totals FROM results_state WHERE account_id = $1 AND experience_id = $2 FOR UPDATE", [accountId, experienceId]);
          let [state] = await lockState();
          if (!state) {
            // A placeholder to lock (its goals match none): made once, by whichever node is first.
            await client.query(
              "INSERT INTO results_state (account_id, experience_id, goals, event_seq, exposure_seq, totals) VALUES ($1, $2, '', 0, 0, '') ON CONFLICT DO NOTHING",
              [accountId, experienceId],
            );
            [state] = await lockState();
          }
          const { upE, upX } = await watermark(client, accountId);
          if (state!.event_seq !== BUILDING_SEQ && state!.goals === goalsKey(goals)) {
            const totals = JSON.parse(state!.totals) as Totals;
            const from = { e: state!.event_seq, x: state!.exposure_seq };
            const to = target ?? { upE, upX };
            if (from.e >= to.upE && from.x >= to.upX) return { aggregate: aggregateOf(totals, goals), exposed: exposedOf(totals) };
            // More than a slice's worth behind (an experience left unopened while events
            // arrived, or a long build's arrivals): this slice only, in its own transaction, so
            // that neither the state row's lock nor the event loop is held for the whole backlog.
            const end = await foldSliceEnd(client, accountId, from, to);
            // To `end`, not `to`: another caller's slices may have carried one watermark past this
            // caller's target, and folding "to" it would move that watermark back (counted twice).
            if (end.last) return foldFrom(client, accountId, experienceId, goals, matcher, totals, from, end);
            await foldFrom(client, accountId, experienceId, goals, matcher, totals, from, end);
            return { slice: to };
          }
          if (state!.event_seq === BUILDING_SEQ && claimFresh(parseClaim(state!.totals))) return "wait";
          const token = randomUUID();
          const claim = claimJson(token);
          await client.query(
            `UPDATE results_state SET goals = $3, event_seq = ${BUILDING_SEQ}, exposure_seq = ${BUILDING_SEQ}, totals = $4 WHERE account_id = $1 AND experience_id = $2`,
            [accountId, experienceId, goalsKey(goals), claim],
          );
          return { build: token, claim, upE, upX };
        });
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
          built = await buildState(pool, accountId, experienceId, goals, matcher, step.build, step.claim, step.upE, step.upX);
        } catch (error) {
          // Others need not wait for the claim to go stale (CLAIM_STALE_MS): the next caller builds.
          await pool
            .query(`DELETE FROM results_state WHERE account_id = $1 AND experience_id = $2 AND event_seq = ${BUILDING_SEQ} AND totals LIKE $3`, [
              accountId,
              experienceId,
              `%"building":${JSON.stringify(step.build)}%`,
            ])
            .catch(() => {});
          throw error;
        }
        // Built: the next pass folds what arrived during the build (in slices if it is many).
        if (!built) stateBuild.abandoned++;
      }
    },

    async exposureVisitors(accountId: string, experienceId: string, range: ResultsRange = {}): Promise<{ distinct: number; byVariation: VariationVisitors[] }> {
      const params = [accountId, experienceId, ...rangeBounds(range)];
      const where = "account_id = $1 AND experience_id = $2 AND NOT forced AND requested_time >= $3 AND requested_time < $4";
      const [row] = await query<{ n: number }>(pool, `SELECT count(DISTINCT user_id) AS n FROM exposures WHERE ${where}`, params);
      const byVariation = await query<VariationVisitors>(
        pool,
        `SELECT variation_id, count(DISTINCT user_id) AS visitors FROM exposures
         WHERE ${where} AND user_id IS NOT NULL
         GROUP BY variation_id ORDER BY variation_id`,
        params,
      );
      return { distinct: row!.n, byVariation };
    },

    /** The account's last event and exposure by their (account, seq) indexes: no scan. */
    async resultsVersion(accountId: string): Promise<{ revision: number; eventSeq: number; exposureSeq: number }> {
      const [row] = await query<{ revision: number | null; event_seq: number | null; exposure_seq: number | null }>(
        pool,
        `SELECT (SELECT revision FROM accounts WHERE id = $1) AS revision,
                (SELECT max(seq) FROM events WHERE account_id = $1) AS event_seq,
                (SELECT max(seq) FROM exposures WHERE account_id = $1) AS exposure_seq`,
        [accountId],
      );
      return { revision: row!.revision ?? 0, eventSeq: row!.event_seq ?? 0, exposureSeq: row!.exposure_seq ?? 0 };
    },

    resultsAggregate(accountId: string, experienceId: string, goals: readonly GoalDefinition[], range: ResultsRange = {}): Promise<ResultsAggregate> {
      const base = [accountId, experienceId, ...rangeBounds(range)];
      // One snapshot: the exposures, the page paths and the goal sums see the same rows.
      return snapshot(pool, async (client): Promise<ResultsAggregate> => {
        const days = await query<Omit<ExposureDay, "date"> & { day: number | null }>(client, EXPOSURE_DAYS_SQL, base);
        const exposures = days.map(({ day, ...x }): ExposureDay => ({ ...x, date: dayDate(day) }));
        if (!goals.length) return { exposures, goals: [] };
        const { paths, domains } = await pageKeys(client, accountId, goals);
        const { sql, params } = goalSumsQuery(goals, paths, domains, base);
        // The planner expects a few dozen first exposures per experience and joins the goal hits
        // to them in a nested loop, comparing every hit with every visitor: 347 s at 1M events,
        // against 3.9 s with hash joins (docs/benchmarks.md, "Storage"). Until this read-only
        // transaction ends, which it does after this statement.
        await client.query("SET LOCAL enable_nestloop = off");
        const sums = await query<Omit<GoalSums, "date"> & { day: number | null }>(client, sql, params);
        return { exposures, goals: sums.map(({ day, ...s }): GoalSums => ({ ...s, date: dayDate(day) })) };
      });
    },

    pageViews(accountId: string, range: ResultsRange, limit: number): Promise<PageViews> {
      const params = [accountId, ...rangeBounds(range)];
      const where = "account_id = $1 AND event_type = 'PAGE' AND event_timestamp >= $2 AND event_timestamp < $3";
      return snapshot(pool, async (client) => ({
        // At equal counts, by domain: the order SQLite's grouping leaves them in.
        byDomain: await query<PageViews["byDomain"][number]>(client, `SELECT domain, count(*) AS views FROM events WHERE ${where} GROUP BY domain ORDER BY views DESC, domain`, params),
        pages: await query<PageViews["pages"][number]>(
          client,
          `SELECT domain, page_path, count(*) AS views FROM events WHERE ${where} AND page_path IS NOT NULL
           GROUP BY domain, page_path ORDER BY views DESC, domain, page_path LIMIT $4`,
          [...params, limit],
        ),
      }));
    },

    async pageVisitors(accountId: string, range: ResultsRange, pages: readonly { domain: string; page_path: string }[]): Promise<number> {
      if (!pages.length) return 0;
      const [row] = await query<{ n: number }>(
        pool,
        `SELECT count(DISTINCT e.user_id) AS n FROM events e
         WHERE e.account_id = $1 AND e.event_type = 'PAGE' AND e.event_timestamp >= $2 AND e.event_timestamp < $3
           AND (e.domain, e.page_path) IN (SELECT * FROM unnest($4::text[], $5::text[]))`,
        [accountId, ...rangeBounds(range), pages.map((p) => p.domain), pages.map((p) => p.page_path)],
      );
      return row!.n;
    },
  };
}
