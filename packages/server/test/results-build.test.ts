// Making the results state from nothing never stalls the node (docs/results.md "Incremental
// results"): the build runs in slices that yield to the event loop (a health check is answered
// before it ends; on PostgreSQL no transaction holds the state row across it), what arrives meanwhile is counted by its catch-up fold, two builders
// at once count nothing twice, and a builder whose claim was taken over gives up and leaves no
// rows that count. The answers are checked against the definition (support/results-data.ts).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import { ResultsBuildBusy, stateBuild } from "../src/results/build.js";
import { isStoreBusy } from "../src/store/errors.js";
import type { SqliteStore } from "../src/store/sqlite/index.js";
import { EXPERIENCE, GOALS, SHOP, expectedFold, random, round } from "./support/results-data.js";
import type { Written } from "./support/results-data.js";
import { openBackend } from "./support/stores.js";

/** `nodes` stores (processes) on a new SQLite file, with the account. */
async function open(nodes = 1): Promise<SqliteStore[]> {
  const b = await openBackend("sqlite", { nodes });
  b.store.createAccount(SHOP);
  return b.nodes;
}

/** Stored visitors and events, enough for many slices of 50 rows. */
function history(store: SqliteStore, seed: number): Written {
  const next = random(seed);
  const written: Written = { exposures: [], events: [] };
  for (let r = 0; r < 8; r++) store.commitClientWrites(round(next, "acc", r, 300, written));
  return written;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

const defaultSlice = stateBuild.sliceRows;
beforeEach(() => {
  stateBuild.sliceRows = 50;
});
afterEach(() => {
  stateBuild.sliceRows = defaultSlice;
});

describe("results state made from nothing on SQLite", () => {
  it("runs in slices: a health check is answered before it ends, and what arrives meanwhile is counted", async () => {
    const [store] = await open();
    const written = history(store!, 5);
    expect(written.events.length).toBeGreaterThan(2_000);
    const app = await buildApp({ store: store!, log: false });
    try {
      const slicesBefore = stateBuild.slices;
      const order: string[] = [];
      let done = false;
      const building = Promise.resolve(store!.foldResults("acc", EXPERIENCE, GOALS)).then((r) => {
        order.push("build");
        done = true;
        return r;
      });
      const health = app.inject({ method: "GET", url: "/healthz" }).then((res) => {
        order.push(`healthz ${res.statusCode}`);
      });
      // Visitors, exposures and events stored while the build runs, between its slices.
      const next = random(99);
      let arrivals = 0;
      for (let r = 0; !done && r < 30; r++) {
        await tick();
        if (done) break;
        store!.commitClientWrites(round(next, "acc", 1000 + r, 20, written));
        arrivals++;
      }
      await Promise.all([building, health]);
      expect(order).toEqual(["healthz 200", "build"]);
      expect(stateBuild.slices - slicesBefore).toBeGreaterThan(10);
      expect(arrivals).toBeGreaterThan(0);
      // The next call folds only what came after the build's catch-up: it equals the definition
      // over everything written, and the state made again from nothing, bit for bit.
      const folded = await store!.foldResults("acc", EXPERIENCE, GOALS);
      expect(folded).toEqual(expectedFold(written));
      store!.sqlite.db.exec("DELETE FROM results_state");
      expect(await store!.foldResults("acc", EXPERIENCE, GOALS)).toEqual(folded);
    } finally {
      await app.close();
    }
  });

  it("two nodes building at once count nothing twice: one builds, the other waits and folds from it", async () => {
    const [a, b] = await open(2);
    const written = history(a!, 6);
    const next = random(7);
    let done = 0;
    const both = [a!, b!].map((s) => Promise.resolve(s.foldResults("acc", EXPERIENCE, GOALS)).finally(() => done++));
    for (let r = 0; done < 2 && r < 30; r++) {
      await tick();
      a!.commitClientWrites(round(next, "acc", 2000 + r, 10, written));
    }
    await Promise.all(both);
    const folded = await b!.foldResults("acc", EXPERIENCE, GOALS);
    expect(folded).toEqual(expectedFold(written));
    expect(await a!.foldResults("acc", EXPERIENCE, GOALS)).toEqual(folded);
  });

  it("a builder whose claim is taken over gives up; the state is made once, exactly", async () => {
    const [store] = await open();
    const written = history(store!, 8);
    const db = store!.sqlite.db;
    const claim = () => db.prepare("SELECT event_seq, totals FROM results_state").get() as { event_seq: number; totals: string } | undefined;
    const abandoned = stateBuild.abandoned;
    const building = Promise.resolve(store!.foldResults("acc", EXPERIENCE, GOALS));
    await tick();
    await tick();
    const first = claim();
    expect(first?.event_seq).toBe(-1);
    // Another node takes the claim over (as after CLAIM_STALE_MS without a heartbeat), writes a
    // wrong visitor row as an abandoned build would, and stops.
    db.prepare("UPDATE results_state SET totals = ?").run(JSON.stringify({ building: "another-node", at: Date.now() }));
    db.prepare("INSERT OR REPLACE INTO results_visitors (account_id, experience_id, user_id, state) VALUES ('acc', ?, 'u1', '{}')").run(EXPERIENCE);
    // The first builder finds the claim gone at its first write, gives up and waits for the other's claim.
    for (let i = 0; stateBuild.abandoned === abandoned && i < 100_000; i++) await tick();
    expect(stateBuild.abandoned).toBe(abandoned + 1);
    expect(db.prepare("SELECT count(*) FROM results_visitors").pluck().get()).toBe(1);
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(JSON.parse(claim()!.totals).building).toBe("another-node");
    // The other node is gone: its claim is deleted (as a stale one is taken over); the first
    // builder then builds again, writing over the abandoned rows.
    db.prepare("DELETE FROM results_state").run();
    const folded = await building;
    expect(folded).toEqual(expectedFold(written));
    expect(JSON.parse(db.prepare("SELECT state FROM results_visitors WHERE user_id = 'u1'").pluck().get() as string)).not.toEqual({});
    expect(await store!.foldResults("acc", EXPERIENCE, GOALS)).toEqual(folded);
  });

  it("reads the seqs from the account's first event: another account's earlier events cost no slices", async () => {
    const [store] = await open();
    store!.createAccount({ id: "big", name: "Big", client_key: "key-big", settings: { ...SETTINGS_DEFAULTS, domain: "big.example" } });
    const next = random(12);
    const theirs: Written = { exposures: [], events: [] };
    for (let r = 0; r < 8; r++) store!.commitClientWrites(round(next, "big", r, 300, theirs));
    const written: Written = { exposures: [], events: [] };
    store!.commitClientWrites(round(next, "acc", 100, 20, written));
    expect(theirs.events.length).toBeGreaterThan(5_000);
    const slicesBefore = stateBuild.slices;
    expect(await store!.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expectedFold(written));
    // A few slices of 50 rows for the account's own rows; from seq 0, over 200 more.
    expect(stateBuild.slices - slicesBefore).toBeLessThan(20);
  });

  // Format 1 kept the goals' JSON alone, and its rows (results_seen) the fold no longer reads;
  // format 2 ("2 " before the JSON) took a visitor without a row for a new one, where format 3
  // recounts them: a node of either version beside this one must not have its state folded into.
  it.each([
    ["1", ""],
    ["2", "2 "],
  ])("a state of format %s (a node of another version wrote it) is made again, not folded into", async (_format, prefix) => {
    const [store] = await open();
    const written = history(store!, 10);
    const db = store!.sqlite.db;
    // At the last seqs, with totals that count nobody, as if nothing had been exposed.
    db.prepare(
      `INSERT INTO results_state (account_id, experience_id, goals, event_seq, exposure_seq, totals)
       VALUES ('acc', ?, ?, (SELECT max(seq) FROM events), (SELECT max(seq) FROM exposures), ?)`,
    ).run(EXPERIENCE, prefix + JSON.stringify(GOALS), JSON.stringify({ visitors: 0, seen: {}, days: {}, sums: {} }));
    expect(await store!.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expectedFold(written));
  });

  it("a stale claim (its builder stopped) is taken over", async () => {
    const [store] = await open();
    const written = history(store!, 9);
    store!.sqlite.db
      .prepare("INSERT INTO results_state (account_id, experience_id, goals, event_seq, exposure_seq, totals) VALUES ('acc', ?, ?, -1, -1, ?)")
      .run(EXPERIENCE, JSON.stringify(GOALS), JSON.stringify({ building: "a-stopped-node", at: Date.now() - 10 * 60_000 }));
    expect(await store!.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expectedFold(written));
  });
});

describe("results state made from nothing on PostgreSQL", () => {
  it("runs in slices outside a transaction: the state row stays free, a health check is answered, arrivals are counted", async () => {
    const { store, query, exec } = await openBackend("postgres");
    await store.createAccount(SHOP);
    const app = await buildApp({ store, log: false });
    try {
      const next = random(5);
      const written: Written = { exposures: [], events: [] };
      for (let r = 0; r < 8; r++) await store.commitClientWrites(round(next, "acc", r, 300, written));
      const slicesBefore = stateBuild.slices;
      const order: string[] = [];
      let done = false;
      const building = Promise.resolve(store.foldResults("acc", EXPERIENCE, GOALS)).then((r) => {
        order.push("build");
        done = true;
        return r;
      });
      // Wait until the build holds its claim, then lock the state row from another connection
      // without waiting (NOWAIT): no transaction of the build holds it across the build.
      let claimed = false;
      for (let i = 0; !claimed && !done && i < 10_000; i++) {
        await tick();
        claimed = (await query<{ event_seq: number }>("SELECT event_seq FROM results_state"))[0]?.event_seq === -1;
      }
      expect(claimed).toBe(true);
      await exec("BEGIN");
      await exec("SELECT 1 FROM results_state FOR UPDATE NOWAIT");
      await exec("COMMIT");
      const health = app.inject({ method: "GET", url: "/healthz" }).then((res) => order.push(`healthz ${res.statusCode}`));
      const more = random(99);
      let arrivals = 0;
      for (let r = 0; !done && r < 10; r++) {
        await store.commitClientWrites(round(more, "acc", 1000 + r, 20, written));
        arrivals++;
      }
      await Promise.all([building, health]);
      expect(order).toEqual(["healthz 200", "build"]);
      expect(stateBuild.slices - slicesBefore).toBeGreaterThan(10);
      expect(arrivals).toBeGreaterThan(0);
      const folded = await store.foldResults("acc", EXPERIENCE, GOALS);
      expect(folded).toEqual(expectedFold(written));
      await exec("DELETE FROM results_state");
      expect(await store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(folded);
    } finally {
      await app.close();
    }
  });
  it("a caller finding another's fresh claim waits at most stateBuild.claimWaitMs, then says busy", async () => {
    const { store, query } = await openBackend("postgres");
    const defaultWait = stateBuild.claimWaitMs;
    stateBuild.claimWaitMs = 200;
    try {
      await store.createAccount(SHOP);
      await query("INSERT INTO results_state (account_id, experience_id, goals, event_seq, exposure_seq, totals) VALUES ('acc', $1, $2, -1, -1, $3)", [
        EXPERIENCE,
        JSON.stringify(GOALS),
        JSON.stringify({ building: "another-node", at: Date.now() }),
      ]);
      const error = await Promise.resolve(store.foldResults("acc", EXPERIENCE, GOALS)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ResultsBuildBusy);
      expect(isStoreBusy(error)).toBe(true);
    } finally {
      stateBuild.claimWaitMs = defaultWait;
    }
  });
});
