// Why this exists: better-sqlite3 is synchronous, so a statement that reads the whole history
// (the results in a date range: about a second at 1M events, docs/benchmarks.md "Results"; the
// page views of the overlaps and the diagnostics: seconds at 500k) holds the node's event loop,
// and every shopper's config call on the node waits behind it. Such reads run here instead, on a worker thread with its own read-only connection to the same file: in WAL
// mode it reads a consistent snapshot and neither blocks nor waits for the node's writer.
//
// One worker per store, started on the first request, requests answered in order. A failed
// statement rejects its request (the route answers a JSON error); a worker that dies rejects what
// it had and the next request starts a new one. `close()` ends it. A ":memory:" database cannot
// be opened by another connection, and a bundle may lack the worker's file (readWorkerScript):
// the store then reads in its own thread.

import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { SqlParams } from "./db.js";

/** A statement for the worker: its text and parameters; answered with all its rows. */
export interface WorkerStatement {
  sql: string;
  params: SqlParams;
}

/**
 * The worker's script: bundled beside dist/main.js by build.mjs, or, run from the sources (tests),
 * the plain JavaScript file beside this one. Null in a bundle made without it (a benchmark's):
 * the store then reads in its own thread.
 */
export function readWorkerScript(): URL | null {
  for (const name of ["./read-worker.js", "./read-worker-entry.mjs"]) {
    const url = new URL(name, import.meta.url);
    if (existsSync(url)) return url;
  }
  return null;
}

type Pending = { resolve: (rows: unknown[][]) => void; reject: (error: Error) => void };

export class ReadWorker {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  /** Workers started since the store opened (tests: one, however many requests). */
  started = 0;

  constructor(
    private readonly file: string,
    private readonly script: URL,
  ) {}

  /**
   * Runs `statements` in one read transaction on the worker; answers their rows in order.
   * `goalPaths`: what the statements' storefit_goal_path reads (goal id → matching page paths).
   */
  read(statements: WorkerStatement[], goalPaths: ReadonlyMap<string, ReadonlySet<string>> = new Map()): Promise<unknown[][]> {
    if (this.closed) return Promise.reject(new Error("the store is closed"));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    const paths = [...goalPaths].map(([goal, set]) => [goal, [...set]]);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Only a request in flight keeps the process alive.
      worker.ref();
      worker.postMessage({ id, statements, paths });
    });
  }

  /** Whether a worker is started (and not closed). */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Resolves true when the current worker's thread has ended (false: none was started). */
  exited(): Promise<boolean> {
    const worker = this.worker;
    return worker ? new Promise((resolve) => worker.once("exit", () => resolve(true))) : Promise.resolve(false);
  }

  close(): void {
    this.closed = true;
    this.fail(new Error("the store is closed"));
    void this.worker?.terminate();
    this.worker = null;
  }

  private start(): Worker {
    // None of the node's flags: the tests' runner passes `--conditions source`, under which the
    // worker's plain Node would load the contract's TypeScript instead of its build.
    const worker = new Worker(this.script, { workerData: { file: this.file }, execArgv: [] });
    this.started++;
    worker.on("message", (m: { id: number; rows?: unknown[][]; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (!this.pending.size) worker.unref();
      if (m.error !== undefined) p.reject(new Error(`read worker: ${m.error}`));
      else p.resolve(m.rows!);
    });
    // The thread itself failed (could not open the file, ran out of memory): what it had fails,
    // the next request starts another.
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.fail(error);
    };
    worker.on("error", gone);
    worker.on("exit", (code) => gone(new Error(`the read worker stopped (exit code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private fail(error: Error): void {
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }
}
