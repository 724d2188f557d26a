// The Store on PostgreSQL (node-postgres, one pool per node): for several stateless nodes on one
// database. One module per concern, each a function of the pool answering its methods; every
// method answers a promise. Atomic operations are one transaction on one pooled connection that
// first locks the account's row (db.ts), so no transaction ever waits on the caller.

import type { Store, StoreInspection } from "../types.js";
import { postgresAccounts } from "./accounts.js";
import { postgresClientWrites } from "./client-writes.js";
import { openPool } from "./db.js";
import { postgresEvents } from "./events.js";
import { postgresEventNames } from "./event-names.js";
import { postgresExperiences } from "./experiences.js";
import { postgresInspection } from "./inspection.js";
import { migrate } from "./migrations.js";
import { postgresResults } from "./results.js";

export type PostgresStore = Store & StoreInspection;

/** Connections per node unless told: the client API's group commit uses one, the admin API and the results the rest. */
const DEFAULT_POOL_SIZE = 10;
const PARTITION_CHECK_MS = 24 * 3600 * 1000;

/**
 * A store on the database at `url` (postgres://user:password@host:port/database). No connection
 * is made until the first call; call `migrate()` before use.
 */
export async function openPostgresStore(url: string, opts: { poolSize?: number } = {}): Promise<PostgresStore> {
  const pool = openPool(url, opts.poolSize ?? DEFAULT_POOL_SIZE);
  let closed: Promise<void> | undefined;
  // Next months' partitions, made while the node runs (migrate() is a no-op otherwise): a node up
  // for months would else put their rows into the DEFAULT partition.
  let partitions: NodeJS.Timeout | undefined;
  return {
    migrate: async () => {
      await migrate(pool);
      partitions ??= setInterval(() => void migrate(pool).catch(() => {}), PARTITION_CHECK_MS).unref();
    },
    close: () => {
      clearInterval(partitions);
      // Once: node-postgres refuses to end a pool twice.
      return (closed ??= pool.end());
    },
    ...postgresAccounts(pool),
    ...postgresExperiences(pool),
    ...postgresClientWrites(pool),
    ...postgresEvents(pool),
    ...postgresEventNames(pool),
    ...postgresResults(pool),
    ...postgresInspection(pool),
  };
}
