// The event names the goal editor offers (GET /api/events/names), on PostgreSQL.

import type pg from "pg";
import { GOAL_EVENT_NAME_MAX } from "../types.js";
import type { EventNameStore, RecentEventNames } from "../types.js";
import { snapshot, query } from "./db.js";

export function postgresEventNames(pool: pg.Pool): EventNameStore {
  return {
    recentEventNames: (accountId: string, type: string, window: number, limit: number): Promise<RecentEventNames> =>
      snapshot(pool, async (client) => {
        // As on SQLite: the window of the account's newest events by the (account, seq) index of
        // each partition, its type and name read row by row.
        const names = await query<{ name: string; events: number }>(
          client,
          `SELECT event_name AS name, count(*)::int AS events, max(seq) AS last FROM (
             SELECT seq, event_type, event_name FROM events WHERE account_id = $1 ORDER BY seq DESC LIMIT $2
           ) w WHERE event_type = $3 AND event_name <> '' AND length(event_name) <= ${GOAL_EVENT_NAME_MAX}
           GROUP BY event_name ORDER BY last DESC LIMIT $4`,
          [accountId, window, type, limit],
        );
        const beyond = await query(client, "SELECT 1 FROM events WHERE account_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2", [accountId, window]);
        return { names: names.map(({ name, events }) => ({ name, events })), complete: beyond.length === 0 };
      }),
  };
}
