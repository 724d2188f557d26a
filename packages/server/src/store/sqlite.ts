// The Store on SQLite (better-sqlite3): synchronous, in-process, one file in DATA_DIR.
// WAL mode lets the dashboard read while the client API writes. Statements are prepared once
// and reused: preparing is most of the cost of a small query.

import { AsyncLocalStorage } from "node:async_hooks";
import Database from "better-sqlite3";
import { matchDomain, matchPagePath } from "@storefit/contract";
import type { GoalDefinition, GoalKind, Role, TrackedEvent, User } from "@storefit/contract";
import { MIGRATIONS } from "./migrations.js";
import { assignmentKey, sharedAssignmentKey } from "./types.js";
import type {
  Account,
  AccountSettings,
  AccountSnapshot,
  Assignment,
  Audience,
  ClientWrite,
  DeviceRecord,
  EventFilter,
  Experience,
  Exposure,
  ExposureDay,
  GoalSums,
  InsertResult,
  NewAccount,
  NewAudience,
  NewExperience,
  Operator,
  PageViews,
  ResultsAggregate,
  ResultsRange,
  SecretKeyRecord,
  Store,
  StoredEvent,
  VisitorRecord,
  StoredExposure,
  VariationVisitors,
} from "./types.js";

type Row = Record<string, unknown>;

