// The store contract (issue #18): what every backend of the Store interface (src/store/types.ts)
// must do, as one suite that store-contract.test.ts runs against each backend. Where the backends
// must give the same answer, a test asserts one literal value, so a backend that answers
// differently fails here rather than in a service running on it. Every call is awaited: a backend
// may answer synchronously (SQLite) or with promises (PostgreSQL).
//
// One database serves a whole backend's run; each test makes accounts of its own (unique ids), so
// tests do not see each other's rows. The two-node tests get a database of their own, reached by
// two store instances (two service nodes).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { GoalDefinition, Role, RuleDefinition, TrackedEvent, User } from "@storefit/contract";
import type {
  Account,
  AccountSettings,
  Assignment,
  ClientWrite,
  DeviceRecord,
  EventFilter,
  Experience,
  ExperienceWriteContext,
  Exposure,
  NewAudience,
  NewExperience,
  Operator,
  ResultsAggregate,
  Store,
  StoreInspection,
  StoredEvent,
} from "../src/store/types.js";

export type ContractStore = Store & StoreInspection;

export type OpenedStore = {
  /** A migrated store on a database that holds no account of this run yet. */
  store: ContractStore;
  /** Another migrated store (another node) on the same database; required with `twoNodes`. */
  reopen?: () => Promise<ContractStore>;
  /** Closes the store and every reopened one, and removes the database. */
  close(): Promise<void>;
};

export type OpenOptions = {
  /** The database must be reachable by a second store (`reopen`): SQLite then needs a file, not ":memory:". */
  twoNodes?: boolean;
};

const SETTINGS: AccountSettings = { ...SETTINGS_DEFAULTS, domain: "shop.example" };
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NOW = "2026-03-01T12:00:00.000Z";
const LATER = "2026-03-01T12:05:00.000Z";
const HOUR = 3_600_000;
/** 2026-03-01 and 2026-03-02, 00:00 UTC: the results data set's two days. */
const D1 = Date.UTC(2026, 2, 1);
const D2 = D1 + 24 * HOUR;
const S1 = '{"va":0.5,"vb":0.5}';
const S2 = '{"va":0.25,"vb":0.75}';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a call threw (or the promise it answered rejected with); a call that succeeds fails the test. */
async function failure(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to be refused, it succeeded");
}

const visitor = (customerId: string): User => ({ user_customer_id: customerId, anonymous: true });

function rule(id: string, audienceId: string | null = null): RuleDefinition {
  return {
    id,
    audience_id: audienceId,
    ...(audienceId === null ? { audience_name: "Everyone" } : {}),
    behaviour: {
      id: `${id}-b`,
      name: "Behaviour",
      traffic_allocation: 0.8,
      variations: [
        { id: `${id}-va`, name: "Control", weight: 1, configs: [] },
        {
          id: `${id}-vb`,
          name: "Treatment",
          weight: 3,
          configs: [
            {
              config_customer_id: `${id}-cfg`,
              config_id: `${id}-cfg`,
              variation: { cf_text: "Free shipping", mobile: { cf_style: "font-size: 12px" } },
              variation_data_type: "HTML_ELEMENT",
              properties: { page_path: "/", page_match: "exact_match", element_path: "#banner", domain: "shop.example" },
            },
          ],
        },
      ],
    },
  };
}

function experience(accountId: string, id: string, over: Partial<NewExperience> = {}): NewExperience {
  return {
    id,
    account_id: accountId,
    name: `Experience ${id}`,
    status: "draft",
    kind: "ab_test",
    priority: 0,
    pages: [{ domain: "shop.example", page_path: "/", page_match: "exact_match" }],
    rules: [rule("r1")],
    goals: [{ id: "g1", name: "Checkout", kind: "page_view", page: { page_path: "/checkout", page_match: "exact_match" } }],
    ...over,
  };
}

const audience = (accountId: string, id: string, over: Partial<NewAudience> = {}): NewAudience => ({
  id,
  account_id: accountId,
  name: `Audience ${id}`,
  description: "Returning shoppers",
  condition: { visits: { $gte: 2 }, "properties.country": { $in: ["DE", "AT"] } },
  ...over,
});

/** The fields of an experience a write takes (what `change` answers), from a stored one. */
function writable(e: Experience): NewExperience {
  const { created_at: _created, updated_at: _updated, ...rest } = e;
  return rest;
}

function assignment(experienceId: string, ruleId: string, variationId: string, probability: number, split?: string): Assignment {
  return {
    experience_id: experienceId,
    rule_id: ruleId,
    behaviour_id: `${ruleId}-b`,
    variation_id: variationId,
    probability,
    ...(split !== undefined ? { split } : {}),
  };
}

const sortedEntries = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

const eventsWrite = (accountId: string, userId: string, events: TrackedEvent[], now = NOW, touch = true): ClientWrite => ({
  kind: "events",
  accountId,
  userId,
  user: visitor(`c-${userId}`),
  touch,
  events,
  now,
});

const exposuresWrite = (accountId: string, userId: string, exposures: Exposure[], now = NOW, touch = false): ClientWrite => ({
  kind: "exposures",
  accountId,
  userId,
  user: visitor(`c-${userId}`),
  touch,
  exposures,
  now,
});

const decisionWrite = (accountId: string, userId: string, assignments: Assignment[], now = NOW): ClientWrite => ({
  kind: "decision",
  accountId,
  userId,
  user: visitor(`c-${userId}`),
  assignments,
  now,
});

const page = (insertId: string, at: number, domain: string, path: string | undefined, extra: Partial<TrackedEvent> = {}): TrackedEvent => ({
  insert_id: insertId,
  event_type: "PAGE",
  event_customer_id: `${domain}|${path ?? ""}`,
  domain,
  event_timestamp: at,
  ...(path !== undefined ? { properties: { page_path: path } } : {}),
  ...extra,
});

const click = (insertId: string, at: number, name: string): TrackedEvent => ({
  insert_id: insertId,
  event_type: "CLICK",
  event_customer_id: `shop.example|${name}`,
  domain: "shop.example",
  event_timestamp: at,
  properties: { page_path: "/products" },
});

const revenue = (insertId: string, at: number, amount: number | string): TrackedEvent => ({
  insert_id: insertId,
  event_type: "REVENUE",
  event_customer_id: "shop.example|revenue",
  domain: "shop.example",
  event_timestamp: at,
  properties: { page_path: "/checkout", revenue_amount: amount },
});

/** A register-once-per-test id source: ids never repeat within a run, across accounts too. */
function uniqueIds() {
  let n = 0;
  return (prefix: string) => `${prefix}${++n}`;
}

