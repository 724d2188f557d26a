// Results benchmark (docs/benchmarks.md, "Results"): one experience with 1,000,000 events (plus
// one exposure per visitor) in a real SQLite file, written through the Store by the demo-data
// simulator (packages/server/src/seed/demo-data.ts). Two timings in the same run, alternating:
//
// - full results: GET /api/results/exp_price_message on the real app (three goals: a TRACK event,
//   a goal page, revenue — four metrics, CUPED, SRM, Holm, the daily series, the JSON answer),
//   with a date range that holds everything, so that it is computed in full;
// - bare aggregation: one GROUP BY count over the same rows, on the same file
//   (SELECT event_type, count(*) FROM events WHERE account_id = ? GROUP BY event_type).
//
// Prints the medians and their ratio, the part of the full time spent in the store's aggregation
// queries, and the first call's time (it also lists the account's page paths, which a node then
// remembers). Env: BENCH_EVENTS (1000000), BENCH_ROUNDS (7), BENCH_EXTRA_PAGE_VIEWS (8,
// page views per visitor besides the exposure's: they set how many visitors make the events).

import { importServerModules } from "./server-bundle.mjs";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const EXTRA_PAGE_VIEWS = Number(process.env.BENCH_EXTRA_PAGE_VIEWS ?? 8);

// The server's modules bundled from source (npm dependencies external).
const { buildApp, openSqliteStore, seedDemo, DEMO_ACCOUNT_ID, simulateVisitors, writeSimulation, DEMO_PRICE_MESSAGE_ARMS } = await importServerModules(
  "results-node",
  `
    export { buildApp } from "../packages/server/src/app.js";
    export { openSqliteStore } from "../packages/server/src/store/sqlite/index.js";
    export { seedDemo, DEMO_ACCOUNT_ID } from "../packages/server/src/seed/demo.js";
    export { simulateVisitors, writeSimulation, DEMO_PRICE_MESSAGE_ARMS } from "../packages/server/src/seed/demo-data.js";
  `,
);
const { default: Database } = await import("better-sqlite3");

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (x) => `${x.toFixed(1)} ms`;
const fmt = (n) => Math.round(n).toLocaleString("en-US");

/** The simulated visitors, cut so that their events add up to exactly `total`. */
function* upTo(visitors, total) {
  let left = total;
  for (const v of visitors) {
    if (left <= 0) return;
    const events = v.events.length > left ? v.events.slice(0, left) : v.events;
    left -= events.length;
    yield { ...v, events };
  }
}

