// Two callers folding the same backlog in slices, each towards the last seqs it read at its own
// start (results/build.ts sliceEnd): the one whose target is behind must never move a watermark
// back that the other carried past it (its rows would be folded twice). Found by review: the
// last slice folded "to" the caller's own target instead of the slice's end.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stateBuild } from "../src/results/build.js";
import { EXPERIENCE, GOALS, SHOP, expectedFold, random, round } from "./support/results-data.js";
import type { Written } from "./support/results-data.js";
import { BACKENDS, openBackend } from "./support/stores.js";

type Watermarks = { event_seq: number; exposure_seq: number };

const sliceRows = stateBuild.sliceRows;
beforeEach(() => {
  stateBuild.sliceRows = 10;
});
afterEach(() => {
  stateBuild.sliceRows = sliceRows;
});

describe.each(BACKENDS)("%s: two callers with different targets share a sliced fold", (name) => {
  it("the watermarks never move back, and the result equals the definition", async () => {
    const backend = await openBackend(name, { nodes: 2 });
    const [a, b] = [backend.store, backend.nodes[1]!];
    const watermarks = async () => (await backend.query<Watermarks>("SELECT event_seq, exposure_seq FROM results_state"))[0];
    await a.createAccount(SHOP);
    const next = random(9);
    const written: Written = { exposures: [], events: [] };
    await a.commitClientWrites(round(next, "acc", 0, 5, written));
    expect(await a.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expectedFold(written));
    // A backlog with more exposure slices than event slices (exposure slices are smaller).
    for (let r = 1; r <= 4; r++) await a.commitClientWrites(round(next, "acc", r, 30, written));
    const first = Promise.resolve(a.foldResults("acc", EXPERIENCE, GOALS)); // its target: the backlog
    if (name === "postgres") await new Promise((r) => setTimeout(r, 20));
    await b.commitClientWrites(round(next, "acc", 9, 10, written)); // after the first caller's target
    const second = Promise.resolve(b.foldResults("acc", EXPERIENCE, GOALS)); // its target: beyond
    const seen: Watermarks[] = [];
    let done = false;
    void Promise.all([first, second]).finally(() => (done = true));
    while (!done) {
      const w = await watermarks();
      if (w) seen.push(w);
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all([first, second]);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.event_seq, `event watermark after ${JSON.stringify(seen.slice(0, i + 1))}`).toBeGreaterThanOrEqual(seen[i - 1]!.event_seq);
      expect(seen[i]!.exposure_seq, `exposure watermark after ${JSON.stringify(seen.slice(0, i + 1))}`).toBeGreaterThanOrEqual(seen[i - 1]!.exposure_seq);
    }
    expect(await a.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expectedFold(written));
  }, 120_000);
});
