// Group commit: the writes of requests that arrive together are committed in one transaction.
// SQLite makes a commit durable with an fsync (synchronous=FULL in WAL mode), which costs far more
// than the rows themselves; one commit per request capped the config call at about a tenth of a
// bare HTTP server's rate (docs/benchmarks.md). Each request still answers only after its own
// writes are committed — "accepted" keeps meaning "stored" — but concurrent requests share the
// fsync: everything queued during one turn of the event loop is committed in the next check phase.

type Waiting<T, R> = { item: T; resolve: (result: R) => void; reject: (error: unknown) => void };

/** Largest batch per transaction, so one commit never holds the event loop for long. */
const DEFAULT_MAX_BATCH = 256;

export class GroupCommit<T, R> {
  private queue: Waiting<T, R>[] = [];
  private scheduled = false;

  /** `commit` applies the items in order, in one transaction, and answers one result per item. */
  constructor(
    private readonly commit: (items: readonly T[]) => R[],
    private readonly maxBatch = DEFAULT_MAX_BATCH,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.queue.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits everything queued now (also on shutdown). */
  flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = this.commit(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(results[i]!));
      } catch (error) {
        // The transaction rolled back as a whole: commit each write alone, so one bad write
        // fails only its own request.
        if (batch.length === 1) batch[0]!.reject(error);
        else for (const w of batch) this.commitAlone(w);
      }
    }
  }

  private commitAlone(w: Waiting<T, R>): void {
    try {
      w.resolve(this.commit([w.item])[0]!);
    } catch (error) {
      w.reject(error);
    }
  }
}
