// On PostgreSQL a batch of config calls' writes (decisions only) is committed as one statement,
// without BEGIN and COMMIT (store/postgres/client-writes.ts): one round trip. The statement is
// atomic by itself — a batch with a row the table refuses stores none of its rows — and a batch
// with any other write still runs in a transaction.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import pg from "pg";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { User } from "@storefit/contract";
import { openPostgresStore } from "../src/store/postgres/index.js";
import type { PostgresStore } from "../src/store/postgres/index.js";
import type { Assignment, ClientWrite } from "../src/store/types.js";
import { freshDatabase } from "./support/postgres.js";
import type { FreshDatabase } from "./support/postgres.js";

const NOW = new Date().toISOString();
const ACC = "acc_commit";
const visitor = (id: string): User => ({ user_customer_id: id, anonymous: true });
const assignment = (exp: string): Assignment => ({ experience_id: exp, rule_id: "r1", behaviour_id: "b", variation_id: "va", probability: 0.5, split: '{"va":0.5}' });
const decision = (userId: string, user: User = visitor(userId)): ClientWrite => ({ kind: "decision", accountId: ACC, userId, user, assignments: [assignment("e1")], now: NOW });

let db: FreshDatabase;
let store: PostgresStore;

beforeAll(async () => {
  db = await freshDatabase();
  store = await openPostgresStore(db.url);
  await store.migrate();
  await store.createAccount({ id: ACC, name: "Shop", client_key: "key-commit", settings: { ...SETTINGS_DEFAULTS, domain: "shop.example" } });
});

afterAll(async () => {
  await store?.close();
  await db?.drop();
});

/** The first word of each statement the store sends while `fn` runs. */
async function statements(fn: () => unknown): Promise<string[]> {
  const sent: string[] = [];
  const real = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    sent.push(typeof first === "string" ? first : String((first as { text?: unknown }).text));
    return real.apply(this, args) as never;
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return sent.map((s) => s.trim().split(/\s+/)[0]!.toUpperCase());
}

describe("a batch of config calls' writes on PostgreSQL", () => {
  it("is one statement, without BEGIN and COMMIT, and stores every visitor of the batch", async () => {
    const sent = await statements(() => store.commitClientWrites([decision("u1"), decision("u2"), decision("u1")]));
    expect(sent).toEqual(["INSERT"]);
    expect([...(await store.getAssignments(ACC, "u1")).keys()]).toEqual(["e1:r1"]);
    expect([...(await store.getAssignments(ACC, "u2")).keys()]).toEqual(["e1:r1"]);
  });

  it("stores none of its rows when the table refuses one (the statement is atomic)", async () => {
    const refused = decision("u4", { anonymous: true } as unknown as User); // no user_customer_id: NOT NULL
    await expect(store.commitClientWrites([decision("u3"), refused])).rejects.toThrow();
    expect((await store.getAssignments(ACC, "u3")).size).toBe(0);
  });

  it("runs in a transaction when the batch holds any other write", async () => {
    const events: ClientWrite = { kind: "events", accountId: ACC, userId: "u5", user: visitor("u5"), touch: true, events: [], now: NOW };
    const sent = await statements(() => store.commitClientWrites([decision("u5"), events]));
    expect(sent[0]).toBe("BEGIN");
    expect(sent[sent.length - 1]).toBe("COMMIT");
  });
});
