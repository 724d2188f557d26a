// The live events list (GET /api/events) and its filters, on SQLite.

import type { EventFilter, EventSearch, EventStore, StoredEvent, Sync } from "../types.js";
import { asciiLower } from "../event-fields.js";
import { storedEventFromRow } from "../rows.js";
import { count } from "./db.js";
import type { Row, SqlParams, SqliteDb } from "./db.js";

/**
 * An events filter (EventFilter) as SQL, one statement text per combination of filters (prepared
 * once each), in two parts: `candidates`, what an index finds (the account, its visitors, the
 * cursor: the (account, seq) and (account, user, seq) indexes), and `matches`, what is checked row
 * by row on the columns of `alias` (type, domain, text, experience: no index holds them), "1"
 * when nothing is. Candidates are read in seq order and filtered as they come, so a list stops at
 * its limit. instr, not LIKE: `%` and `_` in the text are plain characters.
 */
function eventFilterSql(accountId: string, filter: EventFilter, alias = "e"): { candidates: string; matches: string; where: string; params: SqlParams } {
  const candidates = ["e.account_id = @account"];
  const matches: string[] = [];
  const params: SqlParams = { account: accountId };
  if (filter.type) {
    matches.push(`${alias}.event_type = @type`);
    params.type = filter.type;
  }
  if (filter.domain) {
    matches.push(`${alias}.domain = @domain COLLATE NOCASE`);
    params.domain = filter.domain;
  }
  if (filter.q) {
    matches.push(`(instr(lower(coalesce(${alias}.page_path, '')), @q) > 0 OR instr(lower(${alias}.event_name), @q) > 0)`);
    params.q = asciiLower(filter.q);
  }
  // Visitor and experience: by user id, which the index of migration 8 leads with.
  if (filter.visitorIds) {
    const names = filter.visitorIds.map((_, i) => `@visitor_${i}`);
    candidates.push(names.length ? `e.user_id IN (${names.join(", ")})` : "0");
    filter.visitorIds.forEach((v, i) => (params[`visitor_${i}`] = v));
  }
  // A seek per event in the visitor's exposures (account, user index), not a list of all of the
  // experience's visitors built first: that list costs as many exposures as the account has.
  if (filter.experience) {
    matches.push(`EXISTS (SELECT 1 FROM exposures x WHERE x.account_id = @account AND x.user_id = ${alias}.user_id AND x.experience_id = @experience)`);
    params.experience = filter.experience;
  }
  if (filter.before !== undefined) {
    candidates.push("e.seq < @before");
    params.before = filter.before;
  }
  if (filter.after !== undefined) {
    candidates.push("e.seq > @after");
    params.after = filter.after;
  }
  const all = [...candidates, ...matches];
  return { candidates: candidates.join(" AND "), matches: matches.join(" AND ") || "1", where: all.join(" AND "), params };
}

/** A visitor's events by their index, named: with two ids, the planner walked the account's (1.1 s at 1M events). */
const indexFor = (filter: EventFilter): string => (filter.visitorIds ? " INDEXED BY events_account_user_seq" : "");

/**
 * The window of a bounded search or count: the `@window` candidates nearest the cursor, with only
 * the columns `matches` reads (a row's JSON is not copied for each event looked at). With
 * visitors, their (account, user, seq) index: the planner would otherwise walk the account's
 * events in seq order, and sorting a visitor's events costs no more than they are.
 */
function windowSql(candidates: string, filter: EventFilter, order: "ASC" | "DESC"): string {
  return `SELECT e.seq, e.event_type, e.domain, e.page_path, e.event_name, e.user_id FROM events e${indexFor(filter)}
          WHERE ${candidates} ORDER BY e.seq ${order} LIMIT @window`;
}

export function sqliteEvents(d: SqliteDb): Sync<EventStore> {
  /**
   * The seq of the `window`-th candidate from the cursor in `order`, when candidates lie beyond
   * it; else null. From the index alone (its entries hold the seq): no event row is read.
   */
  const windowEnd = (candidates: string, filter: EventFilter, params: SqlParams, order: "ASC" | "DESC", window: number): number | null => {
    const seqs = d
      .sql(`SELECT e.seq FROM events e${indexFor(filter)} WHERE ${candidates} ORDER BY e.seq ${order} LIMIT 2 OFFSET @offset`)
      .pluck(true)
      .all({ ...params, offset: window - 1 }) as number[];
    return seqs.length === 2 ? seqs[0]! : null;
  };

  return {
    countEvents(accountId: string, filter: EventFilter = {}): number {
      const { where, params } = eventFilterSql(accountId, filter);
      return count(d.sql(`SELECT count(*) AS n FROM events e${indexFor(filter)} WHERE ${where}`).get(params));
    },

    hasEvent(accountId: string, insertId: string): boolean {
      return d.sql("SELECT 1 FROM events WHERE account_id = ? AND insert_id = ?").get(accountId, insertId) !== undefined;
    },

    listEvents(accountId: string, limit: number, filter: EventFilter = {}): StoredEvent[] {
      const { where, params } = eventFilterSql(accountId, filter);
      // After a cursor: the nearest events above it, then newest first as every page is.
      const order = filter.after !== undefined ? "ASC" : "DESC";
      const rows = d.sql(`SELECT * FROM events e${indexFor(filter)} WHERE ${where} ORDER BY e.seq ${order} LIMIT @limit`).all({ ...params, limit }) as Row[];
      if (order === "ASC") rows.reverse();
      return rows.map(storedEventFromRow);
    },

    searchEvents(accountId: string, limit: number, filter: EventFilter, window: number): EventSearch {
      const { candidates, matches, params } = eventFilterSql(accountId, filter, "w");
      const order = filter.after !== undefined ? "ASC" : "DESC";
      // The window is a subquery with a LIMIT of its own, which SQLite runs as a co-routine: the
      // outer LIMIT still stops the scan once the page is full. Only matches are read whole.
      const rows = d
        .sql(`SELECT e.* FROM (${windowSql(candidates, filter, order)}) w JOIN events e ON e.seq = w.seq WHERE ${matches} ORDER BY w.seq ${order} LIMIT @limit`)
        .all({ ...params, window, limit: limit + 1 }) as Row[];
      const more = rows.length > limit;
      if (more) rows.pop();
      const end = more ? null : windowEnd(candidates, filter, params, order, window);
      if (order === "ASC") rows.reverse();
      return { events: rows.map(storedEventFromRow), more, end };
    },

    countEventsBounded(accountId: string, filter: EventFilter, window: number, cap: number): { n: number; exact: boolean } {
      const { before: _before, after: _after, ...uncursored } = filter;
      const { candidates, matches, params } = eventFilterSql(accountId, uncursored, "w");
      const n = count(
        d
          .sql(`SELECT count(*) AS n FROM (SELECT 1 FROM (${windowSql(candidates, uncursored, "DESC")}) w WHERE ${matches} LIMIT @cap)`)
          .get({ ...params, window, cap: cap + 1 }),
      );
      if (n > cap) return { n: cap, exact: false };
      return { n, exact: windowEnd(candidates, uncursored, params, "DESC", window) === null };
    },

    countEventsAfter(accountId: string, after: number, max: number): { n: number; last: number | null } {
      const row = d
        .sql("SELECT count(*) AS n, max(seq) AS last FROM (SELECT seq FROM events WHERE account_id = ? AND seq > ? ORDER BY seq LIMIT ?)")
        .get(accountId, after, max) as { n: number; last: number | null };
      return { n: row.n, last: row.last };
    },
  };
}