function accountFromRow(row: Row): Account {
  return {
    id: row.id as string,
    name: row.name as string,
    client_key: row.client_key as string,
    settings: JSON.parse(row.settings_json as string) as AccountSettings,
    revision: row.revision as number,
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

function experienceFromRow(row: Row): Experience {
  return {
    id: row.id as string,
    account_id: row.account_id as string,
    name: row.name as string,
    status: row.status as Experience["status"],
    kind: row.kind as Experience["kind"],
    priority: row.priority as number,
    pages: JSON.parse(row.pages_json as string) as Experience["pages"],
    rules: JSON.parse(row.rules_json as string) as Experience["rules"],
    goals: JSON.parse(row.goals_json as string) as Experience["goals"],
    exclusion_group: row.exclusion_group_json ? (JSON.parse(row.exclusion_group_json as string) as Experience["exclusion_group"]) : null,
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

function audienceFromRow(row: Row): Audience {
  return {
    id: row.id as string,
    name: row.name as string,
    description: row.description as string,
    condition: JSON.parse(row.condition_json as string) as Audience["condition"],
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

const secretKeyFromRow = (row: Row): SecretKeyRecord => ({
  id: row.id as string,
  account_id: row.account_id as string,
  name: row.name as string,
  prefix: row.prefix as string,
  created_at: row.created_at as string,
  last_used_at: (row.last_used_at as string | null) ?? null,
});

const count = (row: unknown) => (row as { n: number }).n;

/** The event type each goal kind counts (spec §3 "Event"). */
const GOAL_EVENT_TYPES: Record<GoalKind, string> = {
  page_view: "PAGE",
  click: "CLICK",
  form_submit: "FORM",
  track: "TRACK",
  revenue: "REVENUE",
};

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
const FIRST_EXPOSURES = `
  ranked AS (
    SELECT seq, user_id, variation_id, requested_time AS t, probability,
           row_number() OVER (PARTITION BY user_id ORDER BY requested_time, variation_id) AS rn
    FROM exposures
    WHERE account_id = @account AND experience_id = @experience AND user_id IS NOT NULL AND forced = 0
  ),
  first AS (SELECT seq, user_id, variation_id, t, probability FROM ranked WHERE rn = 1 AND t >= @from_ms AND t < @to_ms)`;

/**
 * A visitor's first exposure to the experience, for a row `h` with a user_id: the same order as
 * FIRST_EXPOSURES (requested_time; at the same millisecond, the smallest variation id), one seek
 * in the index of migration 4.
 */
const FIRST_OF_VISITOR = (column: "requested_time" | "variation_id") => `(
  SELECT x.${column} FROM exposures x
  WHERE x.account_id = @account AND x.experience_id = @experience AND x.user_id = h.user_id AND x.forced = 0
  ORDER BY x.requested_time, x.variation_id LIMIT 1)`;

/**
 * An event's name and a REVENUE event's amount are read from their columns (migration 9, filled
 * by `writeEvents`), never from event_json: a stored event that SQLite's JSON parser refuses
 * (nested too deep) must not fail the queries that read the others.
 */
const EVENT_NAME = "e.event_name";
const REVENUE_AMOUNT = "e.revenue_amount";
const NAMED_TYPES = ["CLICK", "FORM", "TRACK"];

type SqlParams = Record<string, string | number | null>;

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
      const paths = pagePaths.filter((p) => matchPagePath(page.page_match, page.page_path, p));
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
  // The one pass's filter: each type's events, narrowed to goal pages or goal names.
  const kept: string[] = [];
  if (goals.some((g) => g.kind === "page_view")) {
    params.all_paths = JSON.stringify([...allPaths]);
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
  const sql = `
    WITH goals (goal_id, event_type, name, paths, domain, cap) AS (VALUES ${rows.join(", ")}),
    scan AS MATERIALIZED (
      SELECT e.user_id, e.event_timestamp AS ts, e.event_type, e.page_path AS path, e.domain,
             CASE WHEN e.event_type IN ('${NAMED_TYPES.join("', '")}') THEN ${EVENT_NAME} END AS name,
             CASE WHEN e.event_type = 'REVENUE' THEN ${REVENUE_AMOUNT} ELSE 0 END AS amount
      FROM events e
      WHERE e.account_id = @account AND e.event_timestamp < @to_ms AND (${kept.join(" OR ")})
    ),
    hits AS MATERIALIZED (
      SELECT s.user_id, s.ts, g.goal_id, g.cap, s.amount
      FROM scan s JOIN goals g ON g.event_type = s.event_type
      WHERE (g.name IS NULL OR g.name = s.name)
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
const PAGE_PATH_CACHE_PATHS = 50_000;

/**
 * A results range as statement parameters. An open bound is the largest double: SQLite compares
 * it with integers by value, so even a browser clock far beyond year 9999 (1e18) stays inside.
 */
const rangeParams = (range: ResultsRange) => ({
  from_ms: range.from_ms ?? -Number.MAX_VALUE,
  to_ms: range.to_ms ?? Number.MAX_VALUE,
});

/** An event's name (results, the events list's search): its `name`, else what follows the first "|" of event_customer_id (spec §5 `domain|name`). */
export function eventName(e: Pick<TrackedEvent, "name" | "event_customer_id">): string {
  if (typeof e.name === "string") return e.name;
  const id = String(e.event_customer_id);
  return id.slice(id.indexOf("|") + 1);
}

/** SQLite's reading of text as REAL (CAST): optional blanks, then the longest decimal number at the start. */
const LEADING_NUMBER = /^[ \t\n\v\f\r]*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/;

/**
 * A REVENUE event's amount (docs/results.md): properties.revenue_amount when it is a finite
 * number > 0, or text that starts with one (read as SQLite's CAST reads it, as the results did
 * before the column: migration 9's backfill uses CAST itself); anything else counts 0.
 */
export function revenueAmount(value: unknown): number {
  let n = 0;
  if (typeof value === "number") n = value;
  else if (typeof value === "string") n = Number(LEADING_NUMBER.exec(value)?.[1] ?? 0);
  return n > 0 && Number.isFinite(n) ? n : 0;
}

/** A stored event's JSON; a row that no longer parses is shown by its columns (the events list never fails on one row). */
function parseStoredEvent(r: Row): TrackedEvent {
  try {
    return JSON.parse(r.event_json as string) as TrackedEvent;
  } catch {
    return { event_type: r.event_type as string, event_customer_id: r.event_customer_id as string, insert_id: r.insert_id as string, event_timestamp: r.event_timestamp as number };
  }
}

/** The last millisecond of year 9999: a browser clock beyond it (or before 1970) has no day. */
const MAX_DATE_MS = 253_402_300_799_999;

/**
 * Days as whole UTC days since the epoch (the text date is made once per group, in JS). The split
 * is not in the index (a seventh column there slows every exposure insert): it is read by rowid
 * for each visitor's first exposure only.
 */
const EXPOSURE_DAYS_SQL = `
  WITH ${FIRST_EXPOSURES}
  SELECT f.variation_id, CASE WHEN f.t BETWEEN 0 AND ${MAX_DATE_MS} THEN f.t / 86400000 END AS day,
         (SELECT x.split FROM exposures x WHERE x.seq = f.seq) AS split, count(*) AS visitors,
         coalesce(sum(f.probability), 0) AS probability_sum, count(f.probability) AS probability_count
  FROM first f
  GROUP BY f.variation_id, day, split
  ORDER BY f.variation_id, day, split`;

/**
 * The WHERE clause of an events filter (Store.EventFilter), one statement text per combination
 * of filters (prepared once each). The newest events are read in (account, seq) index order and
 * filtered as they come, so a filtered list stops at its limit; a filtered count reads every
 * event of the account, as the unfiltered one does (the index holds no type, domain or path).
 * instr, not LIKE: `%` and `_` in the text are plain characters.
 */
function eventFilterSql(accountId: string, filter: EventFilter): { where: string; params: SqlParams } {
  const terms = ["e.account_id = @account"];
  const params: SqlParams = { account: accountId };
  if (filter.type) {
    terms.push("e.event_type = @type");
    params.type = filter.type;
  }
  if (filter.domain) {
    terms.push("e.domain = @domain COLLATE NOCASE");
    params.domain = filter.domain;
  }
  if (filter.q) {
    terms.push(`(instr(lower(coalesce(e.page_path, '')), @q) > 0 OR instr(lower(${EVENT_NAME}), @q) > 0)`);
    params.q = filter.q.toLowerCase();
  }
  // Visitor and experience: by user id, which the index of migration 8 leads with.
  if (filter.visitorIds) {
    const names = filter.visitorIds.map((_, i) => `@visitor_${i}`);
    terms.push(names.length ? `e.user_id IN (${names.join(", ")})` : "0");
    filter.visitorIds.forEach((v, i) => (params[`visitor_${i}`] = v));
  }
  if (filter.experience) {
    terms.push("e.user_id IN (SELECT x.user_id FROM exposures x WHERE x.account_id = @account AND x.experience_id = @experience)");
    params.experience = filter.experience;
  }
  if (filter.before !== undefined) {
    terms.push("e.seq < @before");
    params.before = filter.before;
  }
  if (filter.after !== undefined) {
    terms.push("e.seq > @after");
    params.after = filter.after;
  }
  return { where: terms.join(" AND "), params };
}

/**
 * An assignment as kept in visitors.assignments_json (migration 2), under its `assignmentKey`
 * ("experience:rule"); before per-rule keys, under the experience id alone (still read).
 */
type StoredAssignment = [rule_id: string, behaviour_id: string, variation_id: string, probability: number, assigned_at: string, split?: string];

/** The context of the exclusive transaction `fn` runs in (its token): see SqliteStore.call. */
const exclusiveContext = new AsyncLocalStorage<object>();

/** Every Store method but `exclusive` (the compiler checks the list is whole). */
const STORE_METHOD_SET: Record<Exclude<keyof Store, "exclusive">, true> = {
  findVisitor: true, listVisitorExposures: true,
  migrate: true, close: true, createAccount: true, getAccountByClientKey: true, getAccount: true, getAccountRevision: true,
  loadAccountSnapshot: true, updateAccount: true, createOperator: true, getOperatorByEmail: true, getOperator: true,
  listOperators: true, updateOperatorRole: true, deleteOperator: true, createSession: true, getSession: true,
  deleteSession: true, createSecretKey: true, listSecretKeys: true, useSecretKey: true, revokeSecretKey: true,
  saveExperience: true, getExperience: true, listExperiences: true, listRunningExperiences: true, deleteExperience: true,
  saveAudience: true, getAudience: true, listAudiences: true, deleteAudience: true, touchVisitor: true,
  countVisitors: true, getAssignments: true, countAssignments: true, commitClientWrites: true, insertEvents: true,
  countEvents: true, hasEvent: true, listEvents: true, insertExposures: true, countExposures: true, listExposures: true,
  exposureVisitors: true, resultsVersion: true, resultsAggregate: true, pageViews: true, pageVisitors: true, addDevices: true, countDevices: true,
  addAlert: true, countAlerts: true, serviceSecret: true,
};
const STORE_METHODS = Object.keys(STORE_METHOD_SET);

/**
 * The Store methods that may run at whatever synchronous level the connection was left at: reads
 * of the config call's hot path, and commitClientWrites, which sets its own. Every other method —
 * any method added later too — first restores synchronous=FULL (see `durably`).
 */
const ANY_SYNC_LEVEL: ReadonlySet<string> = new Set(["getAccountRevision", "getAssignments", "loadAccountSnapshot", "commitClientWrites"]);

export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** During a results statement: goal id → the page paths that match the goal page. */
  private goalPaths = new Map<string, Set<string>>();
  /** Per account, its distinct PAGE paths among the events up to `seq` (results: goal pages). */
  private readonly pagePathCache = new Map<string, { seq: number; paths: Set<string> }>();

  /** `file` is a path, or ":memory:" for a throwaway database (still real SQLite). */
  constructor(file: string) {
    const self = this as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of STORE_METHODS) {
      const bound = self[name]!.bind(this);
      const impl = ANY_SYNC_LEVEL.has(name)
        ? bound
        : (...args: unknown[]) => {
            this.durably();
            return bound(...args);
          };
      self[name] = (...args: unknown[]) => this.call(impl, args);
    }
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("busy_timeout = 5000");
    // Made explicit: every commit is fsynced unless commitClientWrites says otherwise.
    this.db.pragma("synchronous = FULL");
    // Whether a page path matches a goal page, for results: a set lookup per candidate event (a
    // JSON list of paths per goal in SQL was parsed again for every row: quadratic in paths).
    this.db.function("storefit_goal_path", { deterministic: false }, (goalId: unknown, path: unknown) =>
      typeof goalId === "string" && typeof path === "string" && this.goalPaths.get(goalId)?.has(path) ? 1 : 0,
    );
    // A goal page's domain (contract matchDomain: case, ports and `*.` wildcards), for results.
    this.db.function("storefit_domain_match", { deterministic: true }, (domain: unknown, pattern: unknown) =>
      typeof domain === "string" && typeof pattern === "string" && matchDomain(domain, pattern) ? 1 : 0,
    );
  }

  /** Exclusive transactions of this connection run one after another. */
  private exclusiveTail: Promise<unknown> = Promise.resolve();
  /**
   * The connection's synchronous level. FULL (every commit fsynced) but after a batch of config
   * calls only, which commitClientWrites commits at NORMAL and leaves so: the next such batch then
   * sets nothing (each switch compiles a PRAGMA; two a batch cost ~18 µs under the decision
   * benchmark, ~5 µs alone). The config call's reads leave the level as it is; any other method,
   * and store.exclusive, switches back to FULL before it runs (`durably`).
   */
  private syncLevel: "FULL" | "NORMAL" = "FULL";

  private syncAt(level: "FULL" | "NORMAL"): void {
    // SQLite refuses the switch inside a transaction; whoever began it set the level first.
    if (this.syncLevel === level || this.db.inTransaction) return;
    // db.pragma(), not a cached statement: SQLite applies this pragma when the statement is
    // compiled, so a cached one would set nothing when run again.
    this.db.pragma(`synchronous = ${level}`);
    this.syncLevel = level;
  }

  /** Every commit from here on is fsynced (the default; see syncLevel). */
  private durably(): void {
    this.syncAt("FULL");
  }

  /** The exclusive transaction open on this connection, if any. */
  private open: { token: object } | null = null;
  /** > 0 while a method runs for the open transaction's `tx` (its inner calls pass through). */
  private viaTx = 0;

  /**
   * A Store method called from outside the open exclusive transaction (another request) waits
   * until it is over: on this one connection it would otherwise run inside that transaction —
   * read its uncommitted writes, or have its own writes rolled back with it after answering.
   * Requests can start together in one callback (HTTP/1.1 pipelining), so their awaits interleave
   * with the transaction's. Called from inside `fn` on `store` instead of `tx`: refused (it would
   * wait for itself).
   */
  private call(impl: (...args: unknown[]) => unknown, args: unknown[]): unknown {
    const open = this.open;
    if (!open || this.viaTx > 0) return impl(...args);
    if (exclusiveContext.getStore() === open.token) throw new Error("inside store.exclusive(), call the store through its tx");
    return this.exclusiveTail.then(() => this.call(impl, args));
  }

  /** The Store methods as the open transaction's `tx`: they run at once, and only while it is open. */
  private txFor(token: object): Store {
    const self = this as unknown as Record<string, (...args: unknown[]) => unknown>;
    const tx: Record<string, unknown> = {};
    for (const name of STORE_METHODS) {
      tx[name] = (...args: unknown[]) => {
        if (this.open?.token !== token) throw new Error("this store.exclusive() transaction is over");
        this.viaTx++;
        try {
          // Through the instance's own method (what `call` wraps), which passes straight through
          // while viaTx > 0.
          return self[name]!(...args);
        } finally {
          this.viaTx--;
        }
      };
    }
    tx.exclusive = () => Promise.reject(new Error("store.exclusive() cannot run inside another"));
    return tx as unknown as Store;
  }

  /**
   * BEGIN IMMEDIATE takes the write lock before the first read: another connection's (node's)
   * write waits (busy_timeout) until this one commits or rolls back. Calls from other requests
   * wait for it (`call`). `fn` must await nothing but `tx`: the transaction is held across its
   * awaits, so one that awaits a timer or I/O would hold the lock and every other request of this
   * node. If `fn` has not finished when the event loop's turn ends, the transaction is rolled
   * back at once, `tx` stops working and the call is refused.
   */
  exclusive<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    if (this.open && exclusiveContext.getStore() === this.open.token) {
      return Promise.reject(new Error("store.exclusive() cannot run inside another"));
    }
    const run = () =>
      new Promise<T>((resolve, reject) => {
        this.durably();
        this.sql("BEGIN IMMEDIATE").run();
        const token = {};
        this.open = { token };
        let finished = false;
        const finish = (commit: boolean): unknown => {
          finished = true;
          clearImmediate(turn);
          try {
            if (commit) this.sql("COMMIT").run();
            return null;
          } catch (error) {
            return error;
          } finally {
            if (this.db.inTransaction) this.sql("ROLLBACK").run();
            this.open = null;
          }
        };
        const turn = setImmediate(() => {
          if (finished) return;
          finish(false);
          reject(new Error("store.exclusive(): fn awaited something other than its tx; rolled back"));
        });
        exclusiveContext
          .run(token, () => fn(this.txFor(token)))
          .then(
            (result) => {
              if (finished) return;
              const error = finish(true);
              if (error) reject(error);
              else resolve(result);
            },
            (error: unknown) => {
              if (finished) return;
              finish(false);
              reject(error);
            },
          );
      });
    const result = this.exclusiveTail.then(run, run).finally(() => {
      // Done: turn the context off, and with it the promise hooks it keeps on for the whole
      // process while enabled (1–3 % of the config call's rate; docs/benchmarks.md). The next
      // exclusive, which starts only after this, turns it on again (exclusiveContext.run).
      exclusiveContext.disable();
    });
    this.exclusiveTail = result.catch(() => undefined);
    return result;
  }

  /** A prepared statement, prepared on first use (after migrations created its tables). */
  private sql(text: string): Database.Statement {
    let stmt = this.statements.get(text);
    if (!stmt) {
      stmt = this.db.prepare(text);
      this.statements.set(text, stmt);
    }
    return stmt;
  }

  migrate(): void {
    this.db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    const done = new Set(
      (this.db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map(
        (r) => r.version,
      ),
    );
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      this.db.transaction(() => {
        this.db.exec(m.sql);
        this.db
          .prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
          .run(m.version, m.name, new Date().toISOString());
      })();
    }
    this.statements.clear();
  }

  /** Versions applied, for the migration tests. */
  appliedMigrations(): number[] {
    return (this.db.prepare("SELECT version FROM schema_migrations ORDER BY version").all() as { version: number }[]).map(
      (r) => r.version,
    );
  }

  close(): void {
    this.db.close();
  }

  // ---- accounts ----

  createAccount(a: NewAccount): Account {
    const now = new Date().toISOString();
    this.sql(
      "INSERT INTO accounts (id, name, client_key, settings_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(a.id, a.name, a.client_key, JSON.stringify(a.settings), now, now);
    return this.getAccount(a.id)!;
  }

  getAccountByClientKey(clientKey: string): Account | null {
    const row = this.sql("SELECT * FROM accounts WHERE client_key = ?").get(clientKey) as Row | undefined;
    return row ? accountFromRow(row) : null;
  }

  getAccount(id: string): Account | null {
    const row = this.sql("SELECT * FROM accounts WHERE id = ?").get(id) as Row | undefined;
    return row ? accountFromRow(row) : null;
  }

  getAccountRevision(clientKey: string): { id: string; revision: number } | null {
    // Read on every client API call: a raw row is cheaper than an object per row.
    const row = this.sql("SELECT id, revision FROM accounts WHERE client_key = ?").raw(true).get(clientKey) as
      | [string, number]
      | undefined;
    return row ? { id: row[0], revision: row[1] } : null;
  }

  loadAccountSnapshot(accountId: string): AccountSnapshot | null {
    return this.db.transaction((): AccountSnapshot | null => {
      const account = this.getAccount(accountId);
      if (!account) return null;
      const experiences = (
        this.sql(
          "SELECT * FROM experiences WHERE account_id = ? AND status IN ('running', 'draft', 'paused') ORDER BY created_at, id",
        ).all(accountId) as Row[]
      ).map(experienceFromRow);
      return { account, experiences, audiences: this.listAudiences(accountId) };
    })();
  }

  updateAccount(id: string, patch: { name?: string; settings?: AccountSettings }): Account | null {
    const current = this.getAccount(id);
    if (!current) return null;
    this.sql("UPDATE accounts SET name = ?, settings_json = ?, updated_at = ? WHERE id = ?").run(
      patch.name ?? current.name,
      JSON.stringify(patch.settings ?? current.settings),
      new Date().toISOString(),
      id,
    );
    return this.getAccount(id);
  }

  // ---- operators and sessions ----

  createOperator(o: Operator): void {
    this.sql("INSERT INTO operators (id, account_id, email, password_hash, role) VALUES (?, ?, ?, ?, ?)").run(
      o.id,
      o.account_id,
      o.email,
      o.password_hash,
      o.role,
    );
  }

  getOperatorByEmail(email: string): Operator | null {
    return (this.sql("SELECT * FROM operators WHERE email = ?").get(email) as Operator | undefined) ?? null;
  }

  getOperator(id: string): Operator | null {
    return (this.sql("SELECT * FROM operators WHERE id = ?").get(id) as Operator | undefined) ?? null;
  }

  listOperators(accountId: string): Operator[] {
    return this.sql("SELECT * FROM operators WHERE account_id = ? ORDER BY email").all(accountId) as Operator[];
  }

  updateOperatorRole(accountId: string, id: string, role: Role): Operator | null {
    this.sql("UPDATE operators SET role = ? WHERE id = ? AND account_id = ?").run(role, id, accountId);
    const op = this.getOperator(id);
    return op && op.account_id === accountId ? op : null;
  }

  deleteOperator(accountId: string, id: string): boolean {
    return this.db.transaction(() => {
      const op = this.getOperator(id);
      if (!op || op.account_id !== accountId) return false;
      this.sql("DELETE FROM sessions WHERE operator_id = ?").run(id);
      return this.sql("DELETE FROM operators WHERE id = ? AND account_id = ?").run(id, accountId).changes > 0;
    })();
  }

  createSession(tokenHash: string, operatorId: string, csrfToken: string, expiresAt: number): void {
    this.sql("INSERT INTO sessions (token_hash, operator_id, csrf_token, expires_at) VALUES (?, ?, ?, ?)").run(
      tokenHash,
      operatorId,
      csrfToken,
      expiresAt,
    );
  }

  getSession(tokenHash: string, now: number): { operator_id: string; csrf_token: string } | null {
    return (
      (this.sql("SELECT operator_id, csrf_token FROM sessions WHERE token_hash = ? AND expires_at > ?").get(
        tokenHash,
        now,
      ) as { operator_id: string; csrf_token: string } | undefined) ?? null
    );
  }

  deleteSession(tokenHash: string): void {
    this.sql("DELETE FROM sessions WHERE token_hash = ?").run(tokenHash);
  }

  // ---- secret keys ----

  createSecretKey(key: Omit<SecretKeyRecord, "last_used_at">, keyHash: string): SecretKeyRecord {
    this.sql(
      "INSERT INTO secret_keys (id, account_id, name, prefix, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(key.id, key.account_id, key.name, key.prefix, keyHash, key.created_at);
    return { ...key, last_used_at: null };
  }

  listSecretKeys(accountId: string): SecretKeyRecord[] {
    return (
      this.sql("SELECT * FROM secret_keys WHERE account_id = ? AND revoked_at IS NULL ORDER BY created_at, id").all(
        accountId,
      ) as Row[]
    ).map(secretKeyFromRow);
  }

  serviceSecret(name: string, make: () => string): string {
    // INSERT OR IGNORE: nodes starting together keep the first one's value, and all read it.
    this.sql("INSERT OR IGNORE INTO service_secrets (name, value, created_at) VALUES (?, ?, ?)").run(name, make(), new Date().toISOString());
    return (this.sql("SELECT value FROM service_secrets WHERE name = ?").get(name) as { value: string }).value;
  }

  useSecretKey(keyHash: string, now: string): SecretKeyRecord | null {
    const row = this.sql("SELECT * FROM secret_keys WHERE key_hash = ? AND revoked_at IS NULL").get(keyHash) as
      | Row
      | undefined;
    if (!row) return null;
    this.sql("UPDATE secret_keys SET last_used_at = ? WHERE id = ?").run(now, row.id);
    return { ...secretKeyFromRow(row), last_used_at: now };
  }

  revokeSecretKey(accountId: string, id: string, now: string): boolean {
    return (
      this.sql("UPDATE secret_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL").run(
        now,
        id,
        accountId,
      ).changes > 0
    );
  }

  // ---- experiences ----

  /**
   * Removes the visitors' sticky assignments of an experience: of the rules given, or of all its
   * rules (null). Keys "experience:rule", and "experience" (an older node's, holding its rule
   * first). Reads every visitor row of the account: only on a delete or a removed rule.
   */
  private dropAssignments(accountId: string, experienceId: string, ruleIds: readonly string[] | null): void {
    const ofIt =
      ruleIds === null
        ? "(a.key = @exp OR substr(a.key, 1, length(@exp) + 1) = @exp || ':')"
        : `(a.key IN (SELECT @exp || ':' || r.value FROM json_each(@rules) AS r)
            OR (a.key = @exp AND json_extract(a.value, '$[0]') IN (SELECT r.value FROM json_each(@rules) AS r)))`;
    this.sql(
      `UPDATE visitors SET assignments_json =
         (SELECT json_group_object(a.key, json(a.value)) FROM json_each(visitors.assignments_json) AS a WHERE NOT ${ofIt})
       WHERE account_id = @account AND EXISTS (SELECT 1 FROM json_each(visitors.assignments_json) AS a WHERE ${ofIt})`,
    ).run({ exp: experienceId, account: accountId, rules: JSON.stringify(ruleIds ?? []) });
  }

  saveExperience(e: NewExperience): Experience {
    return this.db.transaction(() => this.writeExperience(e))();
  }

  private writeExperience(e: NewExperience): Experience {
    const now = new Date().toISOString();
    const existing = this.sql("SELECT account_id, created_at, rules_json FROM experiences WHERE id = ?").get(e.id) as
      | { account_id: string; created_at: string; rules_json: string }
      | undefined;
    if (existing && existing.account_id !== e.account_id) {
      throw new Error(`experience ${e.id} belongs to another account`);
    }
    this.sql(
      `INSERT INTO experiences (id, account_id, name, status, kind, priority, pages_json, rules_json, goals_json, exclusion_group_json, created_at, updated_at)
       VALUES (@id, @account_id, @name, @status, @kind, @priority, @pages_json, @rules_json, @goals_json, @exclusion_group_json, @created_at, @updated_at)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status, kind = excluded.kind,
         priority = excluded.priority, pages_json = excluded.pages_json, rules_json = excluded.rules_json,
         goals_json = excluded.goals_json, exclusion_group_json = excluded.exclusion_group_json, updated_at = excluded.updated_at
       WHERE experiences.account_id = excluded.account_id`,
    ).run({
      id: e.id,
      account_id: e.account_id,
      name: e.name,
      status: e.status,
      kind: e.kind,
      priority: e.priority,
      pages_json: JSON.stringify(e.pages),
      rules_json: JSON.stringify(e.rules),
      goals_json: JSON.stringify(e.goals),
      exclusion_group_json: e.exclusion_group ? JSON.stringify(e.exclusion_group) : null,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    });
    // A removed rule takes its visitors' assignments with it.
    if (existing) {
      const kept = new Set(e.rules.map((r) => r.id));
      const removed = (JSON.parse(existing.rules_json) as { id: string }[]).map((r) => r.id).filter((id) => !kept.has(id));
      if (removed.length > 0) this.dropAssignments(e.account_id, e.id, removed);
    }
    return { ...e, exclusion_group: e.exclusion_group ?? null, created_at: existing?.created_at ?? now, updated_at: now };
  }

  getExperience(accountId: string, id: string): Experience | null {
    const row = this.sql("SELECT * FROM experiences WHERE id = ? AND account_id = ?").get(id, accountId) as
      | Row
      | undefined;
    return row ? experienceFromRow(row) : null;
  }

  listExperiences(accountId: string): Experience[] {
    return (
      this.sql("SELECT * FROM experiences WHERE account_id = ? ORDER BY created_at, id").all(accountId) as Row[]
    ).map(experienceFromRow);
  }

  listRunningExperiences(accountId: string): Experience[] {
    return (
      this.sql(
        "SELECT * FROM experiences WHERE account_id = ? AND status = 'running' ORDER BY priority DESC, created_at, id",
      ).all(accountId) as Row[]
    ).map(experienceFromRow);
  }

  deleteExperience(accountId: string, id: string): boolean {
    return this.db.transaction(() => {
      const gone = this.sql("DELETE FROM experiences WHERE id = ? AND account_id = ?").run(id, accountId).changes > 0;
      // Its sticky assignments go with it.
      if (gone) this.dropAssignments(accountId, id, null);
      return gone;
    })();
  }

  // ---- audiences ----

  saveAudience(a: NewAudience): Audience {
    const now = new Date().toISOString();
    const existing = this.sql("SELECT account_id, created_at FROM audiences WHERE id = ?").get(a.id) as
      | { account_id: string; created_at: string }
      | undefined;
    if (existing && existing.account_id !== a.account_id) {
      throw new Error(`audience ${a.id} belongs to another account`);
    }
    this.sql(
      `INSERT INTO audiences (id, account_id, name, description, condition_json, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description,
         condition_json = excluded.condition_json, updated_at = excluded.updated_at
       WHERE audiences.account_id = excluded.account_id`,
    ).run(a.id, a.account_id, a.name, a.description, JSON.stringify(a.condition), existing?.created_at ?? now, now);
    return {
      id: a.id,
      name: a.name,
      description: a.description,
      condition: a.condition,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
  }

  getAudience(accountId: string, id: string): Audience | null {
    const row = this.sql("SELECT * FROM audiences WHERE id = ? AND account_id = ?").get(id, accountId) as
      | Row
      | undefined;
    return row ? audienceFromRow(row) : null;
  }

  listAudiences(accountId: string): Audience[] {
    return (
      this.sql("SELECT * FROM audiences WHERE account_id = ? ORDER BY created_at, id").all(accountId) as Row[]
    ).map(audienceFromRow);
  }

  deleteAudience(accountId: string, id: string): boolean {
    return this.sql("DELETE FROM audiences WHERE id = ? AND account_id = ?").run(id, accountId).changes > 0;
  }

  // ---- visitors and assignments ----

  touchVisitor(accountId: string, userId: string, user: User, now: string): void {
    this.sql(
      `INSERT INTO visitors (account_id, user_id, user_customer_id, user_json, first_seen, last_seen)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, user_id) DO UPDATE SET user_json = excluded.user_json, last_seen = excluded.last_seen`,
    ).run(accountId, userId, user.user_customer_id, JSON.stringify(user), now, now);
  }

  countVisitors(accountId: string): number {
    return count(this.sql("SELECT count(*) AS n FROM visitors WHERE account_id = ?").get(accountId));
  }

  getAssignments(accountId: string, userId: string): Map<string, Assignment> {
    const row = this.sql("SELECT assignments_json FROM visitors WHERE account_id = ? AND user_id = ?")
      .pluck(true)
      .get(accountId, userId) as string | undefined;
    const out = new Map<string, Assignment>();
    if (!row) return out;
    const entries = Object.entries(JSON.parse(row) as Record<string, StoredAssignment>);
    // Keys without a rule (stored before per-rule keys) first: a per-rule one written since wins.
    entries.sort(([a], [b]) => Number(a.includes(":")) - Number(b.includes(":")));
    for (const [key, value] of entries) {
      const [rule_id, behaviour_id, variation_id, probability, , split] = value;
      const colon = key.indexOf(":");
      const experience_id = colon < 0 ? key : key.slice(0, colon);
      out.set(sharedAssignmentKey(experience_id, rule_id), { experience_id, rule_id, behaviour_id, variation_id, probability, ...(split !== undefined ? { split } : {}) });
    }
    return out;
  }

  /**
   * The visitor and their new or changed assignments, merged into the stored ones (json_patch:
   * one key per experience and rule); no transaction of its own (the caller's).
   */
  private writeDecision(accountId: string, userId: string, user: User, assignments: readonly Assignment[], now: string): void {
    const patch: Record<string, StoredAssignment> = {};
    for (const a of assignments) {
      patch[assignmentKey(a.experience_id, a.rule_id)] = a.split !== undefined ? [a.rule_id, a.behaviour_id, a.variation_id, a.probability, now, a.split] : [a.rule_id, a.behaviour_id, a.variation_id, a.probability, now];
    }
    this.sql(
      `INSERT INTO visitors (account_id, user_id, user_customer_id, user_json, first_seen, last_seen, assignments_json)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, user_id) DO UPDATE SET user_json = excluded.user_json, last_seen = excluded.last_seen,
         assignments_json = json_patch(visitors.assignments_json, excluded.assignments_json)`,
    ).run(accountId, userId, user.user_customer_id, JSON.stringify(user), now, now, JSON.stringify(patch));
  }

  /**
   * Durability per batch. Accepted events, summaries, devices and alerts are fsynced before their
   * requests are answered (synchronous=FULL: "nothing accepted is lost", ARCHITECTURE.md), as is
   * every other write of the service. A batch of config calls only (visitors and sticky
   * assignments) is committed without its own fsync (synchronous=NORMAL in WAL mode: safe from
   * corruption and from a crash of the process; an OS crash may lose its last moments, and
   * bucketing is deterministic, so a lost assignment is made again the same way unless the weights
   * changed meanwhile); the next fsynced commit makes it durable too. On this project's machines
   * an fsync costs about a millisecond and blocks the event loop: one per batch of config calls
   * halved the decision rate (docs/benchmarks.md).
   */
  commitClientWrites(writes: readonly ClientWrite[]): InsertResult[] {
    let durable = false;
    for (const w of writes) if (w.kind !== "decision") durable = true;
    // Left at NORMAL after a batch of config calls only: every other write restores FULL first.
    this.syncAt(durable ? "FULL" : "NORMAL");
    return this.commitInOrder(writes);
  }

  /** The batch's transaction, made once (db.transaction() builds a new wrapper on every call). */
  private commitBatch: ((writes: readonly ClientWrite[]) => InsertResult[]) | undefined;

  private commitInOrder(writes: readonly ClientWrite[]): InsertResult[] {
    this.commitBatch ??= this.db.transaction((batch: readonly ClientWrite[]) => batch.map((w) => this.commitOne(w)));
    return this.commitBatch(writes);
  }

  private commitOne(w: ClientWrite): InsertResult {
    switch (w.kind) {
      case "decision":
        this.writeDecision(w.accountId, w.userId, w.user, w.assignments, w.now);
        return { accepted: w.assignments.length, duplicates: 0 };
      case "events":
        if (w.touch) this.touchVisitor(w.accountId, w.userId, w.user, w.now);
        return this.writeEvents(w.accountId, w.userId, w.events, w.now);
      case "exposures":
        if (w.touch) this.touchVisitor(w.accountId, w.userId, w.user, w.now);
        return this.writeExposures(w.accountId, w.exposures, w.now);
      case "devices":
        return this.writeDevices(w.accountId, w.devices, w.now);
      case "alert":
        this.addAlert(w.accountId, w.alert, w.now);
        return { accepted: 1, duplicates: 0 };
    }
  }

  countAssignments(accountId: string): number {
    return count(
      this.sql("SELECT count(*) AS n FROM visitors, json_each(visitors.assignments_json) WHERE visitors.account_id = ?").get(accountId),
    );
  }

  // ---- events ----

  insertEvents(accountId: string, userId: string, events: readonly TrackedEvent[], now: string): InsertResult {
    return this.db.transaction(() => this.writeEvents(accountId, userId, events, now))();
  }

  private writeEvents(accountId: string, userId: string, events: readonly TrackedEvent[], now: string): InsertResult {
    const stmt = this.sql(
      `INSERT INTO events (account_id, insert_id, event_type, event_customer_id, domain, page_path, user_id,
         session_id, event_timestamp, received_at, event_json, event_name, revenue_amount)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, insert_id) DO NOTHING`,
    );
    let accepted = 0;
    for (const e of events) {
      const pagePath = e.properties?.page_path;
      accepted += stmt.run(
        accountId,
        e.insert_id,
        e.event_type,
        e.event_customer_id,
        e.domain ?? "",
        typeof pagePath === "string" ? pagePath : null,
        userId,
        e.session_id ?? null,
        Math.trunc(e.event_timestamp),
        now,
        JSON.stringify(e),
        eventName(e),
        e.event_type === "REVENUE" ? revenueAmount(e.properties?.revenue_amount) : 0,
      ).changes;
    }
    return { accepted, duplicates: events.length - accepted };
  }

  countEvents(accountId: string, filter: EventFilter = {}): number {
    const { where, params } = eventFilterSql(accountId, filter);
    return count(this.sql(`SELECT count(*) AS n FROM events e WHERE ${where}`).get(params));
  }

  hasEvent(accountId: string, insertId: string): boolean {
    return this.sql("SELECT 1 FROM events WHERE account_id = ? AND insert_id = ?").get(accountId, insertId) !== undefined;
  }

  listEvents(accountId: string, limit: number, filter: EventFilter = {}): StoredEvent[] {
    const { where, params } = eventFilterSql(accountId, filter);
    // After a cursor: the nearest events above it, then newest first as every page is.
    const order = filter.after !== undefined ? "ASC" : "DESC";
    const rows = this.sql(`SELECT * FROM events e WHERE ${where} ORDER BY e.seq ${order} LIMIT @limit`).all({ ...params, limit }) as Row[];
    if (order === "ASC") rows.reverse();
    return rows.map((r) => ({
      seq: r.seq as number,
      account_id: r.account_id as string,
      insert_id: r.insert_id as string,
      event_type: r.event_type as string,
      event_customer_id: r.event_customer_id as string,
      domain: r.domain as string,
      page_path: (r.page_path as string | null) ?? null,
      user_id: r.user_id as string,
      session_id: (r.session_id as string | null) ?? null,
      event_timestamp: r.event_timestamp as number,
      received_at: r.received_at as string,
      event: parseStoredEvent(r),
    }));
  }

  // ---- a visitor's timeline (live events) ----

  findVisitor(accountId: string, userIds: readonly string[]): VisitorRecord | null {
    for (const userId of userIds) {
      const r = this.sql("SELECT user_id, user_customer_id, first_seen, last_seen FROM visitors WHERE account_id = ? AND user_id = ?").get(accountId, userId) as
        | VisitorRecord
        | undefined;
      if (r) return { user_id: r.user_id, user_customer_id: r.user_customer_id, first_seen: r.first_seen, last_seen: r.last_seen };
    }
    return null;
  }

  listVisitorExposures(accountId: string, userIds: readonly string[], limit: number): StoredExposure[] {
    if (userIds.length === 0) return [];
    const rows = this.sql(
      `SELECT * FROM exposures WHERE account_id = @account AND user_id IN (${userIds.map((_, i) => `@visitor_${i}`).join(", ")})
       ORDER BY requested_time DESC, seq DESC LIMIT @limit`,
    ).all({ account: accountId, limit, ...Object.fromEntries(userIds.map((v, i) => [`visitor_${i}`, v])) }) as Row[];
    return rows.map((r) => ({
      config_id: r.config_id as string,
      user_customer_id: r.user_customer_id as string,
      user_id: (r.user_id as string | null) ?? null,
      session_id: r.session_id as string,
      requested_time: r.requested_time as number,
      variation_id: r.variation_id as string,
      ...(r.experience_id != null ? { experience_id: r.experience_id as string } : {}),
      ...(r.rule_id != null ? { rule_id: r.rule_id as string } : {}),
      is_template_config: r.is_template_config === 1,
      forced: r.forced === 1,
    }));
  }

  // ---- exposures ----

  insertExposures(accountId: string, exposures: readonly Exposure[], now: string): InsertResult {
    return this.db.transaction(() => this.writeExposures(accountId, exposures, now))();
  }

  private writeExposures(accountId: string, exposures: readonly Exposure[], now: string): InsertResult {
    const stmt = this.sql(
      `INSERT INTO exposures (account_id, user_customer_id, user_id, session_id, config_id, experience_id, rule_id,
         behaviour_id, variation_id, is_template_config, probability, requested_time, received_at, split, forced)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
    );
    let accepted = 0;
    for (const x of exposures) {
      accepted += stmt.run(
        accountId,
        x.user_customer_id,
        x.user_id ?? null,
        x.session_id ?? "",
        x.config_id,
        x.experience_id ?? null,
        x.rule_id ?? null,
        x.behaviour_id ?? null,
        x.variation_id ?? "",
        x.is_template_config ? 1 : 0,
        x.probability ?? null,
        Math.trunc(x.requested_time),
        now,
        x.split ?? null,
        x.forced ? 1 : 0,
      ).changes;
    }
    return { accepted, duplicates: exposures.length - accepted };
  }

  countExposures(accountId: string): number {
    return count(this.sql("SELECT count(*) AS n FROM exposures WHERE account_id = ?").get(accountId));
  }

  listExposures(accountId: string, limit: number): StoredExposure[] {
    const rows = this.sql("SELECT * FROM exposures WHERE account_id = ? ORDER BY seq DESC LIMIT ?").all(
      accountId,
      limit,
    ) as Row[];
    return rows.map((r) => ({
      config_id: r.config_id as string,
      user_customer_id: r.user_customer_id as string,
      user_id: (r.user_id as string | null) ?? null,
      session_id: r.session_id as string,
      requested_time: r.requested_time as number,
      variation_id: r.variation_id as string,
      ...(r.experience_id != null ? { experience_id: r.experience_id as string } : {}),
      ...(r.rule_id != null ? { rule_id: r.rule_id as string } : {}),
      ...(r.behaviour_id != null ? { behaviour_id: r.behaviour_id as string } : {}),
      is_template_config: r.is_template_config === 1,
      probability: (r.probability as number | null) ?? null,
      split: (r.split as string | null) ?? null,
      forced: r.forced === 1,
    }));
  }

  exposureVisitors(accountId: string, experienceId: string, range: ResultsRange = {}): { distinct: number; byVariation: VariationVisitors[] } {
    const params = { account: accountId, experience: experienceId, ...rangeParams(range) };
    const inRange = "requested_time >= @from_ms AND requested_time < @to_ms";
    const distinct = count(
      this.sql(`SELECT count(DISTINCT user_id) AS n FROM exposures WHERE account_id = @account AND experience_id = @experience AND forced = 0 AND ${inRange}`).get(params),
    );
    const byVariation = this.sql(
      `SELECT variation_id, count(DISTINCT user_id) AS visitors FROM exposures
       WHERE account_id = @account AND experience_id = @experience AND user_id IS NOT NULL AND forced = 0 AND ${inRange}
       GROUP BY variation_id ORDER BY variation_id`,
    ).all(params) as VariationVisitors[];
    return { distinct, byVariation };
  }

  /**
   * The account's events by the (account, seq) index. Exposures have no index by account and seq
   * (one more index on the summaries' path), so the last exposure of any account is taken: the
   * max of the rowid, one seek. Another account's exposure then only costs a recomputation.
   */
  resultsVersion(accountId: string): { revision: number; eventSeq: number; exposureSeq: number } {
    const row = this.sql(
      `SELECT (SELECT revision FROM accounts WHERE id = @account) AS revision,
              (SELECT max(seq) FROM events WHERE account_id = @account) AS eventSeq,
              (SELECT max(seq) FROM exposures) AS exposureSeq`,
    ).get({ account: accountId }) as { revision: number | null; eventSeq: number | null; exposureSeq: number | null };
    return { revision: row.revision ?? 0, eventSeq: row.eventSeq ?? 0, exposureSeq: row.exposureSeq ?? 0 };
  }

  resultsAggregate(accountId: string, experienceId: string, goals: readonly GoalDefinition[], range: ResultsRange = {}): ResultsAggregate {
    const experience = { account: accountId, experience: experienceId, ...rangeParams(range) };
    // One snapshot: the exposures, the page paths and the goal sums see the same rows.
    return this.db.transaction((): ResultsAggregate => {
      const exposures = (this.sql(EXPOSURE_DAYS_SQL).all(experience) as (Omit<ExposureDay, "date"> & { day: number | null })[]).map(
        ({ day, ...x }): ExposureDay => ({ ...x, date: day === null ? null : new Date(day * 86_400_000).toISOString().slice(0, 10) }),
      );
      if (!goals.length) return { exposures, goals: [] };
      const pagePaths = goals.some((g) => g.kind === "page_view") ? [...this.pagePaths(accountId)] : [];
      const { sql, params, goalPaths } = goalSumsQuery(goals, pagePaths, experience);
      // Read by storefit_goal_path during this statement (better-sqlite3 runs it synchronously).
      this.goalPaths = goalPaths;
      try {
        // Not cached: the text depends on the goals (preparing costs far less than the query).
        return { exposures, goals: this.db.prepare(sql).all(params) as GoalSums[] };
      } finally {
        this.goalPaths = new Map();
      }
    })();
  }

  pageViews(accountId: string, range: ResultsRange, limit: number): PageViews {
    const params = { account: accountId, ...rangeParams(range), limit };
    const where = "account_id = @account AND event_type = 'PAGE' AND event_timestamp >= @from_ms AND event_timestamp < @to_ms";
    return this.db.transaction(
      (): PageViews => ({
        byDomain: this.sql(`SELECT domain, count(*) AS views FROM events WHERE ${where} GROUP BY domain ORDER BY views DESC`).all(params) as PageViews["byDomain"],
        pages: this.sql(
          `SELECT domain, page_path, count(*) AS views FROM events WHERE ${where} AND page_path IS NOT NULL
           GROUP BY domain, page_path ORDER BY views DESC, domain, page_path LIMIT @limit`,
        ).all(params) as PageViews["pages"],
      }),
    )();
  }

  pageVisitors(accountId: string, range: ResultsRange, pages: readonly { domain: string; page_path: string }[]): number {
    if (!pages.length) return 0;
    return count(
      this.sql(
        // One pass over the account's events; the pages become a lookup table (IN with a subquery).
        `SELECT count(DISTINCT e.user_id) AS n FROM events e
         WHERE e.account_id = @account AND e.event_type = 'PAGE' AND e.event_timestamp >= @from_ms AND e.event_timestamp < @to_ms
           AND (e.domain, e.page_path) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(@pages))`,
      ).get({ account: accountId, ...rangeParams(range), pages: JSON.stringify(pages.map((p) => [p.domain, p.page_path])) }),
    );
  }

  /**
   * The account's distinct PAGE paths, as of this transaction. Listing them reads every event of
   * the account — as long as a bare count — so a node remembers them with the last seq read and
   * next time reads only the events stored since. Events are only ever added, and SQLite commits
   * one writer at a time, so a seq below the remembered one can never appear later.
   */
  private pagePaths(accountId: string): Set<string> {
    const upTo = (this.sql("SELECT max(seq) FROM events WHERE account_id = ?").pluck(true).get(accountId) as number | null) ?? 0;
    const known = this.pagePathCache.get(accountId);
    const paths = new Set(known?.paths);
    for (const p of this.sql(NEW_PAGE_PATHS_SQL).pluck(true).all({ account: accountId, after: known?.seq ?? 0, upTo }) as string[]) paths.add(p);
    this.pagePathCache.delete(accountId);
    if (paths.size <= PAGE_PATH_CACHE_PATHS) {
      if (this.pagePathCache.size >= PAGE_PATH_CACHE_ACCOUNTS) this.pagePathCache.delete(this.pagePathCache.keys().next().value!);
      this.pagePathCache.set(accountId, { seq: upTo, paths });
    }
    return paths;
  }

  // ---- devices and alerts ----

  addDevices(accountId: string, devices: readonly DeviceRecord[], now: string): InsertResult {
    return this.db.transaction(() => this.writeDevices(accountId, devices, now))();
  }

  private writeDevices(accountId: string, devices: readonly DeviceRecord[], now: string): InsertResult {
    const stmt = this.sql(
      `INSERT INTO devices (account_id, device_customer_id, device_type, user_id, created_at, anonymous)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
    let accepted = 0;
    for (const d of devices) {
      const anonymous = d.anonymous === undefined ? null : d.anonymous ? 1 : 0;
      accepted += stmt.run(accountId, d.device_customer_id, d.device_type, d.user_id, now, anonymous).changes;
    }
    return { accepted, duplicates: devices.length - accepted };
  }

  countDevices(accountId: string): number {
    return count(this.sql("SELECT count(*) AS n FROM devices WHERE account_id = ?").get(accountId));
  }

  addAlert(accountId: string, alert: unknown, now: string): void {
    this.sql("INSERT INTO alerts (account_id, alert_json, received_at) VALUES (?, ?, ?)").run(
      accountId,
      JSON.stringify(alert),
      now,
    );
  }

  countAlerts(accountId: string): number {
    return count(this.sql("SELECT count(*) AS n FROM alerts WHERE account_id = ?").get(accountId));
  }
}
