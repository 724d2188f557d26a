// The event names the goal editor offers (GET /api/events/names), on SQLite.

import { GOAL_EVENT_NAME_MAX } from "../types.js";
import type { EventNameStore, RecentEventNames, Sync } from "../types.js";
import type { SqliteDb } from "./db.js";

export function sqliteEventNames(d: SqliteDb): Sync<EventNameStore> {
  return {
    recentEventNames(accountId: string, type: string, window: number, limit: number): RecentEventNames {
      return d.read(() => {
        // The window walks the (account, seq) index newest first and reads each event's type and
        // name; no index holds them (a new one would cost every insert), so its size bounds the work.
        const names = d
          .sql(
            `SELECT event_name AS name, count(*) AS events, max(seq) AS last FROM (
               SELECT seq, event_type, event_name FROM events WHERE account_id = @account ORDER BY seq DESC LIMIT @window
             ) WHERE event_type = @type AND event_name <> '' AND length(event_name) <= ${GOAL_EVENT_NAME_MAX}
             GROUP BY event_name ORDER BY last DESC LIMIT @limit`,
          )
          .all({ account: accountId, window, type, limit }) as { name: string; events: number }[];
        // An event beyond the window: from the index alone.
        const beyond = d
          .sql("SELECT 1 FROM events WHERE account_id = @account ORDER BY seq DESC LIMIT 1 OFFSET @window")
          .get({ account: accountId, window });
        return { names: names.map(({ name, events }) => ({ name, events })), complete: beyond === undefined };
      });
    },
  };
}
