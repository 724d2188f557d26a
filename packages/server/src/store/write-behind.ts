// Writes made behind the answer: the request answers at once and its write goes to the group
// commit (group-commit.ts) without being awaited. Used for what a config call stores — the
// visitor and their new assignments — which the call does not need to answer: an assignment is a
// deterministic function of (experience, rule, visitor) within an account revision, so the answer
// is the same whether or not it is stored yet (docs/storage.md "Durability of a config call").
//
// Nothing is dropped: a failed write is retried after each of RETRY_DELAYS_MS, and when every try
// failed it is handed to `gaveUp` (the route logs it and forgets what it believed stored, so the
// visitor's next call writes it again). Readers that must see a key's writes — the exposures of
// the same visitor, their next decision after a revision change — wait for `settled(key)`.

/** Waits before each retry of a failed write: brief outages pass, a dead store is reported soon. */
export const RETRY_DELAYS_MS: readonly number[] = [20, 200, 1000];

export class WriteBehind<T> {
  /** Per key, what settles once every write of the key submitted so far has committed or been given up. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    private readonly submit: (item: T) => Promise<unknown>,
    private readonly gaveUp: (key: string, item: T, error: unknown) => void,
    private readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  ) {}

  /** Submits `item` and returns at once. */
  write(key: string, item: T): void {
    const mine = this.attempt(item).catch((error: unknown) => this.gaveUp(key, item, error));
    const before = this.pending.get(key);
    // A retry can finish after a later write of the key: the key settles when both have.
    const done: Promise<void> = before ? Promise.all([before, mine]).then(() => undefined) : mine;
    this.pending.set(key, done);
    void done.then(() => {
      if (this.pending.get(key) === done) this.pending.delete(key);
    });
  }

  /** Settles once the key's writes submitted so far are committed (or given up); undefined: none pending. */
  settled(key: string): Promise<void> | undefined {
    return this.pending.get(key);
  }

  /** Settles once every write submitted so far is committed or given up (on shutdown, in tests). */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending.values());
  }

  private async attempt(item: T): Promise<void> {
    for (let i = 0; ; i++) {
      try {
        await this.submit(item);
        return;
      } catch (error) {
        const delay = this.retryDelaysMs[i];
        if (delay === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
