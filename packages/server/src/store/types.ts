// The one storage interface of the service (product.md §1: "keep storage behind one
// interface"). SQLite implements it today; a PostgreSQL implementation must satisfy the same
// methods later, so nothing here leaks SQL or better-sqlite3 types.
//
// An experience is stored as one aggregate (its rules, behaviours, variations and configs
// together): the admin API edits it whole and the decision reads it whole, so splitting it into
// tables would only add joins. Audiences are shared between experiences and live on their own.

import type {
  AccountSettings,
  Audience,
  ConfigSummary,
  ExperienceDetail,
  GoalDefinition,
  RevenueCurrency,
  Role,
  TrackedEvent,
  User,
} from "@storefit/contract";

export type {
  AccountSettings,
  Audience,
  BehaviourDefinition,
  ConfigDefinition,
  PageTarget,
  RuleDefinition,
  VariationDefinition,
} from "@storefit/contract";

export type Account = {
  id: string;
  name: string;
  client_key: string;
  settings: AccountSettings;
  /** Bumped in the database by every write to the account, its experiences or its audiences. */
  revision: number;
  created_at: string;
  updated_at: string;
};

export type NewAccount = Omit<Account, "created_at" | "updated_at" | "revision">;

export type Experience = ExperienceDetail & { account_id: string };
/** Without a group unless one is given (seeds and tests need not name it). */
export type NewExperience = Omit<Experience, "created_at" | "updated_at" | "exclusion_group"> & { exclusion_group?: Experience["exclusion_group"] };

export type NewAudience = Omit<Audience, "created_at" | "updated_at"> & { account_id: string };

/**
 * What the decision needs of one account, read in one consistent snapshot: the account, its
 * experiences that can still be shown (running, and draft or paused for preview) and audiences.
 */
export type AccountSnapshot = {
  account: Account;
  experiences: Experience[];
  audiences: Audience[];
};

export type Operator = {
  id: string;
  account_id: string;
  email: string;
  password_hash: string;
  role: Role;
};

export type SecretKeyRecord = {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
};

/**
 * A visitor's sticky assignment to one experience (product.md §3): the variation they got and
 * the probability they had of getting it (traffic allocation × weight share, 1 when forced).
 */
export type Assignment = {
  experience_id: string;
  rule_id: string;
  behaviour_id: string;
  variation_id: string;
  probability: number;
  /**
   * The split the variation was drawn from: the behaviour's probability of each of its variations
   * at assignment time (traffic allocation × weight share), as JSON text `{"variation id": p}`
   * (decide.ts `splitOf`). Carried to the exposures for the sample-ratio check
   * (docs/results.md). Absent on assignments stored before it was kept, and on forced ones.
   */
  split?: string;
};

/**
 * Where an assignment is kept: one per experience and rule (product.md §3: the visitor is bucketed
 * by experience, rule and visitor, and "changing weights later does not move visitors already
 * assigned" — also a visitor who matched another rule of the experience in between). Ids never
 * hold ":" (schemas/common.ts ID_PATTERN).
 */
export const assignmentKey = (experienceId: string, ruleId: string): string => `${experienceId}:${ruleId}`;

/** A device of the devices call (spec §7), with the call's anonymous flag when it was sent. */
export type DeviceRecord = { device_customer_id: string; device_type: string; user_id: string; anonymous?: boolean };

/** What one client API request writes (product.md §3 client API), committed with its neighbours. */
export type ClientWrite =
  /** A config call: the visitor, and the assignments that are new or changed. */
  | { kind: "decision"; accountId: string; userId: string; user: User; assignments: readonly Assignment[]; now: string }
  /** Events, and the visitor's record when `touch` (it is refreshed at most once a minute per node). */
  | { kind: "events"; accountId: string; userId: string; user: User; touch: boolean; events: readonly TrackedEvent[]; now: string }
  | { kind: "exposures"; accountId: string; userId: string; user: User; touch: boolean; exposures: readonly Exposure[]; now: string }
  | { kind: "devices"; accountId: string; devices: readonly DeviceRecord[]; now: string }
  | { kind: "alert"; accountId: string; alert: unknown; now: string };

export type StoredEvent = {
  /** Its place in the account's stream (ascending): the events list's paging cursor. */
  seq: number;
  account_id: string;
  insert_id: string;
  event_type: string;
  event_customer_id: string;
  domain: string;
  page_path: string | null;
  user_id: string;
  session_id: string | null;
  event_timestamp: number;
  received_at: string;
  event: TrackedEvent;
};

