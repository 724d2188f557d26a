// The PostgreSQL store's own behaviour (src/store/postgres/), beside the contract both backends
// share (store-contract.ts): migrations, the atomic operations as transactions that lock the
// account, several nodes on one database, idempotence across time partitions, and the results
// giving SQLite's numbers for the same rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { GoalDefinition, RuleDefinition, TrackedEvent, User } from "@storefit/contract";
import { openPostgresStore } from "../src/store/postgres/index.js";
import type { PostgresStore } from "../src/store/postgres/index.js";
import { MIGRATIONS, migrate, partitionName } from "../src/store/postgres/migrations.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { ClientWrite, Exposure, NewExperience, Store } from "../src/store/types.js";
import { freshDatabase } from "./support/postgres.js";
import type { FreshDatabase } from "./support/postgres.js";

const NOW = new Date().toISOString();
const visitor = (id: string): User => ({ user_customer_id: id, anonymous: true });

function rule(id: string, audienceId: string | null = null): RuleDefinition {
  return {
    id,
    audience_id: audienceId,
    behaviour: {
      id: `${id}-b`,
      name: "Behaviour",
      traffic_allocation: 1,
      variations: [
        { id: "va", name: "Control", weight: 1, configs: [] },
        { id: "vb", name: "Treatment", weight: 1, configs: [] },
      ],
    },
  };
}

const experience = (accountId: string, id: string, over: Partial<NewExperience> = {}): NewExperience => ({
  id,
  account_id: accountId,
  name: `Experience ${id}`,
  status: "draft",
  kind: "ab_test",
  priority: 0,
  pages: [{ domain: "shop.example", page_path: "/", page_match: "exact_match" }],
  rules: [rule("r1")],
  goals: [],
  ...over,
});

const event = (insertId: string, over: Partial<TrackedEvent> = {}): TrackedEvent => ({
  event_type: "PAGE",
  event_customer_id: "shop.example|page",
  domain: "shop.example",
  insert_id: insertId,
  event_timestamp: Date.UTC(2026, 2, 1, 12),
  properties: { page_path: "/" },
  ...over,
});

const eventsWrite = (accountId: string, userId: string, events: TrackedEvent[], now = NOW): ClientWrite => ({
  kind: "events",
  accountId,
  userId,
  user: visitor(userId),
  touch: true,
  events,
  now,
});

const exposure = (userId: string, variation: string, time: number, over: Partial<Exposure> = {}): Exposure => ({
  config_id: "cfg",
  user_customer_id: userId,
  user_id: userId,
  session_id: "s1",
  requested_time: time,
  variation_id: variation,
  experience_id: "exp",
  rule_id: "r1",
  behaviour_id: "r1-b",
  probability: 0.5,
  split: '{"va":0.5,"vb":0.5}',
  ...over,
});

let accounts = 0;
/** A new account of its own for each test. */
async function newAccount(store: Store): Promise<string> {
  const id = `acc${++accounts}`;
  await store.createAccount({ id, name: `Shop ${id}`, client_key: `key-${id}`, settings: { ...SETTINGS_DEFAULTS, domain: "shop.example" } });
  return id;
}

let db: FreshDatabase;
let store: PostgresStore;
/** Another node on the same database. */
let other: PostgresStore;
let sql: pg.Pool;

beforeAll(async () => {
  db = await freshDatabase();
  store = await openPostgresStore(db.url);
  await store.migrate();
  other = await openPostgresStore(db.url);
  await other.migrate();
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  // pool.end() resolves before its connections have closed, and the database's drop (WITH FORCE)
  // may end one first: the pool then emits "error", which unheard fails the run (it did, in CI).
  sql.on("error", () => {});
});

afterAll(async () => {
  await store?.close();
  await other?.close();
  await sql?.end();
  await db?.drop();
});

const rows = async (text: string, params: unknown[] = []) => (await sql.query(text, params)).rows as Record<string, unknown>[];

