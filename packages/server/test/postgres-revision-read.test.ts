// On PostgreSQL the config call's revision read also reads the stored assignments of the visitors
// it is given (store/postgres/accounts.ts getAccountRevision), in the same statement: one round
// trip for the account's revision and every visitor new to the node in that read.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import pg from "pg";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import { openPostgresStore } from "../src/store/postgres/index.js";
import type { PostgresStore } from "../src/store/postgres/index.js";
import type { Assignment } from "../src/store/types.js";
import { freshDatabase } from "./support/postgres.js";
import type { FreshDatabase } from "./support/postgres.js";

const NOW = new Date().toISOString();
const ACC = "acc_rev";
const assignment = (exp: string, variation: string): Assignment => ({ experience_id: exp, rule_id: "r1", behaviour_id: "b", variation_id: variation, probability: 0.5, split: '{"va":0.5,"vb":0.5}' });

let db: FreshDatabase;
let store: PostgresStore;

beforeAll(async () => {
  db = await freshDatabase();
  store = await openPostgresStore(db.url);
  await store.migrate();
  await store.createAccount({ id: ACC, name: "Shop", client_key: "key-rev", settings: { ...SETTINGS_DEFAULTS, domain: "shop.example" } });
  await store.commitClientWrites([
    { kind: "decision", accountId: ACC, userId: "u_stored", user: { user_customer_id: "c1", anonymous: true }, assignments: [assignment("e1", "va"), assignment("e2", "vb")], now: NOW },
  ]);
});

afterAll(async () => {
  await store?.close();
  await db?.drop();
});

describe("getAccountRevision with visitors (PostgreSQL)", () => {
  it("answers the revision and each visitor's stored assignments, none for a visitor not stored, in one statement", async () => {
    const sent = vi.spyOn(pg.Client.prototype, "query");
    let read;
    try {
      read = await store.getAccountRevision("key-rev", ["u_stored", "u_new", "bad\u0000id"]);
      expect(sent).toHaveBeenCalledTimes(1);
    } finally {
      sent.mockRestore();
    }
    const plain = await store.getAccountRevision("key-rev");
    expect(read).toMatchObject({ id: ACC, revision: plain!.revision });
    expect(plain!.assignments).toBeUndefined();
    expect(read!.assignments!.get("u_stored")).toEqual(await store.getAssignments(ACC, "u_stored"));
    expect([...read!.assignments!.get("u_stored")!.values()].map((a) => a.variation_id).sort()).toEqual(["va", "vb"]);
    expect(read!.assignments!.get("u_new")!.size).toBe(0);
    expect(read!.assignments!.get("bad\u0000id")!.size).toBe(0);
  });

  it("answers null for an unknown key, with visitors or without", async () => {
    expect(await store.getAccountRevision("key-none", ["u_stored"])).toBeNull();
    expect(await store.getAccountRevision("key-none")).toBeNull();
  });
});
