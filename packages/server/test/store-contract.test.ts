// The store contract (store-contract.ts) run against each backend: SQLite (":memory:", and a
// file that two stores open for the two-node tests) and PostgreSQL (a fresh database on the
// test server, with a second store on it for the two-node tests).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPostgresStore } from "../src/store/postgres/index.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import { storeContract } from "./store-contract.js";
import type { ContractStore, OpenOptions, OpenedStore } from "./store-contract.js";
import { freshDatabase } from "./support/postgres.js";

storeContract("sqlite", async (options?: OpenOptions): Promise<OpenedStore> => {
  if (!options?.twoNodes) {
    const store = openSqliteStore(":memory:");
    await store.migrate();
    return { store, close: async () => store.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), "storefit-contract-"));
  const file = join(dir, "store.sqlite");
  const stores: ContractStore[] = [];
  const openOne = async () => {
    const store = openSqliteStore(file);
    stores.push(store);
    await store.migrate();
    return store;
  };
  return {
    store: await openOne(),
    reopen: openOne,
    close: async () => {
      for (const store of stores) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

storeContract("postgres", async (): Promise<OpenedStore> => {
  const database = await freshDatabase();
  const stores: ContractStore[] = [];
  const openOne = async () => {
    const store = await openPostgresStore(database.url);
    stores.push(store);
    await store.migrate();
    return store;
  };
  return {
    store: await openOne(),
    reopen: openOne,
    close: async () => {
      for (const store of stores) await store.close();
      await database.drop();
    },
  };
});
