// What tests and benchmarks read besides the service's interface, on SQLite.

import type { CountedTable, StoreInspection, StoredExposure, Sync } from "../types.js";
import { exposureFromRow } from "../rows.js";
import type { Row, SqliteDb } from "./db.js";

const COUNTS: Record<CountedTable, string> = {
  visitors: "SELECT count(*) FROM visitors WHERE account_id = ?",
  // Assignments live in each visitor's JSON object, one key per experience and rule.
  assignments: "SELECT count(*) FROM visitors, json_each(visitors.assignments_json) WHERE visitors.account_id = ?",
  events: "SELECT count(*) FROM events WHERE account_id = ?",
  exposures: "SELECT count(*) FROM exposures WHERE account_id = ?",
  devices: "SELECT count(*) FROM devices WHERE account_id = ?",
  alerts: "SELECT count(*) FROM alerts WHERE account_id = ?",
};

export function sqliteInspection(d: SqliteDb): Sync<StoreInspection> {
  return {
    countRows: (table, accountId) => d.sql(COUNTS[table]).pluck(true).get(accountId) as number,

    listExposures(accountId: string, limit: number): StoredExposure[] {
      return (d.sql("SELECT * FROM exposures WHERE account_id = ? ORDER BY seq DESC LIMIT ?").all(accountId, limit) as Row[]).map(exposureFromRow);
    },

    appliedMigrations: () => d.sql("SELECT version FROM schema_migrations ORDER BY version").pluck(true).all() as number[],
  };
}