/**
 * A config summary as stored: with the probability and split of the randomised assignment behind
 * it, or `forced` when none stands behind it (a desired_experiences or preview visit): forced
 * exposures are kept but left out of the results (docs/results.md).
 */
/**
 * GET /api/events filters (docs/api.md "Events"), each optional: `type` the stored (normalised)
 * event type; `domain` the event's domain, whole, any case; `q` a substring, A–Z in any case, of the
 * page path or the event's name (its `name`, or what follows "|" in event_customer_id);
 * `visitorIds` events of these visitors (user ids); `experience` events of visitors with an
 * exposure to that experience; `before` / `after` a seq cursor: only events stored before
 * (after) it (listEvents: the `limit` nearest to it).
 */
export type EventFilter = {
  type?: string;
  domain?: string;
  q?: string;
  visitorIds?: readonly string[];
  experience?: string;
  before?: number;
  after?: number;
};

/** A visitor as the service has recorded them (first and last seen, from their client calls). */
export type VisitorRecord = { user_id: string; user_customer_id: string; first_seen: string; last_seen: string };

export type Exposure = ConfigSummary & { probability?: number | null; split?: string | null; forced?: boolean };

export type StoredExposure = Omit<Exposure, "user_id"> & { user_id: string | null };

export type InsertResult = { accepted: number; duplicates: number };

export type VariationVisitors = { variation_id: string; visitors: number };

/**
 * A results date range (docs/results.md "Date range"): milliseconds of the browser's clock,
 * `from_ms` included, `to_ms` excluded. Visitors count when their first exposure is inside it;
 * their conversions when they happen before `to_ms`. Absent bounds: open.
 */
export type ResultsRange = { from_ms?: number; to_ms?: number };

/** Store.pageViews: page views per domain, and the most viewed pages. */
export type PageViews = {
  byDomain: { domain: string; views: number }[];
  pages: { domain: string; page_path: string; views: number }[];
};

/**
 * The sufficient statistics of an experience's results (docs/results.md), summed per variation
 * in the database so that no per-visitor row leaves it. A visitor belongs to the variation of
 * their first exposure to the experience (earliest requested_time); a goal's "post" part counts
 * their matching events at or after that moment, the "pre" part those before it (for CUPED).
 */
export type ResultsAggregate = {
  /** Per variation, UTC day of first (randomised) exposure and split. */
  exposures: ExposureDay[];
  /** Per goal, variation and UTC day of the visitor's first converting event (null: none after exposure). */
  goals: GoalSums[];
};

/** An experience's results without a date range, folded incrementally (ResultsStore.foldResults). */
export type FoldedResults = { aggregate: ResultsAggregate; exposed: { distinct: number; byVariation: VariationVisitors[] } };

export type ExposureDay = {
  variation_id: string;
  /** YYYY-MM-DD (UTC) of the visitors' first exposure; null when their clock said a time before 1970 or after 9999. */
  date: string | null;
  /** The split these visitors' assignments were drawn from (Assignment.split); null: not stored (older rows). */
  split: string | null;
  visitors: number;
  /** Σ and count of the stored assignment probabilities of these first exposures (some may be unknown). */
  probability_sum: number;
  probability_count: number;
};

/**
 * Sums over the visitors of one variation who had at least one event matching the goal (before
 * or after exposure); a visitor without any adds 0 to every sum. For each visitor: post and pre
 * are 0/1 (any matching event after / before first exposure); value and pre_value are the summed
 * revenue after / before, each capped at the goal's revenue_cap; orders counts the events after.
 */
export type GoalSums = {
  goal_id: string;
  variation_id: string;
  /** YYYY-MM-DD (UTC) of the visitors' first matching event after exposure; null for those with none (or a time before 1970 or after 9999). */
  date: string | null;
  visitors: number;
  post: number;
  pre: number;
  post_pre: number;
  value: number;
  value_squares: number;
  pre_value: number;
  pre_value_squares: number;
  value_pre_value: number;
  orders: number;
  orders_squares: number;
  value_orders: number;
};

/**
 * A value or its promise. SQLite (better-sqlite3) answers synchronously, PostgreSQL with
 * promises: callers await every call, and either fits.
 */
export type Awaitable<T> = T | Promise<T>;

