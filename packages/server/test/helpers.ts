import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { afterEach, beforeEach, vi } from "vitest";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { Role, SessionInfo, TrackedEvent } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import type { AppOptions } from "../src/app.js";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/index.js";
import { seedDemo, DEMO_CLIENT_KEY } from "../src/seed/demo.js";
import { hashPassword } from "../src/auth/password.js";
import type { Account, Exposure, InsertResult } from "../src/store/types.js";

export const OWNER = { email: "owner@test.example", password: "correct horse battery" };
export const SHOP_ORIGIN = "http://littlesprouts.localhost:4200";
export const UK_ORIGIN = "http://littlesprouts-uk.localhost:4200";
export const FIXED_NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
export const FORM = "application/x-www-form-urlencoded";
/** The password of every operator the tests add (hashed once per test file: scrypt is slow on purpose). */
export const MEMBER_PASSWORD = "member-password-123";

let templateFile: Promise<string> | null = null;

/**
 * The demo seed, once per test file, in a real SQLite file; each app gets its own copy. Seeding
 * hashes the owner's password with scrypt, which is slow by design; copying a file is not.
 */
function seededTemplate(): Promise<string> {
  templateFile ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), "storefit-template-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "template.sqlite");
    const store = openSqliteStore(file);
    store.migrate();
    await seedDemo(store, OWNER);
    store.close();
    return file;
  })();
  return templateFile;
}

let memberHash: Promise<string> | null = null;
export const memberPasswordHash = () => (memberHash ??= hashPassword(MEMBER_PASSWORD));

export type TestApp = {
  app: FastifyInstance;
  store: SqliteStore;
  account: Account;
  /** The SQLite file, for a second "node" on the same database. */
  file: string;
  close: () => Promise<void>;
};

