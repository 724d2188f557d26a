// The event names the goal editor offers (GET /api/events/names), and the currencies of recent
// orders the results answer carries (docs/results.md "Currencies"), on SQLite.

import type { RevenueCurrency } from "@storefit/contract";
import { countedAmountSql } from "../event-fields.js";
import { OTHER_CURRENCY, sortRevenueCurrencies } from "../revenue-currencies.js";
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
    recentRevenueCurrencies(accountId: string, experienceId: string, window: number): RevenueCurrency[] {
      // The same window as the names. Only the orders' JSON is read, and only text that
      // json_valid accepts (a BLOB, JSON5 or JSON nested deeper than SQLite parses would make
      // `->` fail the whole read): CASE evaluates its branches in order, AND does not promise to.
      // `->` gives the value's JSON text as stored, escapes and all (revenue-currencies.ts).
      const rows = d.read(
        () =>
          d
            .sql(
              `SELECT CASE
                 WHEN raw IS NULL OR raw = 'null' THEN NULL
                 WHEN length(raw) = 5 AND substr(raw, 1, 1) = '"' AND substr(raw, 5, 1) = '"'
                   AND substr(raw, 2, 3) GLOB '[A-Za-z][A-Za-z][A-Za-z]' THEN upper(substr(raw, 2, 3))
                 ELSE '${OTHER_CURRENCY}' END AS currency, count(*) AS orders
               FROM (
                 SELECT CASE WHEN typeof(event_json) = 'text' THEN
                          CASE WHEN json_valid(event_json) THEN event_json -> '$.properties.currency' END
                        END AS raw
                 FROM (SELECT user_id, event_timestamp, event_type, revenue_amount, event_json FROM events WHERE account_id = @account ORDER BY seq DESC LIMIT @window) e
                 WHERE event_type = 'REVENUE' AND ${countedAmountSql("revenue_amount")} > 0
                   AND EXISTS (SELECT 1 FROM first_exposures f
                               WHERE f.account_id = @account AND f.experience_id = @experience AND f.user_id = e.user_id AND f.requested_time <= e.event_timestamp)
               ) GROUP BY 1`,
            )
            .all({ account: accountId, experience: experienceId, window }) as RevenueCurrency[],
      );
      return sortRevenueCurrencies(rows);
    },
  };
}
