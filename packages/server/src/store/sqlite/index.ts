// The Store on SQLite (better-sqlite3): synchronous, in-process, one file in DATA_DIR; the
// default for `npm start`. One module per concern; each answers synchronously, which the
// `Awaitable` interface allows.

import { MIGRATIONS } from "../migrations.js";
import type { Store, StoreInspection, Sync } from "../types.js";
import { sqliteAccounts } from "./accounts.js";
import { sqliteClientWrites } from "./client-writes.js";
import { SqliteDb } from "./db.js";
import { sqliteEvents } from "./events.js";
import { sqliteEventNames } from "./event-names.js";
import { sqliteExperiences } from "./experiences.js";
import { sqliteInspection } from "./inspection.js";
import { ReadWorker, readWorkerScript } from "./read-worker.js";
import { sqliteResults } from "./results.js";
import type { PageReads, RangedResultsReads } from "./results.js";

/**
 * Synchronous but for foldResults (a build from nothing yields to the event loop), the results in
 * a date range and the page views and visitors (the read worker, read-worker.ts): tests read its
 * other answers without awaiting.
 * `sqlite`: the connection, for tests and tools; `reader`: the read worker (null in memory).
 */
export type SqliteStore = Sync<Omit<Store, "foldResults" | "resultsAggregate" | "exposureVisitors" | PageReads> & StoreInspection> &
  Pick<Store, "foldResults" | PageReads> &
  RangedResultsReads & { readonly sqlite: SqliteDb; readonly reader: ReadWorker | null };

/** Opens (or creates) the database in `file`, or a throwaway one for ":memory:". Call `migrate()` before use. */
export function openSqliteStore(file: string): SqliteStore {
  const d = new SqliteDb(file);
  // Another connection cannot open a ":memory:" (or "", a temporary) database: read it here.
  const script = file === ":memory:" || file === "" ? null : readWorkerScript();
  const reader = script ? new ReadWorker(file, script) : null;
  return {
    migrate(): void {
      d.db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
      const done = new Set(d.db.prepare("SELECT version FROM schema_migrations").pluck(true).all() as number[]);
      for (const m of MIGRATIONS) {
        if (done.has(m.version)) continue;
        d.write(() => {
          d.db.exec(m.sql);
          d.db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, new Date().toISOString());
        });
      }
      d.forgetStatements();
    },
    close: () => {
      reader?.close();
      d.close();
    },
    sqlite: d,
    reader,
    ...sqliteAccounts(d),
    ...sqliteExperiences(d),
    ...sqliteClientWrites(d),
    ...sqliteEvents(d),
    ...sqliteEventNames(d),
    ...sqliteResults(d, reader),
    ...sqliteInspection(d),
  };
}
