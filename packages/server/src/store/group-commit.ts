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
  /** An asynchronous commit in progress: the next batch waits for it (commits stay in order). */
  private running: Promise<void> | null = null;

  /**
   * `commit` applies the items in order, in one transaction, and answers one result per item:
   * at once (SQLite), or with a promise (a store over the network).
   */
  constructor(
    private readonly commit: (items: readonly T[]) => R[] | Promise<R[]>,
    private readonly maxBatch = DEFAULT_MAX_BATCH,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.queue.length >= this.maxBatch) void this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  /**
   * Commits everything queued now (also on shutdown): synchronously while the commits are, else
   * one batch after another; settles when the queue is empty.
   */
  flush(): Promise<void> {
    this.scheduled = false;
    if (this.running) return this.running;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      let results: R[] | Promise<R[]>;
      try {
        results = this.commit(batch.map((w) => w.item));
      } catch (error) {
        this.failed(batch, error);
        continue;
      }
      if (results instanceof Promise) {
        this.running = results
          .then(
            (done) => batch.forEach((w, i) => w.resolve(done[i]!)),
            (error: unknown) => this.failedAsync(batch, error),
          )
          .then(() => {
            this.running = null;
            return this.flush();
          });
        return this.running;
      }
      const done = results;
      batch.forEach((w, i) => w.resolve(done[i]!));
    }
    return Promise.resolve();
  }

  // The transaction rolled back as a whole: commit each write alone, so one bad write fails only
  // its own request.
  private failed(batch: Waiting<T, R>[], error: unknown): void {
    if (batch.length === 1) return batch[0]!.reject(error);
    for (const w of batch) {
      try {
        const one = this.commit([w.item]);
        if (one instanceof Promise) one.then((r) => w.resolve(r[0]!), w.reject);
        else w.resolve(one[0]!);
      } catch (e) {
        w.reject(e);
      }
    }
  }

  private async failedAsync(batch: Waiting<T, R>[], error: unknown): Promise<void> {
    if (batch.length === 1) return batch[0]!.reject(error);
    for (const w of batch) {
      try {
        w.resolve((await this.commit([w.item]))[0]!);
      } catch (e) {
        w.reject(e);
      }
    }
  }
}
