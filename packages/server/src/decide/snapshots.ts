// The parsed experiences and audiences of an account, cached per account and keyed by the
// account's revision in the database (product.md §3: a publish takes effect on every node's next
// config call). Each config call reads one small row (id, revision); only when the revision moved
// — any write to the account, its experiences or audiences bumps it, by trigger — is the snapshot
// read and parsed again. Every node reads the same revision, so none serves a stale answer.

import type { Account, Audience, Experience, Store } from "../store/types.js";
import type { PagePlan } from "./decide.js";

export type PreparedAccount = {
  account: Account;
  /** Running, draft and paused experiences (the decision filters by status and preview). */
  experiences: readonly Experience[];
  audiences: ReadonlyMap<string, Audience>;
  /** Page plans of this revision (decide.ts), filled as pages are asked for. */
  planCache: Map<string, PagePlan>;
  /** Origin header → whether it is one of the account's domains (CORS), as of this revision. */
  originAllowed: Map<string, boolean>;
};

/** Accounts kept parsed in memory; the least recently used goes first. */
const DEFAULT_MAX_ACCOUNTS = 1000;

export class AccountSnapshots {
  private readonly byId = new Map<string, PreparedAccount>();

  constructor(
    private readonly store: Store,
    private readonly maxAccounts = DEFAULT_MAX_ACCOUNTS,
  ) {}

  /** The account a client key names, with its decision data as of the current revision. */
  async byClientKey(clientKey: string): Promise<PreparedAccount | null> {
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
      originAllowed: new Map(),
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
