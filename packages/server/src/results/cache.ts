// Computed results remembered per node (docs/results.md, "Cache"). The experiences list shows a
// headline result per row, so the dashboard asks GET /api/results/{id} for every experience on
// each visit; each answer is a full pass over the account's events on the event loop. An answer
// is a pure function of the experience, the query, the account's audiences and the stored
// events and exposures, so it is reused while none of these has changed.

import type { ExperienceResults } from "@storefit/contract";

/** Answers remembered per node; the least recently used goes first (an answer is a few KB to ~100 KB). */
export const RESULTS_CACHE_SIZE = 128;

export class ResultsCache {
  private readonly entries = new Map<string, ExperienceResults>();

  constructor(private readonly maxEntries = RESULTS_CACHE_SIZE) {}

  /**
   * The key of an answer: everything it depends on. `revision` is the account's (every write to
   * the account, its experiences or its audiences moves it); `eventSeq` and `exposureSeq` the last
   * stored event of the account and exposure (events and exposures are only ever added).
   */
  static key(parts: {
    accountId: string;
    experienceId: string;
    updatedAt: string;
    revision: number;
    query: string;
    eventSeq: number;
    exposureSeq: number;
  }): string {
    return JSON.stringify([parts.accountId, parts.experienceId, parts.updatedAt, parts.revision, parts.query, parts.eventSeq, parts.exposureSeq]);
  }

  get(key: string): ExperienceResults | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Re-inserted: Map order is the recency order.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: ExperienceResults): void {
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, value);
  }

  get size(): number {
    return this.entries.size;
  }
}