describe("migrations", () => {
  it("applies each migration once; migrating again, from any node, changes nothing", async () => {
    const tables = async () => (await rows("SELECT relname FROM pg_class WHERE relkind IN ('r', 'p') AND relnamespace = 'public'::regnamespace ORDER BY relname")).map((r) => r.relname);
    const before = await tables();
    await store.migrate();
    await Promise.all([store.migrate(), other.migrate()]);
    expect(await store.appliedMigrations()).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await rows("SELECT count(*)::int AS n FROM schema_migrations")).toEqual([{ n: MIGRATIONS.length }]);
    expect(await tables()).toEqual(before);
  });

  it("makes the partitions of this month and the next two, beside DEFAULT", async () => {
    const now = new Date();
    const months = [0, 1, 2].map((i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1)));
    for (const table of ["events", "exposures"]) {
      const parts = (await rows("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY c.relname", [table])).map(
        (r) => r.relname,
      );
      expect(parts).toEqual([...months.map((m) => partitionName(table, m)), `${table}_default`].sort());
    }
  });
});

describe("accounts and members", () => {
  it("answers accounts, revisions, members, sessions and secret keys", async () => {
    const acc = await newAccount(store);
    expect(await store.getAccountRevision(`key-${acc}`)).toEqual({ id: acc, revision: 1 });
    const updated = await store.updateAccount(acc, (current) => ({ settings: { ...current.settings, sdk_timeout_ms: 900 } }));
    expect(updated).toMatchObject({ revision: 2, settings: { sdk_timeout_ms: 900, domain: "shop.example" } });
    expect(await store.updateAccount("nobody", () => ({ name: "x" }))).toBeNull();

    const owner = { id: `${acc}-o`, account_id: acc, email: `Owner@${acc}.example`, password_hash: "h", role: "owner" as const };
    expect(await store.createOperator(owner)).toBe(true);
    // The email is taken in any case (SQLite's NOCASE: A-Z).
    expect(await store.createOperator({ ...owner, id: `${acc}-o2`, email: `owner@${acc.toUpperCase()}.EXAMPLE` })).toBe(false);
    expect(await store.getOperatorByEmail(`OWNER@${acc}.example`)).toEqual(owner);
    expect(await store.listOperators(acc)).toEqual([owner]);
    expect(await store.updateOperatorRole(acc, owner.id, "editor")).toBe("last_owner");
    expect(await store.deleteOperator(acc, owner.id)).toBe("last_owner");

    await store.createSession("t1", owner.id, "csrf", Date.now() + 60_000);
    expect(await other.getSession("t1", Date.now())).toEqual({ operator_id: owner.id, csrf_token: "csrf" });
    expect(await other.getSession("t1", Date.now() + 120_000)).toBeNull();

    const key = await store.createSecretKey({ id: `${acc}-k`, account_id: acc, name: "CI", prefix: "sk_1", created_at: NOW }, `hash-${acc}`);
    expect(await store.useSecretKey(`hash-${acc}`, NOW)).toEqual({ ...key, last_used_at: NOW });
    expect(await store.revokeSecretKey(acc, key.id, NOW)).toBe(true);
    expect(await store.useSecretKey(`hash-${acc}`, NOW)).toBeNull();

    expect(await store.serviceSecret("preview", () => "first")).toBe("first");
    expect(await other.serviceSecret("preview", () => "second")).toBe("first");
  });

  it("keeps one owner when two owners on two nodes demote each other at once", async () => {
    const acc = await newAccount(store);
    const a = { id: `${acc}-a`, account_id: acc, email: `a@${acc}.example`, password_hash: "h", role: "owner" as const };
    const b = { ...a, id: `${acc}-b`, email: `b@${acc}.example` };
    await store.createOperator(a);
    await store.createOperator(b);
    const answers = await Promise.all([store.updateOperatorRole(acc, a.id, "viewer"), other.updateOperatorRole(acc, b.id, "viewer")]);
    expect(answers.filter((x) => x === "last_owner")).toHaveLength(1);
    expect((await store.listOperators(acc)).filter((o) => o.role === "owner")).toHaveLength(1);
  });
});

