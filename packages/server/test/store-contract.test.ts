// The store contract (store-contract.ts) run against each backend: SQLite (":memory:", and a
// file that two stores open for the two-node tests) and PostgreSQL (a fresh database of the
// test server per run, two stores on it for two nodes).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe } from "vitest";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { Store, StoreInspection } from "../src/store/types.js";
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

// The PostgreSQL store is loaded by path, so that this file runs (and type-checks) before it exists.
const POSTGRES_MODULE = "../src/store/postgres/index.ts";
const postgresMissing = !existsSync(fileURLToPath(new URL(POSTGRES_MODULE, import.meta.url)));
type OpenPostgres = (url: string) => Promise<Store & StoreInspection>;

describe.skipIf(postgresMissing)(postgresMissing ? `postgres: skipped, ${POSTGRES_MODULE.slice(3)} does not exist yet` : "postgres", () => {
  storeContract("postgres", async (): Promise<OpenedStore> => {
    const { openPostgresStore } = (await import(/* @vite-ignore */ POSTGRES_MODULE)) as { openPostgresStore: OpenPostgres };
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
});
