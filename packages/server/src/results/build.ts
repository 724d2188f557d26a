// Making the results state from nothing without stalling the node (docs/results.md "Making the
// state from nothing"). At a million events the build reads several hundred thousand rows: in one
// synchronous transaction it held SQLite's write lock and the event loop for 4–13 s, so every
// config call, event post and health check of the node waited. The stores build instead in
// slices of a bounded number of rows, yielding to the event loop between slices, under a claim
// written in the state row (so that two builders never mix their rows), and take the write lock
// only for short writes and a final catch-up fold from the watermark the build read.

/** How builds slice their work (tests make slices small and count them). */
export const stateBuild = {
  /**
   * Rows read or written per slice. 5,000 candidate events or visitor rows take a few ms to
   * ~20 ms on this machine under load (docs/benchmarks.md, "Results").
   */
  sliceRows: 5_000,
  /** Slices run by this process since it started. */
  slices: 0,
  /** Builds this process gave up since it started: another builder had taken their claim over. */
  abandoned: 0,
  /** The longest a slice held the event loop (ms) and in which step: what the benchmark prints. */
  longest: { ms: 0, step: "" },
  /**
   * How long a caller waits for another's build before it answers busy (503 with Retry-After; the
   * dashboard asks again): a results request must not hang for as long as a claim stays fresh
   * when its builder has died. A build at a million events takes 2–8 s here.
   */
  claimWaitMs: 10_000,
};

/** Another request's build of this state held on past `stateBuild.claimWaitMs`: try again shortly. */
export class ResultsBuildBusy extends Error {
  readonly code = "STOREFIT_RESULTS_BUILDING";
  constructor() {
    super("the results of this experience are being made by another request");
  }
}

let resumed = performance.now();

/** Where a build starts: its first slice is timed from here. */
export function startSlices(): void {
  resumed = performance.now();
}

/** Lets the event loop run (timers, I/O, other requests) before the next slice; `step`: what the slice did. */
export async function nextSlice(step: string): Promise<void> {
  stateBuild.slices++;
  const ms = performance.now() - resumed;
  if (ms > stateBuild.longest.ms) stateBuild.longest = { ms, step };
  await new Promise<void>((resolve) => setImmediate(resolve));
  resumed = performance.now();
}

/**
 * A build in progress, as its state row says: the builder's token and when it last wrote (its
 * heartbeat). A claim older than CLAIM_STALE_MS belongs to a builder that died (a node stopped
 * mid-build) or can no longer write; the next caller takes it over.
 */
export type Claim = { building: string; at: number };
export const CLAIM_STALE_MS = 30_000;
/** A builder renews its claim at least this often, also while it only reads. */
export const CLAIM_HEARTBEAT_MS = 2_000;
/** How often a caller waiting for another builder looks at the state row again. */
export const CLAIM_POLL_MS = 50;

/** The watermark a state row has while a build holds it: no fold reads a state with it. */
export const BUILDING_SEQ = -1;

export const claimJson = (token: string, at = Date.now()): string => JSON.stringify({ building: token, at } satisfies Claim);

/** The claim in a building state row's totals column (null: not a claim). */
export function parseClaim(text: string): Claim | null {
  try {
    const c = JSON.parse(text) as Partial<Claim>;
    return typeof c.building === "string" && typeof c.at === "number" ? { building: c.building, at: c.at } : null;
  } catch {
    return null;
  }
}

/** Whether a claim still holds others off (its builder wrote recently). */
export const claimFresh = (c: Claim | null, now = Date.now()): boolean => c !== null && now - c.at < CLAIM_STALE_MS;

/**
 * Exposures per slice of a fold: a fifth of a slice's events. Each new exposure's visitor is
 * counted again from their exposures and events (reads by index), several times the work of an
 * event: with 5,000 exposures a slice held the event loop for about 160 ms at 50,000 events
 * (against 30 ms or less for 5,000 events).
 */
export const foldExposureRows = (): number => Math.max(1, Math.floor(stateBuild.sliceRows / 5));

/**
 * Where the next slice of a fold from the watermark `from` towards `to` ends, so that no fold
 * holds the event loop (or, on SQLite, the write lock) for a whole backlog: an experience left
 * unopened while a million events arrived, or what arrived during a long build. A backlog within
 * a slice's worth of seqs (stateBuild.sliceRows events, foldExposureRows() exposures) is folded
 * whole, with no extra read (`last`); else `nthEvent(after)` gives the seq of the account's
 * sliceRows-th event after `after` and `nthExposure` that of its foldExposureRows()-th exposure
 * (undefined: fewer are left). Each slice is a fold as
 * any other, committed with its watermark: the next reads that watermark in its own transaction,
 * so a slice is never counted twice whoever runs it.
 */
export function sliceEnd(
  from: { e: number; x: number },
  to: { upE: number; upX: number },
  nthEvent: (after: number) => number | undefined,
  nthExposure: (after: number) => number | undefined,
): { upE: number; upX: number; last: boolean } {
  const end = (at: number, up: number, n: number, nth: (after: number) => number | undefined): number => {
    if (at >= up) return at;
    if (up - at <= n) return up;
    const seq = nth(at);
    return seq === undefined ? up : Math.min(seq, up);
  };
  const upE = end(from.e, to.upE, stateBuild.sliceRows, nthEvent);
  const upX = end(from.x, to.upX, foldExposureRows(), nthExposure);
  return { upE, upX, last: upE >= to.upE && upX >= to.upX };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