describe("experiences and audiences", () => {
  it("writes through the atomic operations, and a refused one writes nothing", async () => {
    const acc = await newAccount(store);
    await store.saveAudience({ id: `${acc}-aud`, account_id: acc, name: "Mobile", description: "", condition: { type: "device", operator: "is", value: "mobile" } as never });
    const created = await store.createExperience(experience(acc, `${acc}-e1`, { rules: [rule("r1", `${acc}-aud`)] }), (ctx) => {
      expect(ctx.audienceIds).toEqual(new Set([`${acc}-aud`]));
      expect(ctx.experiences).toEqual([]);
    });
    const revision = (await store.getAccount(acc))!.revision;

    const refusal = new Error("refused");
    await expect(store.createExperience(experience(acc, `${acc}-e2`), () => { throw refusal; })).rejects.toBe(refusal);
    await expect(store.updateExperience(acc, created.id, () => { throw refusal; })).rejects.toBe(refusal);
    await expect(store.deleteExperience(acc, created.id, () => { throw refusal; })).rejects.toBe(refusal);
    await expect(store.updateAccount(acc, () => { throw refusal; })).rejects.toBe(refusal);
    await expect(store.updateAudience(acc, `${acc}-aud`, () => { throw refusal; })).rejects.toBe(refusal);
    expect(await store.listExperiences(acc)).toEqual([created]);
    expect((await store.getAccount(acc))!.revision).toBe(revision);

    // Answering `current` writes nothing.
    expect(await store.updateExperience(acc, created.id, (current) => current)).toEqual(created);
    expect((await store.getAccount(acc))!.revision).toBe(revision);

    expect(await store.deleteAudience(acc, `${acc}-aud`)).toEqual({ usedBy: [created.name] });
    const running = await store.updateExperience(acc, created.id, (current) => ({ ...current, status: "running", rules: [rule("r1")] }));
    expect(running).toMatchObject({ status: "running", created_at: created.created_at });
    expect(await other.listRunningExperiences(acc)).toEqual([running]);
    expect(await store.deleteAudience(acc, `${acc}-aud`)).toEqual({ deleted: true });
    expect(await store.updateAudience(acc, `${acc}-aud`, (a) => ({ ...a, account_id: acc }))).toBeNull();
    expect(await store.deleteExperience(acc, created.id, () => {})).toBe(true);
    expect(await store.deleteExperience(acc, created.id, () => {})).toBe(false);
  });

  it("answers an experience as stored, so its JSON (and ETag) is the same on every read", async () => {
    const acc = await newAccount(store);
    const saved = await store.saveExperience(experience(acc, `${acc}-e`, { name: "Nul \u0000 and lone \ud800 here" }));
    const read = await other.getExperience(acc, saved.id);
    expect(JSON.stringify(read)).toBe(JSON.stringify(saved));
    expect(saved.name).toBe("Nul \ufffd and lone \ufffd here");
  });

  it("drops a removed rule's assignments, and all of a deleted experience's", async () => {
    const acc = await newAccount(store);
    const e = await store.saveExperience(experience(acc, `${acc}-e`, { rules: [rule("r1"), rule("r2")] }));
    const assignment = (ruleId: string) => ({ experience_id: e.id, rule_id: ruleId, behaviour_id: `${ruleId}-b`, variation_id: "va", probability: 0.5 });
    await store.commitClientWrites([
      { kind: "decision", accountId: acc, userId: "u1", user: visitor("u1"), assignments: [assignment("r1"), assignment("r2")], now: NOW },
      { kind: "decision", accountId: acc, userId: "u2", user: visitor("u2"), assignments: [{ ...assignment("r1"), experience_id: "another" }], now: NOW },
    ]);
    expect(await store.countRows("assignments", acc)).toBe(3);
    await store.updateExperience(acc, e.id, (current) => ({ ...current, rules: [rule("r2")] }));
    expect([...(await store.getAssignments(acc, "u1")).keys()]).toEqual([`${e.id}:r2`]);
    await store.deleteExperience(acc, e.id, () => {});
    expect((await store.getAssignments(acc, "u1")).size).toBe(0);
    expect([...(await store.getAssignments(acc, "u2")).keys()]).toEqual(["another:r1"]);
  });
});

