// The results folded incrementally from a watermark (docs/results.md "Incremental results"), on
// both backends: after each round of seeded random arrivals — conversions before exposure, late
// earlier exposures, revenue and page goals — foldResults answers exactly what a full recompute
// answers (resultsAggregate and exposureVisitors, and the definition in support/results-data.ts);
// a goal change starts again; with decimal amounts the folded state equals one made from nothing,
// bit for bit; two PostgreSQL nodes folding at once count nothing twice.
import { describe, expect, it } from "vitest";
import type { GoalDefinition } from "@storefit/contract";
import type { Store } from "../src/store/types.js";
import { DECIMAL_AMOUNTS, EXPERIENCE, GOALS, OTHER_GOALS, SHOP, expectedAggregate, expectedFold, random, round } from "./support/results-data.js";
import type { Written } from "./support/results-data.js";
import { BACKENDS, openBackend } from "./support/stores.js";
import type { BackendName } from "./support/stores.js";

async function open(name: BackendName, nodes = 1) {
  const b = await openBackend(name, { nodes });
  await b.store.createAccount(SHOP);
  return b;
}

/** What a full recompute answers (the SQL statements over every stored row). */
async function recomputed(store: Store, goals: readonly GoalDefinition[]) {
  return { aggregate: await store.resultsAggregate("acc", EXPERIENCE, goals), exposed: await store.exposureVisitors("acc", EXPERIENCE) };
}

describe.each(BACKENDS)("incremental results on %s", (name) => {
  it("equal a full recompute after every round of arrivals, and after a goal change", async () => {
    const b = await open(name);
    const next = random(2026);
    const written: Written = { exposures: [], events: [] };
    expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual({ aggregate: { exposures: [], goals: [] }, exposed: { distinct: 0, byVariation: [] } });
    for (let r = 0; r < 6; r++) {
      // Several writes between two calls, and calls with nothing new in between.
      await b.store.commitClientWrites(round(next, "acc", r, 40, written));
      if (r === 3) {
        // A goal change: the state starts again for the new goals, and again when they change back.
        expect(await b.store.foldResults("acc", EXPERIENCE, OTHER_GOALS)).toEqual(expectedFold(written, OTHER_GOALS));
        await b.store.commitClientWrites(round(next, "acc", 100 + r, 20, written));
      }
      const folded = await b.store.foldResults("acc", EXPERIENCE, GOALS);
      expect(folded).toEqual(expectedFold(written));
      expect(folded).toEqual(await recomputed(b.store, GOALS));
      expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(folded);
    }
    const expected = expectedAggregate(written, GOALS);
    expect(expected.goals.filter((g) => g.goal_id === "g-rev" && g.value > 0).length).toBeGreaterThan(3);
    expect(expected.goals.filter((g) => g.goal_id === "g-page" && g.post > 0).length).toBeGreaterThan(3);
    expect(expected.goals.some((g) => g.pre > 0)).toBe(true);
    // Visitors whose revenue was stored before any exposure of theirs was.
    const exposedAt = new Map<string, number>();
    for (const x of written.exposures) if (!x.forced && x.experience_id === EXPERIENCE && !exposedAt.has(x.user_id!)) exposedAt.set(x.user_id!, x.order);
    const convertedEarly = new Set(written.events.filter((e) => e.event_type === "REVENUE" && e.order < (exposedAt.get(e.user_id) ?? -1)).map((e) => e.user_id));
    expect(convertedEarly.size).toBeGreaterThan(0);
  });

  it("with decimal revenue, folded step by step equals the state made from nothing, bit for bit", async () => {
    const b = await open(name);
    const next = random(7);
    const written: Written = { exposures: [], events: [] };
    for (let r = 0; r < 5; r++) {
      await b.store.commitClientWrites(round(next, "acc", r, 40, written, DECIMAL_AMOUNTS));
      await b.store.foldResults("acc", EXPERIENCE, GOALS);
    }
    const folded = await b.store.foldResults("acc", EXPERIENCE, GOALS);
    await b.exec("DELETE FROM results_state");
    const fromNothing = await b.store.foldResults("acc", EXPERIENCE, GOALS);
    expect(folded).toEqual(fromNothing);
    // The full SQL recompute sums in its own order: the counts are equal, the sums to the last digits.
    const full = await recomputed(b.store, GOALS);
    expect(folded.exposed).toEqual(full.exposed);
    expect(folded.aggregate.goals.map((g) => [g.goal_id, g.variation_id, g.date, g.visitors, g.post, g.pre, g.orders])).toEqual(
      full.aggregate.goals.map((g) => [g.goal_id, g.variation_id, g.date, g.visitors, g.post, g.pre, g.orders]),
    );
    full.aggregate.goals.forEach((g, i) => {
      const f = folded.aggregate.goals[i]!;
      for (const k of ["value", "value_squares", "pre_value", "pre_value_squares", "value_pre_value", "value_orders"] as const) {
        expect(f[k]).toBeCloseTo(g[k], 6);
      }
    });
  });

  if (name === "postgres") {
    it("two nodes folding the same arrivals at once count them once", async () => {
      const b = await open(name, 2);
      const next = random(11);
      const written: Written = { exposures: [], events: [] };
      for (let r = 0; r < 3; r++) {
        await b.store.commitClientWrites(round(next, "acc", r, 40, written));
        const both = await Promise.all([b.store.foldResults("acc", EXPERIENCE, GOALS), b.nodes[1]!.foldResults("acc", EXPERIENCE, GOALS)]);
        expect(both).toEqual([expectedFold(written), expectedFold(written)]);
      }
    });
  }
});