const dir = mkdtempSync(join(os.tmpdir(), "storefit-results-bench-"));
try {
  const file = join(dir, "storefit.sqlite");
  const store = openSqliteStore(file);
  store.migrate();
  const owner = { email: "bench@storefit.test", password: "bench-password-123" };
  await seedDemo(store, owner);
  const experience = store.getExperience(DEMO_ACCOUNT_ID, "exp_price_message");

  // ---- the data: 1,000,000 events of one experience's visitors over 14 days ----
  let t0 = performance.now();
  const perVisitor = 1.5 + EXTRA_PAGE_VIEWS; // the exposure's page view, some goals, some history
  const visitorsPerDay = Math.ceil((EVENTS / perVisitor / 14) * 1.2);
  const simulated = simulateVisitors({
    experience,
    rule_id: "rule_price_everyone",
    arms: DEMO_PRICE_MESSAGE_ARMS,
    start: Date.UTC(2026, 10, 1),
    days: 14 * 2, // more than needed: the cut at EVENTS ends the history
    visitorsPerDay,
    extraPageViews: EXTRA_PAGE_VIEWS,
    seed: 2026,
  });
  const written = await writeSimulation(store, DEMO_ACCOUNT_ID, upTo(simulated, EVENTS), new Date().toISOString(), 5000);
  const events = store.countEvents(DEMO_ACCOUNT_ID);
  if (events !== EVENTS) throw new Error(`expected ${EVENTS} events, stored ${events}`);
  console.log(
    `Results benchmark: ${fmt(events)} events, ${fmt(written.exposures)} exposures (${fmt(written.visitors)} visitors), ` +
      `written in ${(performance.now() - t0) / 1000 | 0} s`,
  );

  // ---- the two timings ----
  const app = await buildApp({ store, log: false });
  const signIn = await app.inject({ method: "POST", url: "/api/session", payload: owner });
  const cookie = signIn.cookies.find((c) => c.name === "storefit_session");
  const headers = { cookie: `storefit_session=${cookie.value}` };
  const bare = new Database(file, { readonly: true });
  const bareQuery = bare.prepare("SELECT event_type, count(*) AS n FROM events WHERE account_id = ? GROUP BY event_type");

  // Each call asks another alpha: the route reuses an answer for the same query and data
  // (results/cache.ts), and this measures the computation. `cached` repeats the last query.
  let calls = 0;
  const full = async (repeat = false) => {
    if (!repeat) calls++;
    const start = performance.now();
    // A date range (all of it) is computed in full; without one the route folds the incremental
    // state (docs/results.md "Incremental results"; storage.bench.mjs measures that).
    const res = await app.inject({ method: "GET", url: `/api/results/exp_price_message?from=2000-01-01&alpha=0.05${String(calls).padStart(4, "0")}`, headers });
    const took = performance.now() - start;
    if (res.statusCode !== 200) throw new Error(`results failed: ${res.statusCode} ${res.body}`);
    return { took, body: res.json() };
  };
  const aggregateOnly = () => {
    const start = performance.now();
    store.resultsAggregate(DEMO_ACCOUNT_ID, experience.id, experience.goals);
    return performance.now() - start;
  };
  const bareOnly = () => {
    const start = performance.now();
    const rows = bareQuery.all(DEMO_ACCOUNT_ID);
    const took = performance.now() - start;
    if (rows.reduce((s, r) => s + r.n, 0) !== EVENTS) throw new Error("the bare query did not count every event");
    return took;
  };

  // Warm-up (statements prepared, pages cached), then alternate.
  const first = await full();
  bareOnly();
  const times = { full: [], aggregate: [], bare: [], cached: [] };
  for (let r = 0; r < ROUNDS; r++) {
    times.bare.push(bareOnly());
    times.full.push((await full()).took);
    times.cached.push((await full(true)).took);
    times.aggregate.push(aggregateOnly());
  }
  const rule = first.body.rules[0];
  const cart = rule.metrics.find((m) => m.goal_id === "goal_add_to_cart").variations[1];
  console.log(
    `  answer: ${fmt(first.body.total_visitors)} visitors, ${rule.metrics.length} metrics, ${rule.daily.length} days; ` +
      `add-to-cart lift ${(cart.comparison.effect * 100).toFixed(1)} % [${(cart.comparison.ci[0] * 100).toFixed(1)}, ${(cart.comparison.ci[1] * 100).toFixed(1)}] (planted +12 %)`,
  );
  const f = median(times.full);
  const a = median(times.aggregate);
  const b = median(times.bare);
  console.log(`  full results, first call (the node lists the account's page paths: one more pass over the events): ${ms(first.took)}`);
  console.log(`  full results (GET /api/results), median of ${ROUNDS}: ${ms(f)}  (of which the store's aggregation: ${ms(a)})`);
  console.log(`  bare GROUP BY count over the same rows, median of ${ROUNDS}: ${ms(b)}`);
  console.log(`  the same query again, nothing new stored (the node's results cache), median of ${ROUNDS}: ${ms(median(times.cached))}`);
  console.log(`  ratio full / bare: ${(f / b).toFixed(1)}×   aggregation / bare: ${(a / b).toFixed(1)}×`);
  bare.close();
  await app.close();
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
