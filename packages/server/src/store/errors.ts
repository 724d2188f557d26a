// Errors of either backend that mean "busy: try again in a moment". Nothing was written (the
// transaction rolled back), so the service answers 503 with Retry-After instead of 500.

/** SQLite: another node (process) held the write lock past busy_timeout. */
const SQLITE_BUSY = new Set(["SQLITE_BUSY", "SQLITE_LOCKED"]);

/**
 * PostgreSQL: a lock or statement time-out, a deadlock or serialization failure that survived
 * the store's retries, too many connections, a server starting or shutting down; and the
 * network errors of a database that cannot be reached.
 */
const POSTGRES_BUSY = new Set(["55P03", "57014", "40001", "40P01", "53300", "57P01", "57P03", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE"]);

/** Either backend: another request's results build held the state past the wait (results/build.ts). */
const RESULTS_BUILDING = "STOREFIT_RESULTS_BUILDING";

export function isStoreBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (SQLITE_BUSY.has(code) || POSTGRES_BUSY.has(code) || code === RESULTS_BUILDING)) return true;
  // node-postgres' pool, when no connection frees up within connectionTimeoutMillis.
  return err instanceof Error && /timeout exceeded when trying to connect|Connection terminated/.test(err.message);
}
