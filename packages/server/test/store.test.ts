// The SQLite store: numbered, append-only migrations (an old database upgrades in place, keeping
// its data) and the account revision that every write bumps in the database.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import { MIGRATIONS } from "../src/store/migrations.js";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/index.js";
import { insertExposures } from "./helpers.js";

const dirs: string[] = [];
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), "storefit-store-"));
  dirs.push(dir);
  return join(dir, "db.sqlite");
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const settings = { ...SETTINGS_DEFAULTS, domain: "shop.example" };

/** A store on a fresh file, migrated, with account "a" (client key ck_a) named `name`. */
function storeWithAccount(name = "A"): SqliteStore {
  const store = openSqliteStore(tempFile());
  store.migrate();
  store.createAccount({ id: "a", name, client_key: "ck_a", settings });
  return store;
}

describe("migrations", () => {
  it("are numbered 1, 2, … without gaps", () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it("upgrade a database made by migration 1 in place, keeping its rows", () => {
    const file = tempFile();
    // A database as the walking skeleton left it: only migration 1 applied, with data.
    const old = new Database(file);
    old.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
    old.exec(MIGRATIONS[0]!.sql);
    old.prepare("INSERT INTO schema_migrations VALUES (1, 'initial', '2026-01-01')").run();
    old.prepare("INSERT INTO accounts VALUES ('acc_1', 'Old Shop', 'ck_old', ?, '2026-01-01', '2026-01-01')").run(JSON.stringify(settings));
    old.prepare(
      "INSERT INTO experiences VALUES ('exp_1', 'acc_1', 'Old', 'running', 'ab_test', 0, '[]', '[]', '2026-01-01', '2026-01-01')",
    ).run();
    old.close();

    const store = openSqliteStore(file);
    store.migrate();
    expect(store.appliedMigrations()).toEqual(MIGRATIONS.map((m) => m.version));
    const account = store.getAccountByClientKey("ck_old")!;
    expect(account).toMatchObject({ id: "acc_1", name: "Old Shop", revision: 1 });
    expect(store.listExperiences("acc_1").map((e) => e.name)).toEqual(["Old"]);
    // Running it again is a no-op.
    store.migrate();
    expect(store.appliedMigrations()).toEqual(MIGRATIONS.map((m) => m.version));
    store.close();
  });
});

describe("migration 5: split cohorts and forced exposures", () => {
  it("keeps exposures stored before it as randomised without a split, and the results use its partial index", () => {
    const file = tempFile();
    const old = new Database(file);
    old.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
    for (const m of MIGRATIONS.filter((m) => m.version <= 4)) {
      old.exec(m.sql);
      old.prepare("INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01')").run(m.version, m.name);
    }
    old.prepare("INSERT INTO accounts (id, name, client_key, settings_json, created_at, updated_at) VALUES ('a', 'A', 'ck_a', ?, '2026-01-01', '2026-01-01')").run(JSON.stringify(settings));
    old.prepare(
      `INSERT INTO exposures (account_id, user_customer_id, user_id, session_id, config_id, experience_id, variation_id, probability, requested_time, received_at)
       VALUES ('a', 'old', 'u_old', 's', 'c', 'e', 'v_a', 0.5, 1000, '2026-01-01')`,
    ).run();
    old.close();

    const store = openSqliteStore(file);
    store.migrate();
    expect(store.listExposures("a", 10)).toMatchObject([{ user_id: "u_old", probability: 0.5, split: null, forced: false }]);
    insertExposures(store, 
      "a",
      [
        { config_id: "c", user_customer_id: "new", user_id: "u_new", requested_time: 2000, variation_id: "v_b", experience_id: "e", session_id: "s", probability: 0.25, split: '{"v_a":0.75,"v_b":0.25}' },
        { config_id: "c", user_customer_id: "qa", user_id: "u_qa", requested_time: 2000, variation_id: "v_b", experience_id: "e", session_id: "s", probability: null, forced: true },
      ],
      "2026-01-02",
    );
    const agg = store.resultsAggregate("a", "e", []);
    expect(agg.exposures).toEqual([
      { variation_id: "v_a", date: "1970-01-01", split: null, visitors: 1, probability_sum: 0.5, probability_count: 1 },
      { variation_id: "v_b", date: "1970-01-01", split: '{"v_a":0.75,"v_b":0.25}', visitors: 1, probability_sum: 0.25, probability_count: 1 },
    ]);
    expect(store.exposureVisitors("a", "e")).toEqual({ distinct: 2, byVariation: [{ variation_id: "v_a", visitors: 1 }, { variation_id: "v_b", visitors: 1 }] });
    store.close();
    const db = new Database(file);
    const plan = db
      .prepare("EXPLAIN QUERY PLAN SELECT user_id FROM exposures WHERE account_id = 'a' AND experience_id = 'e' AND user_id IS NOT NULL AND forced = 0 ORDER BY user_id, requested_time")
      .all() as { detail: string }[];
    expect(plan.map((r) => r.detail).join("\n")).toContain("COVERING INDEX exposures_experience_user_random");
    db.close();
  });

  it("an assignment keeps its split through the visitor's record", () => {
    const store = storeWithAccount();
    const user = { user_customer_id: "x", properties: {} } as never;
    store.commitClientWrites([
      {
        kind: "decision",
        accountId: "a",
        userId: "u_x",
        user,
        assignments: [
          { experience_id: "e1", rule_id: "r", behaviour_id: "b", variation_id: "v", probability: 0.5, split: '{"v":0.5,"w":0.5}' },
          { experience_id: "e2", rule_id: "r", behaviour_id: "b", variation_id: "v", probability: 1 },
        ],
        now: "2026-01-01",
      },
    ]);
    const got = store.getAssignments("a", "u_x");
    expect(got.get("e1:r")).toEqual({ experience_id: "e1", rule_id: "r", behaviour_id: "b", variation_id: "v", probability: 0.5, split: '{"v":0.5,"w":0.5}' });
    expect(got.get("e2:r")).toEqual({ experience_id: "e2", rule_id: "r", behaviour_id: "b", variation_id: "v", probability: 1 });
    store.close();
  });
});

describe("the account revision", () => {
  it("moves with every write to the account, its experiences and its audiences, and only its own", () => {
    const store = storeWithAccount();
    store.createAccount({ id: "b", name: "B", client_key: "ck_b", settings });
    const rev = (id: string) => store.getAccount(id)!.revision;
    const seen = [rev("a")];
    const step = (write: () => void) => {
      write();
      expect(rev("a")).toBeGreaterThan(seen[seen.length - 1]!);
      seen.push(rev("a"));
    };
    const exp = { id: "e", account_id: "a", name: "E", status: "draft" as const, kind: "ab_test" as const, priority: 0, pages: [], rules: [], goals: [] };
    step(() => store.saveExperience(exp));
    step(() => store.saveExperience({ ...exp, status: "running" }));
    step(() => store.saveAudience({ id: "aud", account_id: "a", name: "X", description: "", condition: {} }));
    step(() => store.saveAudience({ id: "aud", account_id: "a", name: "Y", description: "", condition: {} }));
    step(() => store.updateAccount("a", () => ({ name: "A2" })));
    step(() => store.deleteAudience("a", "aud"));
    step(() => store.deleteExperience("a", "e", () => {}));
    expect(rev("b")).toBe(1);
    expect(store.getAccountRevision("ck_a")).toEqual({ id: "a", revision: rev("a") });
    // Visitors, assignments and events do not change what a config call answers: no bump.
    const before = rev("a");
    store.commitClientWrites([
      {
        kind: "decision",
        accountId: "a",
        userId: "u1",
        user: { user_customer_id: "c1", anonymous: true },
        assignments: [{ experience_id: "e", rule_id: "r", behaviour_id: "b", variation_id: "v", probability: 0.5 }],
        now: "2026-01-01T00:00:00.000Z",
      },
      {
        kind: "events",
        accountId: "a",
        userId: "u1",
        user: { user_customer_id: "c1", anonymous: true },
        touch: true,
        events: [{ event_type: "PAGE", event_customer_id: "x|p", insert_id: "i1", event_timestamp: 1 }],
        now: "2026-01-01T00:00:00.000Z",
      },
    ]);
    expect([store.countRows("assignments", "a"), store.countEvents("a"), store.countRows("visitors", "a")]).toEqual([1, 1, 1]);
    expect(rev("a")).toBe(before);
    store.close();
  });

  it("keeps each visitor's assignments per experience, merges new ones, and drops a deleted experience's", () => {
    const store = storeWithAccount();
    const exp = (id: string) => ({ id, account_id: "a", name: id, status: "draft" as const, kind: "ab_test" as const, priority: 0, pages: [], rules: [], goals: [] });
    store.saveExperience(exp("e1"));
    store.saveExperience(exp("e.2"));
    const decision = (assignments: { experience_id: string; variation_id: string }[]) => ({
      kind: "decision" as const,
      accountId: "a",
      userId: "u1",
      user: { user_customer_id: "c1", anonymous: true },
      assignments: assignments.map((x) => ({ ...x, rule_id: "r", behaviour_id: "b", probability: 0.25 })),
      now: "2026-01-01T00:00:00.000Z",
    });
    store.commitClientWrites([decision([{ experience_id: "e1", variation_id: "v1" }])]);
    store.commitClientWrites([decision([{ experience_id: "e.2", variation_id: "v2" }])]);
    store.commitClientWrites([decision([{ experience_id: "e1", variation_id: "v3" }])]);
    expect([...store.getAssignments("a", "u1").values()]).toEqual([
      { experience_id: "e1", rule_id: "r", behaviour_id: "b", variation_id: "v3", probability: 0.25 },
      { experience_id: "e.2", rule_id: "r", behaviour_id: "b", variation_id: "v2", probability: 0.25 },
    ]);
    expect(store.countRows("assignments", "a")).toBe(2);
    store.deleteExperience("a", "e.2", () => {});
    expect([...store.getAssignments("a", "u1").keys()]).toEqual(["e1:r"]);
    expect(store.getAssignments("a", "nobody").size).toBe(0);
    store.close();
  });

  it("keeps one assignment per experience and rule, reads those stored per experience before, and deletes both", () => {
    const file = tempFile();
    const store = openSqliteStore(file);
    store.migrate();
    store.createAccount({ id: "a", name: "A", client_key: "ck_a", settings });
    const exp = (id: string) => ({ id, account_id: "a", name: id, status: "draft" as const, kind: "ab_test" as const, priority: 0, pages: [], rules: [], goals: [] });
    store.saveExperience(exp("e1"));
    store.saveExperience(exp("e10"));
    const user = { user_customer_id: "c1", anonymous: true };
    const assign = (experience_id: string, rule_id: string, variation_id: string) =>
      store.commitClientWrites([
        { kind: "decision", accountId: "a", userId: "u1", user, now: "2026-01-01", assignments: [{ experience_id, rule_id, behaviour_id: "b", variation_id, probability: 0.5 }] },
      ]);
    // A visitor bucketed under rule r1, then under r2 of the same experience: both are kept.
    assign("e1", "r1", "v1");
    assign("e1", "r2", "v2");
    assign("e10", "r1", "v9");
    // Stored before per-rule keys: under the experience id alone (and an older one for rule r1,
    // which the per-rule key written since overrides).
    const raw = new Database(file);
    raw.prepare("UPDATE visitors SET assignments_json = json_set(assignments_json, '$.e1', json(?), '$.e10', json(?))").run(
      JSON.stringify(["r1", "b", "v_old", 0.5, "2025-01-01"]),
      JSON.stringify(["r3", "b", "v3", 1, "2025-01-01"]),
    );
    raw.close();
    const got = store.getAssignments("a", "u1");
    expect(Object.fromEntries([...got].map(([k, a]) => [k, a.variation_id]))).toEqual({ "e1:r1": "v1", "e1:r2": "v2", "e10:r1": "v9", "e10:r3": "v3" });
    expect(got.get("e10:r3")).toEqual({ experience_id: "e10", rule_id: "r3", behaviour_id: "b", variation_id: "v3", probability: 1 });
    // Deleting e1 removes its per-rule and older keys, and none of e10's ("e1" is a prefix of "e10").
    store.deleteExperience("a", "e1", () => {});
    expect([...store.getAssignments("a", "u1").keys()].sort()).toEqual(["e10:r1", "e10:r3"]);
    store.close();
  });

  it("migration 7 re-keys assignments stored per experience by their rule, keeping a per-rule key already there", () => {
    const file = tempFile();
    const old = new Database(file);
    old.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
    for (const m of MIGRATIONS.filter((x) => x.version <= 6)) {
      old.exec(m.sql);
      old.prepare("INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01')").run(m.version, m.name);
    }
    const insert = old.prepare("INSERT INTO visitors (account_id, user_id, user_customer_id, user_json, first_seen, last_seen, assignments_json) VALUES ('a', ?, ?, '{}', 'x', 'x', ?)");
    insert.run("u1", "c1", JSON.stringify({ e1: ["r1", "b", "v1", 0.5, "t"], "e.2": ["r2", "b", "v2", 1, "t"] }));
    // Already written per rule by a newer node: that one stays, the older one is dropped.
    insert.run("u2", "c2", JSON.stringify({ e1: ["r1", "b", "v_old", 0.5, "t"], "e1:r1": ["r1", "b", "v_new", 0.5, "t"] }));
    insert.run("u3", "c3", JSON.stringify({}));
    old.close();
    const store = openSqliteStore(file);
    store.migrate();
    const keysOf = (u: string) => Object.fromEntries([...store.getAssignments("a", u)].map(([k, a]) => [k, a.variation_id]));
    expect(keysOf("u1")).toEqual({ "e1:r1": "v1", "e.2:r2": "v2" });
    expect(keysOf("u2")).toEqual({ "e1:r1": "v_new" });
    expect(keysOf("u3")).toEqual({});
    const raw = new Database(file, { readonly: true });
    const stored = raw.prepare("SELECT user_id, assignments_json FROM visitors ORDER BY user_id").all() as { user_id: string; assignments_json: string }[];
    raw.close();
    expect(stored.map((r) => [r.user_id, Object.keys(JSON.parse(r.assignments_json) as object).sort()])).toEqual([
      ["u1", ["e.2:r2", "e1:r1"]],
      ["u2", ["e1:r1"]],
      ["u3", []],
    ]);
    expect(store.countRows("assignments", "a")).toBe(3);
    store.close();
  });

  it("saving an experience without a rule drops that rule's assignments, and only those", () => {
    const store = storeWithAccount();
    const rule = (id: string) => ({ id, audience_id: null, behaviour: { id: `b_${id}`, name: id, traffic_allocation: 1, variations: [] } });
    const exp = { id: "e1", account_id: "a", name: "e1", status: "draft" as const, kind: "ab_test" as const, priority: 0, pages: [], rules: [rule("r1"), rule("r2")], goals: [] };
    store.saveExperience(exp);
    store.commitClientWrites([
      {
        kind: "decision",
        accountId: "a",
        userId: "u1",
        user: { user_customer_id: "c1", anonymous: true },
        now: "2026-01-01",
        assignments: ["r1", "r2"].map((r) => ({ experience_id: "e1", rule_id: r, behaviour_id: `b_${r}`, variation_id: `v_${r}`, probability: 1 })),
      },
    ]);
    store.saveExperience({ ...exp, name: "renamed" });
    expect([...store.getAssignments("a", "u1").keys()]).toEqual(["e1:r1", "e1:r2"]);
    store.saveExperience({ ...exp, rules: [rule("r2")] });
    expect([...store.getAssignments("a", "u1").keys()]).toEqual(["e1:r2"]);
    store.close();
  });

  it("fsyncs every commit but a batch of config calls only, whatever ran before", () => {
    const store = storeWithAccount();
    const FULL = 2;
    const NORMAL = 1;
    // The level each batch commits at, read as its transaction begins.
    const levels: number[] = [];
    const level = () => store.sqlite.db.pragma("synchronous", { simple: true }) as number;
    const commit = (writes: Parameters<typeof store.commitClientWrites>[0]) => {
      store.commitClientWrites(writes);
      levels.push(level());
    };
    const user = { user_customer_id: "c1", anonymous: true };
    const now = "2026-01-01T00:00:00.000Z";
    const decision = { kind: "decision" as const, accountId: "a", userId: "u1", user, assignments: [], now };
    const events = (id: string) => ({ kind: "events" as const, accountId: "a", userId: "u1", user, touch: true, now, events: [{ event_type: "PAGE" as const, event_customer_id: "x|page", insert_id: id, event_timestamp: 1 }] });

    commit([decision]);
    commit([decision]);
    commit([decision, events("i-1")]);
    commit([{ kind: "alert", accountId: "a", alert: { code: "x" }, now }]);
    expect(levels).toEqual([NORMAL, NORMAL, FULL, FULL]);

    // Reads of the config call leave the level as it is; every other write restores FULL first.
    commit([decision]);
    store.getAccountRevision("ck_a");
    store.getAssignments("a", "u1");
    expect(level()).toBe(NORMAL);
    store.updateAccount("a", () => ({ name: "B" }));
    expect(level()).toBe(FULL);
    commit([decision]);
    store.serviceSecret("s", () => "secret");
    expect(level()).toBe(FULL);
    store.close();
  });

  it("an atomic write that throws writes nothing and leaves the connection usable", () => {
    const store = storeWithAccount("before");
    expect(() =>
      store.updateAccount("a", () => {
        throw new Error("refused");
      }),
    ).toThrow("refused");
    expect(store.getAccount("a")!.name).toBe("before");
    expect(store.updateAccount("a", () => ({ name: "after" }))!.name).toBe("after");
    store.close();
  });

  it("an experience or audience id of one account cannot be overwritten from another", () => {
    const store = storeWithAccount();
    store.createAccount({ id: "b", name: "B", client_key: "ck_b", settings });
    const exp = { id: "e", account_id: "a", name: "E", status: "draft" as const, kind: "ab_test" as const, priority: 0, pages: [], rules: [], goals: [] };
    store.saveExperience(exp);
    expect(() => store.saveExperience({ ...exp, account_id: "b", name: "stolen" })).toThrow(/another account/);
    expect(store.getExperience("a", "e")!.name).toBe("E");
    store.saveAudience({ id: "aud", account_id: "a", name: "X", description: "", condition: {} });
    expect(() => store.saveAudience({ id: "aud", account_id: "b", name: "stolen", description: "", condition: {} })).toThrow(/another account/);
    store.close();
  });
});