/**
 * What an experience write is checked against, read inside the write's own transaction: the
 * account's experiences as committed (the one being written included, as it was) and the ids of
 * its audiences.
 */
export type ExperienceWriteContext = {
  experiences: readonly Experience[];
  audienceIds: ReadonlySet<string>;
};

// The atomic operations below take a check or a change from the caller (the admin API's rules
// stay in admin/): a synchronous function that sees the state read in the operation's own
// transaction and answers what to write, or throws to refuse (nothing is written; the store
// rethrows). It cannot await, so no transaction ever waits on the caller: SQLite runs the whole
// operation in one synchronous db.transaction; PostgreSQL in one transaction on one pooled
// connection that first locks the account's row, so that writers of one account, on any node,
// take turns (docs/storage.md).

/** What getAccountRevision answers. */
export type AccountRevision = { id: string; revision: number; assignments?: ReadonlyMap<string, Map<string, Assignment>> };

export interface AccountStore {
  createAccount(account: NewAccount): Awaitable<Account>;
  getAccountByClientKey(clientKey: string): Awaitable<Account | null>;
  getAccount(id: string): Awaitable<Account | null>;
  /**
   * The hot path's one read per config call: which account a key names, at which revision. With
   * `userIds` (visitors of that account), a backend may answer their stored assignments as of the
   * same revision in `assignments` (an empty map: none stored), saving a read each; without it,
   * the caller reads them with getAssignments.
   */
  getAccountRevision(clientKey: string, userIds?: readonly string[]): Awaitable<AccountRevision | null>;
  /** The account, its showable experiences and audiences, read in one transaction. */
  loadAccountSnapshot(accountId: string): Awaitable<AccountSnapshot | null>;
  /**
   * Atomic: `change` sees the account as committed and answers the fields to write (a settings
   * patch is merged into `current.settings` there, so a concurrent patch of another field is
   * kept). Null: no such account.
   */
  updateAccount(id: string, change: (current: Account) => { name?: string; settings?: AccountSettings }): Awaitable<Account | null>;
  /**
   * A secret of this installation by name (migration 10): the stored value, or `make()`'s stored
   * first. Every node reads the same value.
   */
  serviceSecret(name: string, make: () => string): Awaitable<string>;
}

export interface MemberStore {
  /** Atomic: false, and nothing written, when an operator with this email exists. */
  createOperator(operator: Operator): Awaitable<boolean>;
  getOperatorByEmail(email: string): Awaitable<Operator | null>;
  getOperator(id: string): Awaitable<Operator | null>;
  listOperators(accountId: string): Awaitable<Operator[]>;
  /** Atomic, keeping the last owner: "last_owner" (nothing written) when no owner would be left. Null: no such member. */
  updateOperatorRole(accountId: string, id: string, role: Role): Awaitable<Operator | "last_owner" | null>;
  /** Removes the member and their sessions, keeping the last owner as updateOperatorRole does. False: no such member. */
  deleteOperator(accountId: string, id: string): Awaitable<boolean | "last_owner">;

  createSession(tokenHash: string, operatorId: string, csrfToken: string, expiresAt: number): Awaitable<void>;
  getSession(tokenHash: string, now: number): Awaitable<{ operator_id: string; csrf_token: string } | null>;
  deleteSession(tokenHash: string): Awaitable<void>;

  /** `keyHash` is the SHA-256 of the secret; the secret itself is never stored. */
  createSecretKey(key: Omit<SecretKeyRecord, "last_used_at">, keyHash: string): Awaitable<SecretKeyRecord>;
  listSecretKeys(accountId: string): Awaitable<SecretKeyRecord[]>;
  /** A key that is not revoked, marked as used at `now`. */
  useSecretKey(keyHash: string, now: string): Awaitable<SecretKeyRecord | null>;
  revokeSecretKey(accountId: string, id: string, now: string): Awaitable<boolean>;
}

