// What the client API writes (visitors and their sticky assignments, events, summaries, devices,
// alerts) and the visitor reads of the decision and the live events, on PostgreSQL.
//
// A batch of writes (store/group-commit.ts) is one transaction with one statement per table (a
// batch of config calls' writes only is its one statement, sent without a transaction): the
// rows of every write, in order, as arrays unnested into rows. Idempotence is PostgreSQL's: the
// first of a key in the batch is its candidate (DISTINCT ON, by position), and the insert into
// event_ids / exposure_keys / devices answers which candidates are new, also against another
// node's transaction in flight (a conflicting insert waits for it to end). Every statement takes
// its row locks in key order, so two batches never wait for each other in a circle.

import type pg from "pg";
import type { User } from "@storefit/contract";
import { assignmentKey } from "../types.js";
import type { Assignment, ClientWrite, ClientWriteStore, InsertResult, StoredExposure, VisitorRecord, VisitorStore } from "../types.js";
import { eventName, eventPagePath, eventRevenue } from "../event-fields.js";
import { jsonb, query, storableText, transaction } from "./db.js";
import type { Queryable } from "./db.js";
import { exposureFromRow } from "../rows.js";

/**
 * An assignment as kept in visitors.assignments_json, under its `assignmentKey` ("experience:rule");
 * under the experience id alone in a SQLite database from before its migration 7 (still read).
 */
type StoredAssignment = [rule_id: string, behaviour_id: string, variation_id: string, probability: number, assigned_at: string, split?: string];

/** A visitor's `assignments_json` as read. */
export type StoredAssignments = Record<string, StoredAssignment>;

/** A visitor's stored assignments by `assignmentKey` (none: an empty map). */
export function assignmentsFromStored(stored: StoredAssignments | null | undefined): Map<string, Assignment> {
  const out = new Map<string, Assignment>();
  if (!stored) return out;
  const entries = Object.entries(stored);
  // Keys without a rule (stored before per-rule keys) first: a per-rule one written since wins.
  entries.sort(([a], [b]) => Number(a.includes(":")) - Number(b.includes(":")));
  for (const [key, value] of entries) {
    const [rule_id, behaviour_id, variation_id, probability, , split] = value;
    const colon = key.indexOf(":");
    const experience_id = colon < 0 ? key : key.slice(0, colon);
    out.set(assignmentKey(experience_id, rule_id), { experience_id, rule_id, behaviour_id, variation_id, probability, ...(split !== undefined ? { split } : {}) });
  }
  return out;
}

/** Rows (arrays in column order) as one array per column: the parameters of unnest($1::type[], ...). */
const byColumn = (rows: readonly unknown[][], width: number): unknown[][] => Array.from({ length: width }, (_, c) => rows.map((r) => r[c]));

/** The service's receive time of a write in ms: the partition its events and summaries go to. */
function receivedMs(now: string): number {
  const ms = Date.parse(now);
  return Number.isFinite(ms) ? ms : Date.now();
}

/**
 * The advisory locks of the accounts whose events or summaries a batch stores, taken first, in
 * one order. While one batch holds an account, the next one's seqs wait: seqs come from a sequence
 * as rows are inserted, so without it a batch could commit a lower seq after another committed a
 * higher one, and an events page read in between (its `after` cursor, the results cache's
 * version) would never see it. The key is (18, hash of the account id): 18 marks this kind of
 * lock; two accounts with one hash only take turns.
 */
const LOCK_ACCOUNT_STREAMS = `
  SELECT pg_advisory_xact_lock(18, k)
  FROM (SELECT DISTINCT hashtext(a) AS k FROM unnest($1::text[]) AS a ORDER BY k) AS keys`;

const INSERT_VISITORS = `
  INSERT INTO visitors (account_id, user_id, user_customer_id, user_json, first_seen, last_seen, assignments_json)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::json[], $5::text[], $6::text[], $7::jsonb[])
    AS v (account_id, user_id, user_customer_id, user_json, first_seen, last_seen, assignments_json)
  ORDER BY account_id COLLATE "C", user_id COLLATE "C"
  ON CONFLICT (account_id, user_id) DO UPDATE SET user_json = excluded.user_json, last_seen = excluded.last_seen,
    assignments_json = visitors.assignments_json || excluded.assignments_json`;