describe("two nodes on one database", () => {
  it("reads a change committed on one node at once on the other (the revision)", async () => {
    const acc = await newAccount(store);
    const before = (await other.getAccountRevision(`key-${acc}`))!.revision;
    await store.saveExperience(experience(acc, `${acc}-e`));
    expect((await other.getAccountRevision(`key-${acc}`))!.revision).toBe(before + 1);
    expect((await other.loadAccountSnapshot(acc))!.experiences.map((e) => e.id)).toEqual([`${acc}-e`]);
    await other.updateAccount(acc, () => ({ name: "Renamed" }));
    expect(await store.getAccountRevision(`key-${acc}`)).toEqual({ id: acc, revision: before + 2 });
  });

  it("applies all of 20 concurrent read-modify-writes of one experience from two nodes", async () => {
    const acc = await newAccount(store);
    const e = await store.saveExperience(experience(acc, `${acc}-e`, { name: "0" }));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? store : other).updateExperience(acc, e.id, (current) => ({ ...current, name: String(Number(current.name) + 1) })),
      ),
    );
    expect((await store.getExperience(acc, e.id))!.name).toBe("20");
  });

  it("stores an event sent to both nodes at once (with retries) once", async () => {
    const acc = await newAccount(store);
    const batch = (n: number) => [eventsWrite(acc, "u1", Array.from({ length: n }, (_, i) => event(`same-${i}`)))];
    const answers = await Promise.all([store, other, store, other].map((s) => s.commitClientWrites(batch(5))));
    expect(answers.map(([r]) => r!.accepted).reduce((a, b) => a + b)).toBe(5);
    expect(answers.map(([r]) => r!.accepted + r!.duplicates)).toEqual([5, 5, 5, 5]);
    expect(await store.countRows("events", acc)).toBe(5);
    expect(await other.countEvents(acc)).toBe(5);
  });
});

