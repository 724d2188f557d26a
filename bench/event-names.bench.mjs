// The goal editor's event names at 1,000,000 events of one account (docs/api.md "Event names"):
// the time of one recentEventNames call (GET /api/events/names' storage work, a window of the
// newest 50,000 events). On SQLite that is how long it holds the node's event loop (SQLite's reads
// are synchronous); on PostgreSQL (BENCH_BACKENDS=sqlite,postgres: a throwaway server with durable
// defaults, bench/postgres-server.mjs; VACUUM ANALYZE after the writes) the database's time.
//
// Baseline, same run, same database: Live events' bounded search of the same window for a text
// that matches nothing (searchEvents, what one filtered GET /api/events page reads at most); and
// for scale, the same names read from the account's whole history without a window (the query
// the window avoids: it grows with the account). Each measured in alternating rounds; medians,
// with the load average beside each.
//
// The events: 85% PAGE, 10% CLICK (5 names), 5% TRACK (30 names), one visitor per 20 events,
// written through store.commitClientWrites.
//
// Env: BENCH_EVENTS (1000000), BENCH_ROUNDS (7), BENCH_BACKENDS (sqlite).

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import pg from "pg";
import { importServerModules } from "./server-bundle.mjs";
import { startPostgres } from "./postgres-server.mjs";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const BACKENDS = (process.env.BENCH_BACKENDS ?? "sqlite").split(",");
const WINDOW = 50_000;
const ACCOUNT = "acc_bench";
const loadavg = () => os.loadavg().map((l) => l.toFixed(1)).join(" ");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const WHOLE_HISTORY_SQL = (param) =>
  `SELECT event_name, count(*) AS n, max(seq) AS last FROM events WHERE account_id = ${param} AND event_type = 'TRACK' GROUP BY event_name ORDER BY last DESC LIMIT 100`;

const { openSqliteStore, openPostgresStore } = await importServerModules(
  "event-names-node",
  `
    export { openSqliteStore } from "../packages/server/src/store/sqlite/index.js";
    export { openPostgresStore } from "../packages/server/src/store/postgres/index.js";
  `,
);

async function fill(store) {
  await store.createAccount({ id: ACCOUNT, name: "bench", client_key: "ck_bench", settings: { domain: "shop.example" } });
  const now = new Date().toISOString();
  const started = performance.now();
  for (let from = 0; from < EVENTS; from += 20_000) {
    const writes = [];
    for (let v = from; v < Math.min(EVENTS, from + 20_000); v += 20) {
      const events = [];
      for (let i = v; i < Math.min(EVENTS, v + 20); i++) {
        const r = i % 20;
        const [type, name] = r < 17 ? ["PAGE", "page_view"] : r < 19 ? ["CLICK", `click_${Math.floor(i / 20) % 5}`] : ["TRACK", `event_${Math.floor(i / 20) % 30}`];
        events.push({ event_type: type, event_customer_id: `shop.example|${name}`, domain: "shop.example", name, insert_id: `e${i}`, event_timestamp: 1_790_000_000_000 + i, properties: { page_path: `/p/${i % 500}` } });
      }
      writes.push({ kind: "events", accountId: ACCOUNT, userId: `u_${v}`, user: { user_customer_id: `c${v}`, anonymous: true }, touch: false, events, now });
    }
    await store.commitClientWrites(writes);
  }
  return (performance.now() - started) / 1000;
}

/** Alternating rounds of the three reads; `whole` runs the whole-history SQL. */
async function measure(label, store, whole) {
  const time = async (fn) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  const names = [];
  const search = [];
  const wholes = [];
  const loads = [];
  let answer;
  for (let r = 0; r < ROUNDS; r++) {
    search.push(await time(() => store.searchEvents(ACCOUNT, 50, { q: "matches-nothing" }, WINDOW)));
    names.push(await time(async () => (answer = await store.recentEventNames(ACCOUNT, "TRACK", WINDOW, 100))));
    wholes.push(await time(whole));
    loads.push(loadavg());
  }
  if (answer.names.length !== 30 || answer.complete !== EVENTS <= WINDOW) throw new Error(`unexpected answer: ${JSON.stringify(answer).slice(0, 200)}`);
  const list = (xs) => xs.map((x) => x.toFixed(0)).join(", ");
  const n = median(names);
  const s = median(search);
  console.log(`${label}, ${EVENTS.toLocaleString("en-US")} events:`);
  console.log(`  recentEventNames(TRACK, window ${WINDOW}): median ${n.toFixed(1)} ms (${list(names)})`);
  console.log(`  baseline searchEvents(q matching nothing, window ${WINDOW}): median ${s.toFixed(1)} ms (${list(search)})`);
  console.log(`  the whole history without a window: median ${median(wholes).toFixed(1)} ms (${list(wholes)})`);
  console.log(`  ratio names / search: ${(n / s).toFixed(2)}; load average per round: ${loads.join(" | ")}`);
}

const dir = mkdtempSync(join(os.tmpdir(), "storefit-bench-event-names-"));
let postgres;
try {
  for (const backend of BACKENDS) {
    if (backend === "sqlite") {
      const store = openSqliteStore(join(dir, "store.sqlite"));
      try {
        store.migrate();
        console.log(`SQLite: ${EVENTS.toLocaleString("en-US")} events written in ${(await fill(store)).toFixed(0)} s (load ${loadavg()})`);
        const unbounded = store.sqlite.db.prepare(WHOLE_HISTORY_SQL("?"));
        await measure("SQLite", store, () => unbounded.all(ACCOUNT));
      } finally {
        store.close();
      }
    } else if (backend === "postgres") {
      postgres = await startPostgres();
      const url = await postgres.createDatabase("bench_event_names");
      const store = await openPostgresStore(url);
      const admin = new pg.Client({ connectionString: url });
      try {
        await store.migrate();
        const seconds = await fill(store);
        await admin.connect();
        // What autovacuum does soon after a bulk insert: the visibility map and the statistics.
        await admin.query("VACUUM (ANALYZE)");
        console.log(`PostgreSQL ${postgres.version}: ${EVENTS.toLocaleString("en-US")} events written in ${seconds.toFixed(0)} s, then VACUUM (ANALYZE) (load ${loadavg()})`);
        await measure("PostgreSQL", store, () => admin.query(WHOLE_HISTORY_SQL("$1"), [ACCOUNT]));
      } finally {
        await admin.end();
        await store.close();
      }
    } else throw new Error(`BENCH_BACKENDS: unknown backend ${backend}`);
  }
} finally {
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
}
