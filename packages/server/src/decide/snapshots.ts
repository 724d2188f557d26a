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

import type { Account, Audience, Experience, Store } from "../store/types.js";
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

export class AccountSnapshots {
  private readonly byId = new Map<string, PreparedAccount>();

  constructor(
    private readonly store: Store,
    private readonly maxAccounts = DEFAULT_MAX_ACCOUNTS,
  ) {}

  /**
   * The calls since the last read: each client key's pending answer, and `ready`, which settles
   * in the check phase after their requests arrived.
   */
  private batch: { answers: Map<string, Promise<PreparedAccount | null>>; ready: Promise<void> } | null = null;

  /**
   * The account a client key names, with its decision data as of the current revision — read
   * after this call, in the check phase of this turn of the event loop, with the other calls of
   * the turn (see above).
   */
  byClientKey(clientKey: string): Promise<PreparedAccount | null> {
    const batch = (this.batch ??= {
      answers: new Map(),
      ready: new Promise<void>((resolve) =>
        setImmediate(() => {
          // Calls from now on start the next batch: their requests may arrive after this read.
          this.batch = null;
          resolve();
        }),
      ),
    });
    let answer = batch.answers.get(clientKey);
    if (!answer) {
      answer = batch.ready.then(() => this.current(clientKey));
      batch.answers.set(clientKey, answer);
    }
    return answer;
  }

  private async current(clientKey: string): Promise<PreparedAccount | null> {
    const current = await this.store.getAccountRevision(clientKey);
    if (!current) return null;
    const cached = this.byId.get(current.id);
    if (cached && cached.account.revision === current.revision) return cached;
    const snapshot = await this.store.loadAccountSnapshot(current.id);
    if (!snapshot) return null;
    const prepared: PreparedAccount = {
      account: snapshot.account,
      experiences: snapshot.experiences,
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
    return prepared;
  }
}