export interface ExperienceStore {
  /** Atomic: stores `next` (a new id) unless `check` throws. */
  createExperience(next: NewExperience, check: (ctx: ExperienceWriteContext) => void): Awaitable<Experience>;
  /**
   * Atomic read-check-write of one experience (If-Match, status changes, rule checks): `change`
   * answers the experience to store, or `current` itself to write nothing. A rule that is
   * gone loses its visitors' assignments (as with saveExperience). Null: no such experience.
   */
  updateExperience(
    accountId: string,
    id: string,
    change: (current: Experience, ctx: ExperienceWriteContext) => NewExperience | Experience,
  ): Awaitable<Experience | null>;
  /** Atomic: deletes the experience and its assignments unless `check` throws; exposures and events stay. False: no such experience. */
  deleteExperience(accountId: string, id: string, check: (current: Experience) => void): Awaitable<boolean>;
  /** Inserts or replaces, unchecked: for seeds. */
  saveExperience(experience: NewExperience): Awaitable<Experience>;
  getExperience(accountId: string, id: string): Awaitable<Experience | null>;
  listExperiences(accountId: string): Awaitable<Experience[]>;
  listRunningExperiences(accountId: string): Awaitable<Experience[]>;

  /** Inserts or replaces, unchecked (a new audience, and seeds). */
  saveAudience(audience: NewAudience): Awaitable<Audience>;
  /** Atomic: replaces an audience that still exists with `change(current)`. Null: no such audience. */
  updateAudience(accountId: string, id: string, change: (current: Audience) => NewAudience): Awaitable<Audience | null>;
  /** Atomic: deletes it unless an experience's rule names it (then `usedBy`: their names). Null: no such audience. */
  deleteAudience(accountId: string, id: string): Awaitable<{ deleted: true } | { usedBy: string[] } | null>;
  getAudience(accountId: string, id: string): Awaitable<Audience | null>;
  listAudiences(accountId: string): Awaitable<Audience[]>;
}

export interface VisitorStore {
  /** The visitor's sticky assignments, by `assignmentKey` (experience and rule). */
  getAssignments(accountId: string, userId: string): Awaitable<Map<string, Assignment>>;
  /** The first of these user ids that the service has recorded as a visitor, or null. */
  findVisitor(accountId: string, userIds: readonly string[]): Awaitable<VisitorRecord | null>;
  /** The newest `limit` exposures of these visitors (user ids), newest first (a visitor's timeline). */
  listVisitorExposures(accountId: string, userIds: readonly string[], limit: number): Awaitable<StoredExposure[]>;
}

export interface ClientWriteStore {
  /**
   * The writes of client API requests, applied in order in one transaction (all or none), with
   * one result per write. The service groups concurrent requests' writes here (group commit).
   * Events are idempotent on (account, insert_id) and summaries on their natural key: a
   * repeated one counts as a duplicate, stored once.
   */
  commitClientWrites(writes: readonly ClientWrite[]): Awaitable<InsertResult[]>;
}

export interface EventStore {
  /** The account's events, or those matching `filter`. */
  countEvents(accountId: string, filter?: EventFilter): Awaitable<number>;
  /** Whether an event with this insert id is stored in the account. */
  hasEvent(accountId: string, insertId: string): Awaitable<boolean>;
  /**
   * The newest `limit` events (matching `filter`), newest first; with `filter.after`, the `limit`
   * oldest after it, still newest first.
   */
  listEvents(accountId: string, limit: number, filter?: EventFilter): Awaitable<StoredEvent[]>;
  /**
   * GET /api/events' bounded search (docs/api.md "Events"): the events matching `filter` among
   * the `window` candidates nearest its cursor in the paging direction (below `before` or the
   * newest; above `after`), at most `limit`, newest first. The candidates are the account's events,
   * or with `visitorIds` those visitors', so a filter matching nothing reads at most `window`
   * events, however many the account holds.
   */
  searchEvents(accountId: string, limit: number, filter: EventFilter, window: number): Awaitable<EventSearch>;
  /**
   * The events matching `filter` (its cursor ignored) among the `window` newest candidates (as in
   * searchEvents), counted up to `cap`: exact when neither bound was reached.
   */
  countEventsBounded(accountId: string, filter: EventFilter, window: number, cap: number): Awaitable<{ n: number; exact: boolean }>;
  /** The first `max` of the account's events stored after seq `after`: their number and the last one's seq (null: none). */
  countEventsAfter(accountId: string, after: number, max: number): Awaitable<{ n: number; last: number | null }>;
}

/**
 * EventStore.searchEvents' answer. `more`: another match lies in the window beyond `events`.
 * `end`: the seq of the window's farthest candidate when candidates lie beyond it (the search
 * stopped there: a cursor at `end` continues it), else null.
 */
export type EventSearch = { events: StoredEvent[]; more: boolean; end: number | null };

