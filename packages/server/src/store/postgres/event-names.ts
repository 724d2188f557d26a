// The event names the goal editor offers (GET /api/events/names), and the currencies of recent
// orders the results answer carries (docs/results.md "Currencies"), on PostgreSQL.

import type pg from "pg";
import type { RevenueCurrency } from "@storefit/contract";
import { countedAmountSql } from "../event-fields.js";
import { OTHER_CURRENCY, sortRevenueCurrencies } from "../revenue-currencies.js";
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
    recentRevenueCurrencies: async (accountId: string, experienceId: string, window: number): Promise<RevenueCurrency[]> => {
      // As on SQLite. event_json is json (migrations.ts): text PostgreSQL checked on insert, so it
      // parses, and `#>` on a path through a value that is not an object gives NULL, not an
      // error. But `#>` (as `->`) decodes every string of the document on its way, and fails the
      // whole statement on an escape it cannot turn into text: \u0000 anywhere in the event (json
      // accepts it, text cannot hold it), and in a database that is not UTF-8 maybe on a
      // non-ASCII one. So a row with a \u escape has each one replaced by \u0020 first: the
      // structure is unchanged, and a value with an escape is "other" either way, since only
      // plain letters make a code (revenue-currencies.ts). The value's text is read as stored,
      // never decoded. COLLATE "C": the letter ranges are ASCII's, whatever the locale.
      const rows = await query<RevenueCurrency>(
        pool,
        `SELECT CASE
           WHEN raw IS NULL OR raw = 'null' THEN NULL
           WHEN raw ~ '^"[A-Za-z]{3}"$' THEN upper(substr(raw, 2, 3))
           ELSE '${OTHER_CURRENCY}' END AS currency, count(*)::int AS orders
         FROM (
           SELECT (CASE WHEN strpos(event_json::text, '\\u') > 0
                     THEN regexp_replace(event_json::text, '\\\\u[0-9A-Fa-f]{4}', '\\\\u0020', 'g')::json
                     ELSE event_json END #> '{properties,currency}')::text COLLATE "C" AS raw
           FROM (SELECT user_id, event_timestamp, event_type, revenue_amount, event_json FROM events WHERE account_id = $1 ORDER BY seq DESC LIMIT $2) w
           WHERE event_type = 'REVENUE' AND ${countedAmountSql("revenue_amount")} > 0
             AND EXISTS (SELECT 1 FROM first_exposures f
                         WHERE f.account_id = $1 AND f.experience_id = $3 AND f.user_id = w.user_id AND f.requested_time <= w.event_timestamp)
         ) c GROUP BY 1`,
        [accountId, window, experienceId],
      );
      return sortRevenueCurrencies(rows);
    },
  };
}
