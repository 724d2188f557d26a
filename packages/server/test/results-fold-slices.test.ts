// A fold far behind its watermark never stalls a node (docs/results.md "Incremental results"): an
// experience left unopened while many events arrived is folded in slices of
// stateBuild.sliceRows rows, each committed with its watermark in its own short transaction,
// with the event loop free between two (a health check is answered before the fold ends). The
// slices count nothing twice, also when two nodes fold at once, and what arrives meanwhile is
// taken in by the next call; the answers equal the definition (support/results-data.ts) and a
// state made from nothing.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import pg from "pg";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import { stateBuild } from "../src/results/build.js";
import { openPostgresStore } from "../src/store/postgres/index.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { Store } from "../src/store/types.js";
import { EXPERIENCE, GOALS, expectedAggregate, expectedExposed, random, round } from "./support/results-data.js";
import type { Written } from "./support/results-data.js";
import { freshDatabase } from "./support/postgres.js";

type Backend = {
  store: Store;
  other: Store;
  /** The state row's event watermark as committed (read on another connection). */
  watermark(): Promise<number | null>;
  forgetState(): Promise<void>;
  close(): Promise<void>;
};

const dir = mkdtempSync(join(os.tmpdir(), "storefit-fold-slices-"));
let files = 0;

const backends: Record<string, () => Promise<Backend>> = {
  sqlite: async () => {
    const file = join(dir, `fold-${files++}.sqlite`);
    const store = openSqliteStore(file);
    store.migrate();
    const other = openSqliteStore(file);
    const peek = openSqliteStore(file);
    return {
      store,
      other,
      watermark: async () => (peek.sqlite.db.prepare("SELECT event_seq FROM results_state").pluck().get() as number | undefined) ?? null,
      forgetState: async () => void store.sqlite.db.exec("DELETE FROM results_state"),
      close: async () => {
        for (const s of [store, other, peek]) s.close();
      },
    };
  },
  postgres: async () => {
    const database = await freshDatabase();
    const store = await openPostgresStore(database.url);
    await store.migrate();
    const other = await openPostgresStore(database.url);
    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    return {
      store,
      other,
      watermark: async () => {
        const seq = (await sql.query("SELECT event_seq FROM results_state")).rows[0]?.event_seq;
        return seq === undefined ? null : Number(seq);
      },
      forgetState: async () => void (await sql.query("DELETE FROM results_state")),
      close: async () => {
        await sql.end();
        await store.close();
        await other.close();
        await database.drop();
      },
    };
  },
};

const opened: Backend[] = [];
afterAll(async () => {
  for (const b of opened) await b.close();
  rmSync(dir, { recursive: true, force: true });
});

const defaultSlice = stateBuild.sliceRows;
beforeEach(() => {
  stateBuild.sliceRows = 50;
});
afterEach(() => {
  stateBuild.sliceRows = defaultSlice;
});

const expected = (written: Written) => ({ aggregate: expectedAggregate(written, GOALS), exposed: expectedExposed(written) });
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A state made for a few visitors, then a backlog of many slices' worth stored behind it. */
async function farBehind(name: string, seed: number): Promise<{ b: Backend; written: Written }> {
  const b = await backends[name]!();
  opened.push(b);
  await b.store.createAccount({ id: "acc", name: "Shop", client_key: "key-acc", settings: { ...SETTINGS_DEFAULTS, domain: "shop.example" } });
  const next = random(seed);
  const written: Written = { exposures: [], events: [] };
  await b.store.commitClientWrites(round(next, "acc", 0, 20, written));
  expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expected(written));
  for (let r = 1; r <= 8; r++) await b.store.commitClientWrites(round(next, "acc", r, 300, written));
  expect(written.events.length).toBeGreaterThan(2_000);
  return { b, written };
}

describe.each(Object.keys(backends))("a fold far behind on %s", (name) => {
  it("runs in slices, each committed with its watermark: a health check is answered before it ends, and it equals the definition", async () => {
    const { b, written } = await farBehind(name, 31);
    const app = await buildApp({ store: b.store, log: false });
    try {
      const start = await b.watermark();
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
        const seq = await b.watermark();
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
      const end = await b.watermark();
      expect([...watermarks].filter((seq) => seq > start! && seq < end!).length).toBeGreaterThan(5);
      expect(arrivals).toBeGreaterThan(0);
      expect(folded.exposed.distinct).toBeGreaterThan(0);
      // The next call takes in the arrivals: the definition over everything, and the state made
      // again from nothing, exactly.
      const next = await b.store.foldResults("acc", EXPERIENCE, GOALS);
      expect(next).toEqual(expected(written));
      await b.forgetState();
      expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(next);
    } finally {
      await app.close();
    }
  });

  it("two nodes folding the same backlog at once share its slices and count nothing twice", async () => {
    const { b, written } = await farBehind(name, 41);
    const slicesBefore = stateBuild.slices;
    const both = await Promise.all([b.store.foldResults("acc", EXPERIENCE, GOALS), b.other.foldResults("acc", EXPERIENCE, GOALS)]);
    expect(stateBuild.slices - slicesBefore).toBeGreaterThan(10);
    expect(both).toEqual([expected(written), expected(written)]);
  });
});
