// The parsed experiences and audiences of an account, cached per account and keyed by the
// account's revision in the database (product.md §3: a publish takes effect on every node's next
// config call). Any write to the account, its experiences or audiences bumps the revision, by
// trigger; only when it moved is the snapshot read and parsed again. Every node reads the same
// revision, so none serves a stale answer.
//
// The revision is read once per batch of requests, not once per request: the client API calls
// that reach this node in one turn of the event loop (received in its poll phase) share one read,
// made in the check phase that follows — after every one of them has arrived. A publish that
// committed before a request was sent has committed before that request arrived, so before the
// read: each request still sees every publish that finished before it was sent, as with a read of
// its own. (A read made when the first request of the turn arrived and reused for the later ones
// would not promise that, and is not what this does.) It is the read-side twin of the group commit
// (store/group-commit.ts), and makes the revision check cost one small read per turn.
//
// A config call may add its visitor to that read until it goes (`read(...).withVisitor`): on
// PostgreSQL the same statement then reads the stored assignments of the visitors new to this node
// (store/postgres/accounts.ts), as of the same revision, rather than a statement each. The config
// call's checks run ahead of its read on the account as last read (`cached`), so that its body is
// parsed, and its visitor known, before the read goes (routes/client.ts resolveConfigCall).
//
// A snapshot's regular expressions are analysed before any decision uses it (admin/patterns.ts
// storedPatternsCleared, off the event loop, one analysis per pattern per node): a pattern stored
// before the save check refused it matches nothing rather than stalling the node.

import type { Account, Assignment, Audience, Experience, Store } from "../store/types.js";
import { storedPatternsCleared, warnOnConsole } from "../admin/patterns.js";
import type { PagePlan } from "./decide.js";

export type PreparedAccount = {
  account: Account;
  /** Running, draft and paused experiences (the decision filters by status and preview). */
  experiences: readonly Experience[];
  audiences: ReadonlyMap<string, Audience>;
  /** Page plans of this revision (decide.ts), filled as pages are asked for. */
  planCache: Map<string, PagePlan>;
  /** Origin headers already checked against this revision's domains → allowed (routes/client.ts). */
  origins: Map<string, boolean>;
};

/** Accounts kept parsed in memory; the least recently used goes first. */
const DEFAULT_MAX_ACCOUNTS = 1000;

/** What a revision read answers: the account's prepared data, and the stored assignments of the visitors it was asked for. */
export type FreshAccount = {
  prepared: PreparedAccount;
  /** By user id, as of `prepared`'s revision (an empty map: none stored); absent if the store does not read them with the revision. */
  assignments?: ReadonlyMap<string, Map<string, Assignment>>;
};

/** One call's share of a revision read (AccountSnapshots.read). */
export type AccountRead = {
  answer: Promise<FreshAccount | null>;
  /**
   * Asks the read for this visitor's stored assignments too. False once the read has gone (the
   * caller reads them itself).
   */
  withVisitor(userId: string): boolean;
};

type PendingRead = { userIds: string[]; sent: boolean; answer: Promise<FreshAccount | null> };

export class AccountSnapshots {
  private readonly byId = new Map<string, PreparedAccount>();
  /** Client key → the account id it named at the last read (see `cached`). */
  private readonly idByKey = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly maxAccounts = DEFAULT_MAX_ACCOUNTS,
    /** Where a refused stored pattern is reported (once per pattern per node). */
    private readonly warn: (message: string) => void = warnOnConsole,
  ) {}

  /**
   * The calls since the last read: each client key's pending read, and `ready`, which settles in
   * the check phase after their requests arrived.
   */
  private batch: { reads: Map<string, PendingRead>; ready: Promise<void> } | null = null;

  /**
   * The account a client key names, with its decision data as of the current revision — read
   * after this call, in the check phase of this turn of the event loop, with the other calls of
   * the turn (see above).
   */
  async byClientKey(clientKey: string): Promise<PreparedAccount | null> {
    return (await this.read(clientKey).answer)?.prepared ?? null;
  }

  /**
   * As byClientKey, and until the read goes (the check phase), the caller may add visitors whose
   * stored assignments the same statement reads (a store that can: PostgreSQL).
   */
  read(clientKey: string): AccountRead {
    const batch = (this.batch ??= {
      reads: new Map(),
      ready: new Promise<void>((resolve) =>
        setImmediate(() => {
          // Calls from now on start the next batch: their requests may arrive after this read.
          this.batch = null;
          resolve();
        }),
      ),
    });
    let pending = batch.reads.get(clientKey);
    if (!pending) {
      const userIds: string[] = [];
      const p: PendingRead = {
        userIds,
        sent: false,
        answer: batch.ready.then(() => {
          p.sent = true;
          return this.current(clientKey, userIds);
        }),
      };
      // A call refused before its read settles never awaits it: a failure is then nobody's to report.
      p.answer.catch(() => {});
      batch.reads.set(clientKey, (pending = p));
    }
    const read = pending;
    return {
      answer: read.answer,
      withVisitor: (userId) => {
        if (read.sent) return false;
        read.userIds.push(userId);
        return true;
      },
    };
  }

  /**
   * The account as of the last read of this key, if this node has it: what checks that may run
   * ahead of the read use (routes/client.ts), never what a decision uses.
   */
  cached(clientKey: string): PreparedAccount | undefined {
    const id = this.idByKey.get(clientKey);
    return id === undefined ? undefined : this.byId.get(id);
  }

  private async current(clientKey: string, userIds: readonly string[]): Promise<FreshAccount | null> {
    const current = await this.store.getAccountRevision(clientKey, userIds.length ? userIds : undefined);
    if (!current) {
      this.idByKey.delete(clientKey);
      return null;
    }
    const assignments = current.assignments;
    if (this.idByKey.get(clientKey) !== current.id) {
      if (this.idByKey.size >= this.maxAccounts) this.idByKey.clear();
      this.idByKey.set(clientKey, current.id);
    }
    const cached = this.byId.get(current.id);
    if (cached && cached.account.revision === current.revision) return { prepared: cached, ...(assignments ? { assignments } : {}) };
    const snapshot = await this.store.loadAccountSnapshot(current.id);
    if (!snapshot) return null;
    const experiences = await storedPatternsCleared(current.id, snapshot.experiences, snapshot.audiences, this.warn);
    const prepared: PreparedAccount = {
      account: snapshot.account,
      experiences,
      audiences: new Map(snapshot.audiences.map((a) => [a.id, a])),
      planCache: new Map(),
      origins: new Map(),
    };
    this.byId.delete(current.id);
    if (this.byId.size >= this.maxAccounts) {
      const oldest = this.byId.keys().next().value;
      if (oldest !== undefined) this.byId.delete(oldest);
    }
    this.byId.set(current.id, prepared);
    // Read at the revision `current` answered: a snapshot loaded after a later publish is newer
    // than them, and the caller reads them again (visitors.ts compares the revisions).
    return { prepared, ...(assignments && prepared.account.revision === current.revision ? { assignments } : {}) };
  }
}
