// Both store backends for tests that must hold on each: a new, migrated database per call (a
// SQLite file in a folder of its own, or a fresh database on the run's PostgreSQL), one or more
// nodes on it, a connection of its own for the SQL the Store interface does not show, and cleanup
// when the test ends.
//
//   describe.each(BACKENDS)("… on %s", (name) => {
//     it("…", async () => {
//       const { store, query } = await openBackend(name);
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { onTestFinished } from "vitest";
import { openPostgresStore } from "../../src/store/postgres/index.js";
import type { PostgresStore } from "../../src/store/postgres/index.js";
import { openSqliteStore } from "../../src/store/sqlite/index.js";
import type { SqliteStore } from "../../src/store/sqlite/index.js";
import type { Store } from "../../src/store/types.js";
import { freshDatabase } from "./postgres.js";

export const BACKENDS = ["sqlite", "postgres"] as const;
export type BackendName = (typeof BACKENDS)[number];

export type Backend<S extends Store = Store> = {
  /** The first node: "the" store of a test with one. */
  store: S;
  /** Every node, `store` first: stores on the same database, as separate processes would have it, each with connections of its own. */
  nodes: S[];
  /**
   * SQL on a connection no node uses, so it sees what is committed, as another node would. The
   * rows as objects; PostgreSQL's bigint columns as numbers, as SQLite gives them (the stores do
   * the same), so one statement serves both backends.
   */
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Statements without parameters (one or several, as a migration's SQL; rows, if any, are dropped), on that connection. */
  exec(text: string): Promise<void>;
  /** Closes the connections and removes the database; also done when the test ends. */
  close(): Promise<void>;
};

const { builtins } = pg.types;
const NUMBERS: pg.CustomTypesConfig = {
  getTypeParser: (oid, format) => (oid === builtins.INT8 || oid === builtins.NUMERIC ? Number : pg.types.getTypeParser(oid, format)),
};

export type BackendOptions = { nodes?: number };

/**
 * A new database on `name` with `nodes` stores on it (default 1), migrated by the first. SQLite
 * is a file, as in production, so that more nodes and the query connection can share it. Call it
 * inside a test: everything is closed when the test ends (onTestFinished), passed or failed.
 */
export async function openBackend(name: "sqlite", options?: BackendOptions): Promise<Backend<SqliteStore>>;
export async function openBackend(name: "postgres", options?: BackendOptions): Promise<Backend<PostgresStore>>;
export async function openBackend(name: BackendName, options?: BackendOptions): Promise<Backend>;
export async function openBackend(name: BackendName, { nodes = 1 }: BackendOptions = {}): Promise<Backend> {
  const backend = name === "sqlite" ? openSqlite(nodes) : await openPostgres(nodes);
  onTestFinished(() => backend.close());
  return backend;
}

function openSqlite(count: number): Backend<SqliteStore> {
  const dir = mkdtempSync(join(tmpdir(), "storefit-test-store-"));
  const file = join(dir, "store.sqlite");
  const first = openSqliteStore(file);
  first.migrate();
  const nodes = [first, ...Array.from({ length: count - 1 }, () => openSqliteStore(file))];
  const raw = new Database(file);
  let closing: Promise<void> | undefined;
  return {
    store: first,
    nodes,
    query: async <R>(text: string, params: unknown[] = []) => raw.prepare(text).all(...params) as R[],
    exec: async (text) => void raw.exec(text),
    close: () =>
      (closing ??= (async () => {
        raw.close();
        for (const node of nodes) node.close();
        rmSync(dir, { recursive: true, force: true });
      })()),
  };
}

async function openPostgres(count: number): Promise<Backend<PostgresStore>> {
  const database = await freshDatabase();
  const nodes: PostgresStore[] = [];
  const raw = new pg.Client({ connectionString: database.url, types: NUMBERS });
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await raw.end().catch(() => {});
      for (const node of nodes) await node.close();
      await database.drop();
    })());
  try {
    for (let i = 0; i < count; i++) nodes.push(await openPostgresStore(database.url));
    await nodes[0]!.migrate();
    await raw.connect();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    store: nodes[0]!,
    nodes,
    query: async <R>(text: string, params?: unknown[]) => (await raw.query(text, params)).rows as R[],
    exec: async (text) => void (await raw.query(text)),
    close,
  };
}
