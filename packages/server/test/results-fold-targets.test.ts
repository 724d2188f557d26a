// Two callers folding the same backlog in slices, each towards the last seqs it read at its own
// start (results/build.ts sliceEnd): the one whose target is behind must never move a watermark
// back that the other carried past it (its rows would be folded twice). Found by review: the
// last slice folded "to" the caller's own target instead of the slice's end.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import pg from "pg";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import { stateBuild } from "../src/results/build.js";
import { openPostgresStore } from "../src/store/postgres/index.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { Store } from "../src/store/types.js";
import { EXPERIENCE, GOALS, expectedAggregate, expectedExposed, random, round } from "./support/results-data.js";
import type { Written } from "./support/results-data.js";
import { freshDatabase } from "./support/postgres.js";

type Watermarks = { event_seq: number; exposure_seq: number };
type Opened = { a: Store; b: Store; watermarks(): Promise<Watermarks | undefined> };

const dir = mkdtempSync(join(os.tmpdir(), "storefit-fold-targets-"));
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
  rmSync(dir, { recursive: true, force: true });
});
const sliceRows = stateBuild.sliceRows;
beforeEach(() => {
  stateBuild.sliceRows = 10;
});
afterEach(() => {
  stateBuild.sliceRows = sliceRows;
});

const backends: Record<string, () => Promise<Opened>> = {
  sqlite: async () => {
    const file = join(dir, `${Math.random()}.sqlite`);
    const a = openSqliteStore(file);
    a.migrate();
    const b = openSqliteStore(file);
    closers.push(async () => {
      a.close();
      b.close();
    });
    return { a, b, watermarks: async () => a.sqlite.db.prepare("SELECT event_seq, exposure_seq FROM results_state").get() as Watermarks | undefined };
  },
  postgres: async () => {
    const database = await freshDatabase();
    const a = await openPostgresStore(database.url);
    await a.migrate();
    const b = await openPostgresStore(database.url);
    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    closers.push(async () => {
      await sql.end();
      await a.close();
      await b.close();
      await database.drop();
    });
    const read = async () => (await sql.query("SELECT event_seq::int, exposure_seq::int FROM results_state")).rows[0] as Watermarks | undefined;
    return { a, b, watermarks: read };
  },
};

describe.each(Object.keys(backends))("%s: two callers with different targets share a sliced fold", (name) => {
  it("the watermarks never move back, and the result equals the definition", async () => {
    const { a, b, watermarks } = await backends[name]!();
    await a.createAccount({ id: "acc", name: "Shop", client_key: "key-acc", settings: { ...SETTINGS_DEFAULTS, domain: "shop.example" } });
    const next = random(9);
    const written: Written = { exposures: [], events: [] };
    const expected = () => ({ aggregate: expectedAggregate(written, GOALS), exposed: expectedExposed(written) });
    await a.commitClientWrites(round(next, "acc", 0, 5, written));
    expect(await a.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expected());
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
    expect(await a.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expected());
  }, 120_000);
});