/** A fresh app on a fresh real SQLite database, seeded with the demo account. */
export async function makeApp(options: Partial<AppOptions> = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), "storefit-test-"));
  const file = join(dir, "storefit.sqlite");
  copyFileSync(await seededTemplate(), file);
  const store = openSqliteStore(file);
  store.migrate();
  const app = await buildApp({ store, clock: () => FIXED_NOW, ...options });
  const account = store.getAccountByClientKey(DEMO_CLIENT_KEY)!;
  return {
    app,
    store,
    account,
    file,
    close: async () => {
      await app.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function user(id = "visitor-1", extra: Record<string, unknown> = {}) {
  return { user_customer_id: id, anonymous: true, ...extra };
}

/** How a test calls the admin API: as a signed-in operator (cookie + CSRF) or with a secret key. */
export type Auth = { cookie: string; csrf: string } | { bearer: string } | null;

export async function signIn(app: FastifyInstance, creds = OWNER): Promise<{ cookie: string; csrf: string; session: SessionInfo }> {
  const res = await app.inject({ method: "POST", url: "/api/session", payload: creds });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === "storefit_session")!;
  const session = res.json() as SessionInfo;
  return { cookie: `storefit_session=${cookie.value}`, csrf: session.csrf_token, session };
}

export function call(
  app: FastifyInstance,
  auth: Auth,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const h: Record<string, string> = {};
  if (auth && "cookie" in auth) {
    h.cookie = auth.cookie;
    h["x-csrf-token"] = auth.csrf;
  } else if (auth) {
    h.authorization = `Bearer ${auth.bearer}`;
  }
  if (body !== undefined) h["content-type"] = "application/json";
  return app.inject({
    method,
    url,
    headers: { ...h, ...headers },
    ...(body !== undefined ? { payload: typeof body === "string" ? body : JSON.stringify(body) } : {}),
  });
}

/** Adds an operator with MEMBER_PASSWORD to an account, straight into the store. */
export async function addOperator(store: SqliteStore, accountId: string, email: string, role: Role): Promise<void> {
  store.createOperator({ id: `op_${email.replace(/[^a-z0-9]/gi, "_")}`, account_id: accountId, email, password_hash: await memberPasswordHash(), role });
}

export const OTHER = {
  accountId: "acc_other",
  clientKey: "ck_other_shop",
  domain: "other-shop.example",
  owner: { email: "owner@other-shop.example", password: MEMBER_PASSWORD },
};

/** A second account with its own owner, for the tests that one account never reaches another. */
export async function addOtherAccount(store: SqliteStore): Promise<Account> {
  const account = store.createAccount({
    id: OTHER.accountId,
    name: "Other Shop",
    client_key: OTHER.clientKey,
    settings: { ...SETTINGS_DEFAULTS, domain: OTHER.domain },
  });
  await addOperator(store, account.id, OTHER.owner.email, "owner");
  return account;
}

/** A minimal valid experience body (product.md §3): one rule for everyone, two variations. */
export function experienceBody(overrides: Record<string, unknown> = {}) {
  return {
    name: "Hero headline test",
    kind: "ab_test",
    priority: 3,
    pages: [{ domain: "littlesprouts.localhost", page_path: "/", page_match: "exact_match" }],
    rules: [
      {
        id: "rule_all",
        audience_id: null,
        behaviour: {
          id: "beh_hero",
          name: "Headline",
          traffic_allocation: 1,
          variations: [
            {
              id: "var_a",
              name: "A",
              weight: 1,
              configs: [
                {
                  config_customer_id: "hero_title",
                  config_id: "cfg_hero_title",
                  variation_data_type: "HTML_ELEMENT",
                  variation: { innerHTML: "Gentle care, happy skin" },
                  properties: { element_path: "#hero-title", domain: "littlesprouts.localhost" },
                },
              ],
            },
            {
              id: "var_b",
              name: "B",
              weight: 1,
              configs: [
                {
                  config_customer_id: "hero_title",
                  config_id: "cfg_hero_title",
                  variation_data_type: "HTML_ELEMENT",
                  variation: { innerHTML: "Skincare made for little ones" },
                  properties: { element_path: "#hero-title", domain: "littlesprouts.localhost" },
                },
              ],
            },
          ],
        },
      },
    ],
    ...overrides,
  };
}

export { DEMO_CLIENT_KEY };

/**
 * Plays another node (a second connection to the same SQLite file) that tries `write` while the
 * app's store is inside one of its atomic writes, as soon as that write runs its first statement.
 * With busy_timeout 0, a write that has to wait for the store's write lock fails at once with
 * SQLITE_BUSY: "waited". "landed": it committed inside the store's read-check-write. null: the
 * request made no atomic write.
 */
export function anotherNodeWritesAt(t: TestApp, write: (nodeB: SqliteStore) => void) {
  const nodeB = openSqliteStore(t.file);
  nodeB.sqlite.db.pragma("busy_timeout = 0");
  const d = t.store.sqlite;
  const original = d.sql.bind(d);
  let outcome: "landed" | "waited" | null = null;
  const spy = vi.spyOn(d, "sql").mockImplementation((text: string) => {
    if (outcome === null && d.writing) {
      try {
        write(nodeB);
        outcome = "landed";
      } catch (e) {
        if ((e as { code?: string }).code !== "SQLITE_BUSY") throw e;
        outcome = "waited";
      }
    }
    return original(text);
  });
  return {
    outcome: () => outcome,
    done: () => {
      spy.mockRestore();
      nodeB.close();
    },
  };
}

/**
 * A fresh app on a fresh seeded database for each test of the file, with its owner signed in:
 * `set` receives both before every test; the app is closed after it.
 */
export function signedInEachTest(set: (t: TestApp, owner: Auth) => void): void {
  let current: TestApp | undefined;
  beforeEach(async () => {
    current = await makeApp();
    set(current, await signIn(current.app));
  });
  afterEach(async () => {
    await current?.close();
  });
}

/** Events stored as one client write (the client API's path), for tests that need history. */
export function insertEvents(store: SqliteStore, accountId: string, userId: string, events: readonly TrackedEvent[], now: string): InsertResult {
  return store.commitClientWrites([{ kind: "events", accountId, userId, user: { user_customer_id: userId, anonymous: true }, touch: false, events, now }])[0]!;
}

/** Config summaries stored as one client write. */
export function insertExposures(store: SqliteStore, accountId: string, exposures: readonly Exposure[], now: string): InsertResult {
  return store.commitClientWrites([{ kind: "exposures", accountId, userId: exposures[0]?.user_id ?? "", user: { user_customer_id: exposures[0]?.user_customer_id ?? "", anonymous: true }, touch: false, exposures, now }])[0]!;
}