const EVENT_COLUMNS = `account_id, insert_id, event_type, event_customer_id, domain, page_path, user_id, session_id,
  event_timestamp, received_at, received_ms, event_json, event_name, revenue_amount`;

/** The events of a batch; answers the positions (1-based) of those stored, the others being duplicates. */
const INSERT_EVENTS = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                         $9::bigint[], $10::text[], $11::bigint[], $12::json[], $13::text[], $14::float8[])
      WITH ORDINALITY AS i (${EVENT_COLUMNS}, ord)
  ),
  firsts AS (SELECT DISTINCT ON (account_id, insert_id) * FROM input ORDER BY account_id, insert_id, ord),
  new_ids AS (
    INSERT INTO event_ids (account_id, insert_id) SELECT account_id, insert_id FROM firsts ORDER BY account_id, insert_id
    ON CONFLICT DO NOTHING
    RETURNING account_id, insert_id
  ),
  accepted AS (SELECT f.* FROM firsts f JOIN new_ids USING (account_id, insert_id)),
  -- In batch order: the seqs (the stream's order) follow it.
  stored AS (INSERT INTO events (${EVENT_COLUMNS}) SELECT ${EVENT_COLUMNS} FROM accepted ORDER BY ord)
  SELECT ord FROM accepted`;

const EXPOSURE_COLUMNS = `account_id, user_customer_id, user_id, session_id, config_id, experience_id, rule_id, behaviour_id,
  variation_id, is_template_config, probability, requested_time, received_at, received_ms, split, forced`;
const EXPOSURE_KEY = "account_id, user_customer_id, config_id, variation_id, session_id, requested_time";

/** The summaries of a batch, idempotent on their natural key; answers the positions of those stored. */
const INSERT_EXPOSURES = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                         $9::text[], $10::boolean[], $11::float8[], $12::bigint[], $13::text[], $14::bigint[], $15::text[], $16::boolean[])
      WITH ORDINALITY AS i (${EXPOSURE_COLUMNS}, ord)
  ),
  firsts AS (SELECT DISTINCT ON (${EXPOSURE_KEY}) * FROM input ORDER BY ${EXPOSURE_KEY}, ord),
  new_keys AS (
    INSERT INTO exposure_keys (${EXPOSURE_KEY}) SELECT ${EXPOSURE_KEY} FROM firsts ORDER BY ${EXPOSURE_KEY}
    ON CONFLICT DO NOTHING
    RETURNING ${EXPOSURE_KEY}
  ),
  accepted AS (SELECT f.* FROM firsts f JOIN new_keys USING (${EXPOSURE_KEY})),
  stored AS (
    INSERT INTO exposures (${EXPOSURE_COLUMNS}) SELECT ${EXPOSURE_COLUMNS} FROM accepted ORDER BY ord
    RETURNING seq, account_id, experience_id, user_id, variation_id, requested_time, probability, split, forced
  ),
  -- Each visitor's first randomised exposure to the experience (migration 2), replaced only by an
  -- earlier one (requested_time, then variation id), which a late summary can be. One candidate
  -- per visitor (an upsert may not touch a row twice), in key order (row locks).
  candidates AS (
    SELECT DISTINCT ON (account_id, experience_id, user_id) account_id, experience_id, user_id, variation_id, requested_time, probability, split, seq
    FROM stored WHERE NOT forced AND user_id IS NOT NULL AND experience_id IS NOT NULL
    ORDER BY account_id, experience_id, user_id, requested_time, variation_id, seq
  ),
  firsts_kept AS (
    INSERT INTO first_exposures AS f (account_id, experience_id, user_id, variation_id, requested_time, probability, split, seq)
    SELECT * FROM candidates ORDER BY account_id, experience_id, user_id
    ON CONFLICT (account_id, experience_id, user_id) DO UPDATE SET variation_id = excluded.variation_id,
      requested_time = excluded.requested_time, probability = excluded.probability, split = excluded.split, seq = excluded.seq
    WHERE (excluded.requested_time, excluded.variation_id) < (f.requested_time, f.variation_id)
  )
  SELECT ord FROM accepted`;

const DEVICE_COLUMNS = "account_id, device_customer_id, device_type, user_id, created_at, anonymous";

/** The devices of a batch, the first one of a device id kept; answers the positions of those stored. */
const INSERT_DEVICES = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[])
      WITH ORDINALITY AS i (${DEVICE_COLUMNS}, ord)
  ),
  firsts AS (SELECT DISTINCT ON (account_id, device_customer_id) * FROM input ORDER BY account_id, device_customer_id, ord),
  added AS (
    INSERT INTO devices (${DEVICE_COLUMNS}) SELECT ${DEVICE_COLUMNS} FROM firsts ORDER BY account_id, device_customer_id
    ON CONFLICT DO NOTHING
    RETURNING account_id, device_customer_id
  )
  SELECT f.ord FROM firsts f JOIN added USING (account_id, device_customer_id)`;

const INSERT_ALERTS = `
  INSERT INTO alerts (account_id, alert_json, received_at)
  SELECT * FROM unnest($1::text[], $2::json[], $3::text[]) AS a (account_id, alert_json, received_at)`;

/** A visitor as a batch leaves them: first written by its first write, then by each later one. */
type VisitorWrite = { account: string; user: string; customer: string; userJson: string; firstSeen: string; lastSeen: string; assignments: Record<string, StoredAssignment> };

/** The rows of one table from a batch (in column order), each with the index of the write it came from. */
type Rows = { rows: unknown[][]; writeOf: number[] };
const rowsOf = (): Rows => ({ rows: [], writeOf: [] });
const add = (table: Rows, write: number, row: unknown[]): void => {
  table.rows.push(row);
  table.writeOf.push(write);
};

async function commitBatch(client: Queryable, writes: readonly ClientWrite[]): Promise<InsertResult[]> {
  const results: InsertResult[] = writes.map(() => ({ accepted: 0, duplicates: 0 }));
  const visitors = new Map<string, VisitorWrite>();
  const streams = new Set<string>();
  const events = rowsOf();
  const exposures = rowsOf();
  const devices = rowsOf();
  const alerts: unknown[][] = [];

  const touch = (accountId: string, userId: string, user: User, now: string, assignments: Record<string, StoredAssignment> = {}) => {
    // Keyed as stored: two ids that PostgreSQL stores alike are one visitor (one row per statement).
    const key = JSON.stringify([storableText(accountId), storableText(userId)]);
    const v = visitors.get(key);
    const userJson = JSON.stringify(user);
    if (!v) {
      visitors.set(key, { account: accountId, user: userId, customer: user.user_customer_id, userJson, firstSeen: now, lastSeen: now, assignments });
    } else {
      v.userJson = userJson;
      v.lastSeen = now;
      Object.assign(v.assignments, assignments);
    }
  };

  writes.forEach((w, i) => {
    switch (w.kind) {
      case "decision": {
        const patch: Record<string, StoredAssignment> = {};
        for (const a of w.assignments) {
          patch[assignmentKey(a.experience_id, a.rule_id)] =
            a.split !== undefined ? [a.rule_id, a.behaviour_id, a.variation_id, a.probability, w.now, a.split] : [a.rule_id, a.behaviour_id, a.variation_id, a.probability, w.now];
        }
        touch(w.accountId, w.userId, w.user, w.now, patch);
        results[i] = { accepted: w.assignments.length, duplicates: 0 };
        break;
      }
      case "events": {
        if (w.touch) touch(w.accountId, w.userId, w.user, w.now);
        if (w.events.length) streams.add(w.accountId);
        const ms = receivedMs(w.now);
        for (const e of w.events) {
          add(events, i, [
            w.accountId,
            e.insert_id,
            e.event_type,
            e.event_customer_id,
            e.domain ?? "",
            eventPagePath(e),
            w.userId,
            e.session_id ?? null,
            Math.trunc(e.event_timestamp),
            w.now,
            ms,
            JSON.stringify(e),
            eventName(e),
            eventRevenue(e),
          ]);
        }
        results[i] = { accepted: 0, duplicates: w.events.length };
        break;
      }
      case "exposures": {
        if (w.touch) touch(w.accountId, w.userId, w.user, w.now);
        if (w.exposures.length) streams.add(w.accountId);
        const ms = receivedMs(w.now);
        for (const x of w.exposures) {
          add(exposures, i, [
            w.accountId,
            x.user_customer_id,
            x.user_id ?? null,
            x.session_id ?? "",
            x.config_id,
            x.experience_id ?? null,
            x.rule_id ?? null,
            x.behaviour_id ?? null,
            x.variation_id ?? "",
            x.is_template_config === true,
            x.probability ?? null,
            Math.trunc(x.requested_time),
            w.now,
            ms,
            x.split ?? null,
            x.forced === true,
          ]);
        }
        results[i] = { accepted: 0, duplicates: w.exposures.length };
        break;
      }
      case "devices":
        for (const d of w.devices) add(devices, i, [w.accountId, d.device_customer_id, d.device_type, d.user_id, w.now, d.anonymous ?? null]);
        results[i] = { accepted: 0, duplicates: w.devices.length };
        break;
      case "alert":
        alerts.push([w.accountId, JSON.stringify(w.alert), w.now]);
        results[i] = { accepted: 1, duplicates: 0 };
        break;
    }
  });

  /** Runs a statement that answers the positions of the rows it stored, and counts them as accepted. */
  const insert = async (sql: string, table: Rows, width: number) => {
    if (!table.rows.length) return;
    for (const { ord } of await query<{ ord: number }>(client, sql, byColumn(table.rows, width))) {
      const r = results[table.writeOf[ord - 1]!]!;
      r.accepted++;
      r.duplicates--;
    }
  };

  if (streams.size) await query(client, LOCK_ACCOUNT_STREAMS, [[...streams]]);
  if (visitors.size) {
    const rows = [...visitors.values()].map((v) => [v.account, v.user, v.customer, v.userJson, v.firstSeen, v.lastSeen, jsonb(v.assignments)]);
    await query(client, INSERT_VISITORS, byColumn(rows, 7));
  }
  await insert(INSERT_EVENTS, events, 14);
  await insert(INSERT_EXPOSURES, exposures, 16);
  await insert(INSERT_DEVICES, devices, 6);
  if (alerts.length) await query(client, INSERT_ALERTS, byColumn(alerts, 3));
  return results;
}

export function postgresClientWrites(pool: pg.Pool): ClientWriteStore & VisitorStore {
  return {
    /**
     * The batch in one transaction (all or none; a batch of config calls' writes alone is one
     * atomic statement), one result per write. Commits are durable when answered (the server's
     * synchronous_commit): "accepted" means stored.
     */
    commitClientWrites: (writes) =>
      // Config calls' writes come in batches of their own (routes/client.ts), and a batch of them
      // is one statement — the visitors' upsert — atomic by itself: sent alone, without BEGIN and
      // COMMIT, it is one round trip instead of three. Measured 2026-11-27 (bench/service.bench.mjs
      // on PostgreSQL, one alternating run, load 9.7): 168 against 186 µs of node CPU per call (0.90×).
      writes.every((w) => w.kind === "decision") ? commitBatch(pool, writes) : transaction(pool, (client) => commitBatch(client, writes)),

    async getAssignments(accountId: string, userId: string): Promise<Map<string, Assignment>> {
      const [row] = await query<{ assignments_json: StoredAssignments }>(
        pool,
        "SELECT assignments_json FROM visitors WHERE account_id = $1 AND user_id = $2",
        [accountId, userId],
        "visitor_assignments",
      );
      return assignmentsFromStored(row?.assignments_json);
    },

    async findVisitor(accountId: string, userIds: readonly string[]): Promise<VisitorRecord | null> {
      const [row] = await query<VisitorRecord>(
        pool,
        `SELECT v.user_id, v.user_customer_id, v.first_seen, v.last_seen
         FROM unnest($2::text[]) WITH ORDINALITY AS u (user_id, ord)
         JOIN visitors v ON v.account_id = $1 AND v.user_id = u.user_id
         ORDER BY u.ord LIMIT 1`,
        [accountId, userIds],
      );
      return row ?? null;
    },

    async listVisitorExposures(accountId: string, userIds: readonly string[], limit: number): Promise<StoredExposure[]> {
      if (userIds.length === 0) return [];
      const rows = await query(
        pool,
        "SELECT * FROM exposures WHERE account_id = $1 AND user_id = ANY ($2::text[]) ORDER BY requested_time DESC, seq DESC LIMIT $3",
        [accountId, userIds, limit],
      );
      // The timeline shows neither behaviour, probability nor split.
      return rows.map((r) => {
        const { behaviour_id: _b, probability: _p, split: _s, ...x } = exposureFromRow(r);
        return x;
      });
    },
  };
}