export function storeContract(name: string, open: (options?: OpenOptions) => Promise<OpenedStore>): void {
  describe(`store contract: ${name}`, () => {
    let opened: OpenedStore | undefined;
    let s: ContractStore;
    const unique = uniqueIds();

    beforeAll(async () => {
      opened = await open();
      s = opened.store;
    }, 60_000);
    afterAll(async () => {
      await opened?.close();
    }, 60_000);

    const newAccount = async (store: ContractStore = s): Promise<Account> => {
      const id = unique("acc");
      return store.createAccount({ id, name: `Shop ${id}`, client_key: `ck_${id}`, settings: SETTINGS });
    };
    const revisionOf = async (accountId: string, store: ContractStore = s): Promise<number> => (await store.getAccount(accountId))!.revision;
    const operator = (accountId: string, role: Role, emailPrefix: string = role): Operator => {
      const id = unique("op");
      return { id, account_id: accountId, email: `${emailPrefix}-${id}@shop.example`, password_hash: `hash-${id}`, role };
    };

    describe("migrations", () => {
      it("applied ascending; migrating again is a no-op that keeps the data", async () => {
        const applied = await s.appliedMigrations();
        expect(applied.length).toBeGreaterThan(0);
        expect(applied).toEqual([...applied].sort((a, b) => a - b));
        const account = await newAccount();
        await s.migrate();
        expect(await s.appliedMigrations()).toEqual(applied);
        expect(await s.getAccount(account.id)).toEqual(account);
      });
    });

    describe("accounts", () => {
      it("createAccount answers the account as stored, at revision 1; it is found by id, by client key and by its revision read", async () => {
        const id = unique("acc");
        const settings: AccountSettings = { ...SETTINGS, site_origins: ["https://shop.example"], subdomains: ["*.shop.example"] };
        const created = await s.createAccount({ id, name: "Little Sprouts", client_key: `ck_${id}`, settings });
        expect(created).toEqual({ id, name: "Little Sprouts", client_key: `ck_${id}`, settings, revision: 1, created_at: created.created_at, updated_at: created.created_at });
        expect(created.created_at).toMatch(ISO_TIME);
        expect(await s.getAccount(id)).toEqual(created);
        expect(await s.getAccountByClientKey(`ck_${id}`)).toEqual(created);
        expect(await s.getAccountRevision(`ck_${id}`)).toEqual({ id, revision: 1 });
        expect(await s.getAccount("acc_none")).toBeNull();
        expect(await s.getAccountByClientKey("ck_none")).toBeNull();
        expect(await s.getAccountRevision("ck_none")).toBeNull();
      });

      it("the revision grows with every write to the account, its experiences and its audiences, and with nothing else", async () => {
        const a = await newAccount();
        const other = await newAccount();
        const revisions: number[] = [await revisionOf(a.id)];
        const grew = async () => {
          const revision = await revisionOf(a.id);
          expect(revision).toBeGreaterThan(revisions.at(-1)!);
          expect(await s.getAccountRevision(a.client_key)).toEqual({ id: a.id, revision });
          expect((await s.resultsVersion(a.id)).revision).toBe(revision);
          revisions.push(revision);
        };
        const same = async () => expect(await revisionOf(a.id)).toBe(revisions.at(-1));

        await s.updateAccount(a.id, () => ({ name: "Renamed" }));
        await grew();
        const x = await s.saveExperience(experience(a.id, unique("x")));
        await grew();
        await s.saveExperience({ ...writable(x), name: "Saved again" });
        await grew();
        await s.updateExperience(a.id, x.id, (current) => ({ ...current, status: "running" }));
        await grew();
        const y = await s.createExperience(experience(a.id, unique("x")), () => {});
        await grew();
        await s.deleteExperience(a.id, y.id, () => {});
        await grew();
        const au = await s.saveAudience(audience(a.id, unique("au")));
        await grew();
        await s.updateAudience(a.id, au.id, (current) => ({ ...current, account_id: a.id, name: "VIP" }));
        await grew();
        await s.deleteAudience(a.id, au.id);
        await grew();

        // Reads, client writes, members, sessions, keys and another account's writes leave it.
        await s.getAccount(a.id);
        await s.loadAccountSnapshot(a.id);
        await s.listExperiences(a.id);
        await s.commitClientWrites([
          decisionWrite(a.id, "u1", [assignment(x.id, "r1", "r1-va", 0.4)]),
          eventsWrite(a.id, "u1", [page("p1", D1, "shop.example", "/")]),
          exposuresWrite(a.id, "u1", [{ config_id: "c", user_id: "u1", user_customer_id: "c-u1", requested_time: D1, variation_id: "r1-va", experience_id: x.id }]),
          { kind: "devices", accountId: a.id, devices: [{ device_customer_id: "d1", device_type: "mobile", user_id: "u1" }], now: NOW },
          { kind: "alert", accountId: a.id, alert: { message: "slow" }, now: NOW },
        ]);
        const owner = operator(a.id, "owner");
        await s.createOperator(owner);
        await s.createSession(unique("tok"), owner.id, "csrf", Date.now() + HOUR);
        await s.createSecretKey({ id: unique("key"), account_id: a.id, name: "CI", prefix: "sk_abcdef", created_at: NOW }, unique("hash"));
        await s.saveExperience(experience(other.id, unique("x")));
        await s.updateAccount(other.id, () => ({ name: "Other renamed" }));
        await same();
      });

      it("loadAccountSnapshot: the account with its running, draft and paused experiences (not archived) and its audiences; null for an unknown account", async () => {
        const a = await newAccount();
        const other = await newAccount();
        const p = unique("x");
        // Ids in the order of saving, so that the order holds also when two share a created_at.
        const draft = await s.saveExperience(experience(a.id, `${p}-1`, { status: "draft" }));
        const running = await s.saveExperience(experience(a.id, `${p}-2`, { status: "running", priority: 3 }));
        const paused = await s.saveExperience(experience(a.id, `${p}-3`, { status: "paused" }));
        await s.saveExperience(experience(a.id, `${p}-4`, { status: "archived" }));
        await s.saveExperience(experience(other.id, unique("x"), { status: "running" }));
        const au1 = await s.saveAudience(audience(a.id, `${p}-au1`));
        const au2 = await s.saveAudience(audience(a.id, `${p}-au2`, { condition: {} }));
        await s.saveAudience(audience(other.id, unique("au")));

        const snapshot = await s.loadAccountSnapshot(a.id);
        expect(snapshot).toEqual({ account: await s.getAccount(a.id), experiences: [draft, running, paused], audiences: [au1, au2] });
        expect(await s.loadAccountSnapshot("acc_none")).toBeNull();
        const empty = await newAccount();
        expect(await s.loadAccountSnapshot(empty.id)).toEqual({ account: empty, experiences: [], audiences: [] });
      });

      it("updateAccount: change sees the account as committed, its answer is written and the rest kept; null for an unknown account", async () => {
        const a = await newAccount();
        let seen: Account | undefined;
        const patched = await s.updateAccount(a.id, (current) => {
          seen = current;
          return { settings: { ...current.settings, sdk_timeout_ms: 1234 } };
        });
        expect(seen).toEqual(a);
        expect(patched).toEqual({ ...a, settings: { ...SETTINGS, sdk_timeout_ms: 1234 }, revision: patched!.revision, updated_at: patched!.updated_at });
        expect(patched!.updated_at).toMatch(ISO_TIME);
        // A second change sees the first: a settings patch merged there keeps the other fields.
        const renamed = await s.updateAccount(a.id, (current) => {
          seen = current;
          return { name: "Renamed", settings: { ...current.settings, spa_mode: true } };
        });
        expect(seen).toEqual(patched);
        expect(renamed).toEqual({ ...a, name: "Renamed", settings: { ...SETTINGS, sdk_timeout_ms: 1234, spa_mode: true }, revision: renamed!.revision, updated_at: renamed!.updated_at });
        expect(await s.getAccount(a.id)).toEqual(renamed);
        expect(await s.getAccountByClientKey(a.client_key)).toEqual(renamed);

        let called = false;
        expect(
          await s.updateAccount("acc_none", () => {
            called = true;
            return { name: "x" };
          }),
        ).toBeNull();
        expect(called).toBe(false);
      });

      it("updateAccount: a change that throws writes nothing, and the error is rethrown as it was", async () => {
        const a = await newAccount();
        const refusal = new Error("refused by the caller");
        expect(
          await failure(() =>
            s.updateAccount(a.id, () => {
              throw refusal;
            }),
          ),
        ).toBe(refusal);
        expect(await s.getAccount(a.id)).toEqual(a);
      });

      it("serviceSecret keeps the first value made; each name has its own", async () => {
        const secret = unique("secret");
        expect(await s.serviceSecret(secret, () => "first value")).toBe("first value");
        expect(await s.serviceSecret(secret, () => "second value")).toBe("first value");
        const another = unique("secret");
        expect(await s.serviceSecret(another, () => "another value")).toBe("another value");
        expect(await s.serviceSecret(secret, () => "third value")).toBe("first value");
      });
    });

    describe("members", () => {
      it("createOperator stores a member; false, and nothing written, when the email is taken (in any account)", async () => {
        const a = await newAccount();
        const other = await newAccount();
        const owner = operator(a.id, "owner", "b-owner");
        const editor = operator(a.id, "editor", "a-editor");
        expect(await s.createOperator(owner)).toBe(true);
        expect(await s.createOperator(editor)).toBe(true);
        const clash = { ...operator(other.id, "owner"), email: owner.email };
        expect(await s.createOperator(clash)).toBe(false);
        expect(await s.getOperator(clash.id)).toBeNull();
        expect(await s.listOperators(other.id)).toEqual([]);
        expect(await s.createOperator({ ...operator(a.id, "viewer"), email: editor.email })).toBe(false);

        expect(await s.getOperator(owner.id)).toEqual(owner);
        expect(await s.getOperatorByEmail(owner.email)).toEqual(owner);
        expect(await s.getOperatorByEmail(editor.email)).toEqual(editor);
        expect(await s.getOperatorByEmail("nobody@shop.example")).toBeNull();
        expect(await s.getOperator("op_none")).toBeNull();
        // By email.
        expect(await s.listOperators(a.id)).toEqual([editor, owner]);
      });

      it("updateOperatorRole keeps the last owner (\"last_owner\", nothing written); null for an unknown member or one of another account", async () => {
        const a = await newAccount();
        const other = await newAccount();
        const first = operator(a.id, "owner");
        const second = operator(a.id, "editor");
        const stranger = operator(other.id, "owner");
        for (const o of [first, second, stranger]) await s.createOperator(o);

        expect(await s.updateOperatorRole(a.id, first.id, "editor")).toBe("last_owner");
        expect(await s.updateOperatorRole(a.id, first.id, "viewer")).toBe("last_owner");
        expect(await s.getOperator(first.id)).toEqual(first);
        // The last owner may stay owner.
        expect(await s.updateOperatorRole(a.id, first.id, "owner")).toEqual(first);
        expect(await s.updateOperatorRole(a.id, second.id, "owner")).toEqual({ ...second, role: "owner" });
        expect(await s.updateOperatorRole(a.id, first.id, "viewer")).toEqual({ ...first, role: "viewer" });
        expect(await s.updateOperatorRole(a.id, second.id, "editor")).toBe("last_owner");
        expect(await s.getOperator(second.id)).toEqual({ ...second, role: "owner" });
        expect(await s.getOperator(first.id)).toEqual({ ...first, role: "viewer" });

        expect(await s.updateOperatorRole(a.id, "op_none", "owner")).toBeNull();
        expect(await s.updateOperatorRole(a.id, stranger.id, "viewer")).toBeNull();
        expect(await s.getOperator(stranger.id)).toEqual(stranger);
      });

      it("deleteOperator removes the member and their sessions, keeps the last owner; false for an unknown member or one of another account", async () => {
        const a = await newAccount();
        const other = await newAccount();
        const owner = operator(a.id, "owner");
        const editor = operator(a.id, "editor");
        const stranger = operator(other.id, "editor");
        for (const o of [owner, editor, stranger]) await s.createOperator(o);
        const ownerToken = unique("tok");
        const editorTokens = [unique("tok"), unique("tok")];
        const expires = Date.now() + HOUR;
        await s.createSession(ownerToken, owner.id, "csrf-owner", expires);
        for (const t of editorTokens) await s.createSession(t, editor.id, "csrf-editor", expires);

        expect(await s.deleteOperator(a.id, owner.id)).toBe("last_owner");
        expect(await s.getOperator(owner.id)).toEqual(owner);
        expect(await s.getSession(ownerToken, Date.now())).toEqual({ operator_id: owner.id, csrf_token: "csrf-owner" });

        expect(await s.deleteOperator(a.id, editor.id)).toBe(true);
        expect(await s.getOperator(editor.id)).toBeNull();
        expect(await s.getOperatorByEmail(editor.email)).toBeNull();
        for (const t of editorTokens) expect(await s.getSession(t, Date.now())).toBeNull();
        expect(await s.listOperators(a.id)).toEqual([owner]);
        expect(await s.deleteOperator(a.id, editor.id)).toBe(false);
        expect(await s.deleteOperator(a.id, stranger.id)).toBe(false);
        expect(await s.getOperator(stranger.id)).toEqual(stranger);

        // With another owner, an owner can go.
        const second = operator(a.id, "owner");
        await s.createOperator(second);
        expect(await s.deleteOperator(a.id, owner.id)).toBe(true);
        expect(await s.getSession(ownerToken, Date.now())).toBeNull();
        expect(await s.listOperators(a.id)).toEqual([second]);
      });

      it("sessions: found until they expire (expires_at > now), gone once deleted", async () => {
        const a = await newAccount();
        const owner = operator(a.id, "owner");
        await s.createOperator(owner);
        const token = unique("tok");
        const expires = D2;
        await s.createSession(token, owner.id, "csrf-1", expires);
        expect(await s.getSession(token, D1)).toEqual({ operator_id: owner.id, csrf_token: "csrf-1" });
        expect(await s.getSession(token, expires - 1)).toEqual({ operator_id: owner.id, csrf_token: "csrf-1" });
        expect(await s.getSession(token, expires)).toBeNull();
        expect(await s.getSession(token, expires + 1)).toBeNull();
        expect(await s.getSession(unique("tok"), D1)).toBeNull();
        await s.deleteSession(token);
        expect(await s.getSession(token, D1)).toBeNull();
        // Deleting again, or a session that never was, is no error.
        await s.deleteSession(token);
      });

      it("secret keys: listed oldest first without revoked ones, used (last_used_at), revoked once, by their account only", async () => {
        const a = await newAccount();
        const other = await newAccount();
        const older = { id: unique("key"), account_id: a.id, name: "CI", prefix: "sk_aaaaaa", created_at: "2026-01-01T00:00:00.000Z" };
        const newer = { id: unique("key"), account_id: a.id, name: "Export", prefix: "sk_bbbbbb", created_at: "2026-02-01T00:00:00.000Z" };
        const olderHash = unique("hash");
        const newerHash = unique("hash");
        expect(await s.createSecretKey(newer, newerHash)).toEqual({ ...newer, last_used_at: null });
        expect(await s.createSecretKey(older, olderHash)).toEqual({ ...older, last_used_at: null });
        expect(await s.listSecretKeys(a.id)).toEqual([
          { ...older, last_used_at: null },
          { ...newer, last_used_at: null },
        ]);
        expect(await s.listSecretKeys(other.id)).toEqual([]);

        expect(await s.useSecretKey(olderHash, NOW)).toEqual({ ...older, last_used_at: NOW });
        expect(await s.useSecretKey(olderHash, LATER)).toEqual({ ...older, last_used_at: LATER });
        expect(await s.useSecretKey(unique("hash"), NOW)).toBeNull();
        expect(await s.listSecretKeys(a.id)).toEqual([
          { ...older, last_used_at: LATER },
          { ...newer, last_used_at: null },
        ]);

        expect(await s.revokeSecretKey(other.id, older.id, NOW)).toBe(false);
        expect(await s.revokeSecretKey(a.id, older.id, NOW)).toBe(true);
        expect(await s.revokeSecretKey(a.id, older.id, LATER)).toBe(false);
        expect(await s.revokeSecretKey(a.id, "key_none", NOW)).toBe(false);
        expect(await s.useSecretKey(olderHash, LATER)).toBeNull();
        expect(await s.listSecretKeys(a.id)).toEqual([{ ...newer, last_used_at: null }]);
      });
    });

    describe("experiences", () => {
      it("createExperience stores the new experience whole; check sees the account's experiences and audience ids", async () => {
        const a = await newAccount();
        const other = await newAccount();
        const au = await s.saveAudience(audience(a.id, unique("au")));
        await s.saveAudience(audience(other.id, unique("au")));
        const existing = await s.saveExperience(experience(a.id, unique("x")));
        await s.saveExperience(experience(other.id, unique("x")));

        let ctx: ExperienceWriteContext | undefined;
        const next = experience(a.id, unique("x"), {
          rules: [rule("r1", au.id), rule("r2")],
          exclusion_group: { name: "Checkout layer", start: 0, end: 0.5 },
          goals: [
            { id: "g1", name: "Bought", kind: "revenue", revenue_cap: 500 },
            { id: "g2", name: "Clicked", kind: "click", event_name: "buy" },
          ],
        });
        const created = await s.createExperience(next, (c) => {
          ctx = c;
        });
        expect(created).toEqual({ ...next, created_at: created.created_at, updated_at: created.created_at });
        expect(created.created_at).toMatch(ISO_TIME);
        expect(await s.getExperience(a.id, next.id)).toEqual(created);
        expect(ctx!.experiences).toEqual([existing]);
        expect([...ctx!.audienceIds]).toEqual([au.id]);

        // Without a group given: none.
        const { exclusion_group: _group, ...ungrouped } = experience(a.id, unique("x"));
        expect((await s.createExperience(ungrouped, () => {})).exclusion_group).toBeNull();
        expect((await s.getExperience(a.id, ungrouped.id))!.exclusion_group).toBeNull();
      });

      it("createExperience: a check that throws writes nothing, and the error is rethrown as it was", async () => {
        const a = await newAccount();
        const existing = await s.saveExperience(experience(a.id, unique("x")));
        const revision = await revisionOf(a.id);
        const refusal = new Error("rule names an unknown audience");
        const refused = experience(a.id, unique("x"));
        expect(
          await failure(() =>
            s.createExperience(refused, () => {
              throw refusal;
            }),
          ),
        ).toBe(refusal);
        expect(await s.getExperience(a.id, refused.id)).toBeNull();
        expect(await s.listExperiences(a.id)).toEqual([existing]);
        expect(await revisionOf(a.id)).toBe(revision);
      });

      it("updateExperience: change sees the experience and the context as committed; its answer is stored, created_at kept, updated_at moved", async () => {
        const a = await newAccount();
        const au = await s.saveAudience(audience(a.id, unique("au")));
        const sibling = await s.saveExperience(experience(a.id, `${unique("x")}-a`));
        const x = await s.saveExperience(experience(a.id, `${unique("x")}-b`));
        await sleep(5);
        let seen: Experience | undefined;
        let ctx: ExperienceWriteContext | undefined;
        const updated = await s.updateExperience(a.id, x.id, (current, c) => {
          seen = current;
          ctx = c;
          return { ...writable(current), name: "Renamed", priority: 5, rules: [rule("r1", au.id)], status: "running" };
        });
        expect(seen).toEqual(x);
        expect([...ctx!.experiences].sort((p, q) => (p.id < q.id ? -1 : 1))).toEqual([sibling, x]);
        expect([...ctx!.audienceIds]).toEqual([au.id]);
        expect(updated).toEqual({ ...x, name: "Renamed", priority: 5, rules: [rule("r1", au.id)], status: "running", updated_at: updated!.updated_at });
        expect(updated!.updated_at > x.updated_at).toBe(true);
        expect(await s.getExperience(a.id, x.id)).toEqual(updated);

        // The answer may be a stored experience (with its times): the stored created_at stays.
        const again = await s.updateExperience(a.id, x.id, (current) => ({ ...current, name: "Again", created_at: "2000-01-01T00:00:00.000Z" }));
        expect(again).toEqual({ ...updated, name: "Again", updated_at: again!.updated_at });
        expect(await s.getExperience(a.id, x.id)).toEqual(again);
      });

      it("updateExperience: answering `current` writes nothing (updated_at and revision unchanged)", async () => {
        const a = await newAccount();
        const x = await s.saveExperience(experience(a.id, unique("x")));
        const revision = await revisionOf(a.id);
        await sleep(5);
        expect(await s.updateExperience(a.id, x.id, (current) => current)).toEqual(x);
        expect(await s.getExperience(a.id, x.id)).toEqual(x);
        expect(await revisionOf(a.id)).toBe(revision);
      });

      it("updateExperience: a change that throws writes nothing and is rethrown; null, change not called, for an unknown id", async () => {
        const a = await newAccount();
        const x = await s.saveExperience(experience(a.id, unique("x")));
        const revision = await revisionOf(a.id);
        const refusal = new Error("If-Match does not match");
        expect(
          await failure(() =>
            s.updateExperience(a.id, x.id, () => {
              throw refusal;
            }),
          ),
        ).toBe(refusal);
        expect(await s.getExperience(a.id, x.id)).toEqual(x);
        expect(await revisionOf(a.id)).toBe(revision);

        let called = false;
        const change = (current: Experience) => {
          called = true;
          return current;
        };
        expect(await s.updateExperience(a.id, "x_none", change)).toBeNull();
        expect(called).toBe(false);
      });

      it("removing a rule (updateExperience, saveExperience) drops that rule's assignments; the other rules' and experiences' stay", async () => {
        const a = await newAccount();
        const x = await s.saveExperience(experience(a.id, unique("x"), { rules: [rule("r1"), rule("r2"), rule("r3")] }));
        const y = await s.saveExperience(experience(a.id, unique("x"), { rules: [rule("r2")] }));
        await s.commitClientWrites([
          decisionWrite(a.id, "u1", [assignment(x.id, "r1", "r1-va", 0.4), assignment(x.id, "r2", "r2-vb", 0.6), assignment(x.id, "r3", "r3-va", 0.4), assignment(y.id, "r2", "r2-va", 0.4)]),
          decisionWrite(a.id, "u2", [assignment(x.id, "r2", "r2-va", 0.4)]),
        ]);
        expect(await s.countRows("assignments", a.id)).toBe(5);

        await s.updateExperience(a.id, x.id, (current) => ({ ...writable(current), rules: [rule("r1"), rule("r3")] }));
        expect(sortedEntries(await s.getAssignments(a.id, "u1"))).toEqual([
          [`${x.id}:r1`, assignment(x.id, "r1", "r1-va", 0.4)],
          [`${x.id}:r3`, assignment(x.id, "r3", "r3-va", 0.4)],
          [`${y.id}:r2`, assignment(y.id, "r2", "r2-va", 0.4)],
        ]);
        expect(sortedEntries(await s.getAssignments(a.id, "u2"))).toEqual([]);
        expect(await s.countRows("assignments", a.id)).toBe(3);

        await s.saveExperience({ ...writable(x), rules: [rule("r1")] });
        expect(sortedEntries(await s.getAssignments(a.id, "u1"))).toEqual([
          [`${x.id}:r1`, assignment(x.id, "r1", "r1-va", 0.4)],
          [`${y.id}:r2`, assignment(y.id, "r2", "r2-va", 0.4)],
        ]);
        expect(await s.countRows("assignments", a.id)).toBe(2);
      });

      it("deleteExperience: check sees the experience, a throw keeps it; a delete drops all its assignments, its exposures and events stay", async () => {
        const a = await newAccount();
        const x = await s.saveExperience(experience(a.id, unique("x"), { rules: [rule("r1"), rule("r2")], status: "running" }));
        const y = await s.saveExperience(experience(a.id, unique("x")));
        await s.commitClientWrites([
          decisionWrite(a.id, "u1", [assignment(x.id, "r1", "r1-va", 0.4), assignment(x.id, "r2", "r2-vb", 0.6), assignment(y.id, "r1", "r1-vb", 0.6)]),
          exposuresWrite(a.id, "u1", [{ config_id: "cfg", user_id: "u1", user_customer_id: "c-u1", session_id: "s", requested_time: D1, variation_id: "r1-va", experience_id: x.id, rule_id: "r1" }]),
          eventsWrite(a.id, "u1", [page("e1", D1, "shop.example", "/")]),
        ]);
        const revision = await revisionOf(a.id);

        let seen: Experience | undefined;
        const refusal = new Error("pause it first");
        expect(
          await failure(() =>
            s.deleteExperience(a.id, x.id, (current) => {
              seen = current;
              throw refusal;
            }),
          ),
        ).toBe(refusal);
        expect(seen).toEqual(x);
        expect(await s.getExperience(a.id, x.id)).toEqual(x);
        expect(await s.countRows("assignments", a.id)).toBe(3);
        expect(await revisionOf(a.id)).toBe(revision);

        expect(await s.deleteExperience(a.id, x.id, () => {})).toBe(true);
        expect(await s.getExperience(a.id, x.id)).toBeNull();
        expect(await s.listExperiences(a.id)).toEqual([y]);
        expect(sortedEntries(await s.getAssignments(a.id, "u1"))).toEqual([[`${y.id}:r1`, assignment(y.id, "r1", "r1-vb", 0.6)]]);
        expect(await s.countRows("exposures", a.id)).toBe(1);
        expect(await s.countRows("events", a.id)).toBe(1);

        let called = false;
        expect(
          await s.deleteExperience(a.id, x.id, () => {
            called = true;
          }),
        ).toBe(false);
        expect(called).toBe(false);
      });

      it("another account's experiences and audiences are not found, changed or deleted through this one", async () => {
        const a = await newAccount();
        const b = await newAccount();
        const x = await s.saveExperience(experience(a.id, unique("x")));
        const au = await s.saveAudience(audience(a.id, unique("au")));
        const never = () => {
          throw new Error("not to be called");
        };
        expect(await s.getExperience(b.id, x.id)).toBeNull();
        expect(await s.listExperiences(b.id)).toEqual([]);
        expect(await s.updateExperience(b.id, x.id, never)).toBeNull();
        expect(await s.deleteExperience(b.id, x.id, never)).toBe(false);
        expect(await s.getAudience(b.id, au.id)).toBeNull();
        expect(await s.listAudiences(b.id)).toEqual([]);
        expect(await s.updateAudience(b.id, au.id, never)).toBeNull();
        expect(await s.deleteAudience(b.id, au.id)).toBeNull();
        expect(await s.getExperience(a.id, x.id)).toEqual(x);
        expect(await s.getAudience(a.id, au.id)).toEqual(au);
        expect(await revisionOf(b.id)).toBe(1);
      });

      it("listExperiences: oldest first; listRunningExperiences: running ones, highest priority first, then oldest first", async () => {
        const a = await newAccount();
        const p = unique("x");
        // Saved in the order c, b, a, d (ids sort otherwise), a few ms apart.
        const c = await s.saveExperience(experience(a.id, `${p}-c`, { status: "running", priority: 1 }));
        await sleep(3);
        const b = await s.saveExperience(experience(a.id, `${p}-b`, { status: "running", priority: 1 }));
        await sleep(3);
        const top = await s.saveExperience(experience(a.id, `${p}-a`, { status: "running", priority: 5 }));
        await sleep(3);
        const d = await s.saveExperience(experience(a.id, `${p}-d`, { status: "paused", priority: 9 }));
        expect((await s.listExperiences(a.id)).map((e) => e.id)).toEqual([c.id, b.id, top.id, d.id]);
        expect(await s.listRunningExperiences(a.id)).toEqual([top, c, b]);

        // Saving again keeps the place (created_at) and takes the new fields.
        await sleep(3);
        const cAgain = await s.saveExperience({ ...writable(c), priority: 7 });
        expect(cAgain.created_at).toBe(c.created_at);
        expect((await s.listExperiences(a.id)).map((e) => e.id)).toEqual([c.id, b.id, top.id, d.id]);
        expect((await s.listRunningExperiences(a.id)).map((e) => e.id)).toEqual([c.id, top.id, b.id]);
        expect(await s.listRunningExperiences((await newAccount()).id)).toEqual([]);
      });
    });

    describe("audiences", () => {
      it("saveAudience answers the audience as stored; getAudience and listAudiences (oldest first) read it; saving again keeps created_at", async () => {
        const a = await newAccount();
        const p = unique("au");
        const first = audience(a.id, `${p}-1`);
        const saved = await s.saveAudience(first);
        const { account_id: _account, ...fields } = first;
        expect(saved).toEqual({ ...fields, created_at: saved.created_at, updated_at: saved.created_at });
        expect(saved.created_at).toMatch(ISO_TIME);
        expect(await s.getAudience(a.id, first.id)).toEqual(saved);
        const second = await s.saveAudience(audience(a.id, `${p}-2`, { description: "" }));
        expect(await s.listAudiences(a.id)).toEqual([saved, second]);

        await sleep(5);
        const resaved = await s.saveAudience({ ...first, name: "Renamed", condition: { country: "DE" } });
        expect(resaved).toEqual({ ...saved, name: "Renamed", condition: { country: "DE" }, updated_at: resaved.updated_at });
        expect(resaved.updated_at > saved.updated_at).toBe(true);
        expect(await s.listAudiences(a.id)).toEqual([resaved, second]);
        expect(await s.getAudience(a.id, "au_none")).toBeNull();
      });

      it("updateAudience: change sees the audience as stored and its answer replaces it; a throw writes nothing; null for a deleted one", async () => {
        const a = await newAccount();
        const saved = await s.saveAudience(audience(a.id, unique("au")));
        await sleep(5);
        let seen: unknown;
        const updated = await s.updateAudience(a.id, saved.id, (current) => {
          seen = current;
          return { id: current.id, account_id: a.id, name: "VIP", description: "Spent over 100", condition: { "properties.spent": { $gt: 100 } } };
        });
        expect(seen).toEqual(saved);
        expect(updated).toEqual({ ...saved, name: "VIP", description: "Spent over 100", condition: { "properties.spent": { $gt: 100 } }, updated_at: updated!.updated_at });
        expect(updated!.updated_at > saved.updated_at).toBe(true);
        expect(await s.getAudience(a.id, saved.id)).toEqual(updated);

        const revision = await revisionOf(a.id);
        const refusal = new Error("bad condition");
        expect(
          await failure(() =>
            s.updateAudience(a.id, saved.id, () => {
              throw refusal;
            }),
          ),
        ).toBe(refusal);
        expect(await s.getAudience(a.id, saved.id)).toEqual(updated);
        expect(await revisionOf(a.id)).toBe(revision);

        expect(await s.deleteAudience(a.id, saved.id)).toEqual({ deleted: true });
        let called = false;
        expect(
          await s.updateAudience(a.id, saved.id, (current) => {
            called = true;
            return { ...current, account_id: a.id };
          }),
        ).toBeNull();
        expect(called).toBe(false);
        expect(await s.getAudience(a.id, saved.id)).toBeNull();
      });

      it("deleteAudience: refused with the names of the experiences whose rules name it (nothing written); deleted once none does; null after", async () => {
        const a = await newAccount();
        const au = await s.saveAudience(audience(a.id, unique("au")));
        const spare = await s.saveAudience(audience(a.id, unique("au")));
        const alpha = await s.saveExperience(experience(a.id, `${unique("x")}-1`, { name: "Alpha", rules: [rule("r1", au.id)] }));
        await sleep(3);
        await s.saveExperience(experience(a.id, `${unique("x")}-2`, { name: "Beta", status: "archived", rules: [rule("r1"), rule("r2", au.id)] }));
        await s.saveExperience(experience(a.id, `${unique("x")}-3`, { name: "Gamma", rules: [rule("r1", spare.id)] }));
        const revision = await revisionOf(a.id);

        expect(await s.deleteAudience(a.id, au.id)).toEqual({ usedBy: ["Alpha", "Beta"] });
        expect(await s.getAudience(a.id, au.id)).toEqual(au);
        expect(await revisionOf(a.id)).toBe(revision);

        await s.updateExperience(a.id, alpha.id, (current) => ({ ...writable(current), rules: [rule("r1")] }));
        expect(await s.deleteAudience(a.id, au.id)).toEqual({ usedBy: ["Beta"] });
        const beta = (await s.listExperiences(a.id)).find((e) => e.name === "Beta")!;
        await s.deleteExperience(a.id, beta.id, () => {});
        expect(await s.deleteAudience(a.id, au.id)).toEqual({ deleted: true });
        expect(await s.getAudience(a.id, au.id)).toBeNull();
        expect(await s.listAudiences(a.id)).toEqual([spare]);
        expect(await s.deleteAudience(a.id, au.id)).toBeNull();
      });
    });

    describe("client writes", () => {
      const xp = (userId: string | undefined, variation: string, at: number, extra: Partial<Exposure> = {}): Exposure => ({
        config_id: `cfg-${variation}`,
        ...(userId !== undefined ? { user_id: userId } : {}),
        user_customer_id: `c-${userId ?? "anon"}`,
        session_id: `s-${userId ?? "anon"}`,
        requested_time: at,
        variation_id: variation,
        experience_id: "x1",
        rule_id: "r1",
        behaviour_id: "r1-b",
        is_template_config: false,
        probability: 0.5,
        split: S1,
        ...extra,
      });

      it("commitClientWrites: one result per write, in order; events, summaries and devices stored once within a batch and across retries; alerts each time", async () => {
        const a = await newAccount();
        const other = await newAccount();
        const e1 = page("e1", D1, "shop.example", "/");
        const e2 = click("e2", D1 + 1, "buy");
        const e3 = revenue("e3", D1 + 2, 12.5);
        const x1 = xp("u1", "va", D1);
        const x2 = xp("u1", "va", D1 + 1);
        const dev1: DeviceRecord = { device_customer_id: "d1", device_type: "mobile", user_id: "u1", anonymous: true };
        const dev2: DeviceRecord = { device_customer_id: "d2", device_type: "desktop", user_id: "u1" };
        const batch: ClientWrite[] = [
          decisionWrite(a.id, "u1", [assignment("x1", "r1", "va", 0.5, S1), assignment("x2", "r1", "vb", 1)]),
          eventsWrite(a.id, "u1", [e1, e2, e1]),
          exposuresWrite(a.id, "u1", [x1, x2, x1]),
          { kind: "devices", accountId: a.id, devices: [dev1, dev2, dev1], now: NOW },
          { kind: "alert", accountId: a.id, alert: { message: "Non-configured domain", url: "https://other.example/" }, now: NOW },
          eventsWrite(a.id, "u1", [e2, e3]),
          // The same insert id in another account is another event.
          eventsWrite(other.id, "u1", [e1]),
        ];
        expect(await s.commitClientWrites(batch)).toEqual([
          { accepted: 2, duplicates: 0 },
          { accepted: 2, duplicates: 1 },
          { accepted: 2, duplicates: 1 },
          { accepted: 2, duplicates: 1 },
          { accepted: 1, duplicates: 0 },
          { accepted: 1, duplicates: 1 },
          { accepted: 1, duplicates: 0 },
        ]);
        const counts = async (accountId: string) => ({
          visitors: await s.countRows("visitors", accountId),
          assignments: await s.countRows("assignments", accountId),
          events: await s.countRows("events", accountId),
          exposures: await s.countRows("exposures", accountId),
          devices: await s.countRows("devices", accountId),
          alerts: await s.countRows("alerts", accountId),
        });
        expect(await counts(a.id)).toEqual({ visitors: 1, assignments: 2, events: 3, exposures: 2, devices: 2, alerts: 1 });
        expect(await counts(other.id)).toEqual({ visitors: 1, assignments: 0, events: 1, exposures: 0, devices: 0, alerts: 0 });

        // The batch again (a retry): every event, summary and device is a duplicate.
        expect(await s.commitClientWrites(batch)).toEqual([
          { accepted: 2, duplicates: 0 },
          { accepted: 0, duplicates: 3 },
          { accepted: 0, duplicates: 3 },
          { accepted: 0, duplicates: 3 },
          { accepted: 1, duplicates: 0 },
          { accepted: 0, duplicates: 2 },
          { accepted: 0, duplicates: 1 },
        ]);
        expect(await counts(a.id)).toEqual({ visitors: 1, assignments: 2, events: 3, exposures: 2, devices: 2, alerts: 2 });
        // A retry in a batch of its own, and an empty write.
        expect(await s.commitClientWrites([exposuresWrite(a.id, "u1", [x2]), eventsWrite(a.id, "u1", [])])).toEqual([
          { accepted: 0, duplicates: 1 },
          { accepted: 0, duplicates: 0 },
        ]);
        expect(await s.commitClientWrites([])).toEqual([]);
        expect(await s.listExposures(a.id, 10)).toEqual([
          { ...x2, user_id: "u1", forced: false },
          { ...x1, user_id: "u1", forced: false },
        ]);
      });

      it("commitClientWrites is all or none: a write that fails takes the batch's other writes with it", async () => {
        const a = await newAccount();
        const broken = { ...page("bad", D1, "shop.example", "/"), insert_id: null } as unknown as TrackedEvent;
        await failure(() =>
          s.commitClientWrites([
            decisionWrite(a.id, "u1", [assignment("x1", "r1", "va", 0.5)]),
            eventsWrite(a.id, "u1", [page("ok", D1, "shop.example", "/")]),
            exposuresWrite(a.id, "u1", [xp("u1", "va", D1)]),
            eventsWrite(a.id, "u1", [broken]),
          ]),
        );
        for (const table of ["visitors", "assignments", "events", "exposures"] as const) expect(await s.countRows(table, a.id)).toBe(0);
        expect(await s.hasEvent(a.id, "ok")).toBe(false);
      });

      it("strings a client may send (U+0000, a lone surrogate) fail no batch and break no idempotence; the event comes back as sent", async () => {
        const a = await newAccount();
        const odd = "a\u0000b\ud800c";
        const e: TrackedEvent = {
          insert_id: `odd-${odd}`,
          event_type: "TRACK",
          event_customer_id: `shop.example|${odd}`,
          name: odd,
          domain: "shop.example",
          event_timestamp: D1,
          properties: { note: odd, [odd]: [odd], page_path: `/p/${odd}` },
        };
        const user: User = { user_customer_id: `c-${odd}`, anonymous: true, properties: { note: odd } };
        const batch: ClientWrite[] = [
          { kind: "decision", accountId: a.id, userId: "u1", user, assignments: [assignment("x1", "r1", "va", 0.5)], now: NOW },
          { kind: "events", accountId: a.id, userId: "u1", user, touch: true, events: [e, page("plain", D1, "shop.example", "/")], now: NOW },
          { kind: "exposures", accountId: a.id, userId: "u1", user, touch: true, exposures: [xp("u1", "va", D1, { config_id: `cfg-${odd}`, user_customer_id: `c-${odd}`, session_id: odd })], now: NOW },
          { kind: "devices", accountId: a.id, devices: [{ device_customer_id: `d-${odd}`, device_type: odd, user_id: "u1" }], now: NOW },
          { kind: "alert", accountId: a.id, alert: { message: odd }, now: NOW },
        ];
        expect(await s.commitClientWrites(batch)).toEqual([
          { accepted: 1, duplicates: 0 },
          { accepted: 2, duplicates: 0 },
          { accepted: 1, duplicates: 0 },
          { accepted: 1, duplicates: 0 },
          { accepted: 1, duplicates: 0 },
        ]);
        expect((await s.commitClientWrites(batch)).slice(1, 4)).toEqual([
          { accepted: 0, duplicates: 2 },
          { accepted: 0, duplicates: 1 },
          { accepted: 0, duplicates: 1 },
        ]);
        expect(await s.hasEvent(a.id, e.insert_id)).toBe(true);
        expect((await s.listEvents(a.id, 10, { type: "TRACK" })).map((stored) => stored.event)).toEqual([e]);
        expect(await s.countRows("events", a.id)).toBe(2);
        expect(await s.countRows("exposures", a.id)).toBe(1);
        expect(await s.countRows("devices", a.id)).toBe(1);
        expect(await s.findVisitor(a.id, ["u1"])).not.toBeNull();
      });

      it("getAssignments: the visitor's assignments by experience and rule, merged over decisions (a later one replaces the same key); split kept when given", async () => {
        const a = await newAccount();
        const other = await newAccount();
        await s.commitClientWrites([decisionWrite(a.id, "u1", [assignment("x1", "r1", "va", 0.5, S1), assignment("x2", "r1", "vb", 1)])]);
        await s.commitClientWrites([
          decisionWrite(a.id, "u1", [assignment("x1", "r2", "vc", 0.25), assignment("x1", "r1", "vb", 0.5, S2)], LATER),
          decisionWrite(a.id, "u2", [assignment("x1", "r1", "va", 0.5)]),
        ]);
        expect(sortedEntries(await s.getAssignments(a.id, "u1"))).toEqual([
          ["x1:r1", { experience_id: "x1", rule_id: "r1", behaviour_id: "r1-b", variation_id: "vb", probability: 0.5, split: S2 }],
          ["x1:r2", { experience_id: "x1", rule_id: "r2", behaviour_id: "r2-b", variation_id: "vc", probability: 0.25 }],
          ["x2:r1", { experience_id: "x2", rule_id: "r1", behaviour_id: "r1-b", variation_id: "vb", probability: 1 }],
        ]);
        expect(sortedEntries(await s.getAssignments(a.id, "u2"))).toEqual([["x1:r1", assignment("x1", "r1", "va", 0.5)]]);
        expect((await s.getAssignments(a.id, "u_none")).size).toBe(0);
        expect((await s.getAssignments(other.id, "u1")).size).toBe(0);
        expect(await s.countRows("assignments", a.id)).toBe(4);
        expect(await s.countRows("visitors", a.id)).toBe(2);
        // A decision with no new assignment records the visitor and keeps theirs.
        await s.commitClientWrites([decisionWrite(a.id, "u2", [], LATER)]);
        expect(sortedEntries(await s.getAssignments(a.id, "u2"))).toEqual([["x1:r1", assignment("x1", "r1", "va", 0.5)]]);
      });

      it("findVisitor: the first of the ids recorded (by a decision, or events and summaries with touch); first_seen stays, last_seen moves", async () => {
        const a = await newAccount();
        const other = await newAccount();
        await s.commitClientWrites([eventsWrite(a.id, "u0", [page("e0", D1, "shop.example", "/")], NOW, false)]);
        await s.commitClientWrites([exposuresWrite(a.id, "u0", [xp("u0", "va", D1)], NOW, false)]);
        expect(await s.findVisitor(a.id, ["u0"])).toBeNull();

        await s.commitClientWrites([eventsWrite(a.id, "u1", [page("e1", D1, "shop.example", "/")], NOW, true)]);
        expect(await s.findVisitor(a.id, ["u_none", "u1"])).toEqual({ user_id: "u1", user_customer_id: "c-u1", first_seen: NOW, last_seen: NOW });
        await s.commitClientWrites([exposuresWrite(a.id, "u1", [xp("u1", "va", D1)], LATER, true)]);
        expect(await s.findVisitor(a.id, ["u1"])).toEqual({ user_id: "u1", user_customer_id: "c-u1", first_seen: NOW, last_seen: LATER });

        await s.commitClientWrites([decisionWrite(a.id, "u2", [assignment("x1", "r1", "va", 0.5)], LATER)]);
        expect(await s.findVisitor(a.id, ["u2", "u1"])).toEqual({ user_id: "u2", user_customer_id: "c-u2", first_seen: LATER, last_seen: LATER });
        expect(await s.findVisitor(a.id, ["u1", "u2"])).toEqual({ user_id: "u1", user_customer_id: "c-u1", first_seen: NOW, last_seen: LATER });
        expect(await s.findVisitor(a.id, [])).toBeNull();
        expect(await s.findVisitor(other.id, ["u1", "u2"])).toBeNull();
        expect(await s.countRows("visitors", a.id)).toBe(2);
      });

      it("listVisitorExposures: these visitors' newest exposures first (by requested_time), without behaviour, probability or split; listExposures: the account's newest stored first, whole", async () => {
        const a = await newAccount();
        const other = await newAccount();
        const first = xp("u1", "va", D1 + 300, { session_id: "s1" });
        const second = xp("u2", "vb", D1 + 200, { forced: true, probability: null, split: null, experience_id: "x2" });
        const third = xp("u1", "va", D1 + 100, { is_template_config: true, rule_id: undefined, behaviour_id: undefined });
        const fourth = xp("u3", "va", D1 + 400);
        await s.commitClientWrites([exposuresWrite(a.id, "u1", [first]), exposuresWrite(a.id, "u2", [second])]);
        await s.commitClientWrites([exposuresWrite(a.id, "u1", [third]), exposuresWrite(a.id, "u3", [fourth]), exposuresWrite(other.id, "u1", [first])]);

        const timeline = (x: Exposure) => {
          const { behaviour_id: _b, probability: _p, split: _s, ...rest } = x;
          return { ...rest, user_id: x.user_id ?? null, is_template_config: x.is_template_config ?? false, forced: x.forced ?? false };
        };
        const { rule_id: _r, ...thirdWithoutRule } = timeline(third);
        expect(await s.listVisitorExposures(a.id, ["u1", "u2"], 10)).toEqual([timeline(first), timeline(second), thirdWithoutRule]);
        expect(await s.listVisitorExposures(a.id, ["u1", "u2"], 2)).toEqual([timeline(first), timeline(second)]);
        expect(await s.listVisitorExposures(a.id, ["u3"], 10)).toEqual([timeline(fourth)]);
        expect(await s.listVisitorExposures(a.id, [], 10)).toEqual([]);
        expect(await s.listVisitorExposures(other.id, ["u2"], 10)).toEqual([]);

        const { rule_id: _rr, behaviour_id: _bb, ...thirdStored } = third;
        expect(await s.listExposures(a.id, 10)).toEqual([
          { ...fourth, user_id: "u3", forced: false },
          { ...thirdStored, user_id: "u1", forced: false },
          { ...second, user_id: "u2", forced: true },
          { ...first, user_id: "u1", forced: false },
        ]);
        expect((await s.listExposures(a.id, 1)).map((x) => x.user_id)).toEqual(["u3"]);
        // A summary without a visitor id is stored with none.
        await s.commitClientWrites([exposuresWrite(a.id, "u4", [xp(undefined, "va", D1)])]);
        expect((await s.listExposures(a.id, 1))[0]).toEqual({ ...xp(undefined, "va", D1), user_id: null, forced: false });
      });
    });

    describe("events", () => {
      const T = D1 + 10 * HOUR;
      const E: Record<string, TrackedEvent> = {
        e1: page("e1", T + 1000, "Shop.Example", "/products/100%_cotton", { session_id: "s1", pageview_seq_number: 1 }),
        e2: { ...click("e2", T + 2000.7, "Add_To_Cart"), properties: { page_path: "/cart", price: 12.5 } },
        e3: { insert_id: "e3", event_type: "TRACK", event_customer_id: "other.example|signup", name: "Signup 50%", domain: "other.example", event_timestamp: T + 3000 },
        e4: page("e4", T + 4000, "shop.example", "/"),
        e5: { ...revenue("e5", T + 5000, 10) },
        e6: { insert_id: "e6", event_type: "FORM", event_customer_id: "newsletter", event_timestamp: T + 6000, properties: { page_path: "/Blog/Post" } },
      };
      const userOf: Record<string, string> = { e1: "u1", e2: "u1", e3: "u2", e4: "u3", e5: "u2", e6: "u1" };

      /** An account with events e1…e6 stored in this order, u2 exposed to experience "xf" and u3 to "xg". */
      async function seedEvents() {
        const a = await newAccount();
        const other = await newAccount();
        await s.commitClientWrites([
          eventsWrite(a.id, "u1", [E.e1!, E.e2!]),
          eventsWrite(a.id, "u2", [E.e3!]),
          eventsWrite(a.id, "u3", [E.e4!]),
          eventsWrite(a.id, "u2", [E.e5!]),
          eventsWrite(a.id, "u1", [E.e6!]),
          exposuresWrite(a.id, "u2", [xpOf("u2", "xf")]),
          exposuresWrite(a.id, "u3", [xpOf("u3", "xg")]),
          eventsWrite(other.id, "u1", [E.e1!, page("o2", T, "shop.example", "/")]),
          exposuresWrite(other.id, "u1", [xpOf("u1", "xf")]),
        ]);
        const all = await s.listEvents(a.id, 100);
        const seq = Object.fromEntries(all.map((e) => [e.insert_id, e.seq]));
        return { a, other, all, seq: (id: string) => seq[id]! };
      }
      const xpOf = (userId: string, experienceId: string): Exposure => ({
        config_id: "cfg",
        user_id: userId,
        user_customer_id: `c-${userId}`,
        session_id: "s",
        requested_time: T,
        variation_id: "va",
        experience_id: experienceId,
        rule_id: "r1",
      });
      const ids = (events: StoredEvent[]) => events.map((e) => e.insert_id);

      it("listEvents: the newest first, up to the limit, with every stored field; hasEvent", async () => {
        const { a, other, all } = await seedEvents();
        expect(ids(all)).toEqual(["e6", "e5", "e4", "e3", "e2", "e1"]);
        const seqs = all.map((e) => e.seq);
        expect(seqs).toEqual([...seqs].sort((p, q) => q - p));
        expect(new Set(seqs).size).toBe(6);
        const stored = (id: string, fields: Partial<StoredEvent>): StoredEvent => ({
          seq: all.find((e) => e.insert_id === id)!.seq,
          account_id: a.id,
          insert_id: id,
          event_type: E[id]!.event_type,
          event_customer_id: E[id]!.event_customer_id,
          domain: E[id]!.domain ?? "",
          page_path: null,
          user_id: userOf[id]!,
          session_id: null,
          event_timestamp: E[id]!.event_timestamp,
          received_at: NOW,
          event: E[id]!,
          ...fields,
        });
        expect(all).toEqual([
          stored("e6", { domain: "", page_path: "/Blog/Post" }),
          stored("e5", { page_path: "/checkout" }),
          stored("e4", { page_path: "/" }),
          stored("e3", {}),
          stored("e2", { page_path: "/cart", event_timestamp: T + 2000 }),
          stored("e1", { page_path: "/products/100%_cotton", session_id: "s1" }),
        ]);
        expect(ids(await s.listEvents(a.id, 2))).toEqual(["e6", "e5"]);
        expect(await s.countEvents(a.id)).toBe(6);
        expect(await s.countEvents(other.id)).toBe(2);
        expect(ids(await s.listEvents(other.id, 10))).toEqual(["o2", "e1"]);
        expect(await s.hasEvent(a.id, "e1")).toBe(true);
        expect(await s.hasEvent(a.id, "o2")).toBe(false);
        expect(await s.hasEvent(other.id, "e3")).toBe(false);
        expect(await s.hasEvent(a.id, "e_none")).toBe(false);
        const empty = await newAccount();
        expect(await s.listEvents(empty.id, 10)).toEqual([]);
        expect(await s.countEvents(empty.id)).toBe(0);
      });

      it("filters: type, domain (whole, any case), q (a substring of the page path or the name, any case; % and _ are plain), visitors, experience; countEvents agrees", async () => {
        const { a } = await seedEvents();
        const cases: [EventFilter, string[]][] = [
          [{}, ["e6", "e5", "e4", "e3", "e2", "e1"]],
          [{ type: "PAGE" }, ["e4", "e1"]],
          [{ type: "page" }, []],
          [{ type: "REVENUE" }, ["e5"]],
          [{ domain: "SHOP.EXAMPLE" }, ["e5", "e4", "e2", "e1"]],
          [{ domain: "shop" }, []],
          [{ domain: "other.example" }, ["e3"]],
          [{ q: "100%" }, ["e1"]],
          [{ q: "%" }, ["e3", "e1"]],
          [{ q: "_" }, ["e2", "e1"]],
          [{ q: "0%_c" }, ["e1"]],
          [{ q: "add_to" }, ["e2"]],
          [{ q: "a_d" }, []],
          [{ q: "/BLOG" }, ["e6"]],
          [{ q: "signup" }, ["e3"]],
          [{ q: "NEWS" }, ["e6"]],
          [{ q: "/" }, ["e6", "e5", "e4", "e2", "e1"]],
          [{ visitorIds: ["u1", "u3"] }, ["e6", "e4", "e2", "e1"]],
          [{ visitorIds: ["u2"] }, ["e5", "e3"]],
          [{ visitorIds: [] }, []],
          [{ experience: "xf" }, ["e5", "e3"]],
          [{ experience: "xg" }, ["e4"]],
          [{ experience: "x_none" }, []],
          [{ type: "PAGE", domain: "shop.example", visitorIds: ["u3", "u1"] }, ["e4", "e1"]],
          [{ domain: "shop.example", q: "CART" }, ["e2"]],
          [{ experience: "xf", type: "TRACK" }, ["e3"]],
        ];
        for (const [filter, expected] of cases) {
          expect(ids(await s.listEvents(a.id, 100, filter)), JSON.stringify(filter)).toEqual(expected);
          expect(await s.countEvents(a.id, filter), JSON.stringify(filter)).toBe(expected.length);
        }
      });

      // The search folds A–Z only, on both sides (event-fields.ts asciiLower): text with a
      // capital beyond A–Z is found when searched as written.
      it("q finds text with capitals beyond A-Z when searched as written", async () => {
        const a = await newAccount();
        const named = (insertId: string, name: string, path: string): TrackedEvent => ({
          insert_id: insertId,
          event_type: "TRACK",
          event_customer_id: `shop.example|${name}`,
          name,
          domain: "shop.example",
          event_timestamp: T,
          properties: { page_path: path },
        });
        await s.commitClientWrites([eventsWrite(a.id, "u1", [named("n1", "Écharpe", "/a"), named("n2", "Jacke", "/Größe/M")])]);
        expect(ids(await s.listEvents(a.id, 10, { q: "/größe" }))).toEqual(["n2"]);
        expect(ids(await s.listEvents(a.id, 10, { q: "Écharpe" }))).toEqual(["n1"]);
      });

      it("paging: before and after a seq cursor (the limit nearest to it, newest first), also with filters; countEvents agrees", async () => {
        const { a, seq } = await seedEvents();
        const page = async (limit: number, filter: EventFilter) => ids(await s.listEvents(a.id, limit, filter));
        expect(await page(2, { before: seq("e5") })).toEqual(["e4", "e3"]);
        expect(await page(10, { before: seq("e3") })).toEqual(["e2", "e1"]);
        expect(await page(10, { before: seq("e1") })).toEqual([]);
        expect(await page(2, { after: seq("e2") })).toEqual(["e4", "e3"]);
        expect(await page(2, { after: seq("e4") })).toEqual(["e6", "e5"]);
        expect(await page(10, { after: seq("e6") })).toEqual([]);
        expect(await page(10, { after: seq("e1"), before: seq("e6") })).toEqual(["e5", "e4", "e3", "e2"]);
        expect(await page(1, { type: "PAGE", before: seq("e4") })).toEqual(["e1"]);
        expect(await page(1, { domain: "shop.example", after: seq("e1") })).toEqual(["e2"]);
        expect(await s.countEvents(a.id, { before: seq("e3") })).toBe(2);
        expect(await s.countEvents(a.id, { after: seq("e1"), before: seq("e6") })).toBe(4);
        expect(await s.countEvents(a.id, { domain: "shop.example", after: seq("e1") })).toBe(3);

        // Walking back page by page from the newest sees every event once.
        const walked: string[] = [];
        let before: number | undefined;
        for (;;) {
          const events = await s.listEvents(a.id, 4, before === undefined ? {} : { before });
          if (!events.length) break;
          walked.push(...ids(events));
          before = events.at(-1)!.seq;
        }
        expect(walked).toEqual(["e6", "e5", "e4", "e3", "e2", "e1"]);
      });
    });

    describe("results", () => {
      const X = "xr";
      const xp = (userId: string | undefined, variation: string, at: number, extra: Partial<Exposure> = {}): Exposure => ({
        config_id: `cfg-${variation}`,
        ...(userId !== undefined ? { user_id: userId } : {}),
        user_customer_id: `c-${userId ?? "anon"}`,
        session_id: `s-${at}`,
        requested_time: at,
        variation_id: variation,
        experience_id: X,
        rule_id: "r1",
        behaviour_id: "r1-b",
        probability: 0.5,
        split: S1,
        ...extra,
      });
      const GOALS: GoalDefinition[] = [
        { id: "g1", name: "Thanks page", kind: "page_view", page: { domain: "shop.example", page_path: "/thanks", page_match: "exact_match" } },
        { id: "g2", name: "Buy clicks", kind: "click", event_name: "buy" },
        { id: "g3", name: "Revenue", kind: "revenue", revenue_cap: 50 },
      ];

      /**
       * The hand-computed data set. First (randomised) exposures to "xr": u1 va D1+1h (S1, p .5),
       * u2 vb D1+2h (S1), u3 va D2+1h (S2, p unknown), u4 vb D1+3h (S1; later va), u7 va D2+2h (no
       * split; vb at the same moment: the smaller variation id is first). u5 is only forced; one
       * summary has no visitor id. Events: see each visitor below.
       */
      async function seedResults() {
        const a = await newAccount();
        await s.commitClientWrites([
          exposuresWrite(a.id, "u1", [xp("u1", "va", D1 + HOUR), xp("u1", "va", D1 + 5 * HOUR), xp("u1", "vb", D1, { experience_id: "x_other" })]),
          exposuresWrite(a.id, "u2", [xp("u2", "vb", D1 + 2 * HOUR)]),
          exposuresWrite(a.id, "u3", [xp("u3", "va", D2 + HOUR, { probability: null, split: S2 })]),
          exposuresWrite(a.id, "u4", [xp("u4", "vb", D1 + 3 * HOUR), xp("u4", "va", D2)]),
          exposuresWrite(a.id, "u5", [xp("u5", "va", D1 + HOUR, { forced: true, probability: null, split: null })]),
          exposuresWrite(a.id, "anon", [xp(undefined, "va", D1 + HOUR)]),
          exposuresWrite(a.id, "u7", [xp("u7", "vb", D2 + 2 * HOUR), xp("u7", "va", D2 + 2 * HOUR, { split: undefined })]),
        ]);
        const m = 60_000;
        await s.commitClientWrites([
          // u1 (va from D1+1h): the goal page before and after; two buys after; revenue 20 before, 30 + 40 after (capped at 50).
          eventsWrite(a.id, "u1", [
            page("u1-p1", D1 + 30 * m, "shop.example", "/thanks"),
            page("u1-p2", D1 + 2 * HOUR, "shop.example", "/thanks"),
            click("u1-c1", D1 + 3 * HOUR, "buy"),
            click("u1-c2", D2 + HOUR, "buy"),
            revenue("u1-r0", D1 + 40 * m, 20),
            revenue("u1-r1", D1 + 4 * HOUR, 30),
            revenue("u1-r2", D2 + 3 * HOUR, 40),
          ]),
          // u2 (vb from D1+2h): the goal page on another domain (no), in capitals (yes); "Buy" (another name), buy before; revenue "12.5abc" after.
          eventsWrite(a.id, "u2", [
            page("u2-p1", D1 + 3 * HOUR, "other.example", "/thanks"),
            page("u2-p2", D1 + 5 * HOUR, "SHOP.example", "/thanks"),
            click("u2-c1", D1 + 3 * HOUR, "Buy"),
            click("u2-c2", D1 + HOUR, "buy"),
            revenue("u2-r1", D1 + 6 * HOUR, "12.5abc"),
          ]),
          // u3 (va from D2+1h): revenue 100 after (capped at 50); another page.
          eventsWrite(a.id, "u3", [revenue("u3-r1", D2 + 2 * HOUR, 100), page("u3-p1", D2 + 2 * HOUR, "shop.example", "/other")]),
          // u4 (vb from D1+3h): the goal page on D2; revenue 5 before, 8 after.
          eventsWrite(a.id, "u4", [page("u4-p1", D2 + 4 * HOUR, "shop.example", "/thanks"), revenue("u4-r1", D1 + HOUR, 5), revenue("u4-r2", D1 + 4 * HOUR, 8)]),
          // Never exposed (u8), only forced (u5): not counted.
          eventsWrite(a.id, "u8", [click("u8-c1", D1 + 5 * HOUR, "buy"), revenue("u8-r1", D1 + 5 * HOUR, 9)]),
          eventsWrite(a.id, "u5", [click("u5-c1", D1 + 5 * HOUR, "buy")]),
        ]);
        return a;
      }

      const sums = (goal_id: string, variation_id: string, date: string | null, n: Partial<ResultsAggregate["goals"][number]>) => ({
        goal_id,
        variation_id,
        date,
        visitors: 1,
        post: 0,
        pre: 0,
        post_pre: 0,
        value: 0,
        value_squares: 0,
        pre_value: 0,
        pre_value_squares: 0,
        value_pre_value: 0,
        orders: 0,
        orders_squares: 0,
        value_orders: 0,
        ...n,
      });

      it("exposureVisitors: distinct visitors with a randomised exposure in the range, in all and per variation", async () => {
        const a = await seedResults();
        expect(await s.exposureVisitors(a.id, X)).toEqual({
          distinct: 5,
          byVariation: [
            { variation_id: "va", visitors: 4 },
            { variation_id: "vb", visitors: 3 },
          ],
        });
        expect(await s.exposureVisitors(a.id, X, { from_ms: D2, to_ms: D2 + 24 * HOUR })).toEqual({
          distinct: 3,
          byVariation: [
            { variation_id: "va", visitors: 3 },
            { variation_id: "vb", visitors: 1 },
          ],
        });
        expect(await s.exposureVisitors(a.id, X, { to_ms: D2 })).toEqual({
          distinct: 3,
          byVariation: [
            { variation_id: "va", visitors: 1 },
            { variation_id: "vb", visitors: 2 },
          ],
        });
        expect(await s.exposureVisitors(a.id, "x_none")).toEqual({ distinct: 0, byVariation: [] });
      });

      it("resultsAggregate: first exposures per variation, day and split; goal sums per goal, variation and day of first conversion (hand-computed)", async () => {
        const a = await seedResults();
        expect(await s.resultsAggregate(a.id, X, GOALS)).toEqual({
          exposures: [
            { variation_id: "va", date: "2026-03-01", split: S1, visitors: 1, probability_sum: 0.5, probability_count: 1 },
            { variation_id: "va", date: "2026-03-02", split: null, visitors: 1, probability_sum: 0.5, probability_count: 1 },
            { variation_id: "va", date: "2026-03-02", split: S2, visitors: 1, probability_sum: 0, probability_count: 0 },
            { variation_id: "vb", date: "2026-03-01", split: S1, visitors: 2, probability_sum: 1, probability_count: 2 },
          ],
          goals: [
            sums("g1", "va", "2026-03-01", { post: 1, pre: 1, post_pre: 1, orders: 1, orders_squares: 1 }),
            sums("g1", "vb", "2026-03-01", { post: 1, orders: 1, orders_squares: 1 }),
            sums("g1", "vb", "2026-03-02", { post: 1, orders: 1, orders_squares: 1 }),
            sums("g2", "va", "2026-03-01", { post: 1, orders: 2, orders_squares: 4 }),
            sums("g2", "vb", null, { pre: 1 }),
            sums("g3", "va", "2026-03-01", {
              post: 1, pre: 1, post_pre: 1, value: 50, value_squares: 2500, pre_value: 20, pre_value_squares: 400, value_pre_value: 1000, orders: 2, orders_squares: 4, value_orders: 100,
            }),
            sums("g3", "va", "2026-03-02", { post: 1, value: 50, value_squares: 2500, orders: 1, orders_squares: 1, value_orders: 50 }),
            sums("g3", "vb", "2026-03-01", {
              visitors: 2, post: 2, pre: 1, post_pre: 1, value: 20.5, value_squares: 220.25, pre_value: 5, pre_value_squares: 25, value_pre_value: 40, orders: 2, orders_squares: 2, value_orders: 20.5,
            }),
          ],
        });
      });

      it("resultsAggregate in a date range: visitors first exposed in it, their conversions before its end", async () => {
        const a = await seedResults();
        expect(await s.resultsAggregate(a.id, X, GOALS, { from_ms: D1, to_ms: D2 })).toEqual({
          exposures: [
            { variation_id: "va", date: "2026-03-01", split: S1, visitors: 1, probability_sum: 0.5, probability_count: 1 },
            { variation_id: "vb", date: "2026-03-01", split: S1, visitors: 2, probability_sum: 1, probability_count: 2 },
          ],
          goals: [
            sums("g1", "va", "2026-03-01", { post: 1, pre: 1, post_pre: 1, orders: 1, orders_squares: 1 }),
            sums("g1", "vb", "2026-03-01", { post: 1, orders: 1, orders_squares: 1 }),
            sums("g2", "va", "2026-03-01", { post: 1, orders: 1, orders_squares: 1 }),
            sums("g2", "vb", null, { pre: 1 }),
            sums("g3", "va", "2026-03-01", {
              post: 1, pre: 1, post_pre: 1, value: 30, value_squares: 900, pre_value: 20, pre_value_squares: 400, value_pre_value: 600, orders: 1, orders_squares: 1, value_orders: 30,
            }),
            sums("g3", "vb", "2026-03-01", {
              visitors: 2, post: 2, pre: 1, post_pre: 1, value: 20.5, value_squares: 220.25, pre_value: 5, pre_value_squares: 25, value_pre_value: 40, orders: 2, orders_squares: 2, value_orders: 20.5,
            }),
          ],
        });
        expect(await s.resultsAggregate(a.id, X, GOALS, { from_ms: D2 })).toEqual({
          exposures: [
            { variation_id: "va", date: "2026-03-02", split: null, visitors: 1, probability_sum: 0.5, probability_count: 1 },
            { variation_id: "va", date: "2026-03-02", split: S2, visitors: 1, probability_sum: 0, probability_count: 0 },
          ],
          goals: [sums("g3", "va", "2026-03-02", { post: 1, value: 50, value_squares: 2500, orders: 1, orders_squares: 1, value_orders: 50 })],
        });
        // No goals: the exposures alone. An unknown experience: nothing.
        expect((await s.resultsAggregate(a.id, X, [], { from_ms: D1, to_ms: D2 })).goals).toEqual([]);
        expect(await s.resultsAggregate(a.id, "x_none", GOALS)).toEqual({ exposures: [], goals: [] });
      });

      it("resultsAggregate: a browser clock before 1970 gives no day; the last millisecond of 9999 is a day", async () => {
        const a = await newAccount();
        const LAST = 253_402_300_799_999;
        await s.commitClientWrites([
          exposuresWrite(a.id, "old", [xp("old", "va", -HOUR)]),
          exposuresWrite(a.id, "late", [xp("late", "vb", LAST - 1)]),
          eventsWrite(a.id, "old", [click("old-c", -HOUR / 2, "buy")]),
          eventsWrite(a.id, "late", [click("late-c", LAST, "buy")]),
        ]);
        expect(await s.resultsAggregate(a.id, X, [GOALS[1]!])).toEqual({
          exposures: [
            { variation_id: "va", date: null, split: S1, visitors: 1, probability_sum: 0.5, probability_count: 1 },
            { variation_id: "vb", date: "9999-12-31", split: S1, visitors: 1, probability_sum: 0.5, probability_count: 1 },
          ],
          goals: [sums("g2", "va", null, { post: 1, orders: 1, orders_squares: 1 }), sums("g2", "vb", "9999-12-31", { post: 1, orders: 1, orders_squares: 1 })],
        });
        expect(await s.exposureVisitors(a.id, X, { from_ms: 0 })).toEqual({ distinct: 1, byVariation: [{ variation_id: "vb", visitors: 1 }] });
      });

      it("resultsVersion: the account's revision, its last event's seq and the last exposure's seq; they grow with new rows only", async () => {
        const a = await newAccount();
        const v0 = await s.resultsVersion(a.id);
        expect(v0).toEqual({ revision: 1, eventSeq: 0, exposureSeq: v0.exposureSeq });

        await s.commitClientWrites([eventsWrite(a.id, "u1", [page("e1", D1, "shop.example", "/"), page("e2", D1, "shop.example", "/")])]);
        const v1 = await s.resultsVersion(a.id);
        expect(v1.eventSeq).toBe((await s.listEvents(a.id, 1))[0]!.seq);
        expect(v1.eventSeq).toBeGreaterThan(0);
        expect(v1.exposureSeq).toBe(v0.exposureSeq);

        await s.commitClientWrites([exposuresWrite(a.id, "u1", [xp("u1", "va", D1)])]);
        const v2 = await s.resultsVersion(a.id);
        expect(v2.exposureSeq).toBeGreaterThan(v1.exposureSeq);
        expect(v2.eventSeq).toBe(v1.eventSeq);

        // Duplicates store nothing: nothing moves.
        await s.commitClientWrites([eventsWrite(a.id, "u1", [page("e1", D1, "shop.example", "/")]), exposuresWrite(a.id, "u1", [xp("u1", "va", D1)])]);
        expect(await s.resultsVersion(a.id)).toEqual(v2);

        await s.commitClientWrites([eventsWrite(a.id, "u1", [page("e3", D1, "shop.example", "/")])]);
        const v3 = await s.resultsVersion(a.id);
        expect(v3.eventSeq).toBeGreaterThan(v2.eventSeq);
        await s.updateAccount(a.id, () => ({ name: "Renamed" }));
        const v4 = await s.resultsVersion(a.id);
        expect(v4).toEqual({ ...v3, revision: await revisionOf(a.id) });
        expect(v4.revision).toBeGreaterThan(v3.revision);
        // exposureSeq may be the account's last exposure or any account's (SQLite: one seek, no
        // index by account); either way an unknown account's is no later than the newest.
        const none = await s.resultsVersion("acc_none");
        expect(none).toEqual({ revision: 0, eventSeq: 0, exposureSeq: none.exposureSeq });
        expect(none.exposureSeq).toBeLessThanOrEqual(v4.exposureSeq);
      });

      /** PAGE views: a.example/p1 ×3 (v1, v1, v2), a.example/p2 (v3, and v6 on D2), b.example/p1 ×2 (v1, v4), c.example without a path (v4); a CLICK (v5). */
      async function seedPages() {
        const a = await newAccount();
        await s.commitClientWrites([
          eventsWrite(a.id, "v1", [page("p1", D1 + 1, "a.example", "/p1"), page("p2", D1 + 2, "a.example", "/p1"), page("p3", D1 + 3, "b.example", "/p1")]),
          eventsWrite(a.id, "v2", [page("p4", D1 + 4, "a.example", "/p1")]),
          eventsWrite(a.id, "v3", [page("p5", D1 + 5, "a.example", "/p2")]),
          eventsWrite(a.id, "v4", [page("p6", D1 + 6, "b.example", "/p1"), page("p7", D1 + 7, "c.example", undefined)]),
          eventsWrite(a.id, "v5", [{ ...click("c1", D1 + 8, "buy"), domain: "a.example", properties: { page_path: "/p1" } }]),
          eventsWrite(a.id, "v6", [page("p8", D2 + 1, "a.example", "/p2")]),
        ]);
        return a;
      }

      it("pageViews: PAGE views per domain (most first) and the most viewed pages (ties by domain and path), in a range", async () => {
        const a = await seedPages();
        expect(await s.pageViews(a.id, {}, 10)).toEqual({
          byDomain: [
            { domain: "a.example", views: 5 },
            { domain: "b.example", views: 2 },
            { domain: "c.example", views: 1 },
          ],
          pages: [
            { domain: "a.example", page_path: "/p1", views: 3 },
            { domain: "a.example", page_path: "/p2", views: 2 },
            { domain: "b.example", page_path: "/p1", views: 2 },
          ],
        });
        expect((await s.pageViews(a.id, {}, 2)).pages).toEqual([
          { domain: "a.example", page_path: "/p1", views: 3 },
          { domain: "a.example", page_path: "/p2", views: 2 },
        ]);
        expect(await s.pageViews(a.id, { from_ms: D1, to_ms: D2 }, 10)).toEqual({
          byDomain: [
            { domain: "a.example", views: 4 },
            { domain: "b.example", views: 2 },
            { domain: "c.example", views: 1 },
          ],
          pages: [
            { domain: "a.example", page_path: "/p1", views: 3 },
            { domain: "b.example", page_path: "/p1", views: 2 },
            { domain: "a.example", page_path: "/p2", views: 1 },
          ],
        });
        expect(await s.pageViews(a.id, { from_ms: D2 + 2 }, 10)).toEqual({ byDomain: [], pages: [] });
      });

      it("pageVisitors: distinct visitors with a PAGE view on one of these pages (domain and path as stored), in a range", async () => {
        const a = await seedPages();
        const p = (domain: string, page_path: string) => ({ domain, page_path });
        expect(await s.pageVisitors(a.id, {}, [p("a.example", "/p1"), p("b.example", "/p1")])).toBe(3);
        expect(await s.pageVisitors(a.id, {}, [p("a.example", "/p2")])).toBe(2);
        expect(await s.pageVisitors(a.id, { from_ms: D1, to_ms: D2 }, [p("a.example", "/p2")])).toBe(1);
        expect(await s.pageVisitors(a.id, { from_ms: D1 + 4 }, [p("a.example", "/p1")])).toBe(1);
        expect(await s.pageVisitors(a.id, {}, [p("b.example", "/p2")])).toBe(0);
        expect(await s.pageVisitors(a.id, {}, [])).toBe(0);
      });
    });

    describe("two nodes (two stores on one database)", () => {
      let nodes: OpenedStore | undefined;
      let s1: ContractStore;
      let s2: ContractStore;
      beforeAll(async () => {
        nodes = await open({ twoNodes: true });
        if (!nodes.reopen) throw new Error(`${name}: open({ twoNodes: true }) must give reopen()`);
        s1 = nodes.store;
        s2 = await nodes.reopen();
      }, 60_000);
      afterAll(async () => {
        await nodes?.close();
      }, 60_000);

      it("a write on one is read by the other at once", async () => {
        const a = await newAccount(s1);
        expect(await s2.getAccount(a.id)).toEqual(a);
        const renamed = await s1.updateAccount(a.id, () => ({ name: "Renamed" }));
        expect(await s2.getAccount(a.id)).toEqual(renamed);
        expect(await s2.getAccountRevision(a.client_key)).toEqual({ id: a.id, revision: renamed!.revision });

        const x = await s1.saveExperience(experience(a.id, unique("x"), { status: "running" }));
        expect(await s2.loadAccountSnapshot(a.id)).toEqual({ account: await s1.getAccount(a.id), experiences: [x], audiences: [] });
        expect(await s2.listRunningExperiences(a.id)).toEqual([x]);
        expect((await s2.getAccountRevision(a.client_key))!.revision).toBe(await revisionOf(a.id, s1));

        await s2.commitClientWrites([eventsWrite(a.id, "u1", [page("e1", D1, "shop.example", "/")]), decisionWrite(a.id, "u1", [assignment(x.id, "r1", "r1-va", 0.2)])]);
        expect(await s1.hasEvent(a.id, "e1")).toBe(true);
        expect(await s1.countEvents(a.id)).toBe(1);
        expect(sortedEntries(await s1.getAssignments(a.id, "u1"))).toEqual([[`${x.id}:r1`, assignment(x.id, "r1", "r1-va", 0.2)]]);

        const owner = operator(a.id, "owner");
        await s1.createOperator(owner);
        const token = unique("tok");
        await s1.createSession(token, owner.id, "csrf", Date.now() + HOUR);
        expect(await s2.getSession(token, Date.now())).toEqual({ operator_id: owner.id, csrf_token: "csrf" });
        await s2.deleteSession(token);
        expect(await s1.getSession(token, Date.now())).toBeNull();
      });

      it("20 concurrent updateExperience calls over both nodes, each appending to the name it reads, are all applied", async () => {
        const a = await newAccount(s1);
        const x = await s1.saveExperience(experience(a.id, unique("x"), { name: "n" }));
        const revision = await revisionOf(a.id, s1);
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => (i % 2 ? s2 : s1).updateExperience(a.id, x.id, (current) => ({ ...writable(current), name: `${current.name},${i}` }))),
        );
        expect(results.every((r) => r !== null)).toBe(true);
        const final = (await s2.getExperience(a.id, x.id))!;
        const parts = final.name.split(",");
        expect(parts[0]).toBe("n");
        expect(parts.slice(1).map(Number).sort((p, q) => p - q)).toEqual(Array.from({ length: 20 }, (_, i) => i));
        expect(await revisionOf(a.id, s2)).toBeGreaterThanOrEqual(revision + 20);
      });

      it("settings patches made at once on both nodes, each merged into the settings its change sees, are all kept", async () => {
        const a = await newAccount(s1);
        await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 ? s2 : s1).updateAccount(a.id, (current) => ({ settings: { ...current.settings, page_blacklist: [...current.settings.page_blacklist, `/p${i}`] } })),
          ),
        );
        const blacklist = (await s2.getAccount(a.id))!.settings.page_blacklist;
        expect([...blacklist].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `/p${i}`).sort());
      });

      it("an audience deleted on one node while an experience naming it is created on the other: never both", async () => {
        const a = await newAccount(s1);
        for (let round = 0; round < 5; round++) {
          const au = await s1.saveAudience(audience(a.id, unique("au")));
          const next = experience(a.id, unique("x"), { name: `Uses ${au.id}`, rules: [rule("r1", au.id)] });
          const unknown = new Error("unknown audience");
          const [created, deleted] = await Promise.allSettled([
            s1.createExperience(next, (ctx) => {
              if (!ctx.audienceIds.has(au.id)) throw unknown;
            }),
            s2.deleteAudience(a.id, au.id),
          ]);
          const stored = await s2.getExperience(a.id, next.id);
          const left = await s1.getAudience(a.id, au.id);
          if (created.status === "fulfilled") {
            expect(deleted).toEqual({ status: "fulfilled", value: { usedBy: [next.name] } });
            expect(stored).toEqual(created.value);
            expect(left).toEqual(au);
          } else {
            expect(created.reason).toBe(unknown);
            expect(deleted).toEqual({ status: "fulfilled", value: { deleted: true } });
            expect(stored).toBeNull();
            expect(left).toBeNull();
          }
        }
      });

      it("two owners demoting (or removing) each other at once, on two nodes, leave one owner", async () => {
        const a = await newAccount(s1);
        const first = operator(a.id, "owner");
        const second = operator(a.id, "owner");
        await s1.createOperator(first);
        await s1.createOperator(second);
        const demoted = await Promise.all([s1.updateOperatorRole(a.id, first.id, "editor"), s2.updateOperatorRole(a.id, second.id, "editor")]);
        expect(demoted.filter((r) => r === "last_owner")).toHaveLength(1);
        expect((await s1.listOperators(a.id)).filter((o) => o.role === "owner")).toHaveLength(1);

        const b = await newAccount(s1);
        const third = operator(b.id, "owner");
        const fourth = operator(b.id, "owner");
        await s2.createOperator(third);
        await s2.createOperator(fourth);
        const removed = await Promise.all([s1.deleteOperator(b.id, third.id), s2.deleteOperator(b.id, fourth.id)]);
        expect([...removed].sort()).toEqual(["last_owner", true].sort());
        const left = await s2.listOperators(b.id);
        expect(left).toHaveLength(1);
        expect(left[0]!.role).toBe("owner");
      });

      it("the same events and summaries committed at once on both nodes are stored once", async () => {
        const a = await newAccount(s1);
        const events = Array.from({ length: 10 }, (_, i) => page(`e${i}`, D1 + i, "shop.example", "/"));
        const summary: Exposure = { config_id: "cfg", user_id: "u1", user_customer_id: "c-u1", session_id: "s", requested_time: D1, variation_id: "va", experience_id: "x1" };
        const results = await Promise.all(
          events.flatMap((e) => [s1, s2].map((node) => node.commitClientWrites([eventsWrite(a.id, "u1", [e]), exposuresWrite(a.id, "u1", [summary])]))),
        );
        const total = (i: 0 | 1, key: "accepted" | "duplicates") => results.reduce((n, r) => n + r[i]![key], 0);
        expect([total(0, "accepted"), total(0, "duplicates")]).toEqual([10, 10]);
        expect([total(1, "accepted"), total(1, "duplicates")]).toEqual([1, 19]);
        expect(await s1.countRows("events", a.id)).toBe(10);
        expect(await s2.countRows("events", a.id)).toBe(10);
        expect(await s2.countRows("exposures", a.id)).toBe(1);
        expect(await s1.countEvents(a.id)).toBe(10);
      });

      it("one email added on both nodes at once is stored once; a service secret made on both at once is one value", async () => {
        const a = await newAccount(s1);
        const mine = operator(a.id, "editor");
        const theirs = { ...operator(a.id, "viewer"), email: mine.email };
        const created = await Promise.all([s1.createOperator(mine), s2.createOperator(theirs)]);
        expect([...created].sort()).toEqual([false, true]);
        const stored = await s2.getOperatorByEmail(mine.email);
        expect(stored).toEqual(created[0] ? mine : theirs);
        expect(await s1.listOperators(a.id)).toEqual([stored]);

        const secret = unique("secret");
        const values = await Promise.all([s1.serviceSecret(secret, () => "from node 1"), s2.serviceSecret(secret, () => "from node 2")]);
        expect(values[0]).toBe(values[1]);
        expect(await s1.serviceSecret(secret, () => "later")).toBe(values[0]);
      });
    });
  });
}