describe("client writes", () => {
  // Every statement locks its rows in key order, so these never wait for each other in a circle
  // (checked with db.ts's retry of a deadlocked transaction turned off).
  it("commits batches on two nodes that write the same visitors and events in other orders, beside assignment drops", async () => {
    const acc = await newAccount(store);
    const e = await store.saveExperience(experience(acc, `${acc}-e`, { rules: [rule("r1"), rule("r2")] }));
    const ids = Array.from({ length: 30 }, (_, i) => `u${i}`);
    const shuffled = (seed: number) => [...ids].sort((a, b) => ((a.charCodeAt(1) * seed) % 7) - ((b.charCodeAt(1) * seed) % 7) || (seed % 2 ? a.localeCompare(b) : b.localeCompare(a)));
    const batch = (seed: number): ClientWrite[] =>
      shuffled(seed).flatMap((u): ClientWrite[] => [
        { kind: "decision", accountId: acc, userId: u, user: visitor(u), assignments: [{ experience_id: e.id, rule_id: seed % 2 ? "r1" : "r2", behaviour_id: "b", variation_id: "va", probability: 1 }], now: NOW },
        eventsWrite(acc, u, [event(`${u}-${seed % 3}`)]),
        { kind: "exposures", accountId: acc, userId: u, user: visitor(u), touch: true, exposures: [exposure(u, "va", seed % 4)], now: NOW },
      ]);
    await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => (i % 2 ? store : other).commitClientWrites(batch(i + 1))),
      store.updateExperience(acc, e.id, (current) => ({ ...current, rules: [rule("r2")] })),
      other.updateExperience(acc, e.id, (current) => ({ ...current, rules: [rule("r1")] })),
    ]);
    expect(await store.countRows("events", acc)).toBe(90);
    expect(await store.countRows("exposures", acc)).toBe(120);
  });


  it("answers each write of a batch in order, duplicates within the batch and across batches counted", async () => {
    const acc = await newAccount(store);
    const x = exposure("u1", "va", 1000);
    const writes: ClientWrite[] = [
      // Ids in descending order: the seqs must follow the batch, not the ids.
      eventsWrite(acc, "u1", [event("k3"), event("k2"), event("k3")]),
      eventsWrite(acc, "u2", [event("k2"), event("k1")]),
      { kind: "exposures", accountId: acc, userId: "u1", user: visitor("u1"), touch: false, exposures: [x, x, { ...x, variation_id: "vb" }], now: NOW },
      { kind: "devices", accountId: acc, devices: [{ device_customer_id: "d1", device_type: "mobile", user_id: "u1" }, { device_customer_id: "d1", device_type: "mobile", user_id: "u1", anonymous: true }], now: NOW },
      { kind: "alert", accountId: acc, alert: { message: "slow" }, now: NOW },
      { kind: "decision", accountId: acc, userId: "u1", user: visitor("u1"), assignments: [], now: NOW },
    ];
    expect(await store.commitClientWrites(writes)).toEqual([
      { accepted: 2, duplicates: 1 },
      { accepted: 1, duplicates: 1 },
      { accepted: 2, duplicates: 1 },
      { accepted: 1, duplicates: 1 },
      { accepted: 1, duplicates: 0 },
      { accepted: 0, duplicates: 0 },
    ]);
    expect(await other.commitClientWrites(writes.slice(0, 4))).toEqual([
      { accepted: 0, duplicates: 3 },
      { accepted: 0, duplicates: 2 },
      { accepted: 0, duplicates: 3 },
      { accepted: 0, duplicates: 2 },
    ]);
    expect(await Promise.all((["visitors", "events", "exposures", "devices", "alerts"] as const).map((t) => store.countRows(t, acc)))).toEqual([2, 3, 2, 1, 1]);
    // The first of a key in the batch is the one stored; seqs follow the batch's order.
    const listed = await store.listEvents(acc, 10);
    expect(listed.map((e) => [e.insert_id, e.user_id])).toEqual([["k1", "u2"], ["k2", "u1"], ["k3", "u1"]]);
    expect(listed[0]!.seq).toBeGreaterThan(listed[1]!.seq);
    expect(await store.hasEvent(acc, "k1")).toBe(true);
    expect(await store.hasEvent(acc, "k4")).toBe(false);
  });

  it("merges assignments per experience and rule, as SQLite's json_patch does", async () => {
    const acc = await newAccount(store);
    const a = (exp: string, variation: string, split?: string) => ({ experience_id: exp, rule_id: "r1", behaviour_id: "b", variation_id: variation, probability: 0.5, ...(split ? { split } : {}) });
    await store.commitClientWrites([
      { kind: "decision", accountId: acc, userId: "u1", user: visitor("u1"), assignments: [a("e1", "va"), a("e2", "va")], now: NOW },
      { kind: "decision", accountId: acc, userId: "u1", user: { ...visitor("u1"), tags: ["later"] }, assignments: [a("e2", "vb", "{}")], now: NOW },
    ]);
    await other.commitClientWrites([{ kind: "decision", accountId: acc, userId: "u1", user: visitor("u1"), assignments: [a("e3", "va")], now: NOW }]);
    expect(await store.getAssignments(acc, "u1")).toEqual(
      new Map([
        ["e1:r1", a("e1", "va")],
        ["e2:r1", a("e2", "vb", "{}")],
        ["e3:r1", a("e3", "va")],
      ]),
    );
    expect(await store.findVisitor(acc, ["nobody", "u1"])).toEqual({ user_id: "u1", user_customer_id: "u1", first_seen: NOW, last_seen: NOW });
  });

  it("stores what PostgreSQL's text cannot hold (U+0000, lone surrogates) instead of refusing the batch", async () => {
    const acc = await newAccount(store);
    const odd = event("nul\u0000id", { event_customer_id: "shop.example|a\u0000b", properties: { page_path: "/\ud800", note: "x\u0000y" } });
    const [result] = await store.commitClientWrites([eventsWrite(acc, "u\u0000", [odd, event("nul\ufffdid")])]);
    // Stored as U+FFFD, so the second id is the first one again.
    expect(result).toEqual({ accepted: 1, duplicates: 1 });
    const [stored] = await store.listEvents(acc, 1);
    expect(stored).toMatchObject({ insert_id: "nul\ufffdid", user_id: "u\ufffd", page_path: "/\ufffd" });
    // The event's JSON is kept as sent.
    expect(stored!.event).toEqual(odd);
    expect(await store.hasEvent(acc, "nul\u0000id")).toBe(true);
  });
});