/**
 * The names an account's events of one type carry (GET /api/events/names, docs/api.md): the goal
 * editor offers them, since a goal matches a name exactly.
 */
export interface EventNameStore {
  /**
   * The distinct names (at most 200 characters, not empty) of the events of `type` among the
   * account's `window` newest events, the most recently received first, at most `limit`, each with
   * its number of events in the window. `complete`: the window held every event of the account.
   */
  recentEventNames(accountId: string, type: string, window: number, limit: number): Awaitable<RecentEventNames>;
  /**
   * The currencies of the orders among the account's `window` newest events (docs/results.md
   * "Currencies") placed by the experience's visitors after their first exposure (no one can
   * add to them without being exposed): REVENUE events whose amount counts (countedAmount > 0), counted by their
   * `properties.currency` — three ASCII letters upper-cased, "other" for any other value, null
   * when it is missing or JSON null (or the stored JSON does not parse) — the most orders first,
   * then by currency. Never fails on an odd stored row.
   */
  recentRevenueCurrencies(accountId: string, experienceId: string, window: number): Awaitable<RevenueCurrency[]>;
}

export type RecentEventNames = { names: { name: string; events: number }[]; complete: boolean };

/** The longest name a goal can hold (schemas/admin.ts `event_name`): a longer one is never offered. */
export const GOAL_EVENT_NAME_MAX = 200;

export interface ResultsStore {
  /** Distinct visitors (user_id) exposed to one experience, in all and per variation. */
  exposureVisitors(accountId: string, experienceId: string, range?: ResultsRange): Awaitable<{ distinct: number; byVariation: VariationVisitors[] }>;
  /**
   * What an account's results depend on besides the experience and the query (results/cache.ts):
   * the account's revision, its last event's seq and the last exposure's seq (0: none). Cheap: no
   * scan. Seqs only grow.
   */
  resultsVersion(accountId: string): Awaitable<{ revision: number; eventSeq: number; exposureSeq: number }>;
  /**
   * The account's page views (PAGE events) with a browser time in `range`: their number per
   * domain, and the `limit` most viewed (domain, page path) pairs with their numbers. For the
   * results' diagnostics (docs/results.md "Few visitors"), read only when visitors are few.
   */
  pageViews(accountId: string, range: ResultsRange, limit: number): Awaitable<PageViews>;
  /** Distinct visitors with a page view (browser time in `range`) on one of these pages. */
  pageVisitors(accountId: string, range: ResultsRange, pages: readonly { domain: string; page_path: string }[]): Awaitable<number>;
  /**
   * The experience's results without a date range: what resultsAggregate and exposureVisitors
   * answer, from a state kept in the database and folded forward from the event and exposure
   * seqs it covers (docs/results.md "Incremental results"), so a call costs in proportion to
   * what arrived since the last. A change of the goals starts the state again from nothing.
   */
  foldResults(accountId: string, experienceId: string, goals: readonly GoalDefinition[]): Awaitable<FoldedResults>;
  /** The experience's results as sufficient statistics, read in one consistent snapshot (a full recompute). */
  resultsAggregate(accountId: string, experienceId: string, goals: readonly GoalDefinition[], range?: ResultsRange): Awaitable<ResultsAggregate>;
}

/** The one storage interface of the service: what the service uses, by concern. */
export interface Store extends AccountStore, MemberStore, ExperienceStore, VisitorStore, ClientWriteStore, EventStore, EventNameStore, ResultsStore {
  /** Applies pending numbered migrations; safe to call on every start. */
  migrate(): Awaitable<void>;
  close(): Awaitable<void>;
}

/** Tables whose rows StoreInspection.countRows counts for one account. */
export type CountedTable = "visitors" | "assignments" | "events" | "exposures" | "devices" | "alerts";

/** What tests and benchmarks read besides the service's interface. Each backend implements it. */
export interface StoreInspection {
  countRows(table: CountedTable, accountId: string): Awaitable<number>;
  /** The newest `limit` exposures of the account, newest first. */
  listExposures(accountId: string, limit: number): Awaitable<StoredExposure[]>;
  /** The numbers of the migrations applied, ascending. */
  appliedMigrations(): Awaitable<number[]>;
}

/** A store interface as a synchronous backend implements it (SQLite): every method answers at once. */
export type Sync<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Exclude<R, Promise<unknown>> : T[K] };
