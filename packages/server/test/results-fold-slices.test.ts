// A fold far behind its watermark never stalls a node (docs/results.md "Incremental results"): an
// experience left unopened while many events arrived is folded in slices of
// stateBuild.sliceRows rows, each committed with its watermark in its own short transaction,
// with the event loop free between two (a health check is answered before the fold ends). The
// slices count nothing twice, also when two nodes fold at once, and what arrives meanwhile is
// taken in by the next call; the answers equal the definition (support/results-data.ts) and a
// state made from nothing.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { stateBuild } from "../src/results/build.js";
import { EXPERIENCE, GOALS, SHOP, expectedFold, random, round } from "./support/results-data.js";
import type { Written } from "./support/results-data.js";
import { BACKENDS, openBackend } from "./support/stores.js";
import type { Backend, BackendName } from "./support/stores.js";

const defaultSlice = stateBuild.sliceRows;
beforeEach(() => {
  stateBuild.sliceRows = 50;
});
afterEach(() => {
  stateBuild.sliceRows = defaultSlice;
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The state row's event watermark as committed (read on a connection of its own). */
async function watermark(b: Backend): Promise<number | null> {
  return (await b.query<{ event_seq: number }>("SELECT event_seq FROM results_state"))[0]?.event_seq ?? null;
}

/** A state made for a few visitors, then a backlog of many slices' worth stored behind it. */
async function farBehind(name: BackendName, seed: number): Promise<{ b: Backend; written: Written }> {
  const b = await openBackend(name, { nodes: 2 });
  await b.store.createAccount(SHOP);
  const next = random(seed);
  const written: Written = { exposures: [], events: [] };
  await b.store.commitClientWrites(round(next, "acc", 0, 20, written));
  expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expectedFold(written));
  for (let r = 1; r <= 8; r++) await b.store.commitClientWrites(round(next, "acc", r, 300, written));
  expect(written.events.length).toBeGreaterThan(2_000);
  return { b, written };
}

describe.each(BACKENDS)("a fold far behind on %s", (name) => {
  it("runs in slices, each committed with its watermark: a health check is answered before it ends, and it equals the definition", async () => {
    const { b, written } = await farBehind(name, 31);
    const app = await buildApp({ store: b.store, log: false });
    try {
      const start = await watermark(b);
      const slicesBefore = stateBuild.slices;
      const order: string[] = [];
      let done = false;
      const folding = Promise.resolve(b.store.foldResults("acc", EXPERIENCE, GOALS)).then((r) => {
        order.push("fold");
        done = true;
        return r;
      });
      const health = app.inject({ method: "GET", url: "/healthz" }).then((res) => order.push(`healthz ${res.statusCode}`));
      // The watermarks other connections see while it runs, and arrivals between its slices.
      const watermarks = new Set<number>();
      const more = random(32);
      let arrivals = 0;
      for (let i = 0; !done && i < 100_000; i++) {
        await tick();
        const seq = await watermark(b);
        if (seq !== null) watermarks.add(seq);
        if (!done && arrivals < 5 && i % 3 === 0) {
          await b.store.commitClientWrites(round(more, "acc", 100 + arrivals, 10, written));
          arrivals++;
        }
      }
      const folded = await folding;
      await health;
      expect(order).toEqual(["healthz 200", "fold"]);
      expect(stateBuild.slices - slicesBefore).toBeGreaterThan(10);
      // Committed slice by slice: watermarks between the start and the end were visible to others.
      const end = await watermark(b);
      expect([...watermarks].filter((seq) => seq > start! && seq < end!).length).toBeGreaterThan(5);
      expect(arrivals).toBeGreaterThan(0);
      expect(folded.exposed.distinct).toBeGreaterThan(0);
      // The next call takes in the arrivals: the definition over everything, and the state made
      // again from nothing, exactly.
      const next = await b.store.foldResults("acc", EXPERIENCE, GOALS);
      expect(next).toEqual(expectedFold(written));
      await b.exec("DELETE FROM results_state");
      expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(next);
    } finally {
      await app.close();
    }
  });

  it("two nodes folding the same backlog at once share its slices and count nothing twice", async () => {
    const { b, written } = await farBehind(name, 41);
    const slicesBefore = stateBuild.slices;
    const both = await Promise.all([b.store.foldResults("acc", EXPERIENCE, GOALS), b.nodes[1]!.foldResults("acc", EXPERIENCE, GOALS)]);
    expect(stateBuild.slices - slicesBefore).toBeGreaterThan(10);
    expect(both).toEqual([expectedFold(written), expectedFold(written)]);
  });
});