describe("events list", () => {
  it("filters and pages as SQLite does", async () => {
    const acc = await newAccount(store);
    await store.commitClientWrites([
      eventsWrite(acc, "u1", [
        event("p1", { domain: "Shop.Example", properties: { page_path: "/Sale_50%" } }),
        event("c1", { event_type: "CLICK", event_customer_id: "shop.example|Add TO cart", properties: {} }),
        event("p2", { properties: { page_path: "/sale" } }),
      ]),
      eventsWrite(acc, "u2", [event("p3", { domain: "other.example", properties: { page_path: "/x" } })]),
    ]);
    const ids = async (filter: Parameters<Store["listEvents"]>[2], limit = 10) => (await store.listEvents(acc, limit, filter)).map((e) => e.insert_id);
    expect(await ids({})).toEqual(["p3", "p2", "c1", "p1"]);
    expect(await ids({ type: "CLICK" })).toEqual(["c1"]);
    expect(await ids({ domain: "SHOP.example" })).toEqual(["p2", "c1", "p1"]);
    expect(await ids({ q: "SALE" })).toEqual(["p2", "p1"]);
    expect(await ids({ q: "_50%" })).toEqual(["p1"]);
    expect(await ids({ q: "e_5" })).toEqual(["p1"]);
    expect(await ids({ q: "s%e" })).toEqual([]);
    expect(await ids({ q: "to ca" })).toEqual(["c1"]);
    expect(await ids({ visitorIds: ["u2"] })).toEqual(["p3"]);
    expect(await ids({ visitorIds: [] })).toEqual([]);
    const all = await store.listEvents(acc, 10);
    expect(await ids({ before: all[1]!.seq }, 2)).toEqual(["c1", "p1"]);
    expect(await ids({ after: all[3]!.seq }, 2)).toEqual(["p2", "c1"]);
    expect(await store.countEvents(acc, { domain: "shop.EXAMPLE", q: "sale" })).toBe(2);
    await store.commitClientWrites([{ kind: "exposures", accountId: acc, userId: "u2", user: visitor("u2"), touch: false, exposures: [exposure("u2", "va", 1)], now: NOW }]);
    expect(await ids({ experience: "exp" })).toEqual(["p3"]);
  });
});

describe("time partitions", () => {
  it("routes rows by the service's receive time; one beyond the partitions goes to DEFAULT", async () => {
    const acc = await newAccount(store);
    const now = new Date();
    const farFuture = new Date(Date.UTC(now.getUTCFullYear() + 5, 0, 1)).toISOString();
    await store.commitClientWrites([
      eventsWrite(acc, "u1", [event("now")]),
      eventsWrite(acc, "u1", [event("later")], farFuture),
      { kind: "exposures", accountId: acc, userId: "u1", user: visitor("u1"), touch: false, exposures: [exposure("u1", "va", 1)], now: farFuture },
    ]);
    const where = async (table: string) =>
      (await rows(`SELECT tableoid::regclass::text AS part, ${table === "events" ? "insert_id" : "variation_id"} AS id FROM ${table} WHERE account_id = $1 ORDER BY seq`, [acc])).map((r) => [r.id, r.part]);
    expect(await where("events")).toEqual([
      ["now", partitionName("events", now)],
      ["later", "events_default"],
    ]);
    expect(await where("exposures")).toEqual([["va", "exposures_default"]]);
    // Still idempotent across partitions.
    expect(await store.commitClientWrites([eventsWrite(acc, "u1", [event("later")])])).toEqual([{ accepted: 0, duplicates: 1 }]);
  });

  it("moves the rows DEFAULT took for a month into that month's partition when it is made", async () => {
    const acc = await newAccount(store);
    const now = new Date();
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 4, 1));
    await store.commitClientWrites([eventsWrite(acc, "u1", [event("stranded")], new Date(month.getTime() + 3_600_000).toISOString())]);
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      await migrate(pool, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 15)));
    } finally {
      await pool.end();
    }
    expect(await rows("SELECT tableoid::regclass::text AS part FROM events WHERE account_id = $1", [acc])).toEqual([{ part: partitionName("events", month) }]);
    expect(await store.listEvents(acc, 1)).toMatchObject([{ insert_id: "stranded" }]);
  });
});

