// What this node remembers of the visitors it served recently: their sticky assignments as of an
// account revision, and when it last wrote their record. A returning visitor's config call then
// reads and writes nothing of theirs in the database, and their events write only the events.
//
// Why this cannot serve a stale assignment across nodes: within one account revision, every
// assignment is a deterministic function of (experience, rule, visitor) — the same on every node
// — and forced choices (desired experiences) are never stored (decide.ts). Whatever another node
// stored for this visitor at this revision, this node computes the same. Anything that can change
// an assignment otherwise (new weights, a removed variation, a changed rule) is a write to the
// experience, which moves the revision and retires every entry made before it.

import { assignmentKey } from "../store/types.js";
import type { Assignment, Store } from "../store/types.js";

/** How stale a visitor's record (last seen, latest user object) may get before a config call writes it again. */
export const VISITOR_REFRESH_MS = 60_000;

/** Visitors remembered per node (each entry holds a few assignments: ~1–2 KB). */
export const VISITOR_CACHE_SIZE = 20_000;

export type VisitorEntry = {
  accountId: string;
  /** The account revision `assignments` was read at (-1: not read yet). */
  revision: number;
  assignments: Map<string, Assignment>;
  /** When this node last wrote the visitor's record, or null. */
  recordedMs: number | null;
};

export class RecentVisitors {
  private readonly entries = new Map<string, VisitorEntry>();

  constructor(
    private readonly store: Store,
    private readonly maxEntries = VISITOR_CACHE_SIZE,
  ) {}

  /**
   * Keyed by user id alone (no key string to build per call): a user id is derived from the
   * account and the customer id (routes/client.ts userIdFor), and an entry of another account
   * under the same id — a 96-bit hash collision — is never used: it is replaced.
   */
  private get(accountId: string, userId: string): VisitorEntry {
    let e = this.entries.get(userId);
    if (e) this.entries.delete(userId); // re-inserted below: Map order is the recency order
    if (!e || e.accountId !== accountId) e = { accountId, revision: -1, assignments: new Map(), recordedMs: null };
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(userId, e);
    return e;
  }

  /** Whether this node knows the visitor's stored assignments as of `revision` (entry would not read them). */
  known(accountId: string, userId: string, revision: number): boolean {
    const e = this.entries.get(userId);
    return !!e && e.accountId === accountId && e.revision === revision;
  }

  /**
   * The visitor, with their stored assignments as of `revision` (read from the store when not
   * known). `pending`: the visitor's writes not yet committed (routes/client.ts writes behind the
   * answer), waited for before a read so that the read sees them. `stored`: their assignments
   * already read as of `revision` after any such write (with the revision: decide/snapshots.ts),
   * used instead of a read.
   */
  async entry(accountId: string, userId: string, revision: number, pending?: Promise<void>, stored?: Map<string, Assignment>): Promise<VisitorEntry> {
    const e = this.get(accountId, userId);
    if (e.revision !== revision) {
      if (stored) e.assignments = stored;
      else {
        if (pending) await pending;
        e.assignments = await this.store.getAssignments(accountId, userId);
      }
      e.revision = revision;
    }
    return e;
  }

  /** The visitor, for a call that records without deciding (events, summaries). */
  seen(accountId: string, userId: string): VisitorEntry {
    return this.get(accountId, userId);
  }

  /** Whether the visitor's record is due to be written again. */
  stale(e: VisitorEntry, nowMs: number): boolean {
    return e.recordedMs === null || nowMs - e.recordedMs >= VISITOR_REFRESH_MS;
  }

  /** After a write (committed, or submitted behind the answer): the new assignments, and when. */
  recorded(e: VisitorEntry, assignments: readonly Assignment[], nowMs: number): void {
    for (const a of assignments) e.assignments.set(assignmentKey(a.experience_id, a.rule_id), a);
    e.recordedMs = nowMs;
  }

  /**
   * A write recorded here did not commit: believe nothing of the visitor, so their next call reads
   * the store again and writes what is missing.
   */
  forget(e: VisitorEntry): void {
    e.revision = -1;
    e.assignments = new Map();
    e.recordedMs = null;
  }
}
