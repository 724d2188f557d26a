// Each visitor's first exposure, kept at insert (first_exposures: SQLite migration 12, PostgreSQL
// migration 2), on both backends: after rounds of seeded random arrivals — late summaries earlier
// than the first, two at one millisecond, forced ones, events before exposure — the results
// aggregate is what docs/results.md defines (support/results-data.ts computes it from what was
// written), and the migration's backfill from the stored exposures gives the same.
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import { MIGRATIONS as SQLITE_MIGRATIONS } from "../src/store/migrations.js";
import { MIGRATIONS as POSTGRES_MIGRATIONS } from "../src/store/postgres/migrations.js";
import { openPostgresStore } from "../src/store/postgres/index.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { Store } from "../src/store/types.js";
import { EXPERIENCE, GOALS, expectedAggregate, random, round } from "./support/results-data.js";
import type { Written } from "./support/results-data.js";
import { freshDatabase } from "./support/postgres.js";

type Backend = { store: Store; rebuildFirstExposures(): Promise<void>; close(): Promise<void> };

const backends: Record<string, () => Promise<Backend>> = {
  sqlite: async () => {
    const store = openSqliteStore(":memory:");
    store.migrate();
    const migration = SQLITE_MIGRATIONS.find((m) => m.name.includes("first exposure"))!;
    return {
      store,
      rebuildFirstExposures: async () => {
        store.sqlite.db.exec("DROP TABLE first_exposures");
        store.sqlite.db.exec(migration.sql);
      },
      close: async () => store.close(),
    };
  },
  postgres: async () => {
    const database = await freshDatabase();
    const store = await openPostgresStore(database.url);
    await store.migrate();
    const migration = POSTGRES_MIGRATIONS.find((m) => m.name.includes("first exposure"))!;
    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    return {
      store,
      rebuildFirstExposures: async () => {
        await sql.query("DROP TABLE first_exposures");
        await sql.query(migration.sql);
      },
      close: async () => {
        await sql.end();
        await store.close();
        await database.drop();
      },
    };
  },
};

const opened: Backend[] = [];
afterAll(async () => {
  for (const b of opened) await b.close();
});

describe.each(Object.keys(backends))("first exposures on %s", (name) => {
  it("keep each visitor's first exposure through rounds of arrivals, and the backfill agrees", async () => {
    const b = await backends[name]!();
    opened.push(b);
    await b.store.createAccount({ id: "acc", name: "Shop", client_key: "key-acc", settings: { ...SETTINGS_DEFAULTS, domain: "shop.example" } });
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
    await b.rebuildFirstExposures();
    expect(await b.store.resultsAggregate("acc", EXPERIENCE, GOALS)).toEqual(before);
  });
});
