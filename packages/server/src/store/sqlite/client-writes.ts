// What the client API writes (visitors and their sticky assignments, events, summaries, devices,
// alerts) and the visitor reads of the decision and the live events, on SQLite.

import type { TrackedEvent, User } from "@storefit/contract";
import { assignmentKey } from "../types.js";
import type { Assignment, ClientWrite, ClientWriteStore, DeviceRecord, Exposure, InsertResult, StoredExposure, Sync, VisitorRecord, VisitorStore } from "../types.js";
import { eventName, eventPagePath, eventRevenue } from "../event-fields.js";
import { exposureFromRow } from "../rows.js";
import type { Row, SqliteDb } from "./db.js";

/**
 * An assignment as kept in visitors.assignments_json (migration 2), under its `assignmentKey`
 * ("experience:rule"); before per-rule keys, under the experience id alone (still read).
 */
type StoredAssignment = [rule_id: string, behaviour_id: string, variation_id: string, probability: number, assigned_at: string, split?: string];


export function sqliteClientWrites(d: SqliteDb): Sync<ClientWriteStore & VisitorStore> {
  const touchVisitor = (accountId: string, userId: string, user: User, now: string): void => {
    d.sql(
      `INSERT INTO visitors (account_id, user_id, user_customer_id, user_json, first_seen, last_seen)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, user_id) DO UPDATE SET user_json = excluded.user_json, last_seen = excluded.last_seen`,
    ).run(accountId, userId, user.user_customer_id, JSON.stringify(user), now, now);
  };

  /** The visitor and their new or changed assignments, merged into the stored ones (json_patch: one key per experience and rule). */
  const writeDecision = (accountId: string, userId: string, user: User, assignments: readonly Assignment[], now: string): void => {
    const patch: Record<string, StoredAssignment> = {};
    for (const a of assignments) {
      patch[assignmentKey(a.experience_id, a.rule_id)] =
        a.split !== undefined ? [a.rule_id, a.behaviour_id, a.variation_id, a.probability, now, a.split] : [a.rule_id, a.behaviour_id, a.variation_id, a.probability, now];
    }
    d.sql(
      `INSERT INTO visitors (account_id, user_id, user_customer_id, user_json, first_seen, last_seen, assignments_json)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, user_id) DO UPDATE SET user_json = excluded.user_json, last_seen = excluded.last_seen,
         assignments_json = json_patch(visitors.assignments_json, excluded.assignments_json)`,
    ).run(accountId, userId, user.user_customer_id, JSON.stringify(user), now, now, JSON.stringify(patch));
  };

  const writeEvents = (accountId: string, userId: string, events: readonly TrackedEvent[], now: string): InsertResult => {
    const stmt = d.sql(
      `INSERT INTO events (account_id, insert_id, event_type, event_customer_id, domain, page_path, user_id,
         session_id, event_timestamp, received_at, event_json, event_name, revenue_amount)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, insert_id) DO NOTHING`,
    );
    let accepted = 0;
    for (const e of events) {
      accepted += stmt.run(
        accountId,
        e.insert_id,
        e.event_type,
        e.event_customer_id,
        e.domain ?? "",
        eventPagePath(e),
        userId,
        e.session_id ?? null,
        Math.trunc(e.event_timestamp),
        now,
        JSON.stringify(e),
        eventName(e),
        eventRevenue(e),
      ).changes;
    }
    return { accepted, duplicates: events.length - accepted };
  };

  /** Idempotent on the summary's natural key (migration 1's unique index): a summary has no insert id. */
  const writeExposures = (accountId: string, exposures: readonly Exposure[], now: string): InsertResult => {
    const stmt = d.sql(
      `INSERT INTO exposures (account_id, user_customer_id, user_id, session_id, config_id, experience_id, rule_id,
         behaviour_id, variation_id, is_template_config, probability, requested_time, received_at, split, forced)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
    );
    // The visitor's first randomised exposure to the experience (migration 12): replaced only by
    // an earlier one (requested_time, then variation id), which a late summary can be.
    const keepFirst = d.sql(
      `INSERT INTO first_exposures (account_id, experience_id, user_id, variation_id, requested_time, probability, split, seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, experience_id, user_id) DO UPDATE SET variation_id = excluded.variation_id,
         requested_time = excluded.requested_time, probability = excluded.probability, split = excluded.split, seq = excluded.seq
       WHERE excluded.requested_time < first_exposures.requested_time
          OR (excluded.requested_time = first_exposures.requested_time AND excluded.variation_id < first_exposures.variation_id)`,
    );
    let accepted = 0;
    for (const x of exposures) {
      const { changes, lastInsertRowid } = stmt.run(
        accountId,
        x.user_customer_id,
        x.user_id ?? null,
        x.session_id ?? "",
        x.config_id,
        x.experience_id ?? null,
        x.rule_id ?? null,
        x.behaviour_id ?? null,
        x.variation_id ?? "",
        x.is_template_config ? 1 : 0,
        x.probability ?? null,
        Math.trunc(x.requested_time),
        now,
        x.split ?? null,
        x.forced ? 1 : 0,
      );
      accepted += changes;
      if (changes && !x.forced && x.user_id != null && x.experience_id != null) {
        keepFirst.run(accountId, x.experience_id, x.user_id, x.variation_id ?? "", Math.trunc(x.requested_time), x.probability ?? null, x.split ?? null, lastInsertRowid);
      }
    }
    return { accepted, duplicates: exposures.length - accepted };
  };

  const writeDevices = (accountId: string, devices: readonly DeviceRecord[], now: string): InsertResult => {
    const stmt = d.sql(
      `INSERT INTO devices (account_id, device_customer_id, device_type, user_id, created_at, anonymous)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
    let accepted = 0;
    for (const dev of devices) {
      const anonymous = dev.anonymous === undefined ? null : dev.anonymous ? 1 : 0;
      accepted += stmt.run(accountId, dev.device_customer_id, dev.device_type, dev.user_id, now, anonymous).changes;
    }
    return { accepted, duplicates: devices.length - accepted };
  };

  const commitOne = (w: ClientWrite): InsertResult => {
    switch (w.kind) {
      case "decision":
        writeDecision(w.accountId, w.userId, w.user, w.assignments, w.now);
        return { accepted: w.assignments.length, duplicates: 0 };
      case "events":
        if (w.touch) touchVisitor(w.accountId, w.userId, w.user, w.now);
        return writeEvents(w.accountId, w.userId, w.events, w.now);
      case "exposures":
        if (w.touch) touchVisitor(w.accountId, w.userId, w.user, w.now);
        return writeExposures(w.accountId, w.exposures, w.now);
      case "devices":
        return writeDevices(w.accountId, w.devices, w.now);
      case "alert":
        d.sql("INSERT INTO alerts (account_id, alert_json, received_at) VALUES (?, ?, ?)").run(w.accountId, JSON.stringify(w.alert), w.now);
        return { accepted: 1, duplicates: 0 };
    }
  };
  // Made once: db.transaction() builds a new wrapper on every call.
  const commitBatch = d.db.transaction((batch: readonly ClientWrite[]) => batch.map(commitOne));

  return {
    /**
     * Durability per batch. Accepted events, summaries, devices and alerts are fsynced before
     * their requests are answered (synchronous=FULL: "nothing accepted is lost"), as is every
     * other write of the service. A batch of config calls only (visitors and sticky assignments)
     * is committed without its own fsync (synchronous=NORMAL in WAL mode: safe from corruption
     * and from a crash of the process; an OS crash may lose its last moments, and bucketing is
     * deterministic, so a lost assignment is made again the same way unless the weights changed
     * meanwhile); the next fsynced commit makes it durable too. An fsync costs about a
     * millisecond here and blocks the event loop (docs/benchmarks.md).
     */
    commitClientWrites(writes: readonly ClientWrite[]): InsertResult[] {
      d.syncAt(writes.some((w) => w.kind !== "decision") ? "FULL" : "NORMAL");
      return commitBatch(writes);
    },

    getAssignments(accountId: string, userId: string): Map<string, Assignment> {
      const row = d.sql("SELECT assignments_json FROM visitors WHERE account_id = ? AND user_id = ?").pluck(true).get(accountId, userId) as string | undefined;
      const out = new Map<string, Assignment>();
      if (!row) return out;
      const entries = Object.entries(JSON.parse(row) as Record<string, StoredAssignment>);
      // Keys without a rule (stored before per-rule keys) first: a per-rule one written since wins.
      entries.sort(([a], [b]) => Number(a.includes(":")) - Number(b.includes(":")));
      for (const [key, value] of entries) {
        const [rule_id, behaviour_id, variation_id, probability, , split] = value;
        const colon = key.indexOf(":");
        const experience_id = colon < 0 ? key : key.slice(0, colon);
        out.set(assignmentKey(experience_id, rule_id), { experience_id, rule_id, behaviour_id, variation_id, probability, ...(split !== undefined ? { split } : {}) });
      }
      return out;
    },

    findVisitor(accountId: string, userIds: readonly string[]): VisitorRecord | null {
      for (const userId of userIds) {
        const r = d.sql("SELECT user_id, user_customer_id, first_seen, last_seen FROM visitors WHERE account_id = ? AND user_id = ?").get(accountId, userId) as
          | VisitorRecord
          | undefined;
        if (r) return { user_id: r.user_id, user_customer_id: r.user_customer_id, first_seen: r.first_seen, last_seen: r.last_seen };
      }
      return null;
    },

    listVisitorExposures(accountId: string, userIds: readonly string[], limit: number): StoredExposure[] {
      if (userIds.length === 0) return [];
      const rows = d
        .sql(
          `SELECT * FROM exposures WHERE account_id = @account AND user_id IN (${userIds.map((_, i) => `@visitor_${i}`).join(", ")})
           ORDER BY requested_time DESC, seq DESC LIMIT @limit`,
        )
        .all({ account: accountId, limit, ...Object.fromEntries(userIds.map((v, i) => [`visitor_${i}`, v])) }) as Row[];
      // The timeline shows neither behaviour, probability nor split.
      return rows.map((r) => {
        const { behaviour_id: _b, probability: _p, split: _s, ...x } = exposureFromRow(r);
        return x;
      });
    },
  };
}
