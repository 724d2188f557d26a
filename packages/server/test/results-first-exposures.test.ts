// Each visitor's first exposure, kept at insert (first_exposures: SQLite migration 12, PostgreSQL
// migration 2), on both backends: after rounds of seeded random arrivals — late summaries earlier
// than the first, two at one millisecond, forced ones, events before exposure — the results
// aggregate is what docs/results.md defines (support/results-data.ts computes it from what was
// written), and the migration's backfill from the stored exposures gives the same.
import { describe, expect, it } from "vitest";
import { MIGRATIONS as SQLITE_MIGRATIONS } from "../src/store/migrations.js";
import { MIGRATIONS as POSTGRES_MIGRATIONS } from "../src/store/postgres/migrations.js";
import { EXPERIENCE, GOALS, SHOP, expectedAggregate, random, round } from "./support/results-data.js";
import type { Written } from "./support/results-data.js";
import { BACKENDS, openBackend } from "./support/stores.js";

const MIGRATIONS = { sqlite: SQLITE_MIGRATIONS, postgres: POSTGRES_MIGRATIONS };

describe.each(BACKENDS)("first exposures on %s", (name) => {
  it("keep each visitor's first exposure through rounds of arrivals, and the backfill agrees", async () => {
    const b = await openBackend(name);
    await b.store.createAccount(SHOP);
    const next = random(19);
    const written: Written = { exposures: [], events: [] };
    for (let r = 0; r < 4; r++) {
      await b.store.commitClientWrites(round(next, "acc", r, 60, written));
      const expected = expectedAggregate(written, GOALS);
      expect(expected.exposures.length).toBeGreaterThan(5);
      expect(expected.goals.length).toBeGreaterThan(5);
      expect(await b.store.resultsAggregate("acc", EXPERIENCE, GOALS)).toEqual(expected);
    }
    // The data holds what the table must get right: late earlier exposures, ties, forced ones.
    const firstTimes = new Map<string, number>();
    let lateEarlier = 0;
    for (const x of written.exposures) {
      if (x.forced || x.experience_id !== EXPERIENCE) continue;
      const t = firstTimes.get(x.user_id!);
      if (t !== undefined && x.requested_time < t) lateEarlier++;
      if (t === undefined || x.requested_time < t) firstTimes.set(x.user_id!, x.requested_time);
    }
    expect(lateEarlier).toBeGreaterThan(3);

    const before = await b.store.resultsAggregate("acc", EXPERIENCE, GOALS);
    // The table made again by its migration, from the stored exposures.
    await b.exec("DROP TABLE first_exposures");
    await b.exec(MIGRATIONS[name].find((m) => m.name.includes("first exposure"))!.sql);
    expect(await b.store.resultsAggregate("acc", EXPERIENCE, GOALS)).toEqual(before);
  });
});
