// The live events list (GET /api/events) and its filters, on SQLite.

import type { EventFilter, EventStore, StoredEvent, Sync } from "../types.js";
import { asciiLower } from "../event-fields.js";
import { storedEventFromRow } from "../rows.js";
import { count } from "./db.js";
import type { Row, SqlParams, SqliteDb } from "./db.js";

/**
 * The WHERE clause of an events filter (EventFilter), one statement text per combination of
 * filters (prepared once each). The newest events are read in (account, seq) index order and
 * filtered as they come, so a filtered list stops at its limit; a filtered count reads every
 * event of the account, as the unfiltered one does (the index holds no type, domain or path).
 * instr, not LIKE: `%` and `_` in the text are plain characters.
 */
function eventFilterSql(accountId: string, filter: EventFilter): { where: string; params: SqlParams } {
  const terms = ["e.account_id = @account"];
  const params: SqlParams = { account: accountId };
  if (filter.type) {
    terms.push("e.event_type = @type");
    params.type = filter.type;
  }
  if (filter.domain) {
    terms.push("e.domain = @domain COLLATE NOCASE");
    params.domain = filter.domain;
  }
  if (filter.q) {
    terms.push("(instr(lower(coalesce(e.page_path, '')), @q) > 0 OR instr(lower(e.event_name), @q) > 0)");
    params.q = asciiLower(filter.q);
  }
  // Visitor and experience: by user id, which the index of migration 8 leads with.
  if (filter.visitorIds) {
    const names = filter.visitorIds.map((_, i) => `@visitor_${i}`);
    terms.push(names.length ? `e.user_id IN (${names.join(", ")})` : "0");
    filter.visitorIds.forEach((v, i) => (params[`visitor_${i}`] = v));
  }
  if (filter.experience) {
    terms.push("e.user_id IN (SELECT x.user_id FROM exposures x WHERE x.account_id = @account AND x.experience_id = @experience)");
    params.experience = filter.experience;
  }
  if (filter.before !== undefined) {
    terms.push("e.seq < @before");
    params.before = filter.before;
  }
  if (filter.after !== undefined) {
    terms.push("e.seq > @after");
    params.after = filter.after;
  }
  return { where: terms.join(" AND "), params };
}

export function sqliteEvents(d: SqliteDb): Sync<EventStore> {
  return {
    countEvents(accountId: string, filter: EventFilter = {}): number {
      const { where, params } = eventFilterSql(accountId, filter);
      return count(d.sql(`SELECT count(*) AS n FROM events e WHERE ${where}`).get(params));
    },

    hasEvent(accountId: string, insertId: string): boolean {
      return d.sql("SELECT 1 FROM events WHERE account_id = ? AND insert_id = ?").get(accountId, insertId) !== undefined;
    },

    listEvents(accountId: string, limit: number, filter: EventFilter = {}): StoredEvent[] {
      const { where, params } = eventFilterSql(accountId, filter);
      // After a cursor: the nearest events above it, then newest first as every page is.
      const order = filter.after !== undefined ? "ASC" : "DESC";
      const rows = d.sql(`SELECT * FROM events e WHERE ${where} ORDER BY e.seq ${order} LIMIT @limit`).all({ ...params, limit }) as Row[];
      if (order === "ASC") rows.reverse();
      return rows.map(storedEventFromRow);
    },
  };
}
