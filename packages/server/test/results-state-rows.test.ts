// Which visitors keep a stored state row (docs/results.md "Incremental results"): a fold writes
// none for a visitor with few events (counted again from their exposures and events when
// something of theirs arrives), and one for a visitor with more than STATE_ROW_EVENTS candidate
// events, whose later events are then added to it. The answers stay the definition's
// (support/results-data.ts) and equal a state made from nothing, on both backends.
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { TrackedEvent } from "@storefit/contract";
import { STATE_ROW_EVENTS } from "../src/results/incremental.js";
import { openPostgresStore } from "../src/store/postgres/index.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { ClientWrite, Store } from "../src/store/types.js";
import { EXPERIENCE, GOALS, expectedAggregate, expectedExposed, random, round } from "./support/results-data.js";
import type { Written } from "./support/results-data.js";
import { freshDatabase } from "./support/postgres.js";

type Backend = { store: Store; rows(): Promise<string[]>; forgetState(): Promise<void>; close(): Promise<void> };

const backends: Record<string, () => Promise<Backend>> = {
  sqlite: async () => {
    const store = openSqliteStore(":memory:");
    store.migrate();
    return {
      store,
      rows: async () => store.sqlite.db.prepare("SELECT user_id FROM results_visitors ORDER BY user_id").pluck().all() as string[],
      forgetState: async () => void store.sqlite.db.exec("DELETE FROM results_state"),
      close: async () => store.close(),
    };
  },
  postgres: async () => {
    const database = await freshDatabase();
    const store = await openPostgresStore(database.url);
    await store.migrate();
    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    return {
      store,
      rows: async () => (await sql.query("SELECT user_id FROM results_visitors ORDER BY user_id COLLATE \"C\"")).rows.map((r: { user_id: string }) => r.user_id),
      forgetState: async () => void (await sql.query("DELETE FROM results_state")),
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

const expected = (written: Written) => ({ aggregate: expectedAggregate(written, GOALS), exposed: expectedExposed(written) });
const DAY = 86_400_000;
const now = new Date(Date.UTC(2026, 11, 1)).toISOString();

/** A visitor's exposure and `clicks` clicks after it (the "Any click" goal), in one write each. */
function busyVisitor(user: string, clicks: number, from: number, written: Written): ClientWrite[] {
  const visitor = { user_customer_id: user, anonymous: true };
  const exposure = {
    config_id: "cfg", user_customer_id: user, user_id: user, session_id: `s-${user}`, requested_time: Date.UTC(2026, 10, 3),
    variation_id: "vb", experience_id: EXPERIENCE, rule_id: "r1", behaviour_id: "r1-b", probability: 0.5, split: null, forced: false,
  };
  const events: TrackedEvent[] = Array.from({ length: clicks }, (_, i) => ({
    event_type: "CLICK", event_customer_id: "shop.example|button", domain: "shop.example", insert_id: `${user}-${from + i}`,
    event_timestamp: Date.UTC(2026, 10, 3) + DAY + from + i, properties: {},
  }));
  const writes: ClientWrite[] = [];
  if (from === 0) {
    writes.push({ kind: "exposures", accountId: "acc", userId: user, user: visitor, touch: false, exposures: [exposure], now });
    written.exposures.push({ ...exposure, order: written.exposures.length + written.events.length });
  }
  writes.push({ kind: "events", accountId: "acc", userId: user, user: visitor, touch: false, events, now });
  for (const e of events) written.events.push({ ...e, user_id: user, order: written.exposures.length + written.events.length });
  return writes;
}

describe.each(Object.keys(backends))("stored visitor states on %s", (name) => {
  it("a fold writes rows only for visitors with many events, and stays exact", async () => {
    const b = await backends[name]!();
    opened.push(b);
    await b.store.createAccount({ id: "acc", name: "Shop", client_key: "key-acc", settings: { ...SETTINGS_DEFAULTS, domain: "shop.example" } });
    const next = random(404);
    const written: Written = { exposures: [], events: [] };
    await b.store.commitClientWrites(round(next, "acc", 0, 30, written));
    expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expected(written));
    // The build writes a row for every visitor it counted.
    const built = await b.rows();
    expect(built.length).toBeGreaterThan(10);
    // New visitors with a few clicks each, and the first round's visitors again: no new rows.
    for (let r = 1; r <= 3; r++) {
      const writes = round(next, "acc", r, 15, written);
      for (let i = 0; i < 10; i++) writes.push(...busyVisitor(`light-${r}-${i}`, 1 + (i % 4), 0, written));
      await b.store.commitClientWrites(writes);
      expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expected(written));
    }
    expect((await b.rows()).filter((u) => !built.includes(u))).toEqual([]);
    // A visitor with more than STATE_ROW_EVENTS events gets a row, and their later clicks are added to it.
    await b.store.commitClientWrites(busyVisitor("busy", STATE_ROW_EVENTS + 5, 0, written));
    expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expected(written));
    expect((await b.rows()).filter((u) => !built.includes(u))).toEqual(["busy"]);
    await b.store.commitClientWrites(busyVisitor("busy", 3, 1_000, written));
    const folded = await b.store.foldResults("acc", EXPERIENCE, GOALS);
    expect(folded).toEqual(expected(written));
    await b.forgetState();
    expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(folded);
  });
});
