// What tests and benchmarks read besides the service's interface, on PostgreSQL.

import type pg from "pg";
import type { CountedTable, StoreInspection, StoredExposure } from "../types.js";
import { query } from "./db.js";
import { exposureFromRow } from "../rows.js";

const COUNTS: Record<CountedTable, string> = {
  visitors: "SELECT count(*) AS n FROM visitors WHERE account_id = $1",
  // Assignments live in each visitor's jsonb object, one key per experience and rule.
  assignments: "SELECT count(*) AS n FROM visitors, jsonb_object_keys(visitors.assignments_json) WHERE visitors.account_id = $1",
  events: "SELECT count(*) AS n FROM events WHERE account_id = $1",
  exposures: "SELECT count(*) AS n FROM exposures WHERE account_id = $1",
  devices: "SELECT count(*) AS n FROM devices WHERE account_id = $1",
  alerts: "SELECT count(*) AS n FROM alerts WHERE account_id = $1",
};

export function postgresInspection(pool: pg.Pool): StoreInspection {
  return {
    async countRows(table: CountedTable, accountId: string): Promise<number> {
      const [row] = await query<{ n: number }>(pool, COUNTS[table], [accountId]);
      return row!.n;
    },

    async listExposures(accountId: string, limit: number): Promise<StoredExposure[]> {
      return (await query(pool, "SELECT * FROM exposures WHERE account_id = $1 ORDER BY seq DESC LIMIT $2", [accountId, limit])).map(exposureFromRow);
    },

    async appliedMigrations(): Promise<number[]> {
      return (await query<{ version: number }>(pool, "SELECT version FROM schema_migrations ORDER BY version")).map((r) => r.version);
    },
  };
}
