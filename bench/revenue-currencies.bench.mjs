// The currencies of recent orders a results answer with a revenue goal carries (docs/results.md
// "Currencies"): the time of one recentRevenueCurrencies call, a window of the account's newest
// 50,000 events whose orders' JSON is read. On SQLite that is how long it holds the node's event
// loop; on PostgreSQL (BENCH_BACKENDS=sqlite,postgres: bench/postgres-server.mjs, VACUUM ANALYZE
// after the writes) the database's time.
//
// Baseline, same run, same database: recentEventNames of the same window (the goal editor's
// event names, docs/api.md "Event names"), which reads only columns. Alternating rounds; medians,
// with the load average beside each round.
//
// The events: one in BENCH_ORDER_EVERY a REVENUE event (order id, amount, USD or GBP, three line
// items; 20 by default, 5%: 1 is the worst case, every event an order), the others PAGE and
// CLICK; one visitor per 20 events, written through store.commitClientWrites.
//
// Env: BENCH_EVENTS (200000), BENCH_ROUNDS (7), BENCH_BACKENDS (sqlite), BENCH_ORDER_EVERY (20).

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import pg from "pg";
import { importServerModules } from "./server-bundle.mjs";
import { startPostgres } from "./postgres-server.mjs";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const BACKENDS = (process.env.BENCH_BACKENDS ?? "sqlite").split(",");
const WINDOW = 50_000;
const ORDER_EVERY = Number(process.env.BENCH_ORDER_EVERY ?? 20);
const ACCOUNT = "acc_bench";
/** Every visitor is first exposed to it before their events: the read counts only its visitors' orders. */
const EXPERIENCE = "exp_bench";
const loadavg = () => os.loadavg().map((l) => l.toFixed(1)).join(" ");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { openSqliteStore, openPostgresStore } = await importServerModules(
  "revenue-currencies-node",
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
        const r = i % ORDER_EVERY === ORDER_EVERY - 1 ? 19 : i % 19;
        const base = { domain: "shop.example", insert_id: `e${i}`, event_timestamp: 1_790_000_000_000 + i };
        if (r < 17) events.push({ ...base, event_type: "PAGE", event_customer_id: "shop.example|page_view", properties: { page_path: `/p/${i % 500}` } });
        else if (r < 19) events.push({ ...base, event_type: "CLICK", name: "add_to_cart", event_customer_id: "shop.example|add_to_cart", properties: { page_path: `/p/${i % 500}` } });
        else {
          const items = [1, 2, 3].map((k) => ({ sku: `sku-${(i + k) % 300}`, title: `Organic cotton bodysuit ${k}`, price: 9.5 * k, quantity: k }));
          events.push({ ...base, event_type: "REVENUE", name: "order", event_customer_id: "shop.example|order", properties: { page_path: "/thank-you", order_id: `o${i}`, revenue_amount: 27 + (i % 40), currency: i % 3 ? "USD" : "GBP", items } });
        }
      }
      const user = { user_customer_id: `c${v}`, anonymous: true };
      const exposure = { config_id: "cfg", user_customer_id: `c${v}`, user_id: `u_${v}`, session_id: "s", requested_time: 1_790_000_000_000, variation_id: "va", experience_id: EXPERIENCE, rule_id: "r1", behaviour_id: "b1", probability: 0.5, split: null };
      writes.push({ kind: "exposures", accountId: ACCOUNT, userId: `u_${v}`, user, touch: false, exposures: [exposure], now });
      writes.push({ kind: "events", accountId: ACCOUNT, userId: `u_${v}`, user, touch: false, events, now });
    }
    await store.commitClientWrites(writes);
  }
  return (performance.now() - started) / 1000;
}

async function measure(label, store) {
  const time = async (fn) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  const currencies = [];
  const names = [];
  const loads = [];
  let answer;
  for (let r = 0; r < ROUNDS; r++) {
    names.push(await time(() => store.recentEventNames(ACCOUNT, "CLICK", WINDOW, 100)));
    currencies.push(await time(async () => (answer = await store.recentRevenueCurrencies(ACCOUNT, EXPERIENCE, WINDOW))));
    loads.push(loadavg());
  }
  const orders = answer.reduce((n, c) => n + c.orders, 0);
  if (answer.length !== 2 || orders !== Math.floor(Math.min(EVENTS, WINDOW) / ORDER_EVERY)) throw new Error(`unexpected answer: ${JSON.stringify(answer)}`);
  const list = (xs) => xs.map((x) => x.toFixed(0)).join(", ");
  const c = median(currencies);
  const n = median(names);
  console.log(`${label}, ${EVENTS.toLocaleString("en-US")} events (${orders.toLocaleString("en-US")} orders in the window):`);
  console.log(`  recentRevenueCurrencies(window ${WINDOW}): median ${c.toFixed(1)} ms (${list(currencies)})`);
  console.log(`  baseline recentEventNames(CLICK, window ${WINDOW}): median ${n.toFixed(1)} ms (${list(names)})`);
  console.log(`  ratio currencies / names: ${(c / n).toFixed(2)}; load average per round: ${loads.join(" | ")}`);
}

const dir = mkdtempSync(join(os.tmpdir(), "storefit-bench-revenue-currencies-"));
let postgres;
try {
  for (const backend of BACKENDS) {
    if (backend === "sqlite") {
      const store = openSqliteStore(join(dir, "store.sqlite"));
      try {
        store.migrate();
        console.log(`SQLite: ${EVENTS.toLocaleString("en-US")} events written in ${(await fill(store)).toFixed(0)} s (load ${loadavg()})`);
        await measure("SQLite", store);
      } finally {
        store.close();
      }
    } else if (backend === "postgres") {
      postgres = await startPostgres();
      const url = await postgres.createDatabase("bench_revenue_currencies");
      const store = await openPostgresStore(url);
      const admin = new pg.Client({ connectionString: url });
      try {
        await store.migrate();
        const seconds = await fill(store);
        await admin.connect();
        await admin.query("VACUUM (ANALYZE)");
        console.log(`PostgreSQL ${postgres.version}: ${EVENTS.toLocaleString("en-US")} events written in ${seconds.toFixed(0)} s, then VACUUM (ANALYZE) (load ${loadavg()})`);
        await measure("PostgreSQL", store);
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
