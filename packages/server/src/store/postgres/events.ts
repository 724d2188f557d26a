// The live events list (GET /api/events) and its filters, on PostgreSQL.

import type pg from "pg";
import type { EventFilter, EventStore, StoredEvent } from "../types.js";
import { asciiLower } from "../event-fields.js";
import { storedEventFromRow } from "../rows.js";
import { query } from "./db.js";

/**
 * The WHERE clause of an events filter (EventFilter) and its parameters. As on SQLite: the domain
 * is compared without case, and `q` is a substring of the page path or the name without case,
 * where only A-Z fold (ascii_lower, SQLite's lower) and the text is lowered in JS; strpos, not
 * LIKE, so `%` and `_` in it are plain characters.
 */
function eventFilterSql(accountId: string, filter: EventFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [accountId];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const terms = ["e.account_id = $1"];
  if (filter.type) terms.push(`e.event_type = ${param(filter.type)}`);
  if (filter.domain) terms.push(`ascii_lower(e.domain) = ascii_lower(${param(filter.domain)})`);
  if (filter.q) {
    const q = param(asciiLower(filter.q));
    terms.push(`(strpos(ascii_lower(coalesce(e.page_path, '')), ${q}) > 0 OR strpos(ascii_lower(e.event_name), ${q}) > 0)`);
  }
  // No visitor ids: no event (= ANY of an empty array is false).
  if (filter.visitorIds) terms.push(`e.user_id = ANY (${param(filter.visitorIds)}::text[])`);
  if (filter.experience) {
    terms.push(`e.user_id IN (SELECT x.user_id FROM exposures x WHERE x.account_id = $1 AND x.experience_id = ${param(filter.experience)})`);
  }
  if (filter.before !== undefined) terms.push(`e.seq < ${param(filter.before)}`);
  if (filter.after !== undefined) terms.push(`e.seq > ${param(filter.after)}`);
  return { where: terms.join(" AND "), params };
}

export function postgresEvents(pool: pg.Pool): EventStore {
  return {
    async countEvents(accountId: string, filter: EventFilter = {}): Promise<number> {
      const { where, params } = eventFilterSql(accountId, filter);
      const [row] = await query<{ n: number }>(pool, `SELECT count(*) AS n FROM events e WHERE ${where}`, params);
      return row!.n;
    },

    async hasEvent(accountId: string, insertId: string): Promise<boolean> {
      // event_ids holds every stored event's id, in one index (events are spread over partitions).
      return (await query(pool, "SELECT 1 FROM event_ids WHERE account_id = $1 AND insert_id = $2", [accountId, insertId])).length > 0;
    },

    async listEvents(accountId: string, limit: number, filter: EventFilter = {}): Promise<StoredEvent[]> {
      const { where, params } = eventFilterSql(accountId, filter);
      // After a cursor: the nearest events above it, then newest first as every page is.
      const order = filter.after !== undefined ? "ASC" : "DESC";
      const rows = await query(pool, `SELECT * FROM events e WHERE ${where} ORDER BY e.seq ${order} LIMIT $${params.length + 1}`, [...params, limit]);
      if (order === "ASC") rows.reverse();
      return rows.map(storedEventFromRow);
    },
  };
}
