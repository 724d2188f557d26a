// The results in a date range on a SQLite file are read on a worker thread (store/sqlite/read-worker.ts,
// docs/storage.md "Read worker"): the answer is the one the node's own connection gives, the
// event loop keeps turning while the worker reads, a failed statement fails only its request,
// and closing the store ends the worker. A ":memory:" database is read in the thread.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SqliteDb } from "../src/store/sqlite/db.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { SqliteStore } from "../src/store/sqlite/index.js";
import { sqliteResults } from "../src/store/sqlite/results.js";
import type { SqliteResults } from "../src/store/sqlite/results.js";
import { EXPERIENCE, GOALS, SHOP, random, round } from "./support/results-data.js";
import type { Written } from "./support/results-data.js";

const DAY = 86_400_000;
/** Ranges over the data round() writes (first exposures from 1 November 2026 on, over about ten days). */
const RANGES = [
  { from_ms: Date.UTC(2026, 10, 3), to_ms: Date.UTC(2026, 10, 8) },
  { from_ms: Date.UTC(2026, 10, 5) },
  { to_ms: Date.UTC(2026, 10, 6) },
  { from_ms: 0, to_ms: Date.UTC(2026, 10, 1) + 40 * DAY },
];

const dir = mkdtempSync(join(tmpdir(), "storefit-read-worker-"));
const file = join(dir, "s.sqlite");
let store: SqliteStore;
/** The same file read by a connection of its own, in this thread (no read worker). */
let inThread: SqliteResults;
let inThreadDb: SqliteDb;

beforeAll(() => {
  store = openSqliteStore(file);
  store.migrate();
  store.createAccount(SHOP);
  const next = random(2026);
  const written: Written = { exposures: [], events: [] };
  // About 20,000 events and exposures: a ranged read of them takes several event-loop turns' time.
  for (let r = 0; r < 8; r++) store.commitClientWrites(round(next, "acc", r, 1500, written));
  inThreadDb = new SqliteDb(file);
  inThread = sqliteResults(inThreadDb, null);
});

afterAll(() => {
  store.close();
  inThreadDb.close();
  rmSync(dir, { recursive: true, force: true });
});

it("a ranged aggregate and its exposure visitors, read by the worker, equal the in-thread answers exactly", async () => {
  for (const range of RANGES) {
    const aggregate = store.resultsAggregate("acc", EXPERIENCE, GOALS, range);
    const exposed = store.exposureVisitors("acc", EXPERIENCE, range);
    // Answered later, by the worker (a value here would have been read in this thread).
    expect(aggregate).toBeInstanceOf(Promise);
    expect(exposed).toBeInstanceOf(Promise);
    const want = inThread.resultsAggregate("acc", EXPERIENCE, GOALS, range);
    expect(await aggregate).toEqual(want);
    expect((await aggregate).goals.length).toBeGreaterThan(0);
    expect(await exposed).toEqual(inThread.exposureVisitors("acc", EXPERIENCE, range));
    // No goals: the exposures only.
    expect(await store.resultsAggregate("acc", EXPERIENCE, [], range)).toEqual(inThread.resultsAggregate("acc", EXPERIENCE, [], range));
  }
  // Without a range: in the thread, as before (the route folds instead, docs/results.md).
  expect(store.resultsAggregate("acc", EXPERIENCE, GOALS)).toEqual(inThread.resultsAggregate("acc", EXPERIENCE, GOALS));
  // One worker, started on the first request, however many requests.
  expect(store.reader!.started).toBe(1);
});

it("the event loop keeps turning during a ranged read", async () => {
  let turns = 0;
  let probing = true;
  const probe = () => {
    turns++;
    if (probing) setImmediate(probe);
  };
  const pending = store.resultsAggregate("acc", EXPERIENCE, GOALS, RANGES[0]!);
  const before = turns;
  setImmediate(probe);
  await pending;
  probing = false;
  // In the thread the statement would have run before the probe's first turn.
  expect(turns - before).toBeGreaterThan(0);
});

it("a failed statement fails its request only; the worker answers the next", async () => {
  await expect(store.reader!.read([{ sql: "SELECT * FROM no_such_table", params: {} }])).rejects.toThrow(/no_such_table/);
  // Read-only: a write fails too, and changes nothing.
  await expect(store.reader!.read([{ sql: "DELETE FROM events RETURNING seq", params: {} }])).rejects.toThrow(/readonly/);
  const n = await store.reader!.read([{ sql: "SELECT count(*) AS n FROM events", params: {} }]);
  expect((n[0]![0] as { n: number }).n).toBeGreaterThan(0);
  expect(store.reader!.started).toBe(1);
});

it("a worker that dies fails the read it had; the next read starts another", async () => {
  const reader = store.reader!;
  const started = reader.started;
  // A statement long enough to be still running when the thread is ended.
  const pending = reader.read([{ sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000000) SELECT count(*) AS n FROM c", params: {} }]);
  // The thread ended from outside, as a crash would end it.
  await (reader as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
  await expect(pending).rejects.toThrow(/stopped/);
  expect(reader.running).toBe(false);
  expect(await store.exposureVisitors("acc", EXPERIENCE, RANGES[0]!)).toEqual(inThread.exposureVisitors("acc", EXPERIENCE, RANGES[0]!));
  expect(reader.started).toBe(started + 1);
});

it("closing the store ends the worker; a read after it fails", async () => {
  const other = openSqliteStore(join(dir, "other.sqlite"));
  other.migrate();
  other.createAccount(SHOP);
  await other.exposureVisitors("acc", EXPERIENCE, { from_ms: 0 });
  expect(other.reader!.running).toBe(true);
  const exited = other.reader!.exited();
  other.close();
  expect(other.reader!.running).toBe(false);
  expect(await exited).toBe(true);
  await expect(other.reader!.read([{ sql: "SELECT 1", params: {} }])).rejects.toThrow(/closed/);
});

it("a ':memory:' database has no worker: its ranged reads answer in the thread", () => {
  const memory = openSqliteStore(":memory:");
  memory.migrate();
  memory.createAccount(SHOP);
  expect(memory.reader).toBeNull();
  expect(memory.exposureVisitors("acc", EXPERIENCE, { from_ms: 0 })).toEqual({ distinct: 0, byVariation: [] });
  memory.close();
});
