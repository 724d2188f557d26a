// The store's connections to PostgreSQL: one pool per store (per node), statements on any pooled
// connection, and transactions on one connection, which no other caller uses until it ends.

import pg from "pg";
import type { Account } from "../types.js";
import { accountFromRow } from "../rows.js";

export type Row = Record<string, unknown>;

/** Where a statement runs: the pool (any free connection) or a transaction's own connection. */
export type Queryable = pg.Pool | pg.PoolClient;

const { builtins } = pg.types;

/**
 * bigint columns and counts (int8) and sums of integers (numeric) read as JS numbers: node-postgres
 * answers them as text by default. Every such value the store reads fits in a double (seqs,
 * counts, millisecond times). Set on the pool, not on pg.types, so no other user of `pg` in the
 * process is changed.
 */
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: (oid, format) => (oid === builtins.INT8 || oid === builtins.NUMERIC ? Number : pg.types.getTypeParser(oid, format)),
};

export function openPool(url: string, size: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: size,
    types: TYPES,
    // A database that is down or saturated answers "busy" (503, store/errors.ts) within seconds
    // instead of holding requests, and a node, forever. A lock held longer than SQLite's
    // busy_timeout (5 s) by another node's transaction is the same "busy".
    connectionTimeoutMillis: 5_000,
    options: "-c lock_timeout=5000",
  });
  // An idle connection that breaks (the server restarts, the database is dropped) is reported
  // here and dropped from the pool; the next query opens a new one. Without a listener, the
  // event would end the process.
  pool.on("error", () => {});
  return pool;
}

const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A string as PostgreSQL stores it. Its text cannot hold U+0000, which a client may send in any
 * string: it becomes U+FFFD, as a lone surrogate does (the UTF-8 encoding of a parameter already
 * turns it into U+FFFD; done here too so that keys compared in JS match the stored ones).
 */
export const storableText = (s: string): string => s.replace(UNSTORABLE, "\ufffd");

const storable = (value: unknown): unknown => {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) return value.map(storable);
  return value;
};

/**
 * The rows of one statement. A `name` prepares it once per connection and reuses the plan: for
 * the statements of the client API's hot path.
 */
export async function query<R = Row>(db: Queryable, text: string, params: readonly unknown[] = [], name?: string): Promise<R[]> {
  const result = await db.query({ text, values: params.map(storable), ...(name ? { name } : {}) });
  return result.rows as R[];
}

/** The number of rows one statement wrote. */
export async function execute(db: Queryable, text: string, params: readonly unknown[] = []): Promise<number> {
  const result = await db.query(text, params.map(storable));
  return result.rowCount ?? 0;
}

/**
 * A value as jsonb text. jsonb refuses the escapes \u0000 and lone surrogates (\ud800 alone),
 * which JSON.stringify writes for such characters of a string: each becomes \ufffd. Every other
 * escape (\\ too) is kept, so the match starts at an escape's backslash, never in its middle.
 */
export const jsonb = (value: unknown): string =>
  JSON.stringify(value).replace(/\\(?:u(?:0000|d[89a-f][0-9a-f]{2})|.)/g, (escape) => (escape.length === 6 ? "\\ufffd" : escape));

/** PostgreSQL aborted the transaction to break a deadlock (or a serialization conflict): running it again succeeds. */
const RETRIED_CODES = new Set(["40P01", "40001"]);
const ATTEMPTS = 3;

/**
 * Runs `fn` in one transaction on one pooled connection: committed when it resolves, rolled back
 * when it throws, and the error rethrown unchanged. A transaction PostgreSQL aborted to break a
 * deadlock is run again (`fn` with it, so `fn` must only read and write through `client`).
 */
export async function transaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>, begin = "BEGIN"): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query(begin);
      const result = await fn(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      broken = await client.query("ROLLBACK").then(
        () => undefined,
        (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
      );
      if (attempt < ATTEMPTS && RETRIED_CODES.has((error as { code?: unknown }).code as string)) continue;
      throw error;
    } finally {
      // A connection that could not even roll back is in an unknown state: the pool closes it.
      client.release(broken);
    }
  }
}

/** Reads that must see one consistent state of the database (one snapshot for all statements). */
export function snapshot<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return transaction(pool, fn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
}

/**
 * The account, its row locked until the transaction ends: the first step of every atomic write,
 * so writers of one account take turns, on every node, and each reads what the one before it
 * committed. Null: no such account.
 */
export async function lockedAccount(client: pg.PoolClient, accountId: string): Promise<Account | null> {
  const [row] = await query(client, "SELECT * FROM accounts WHERE id = $1 FOR UPDATE", [accountId]);
  return row ? accountFromRow(row) : null;
}