describe("results", () => {
  const D = Date.UTC(2026, 2, 1);
  const H = 3_600_000;
  const goals: GoalDefinition[] = [
    { id: "g-page", name: "Checkout", kind: "page_view", page: { domain: "*.example", page_path: "/checkout", page_match: "contains" } },
    { id: "g-click", name: "Add", kind: "click", event_name: "add" },
    { id: "g-any-click", name: "Any click", kind: "click" },
    { id: "g-rev", name: "Revenue", kind: "revenue", revenue_cap: 100 },
  ];
  /**
   * The same rows for both backends: two variations, events before and after exposure, over three
   * days. No two domains have as many page views (SQLite leaves the order of a tie unsaid).
   */
  const writes = (acc: string): ClientWrite[] => {
    const out: ClientWrite[] = [];
    for (let i = 0; i < 12; i++) {
      const u = `u${i}`;
      const variation = i % 3 === 0 ? "vb" : "va";
      const t = D + i * 5 * H;
      out.push({
        kind: "exposures",
        accountId: acc,
        userId: u,
        user: visitor(u),
        touch: true,
        exposures: [exposure(u, variation, t, { probability: i % 4 ? 0.5 : null, split: i % 5 ? '{"va":0.5,"vb":0.5}' : null }), exposure(u, "va", t + H), exposure(u, "vb", t, { forced: true, session_id: "s2" })],
        now: NOW,
      });
      out.push(
        eventsWrite(acc, u, [
          event(`${u}-pre`, { event_timestamp: t - H, properties: { page_path: "/checkout/step" }, domain: i % 3 ? "shop.example" : "elsewhere.test" }),
          event(`${u}-page`, { event_timestamp: t + i * H, properties: { page_path: "/checkout" }, domain: "Shop.Example" }),
          event(`${u}-click`, { event_type: "CLICK", event_customer_id: `shop.example|${i % 2 ? "add" : "other"}`, event_timestamp: t + 2 * H, properties: {} }),
          event(`${u}-rev1`, { event_type: "REVENUE", event_timestamp: t + 3 * H, properties: { revenue_amount: 30.25 * (i % 5) } }),
          event(`${u}-rev2`, { event_type: "REVENUE", event_timestamp: t + (i % 2 ? -2 : 30) * H, properties: { revenue_amount: `${12.5 * i}` } }),
        ]),
      );
    }
    return out;
  };

  it("gives SQLite's numbers for the same rows", async () => {
    const lite = openSqliteStore(":memory:");
    lite.migrate();
    const acc = await newAccount(store);
    await newAccount(lite);
    const liteAcc = `acc${accounts}`;
    await store.commitClientWrites(writes(acc));
    lite.commitClientWrites(writes(liteAcc));
    const ranges = [{}, { from_ms: D + 10 * H, to_ms: D + 40 * H }, { to_ms: D + 24 * H }];
    for (const range of ranges) {
      const pgAggregate = await store.resultsAggregate(acc, "exp", goals, range);
      expect(pgAggregate.goals.length).toBeGreaterThan(0);
      expect(pgAggregate).toEqual(lite.resultsAggregate(liteAcc, "exp", goals, range));
      expect(await store.exposureVisitors(acc, "exp", range)).toEqual(lite.exposureVisitors(liteAcc, "exp", range));
      expect(await store.pageViews(acc, range, 3)).toEqual(lite.pageViews(liteAcc, range, 3));
      const pages = [{ domain: "Shop.Example", page_path: "/checkout" }, { domain: "elsewhere.test", page_path: "/checkout/step" }];
      expect(await store.pageVisitors(acc, range, pages)).toEqual(lite.pageVisitors(liteAcc, range, pages));
    }
    expect(await store.resultsAggregate(acc, "exp", [])).toEqual(lite.resultsAggregate(liteAcc, "exp", []));
    lite.close();
  });

  it("versions the results by the revision and the account's last event and exposure", async () => {
    const acc = await newAccount(store);
    expect(await store.resultsVersion(acc)).toEqual({ revision: 1, eventSeq: 0, exposureSeq: 0 });
    await store.commitClientWrites(writes(acc).slice(0, 2));
    const v1 = await store.resultsVersion(acc);
    expect(v1.eventSeq).toBeGreaterThan(0);
    expect(v1.exposureSeq).toBeGreaterThan(0);
    await other.commitClientWrites([eventsWrite(acc, "u1", [event("more")])]);
    const v2 = await store.resultsVersion(acc);
    expect(v2.eventSeq).toBeGreaterThan(v1.eventSeq);
    expect(v2.exposureSeq).toBe(v1.exposureSeq);
  });
});
