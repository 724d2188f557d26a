// Group commit: the writes of requests that arrive together are committed in one transaction.
// SQLite makes a commit durable with an fsync (synchronous=FULL in WAL mode), which costs far more
// than the rows themselves; one commit per request capped the config call at about a tenth of a
// bare HTTP server's rate (docs/benchmarks.md). A request that awaits its write still answers only
// after it is committed — "accepted" keeps meaning "stored" — but concurrent requests share the
// fsync: everything queued during one turn of the event loop is committed in the next check phase.
// (A config call does not await: write-behind.ts.)

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
   * at once (SQLite), or with a promise (a store over the network). `delayMs`: 0 commits what
   * is queued in the next check phase; more gathers writes for that long first — for writes no
   * request waits for (write-behind.ts), where fewer, larger transactions cost less per row.
   */
  constructor(
    private readonly commit: (items: readonly T[]) => R[] | Promise<R[]>,
    private readonly maxBatch = DEFAULT_MAX_BATCH,
    private readonly delayMs = 0,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.queue.length >= this.maxBatch) void this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        if (this.delayMs > 0) setTimeout(() => void this.flush(), this.delayMs);
        else setImmediate(() => void this.flush());
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
        const retried = this.failed(batch, error);
        if (retried) {
          // A retry answered with a promise: the next batch waits for the retries, as for a batch.
          this.running = retried.then(() => {
            this.running = null;
            return this.flush();
          });
          return this.running;
        }
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

  // The transaction rolled back as a whole: commit each write alone, in order, so one bad write
  // fails only its own request. Synchronous retries are done on return; once a retry answers with
  // a promise, it and the rest go one after another, and the promise of that is answered.
  private failed(batch: Waiting<T, R>[], error: unknown): Promise<void> | null {
    if (batch.length === 1) {
      batch[0]!.reject(error);
      return null;
    }
    for (let i = 0; i < batch.length; i++) {
      const w = batch[i]!;
      let one: R[] | Promise<R[]>;
      try {
        one = this.commit([w.item]);
      } catch (e) {
        w.reject(e);
        continue;
      }
      if (!(one instanceof Promise)) {
        w.resolve(one[0]!);
        continue;
      }
      const rest = batch.slice(i + 1);
      return one.then(
        (r) => w.resolve(r[0]!),
        (e: unknown) => w.reject(e),
      ).then(() => this.oneByOne(rest));
    }
    return null;
  }

  private async failedAsync(batch: Waiting<T, R>[], error: unknown): Promise<void> {
    if (batch.length === 1) return batch[0]!.reject(error);
    await this.oneByOne(batch);
  }

  /** Commits each write alone, one after another. */
  private async oneByOne(batch: Waiting<T, R>[]): Promise<void> {
    for (const w of batch) {
      try {
        w.resolve((await this.commit([w.item]))[0]!);
      } catch (e) {
        w.reject(e);
      }
    }
  }
}
