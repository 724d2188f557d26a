// Ranged results benchmark (docs/benchmarks.md, "Results"): how long one date-range results call
// holds a SQLite node's event loop, read in the node's thread (before) and on the read worker
// (packages/server/src/store/sqlite/read-worker.ts, after), alternating in the same run on the
// same file. Data as results.bench.mjs: one experience's visitors over 14 days, written through the
// Store by the demo-data simulator.
//
// Each call is GET /api/results/exp_price_message?from=…&to=… on the real app (a new alpha each
// time: the route's cache would answer a repeat). Meanwhile a 1 ms timer measures the longest gap
// between its turns (the event loop's longest hold) and a loop of GET /healthz requests, one after
// another, measures the longest wait of a request (the load a shopper's config call would be).
// Then the same for the other whole-history reads of these screens, also on the worker since: the
// overlaps endpoint (its page views) and the diagnostics' page visitors. Env: BENCH_EVENTS
// (1000000), BENCH_ROUNDS (5).

import { build } from "esbuild";
import { serverBundleOptions } from "../packages/server/bundle.mjs";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const EXTRA_PAGE_VIEWS = 8;

// Two bundles of the server's modules from source, under node_modules (where the bundles resolve
// their dependencies): one with the read worker's script beside it (the store reads ranges on the
// worker, as dist/main.js does), one without (the store reads in its thread: the baseline).
const cacheDir = join(root, "packages", "server", "node_modules", ".cache", "storefit-bench", "results-range");
const node = async (name, withWorker) => {
  const dir = join(cacheDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await build({
    ...serverBundleOptions,
    stdin: {
      contents: `
        export { buildApp } from "../packages/server/src/app.js";
        export { openSqliteStore } from "../packages/server/src/store/sqlite/index.js";
        export { seedDemo, DEMO_ACCOUNT_ID } from "../packages/server/src/seed/demo.js";
        export { simulateVisitors, writeSimulation, DEMO_PRICE_MESSAGE_ARMS } from "../packages/server/src/seed/demo-data.js";
      `,
      resolveDir: here,
      loader: "ts",
      sourcefile: "results-range-node.ts",
    },
    outfile: join(dir, "node.mjs"),
  });
  if (withWorker) {
    await build({ ...serverBundleOptions, entryPoints: [join(root, "packages/server/src/store/sqlite/read-worker-entry.mjs")], outfile: join(dir, "read-worker.js") });
  }
  return import(pathToFileURL(join(dir, "node.mjs")).href);
};
const inThreadNode = await node("in-thread", false);
const workerNode = await node("worker", true);
const { seedDemo, DEMO_ACCOUNT_ID, simulateVisitors, writeSimulation, DEMO_PRICE_MESSAGE_ARMS } = inThreadNode;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (x) => `${x.toFixed(1)} ms`;
const fmt = (n) => Math.round(n).toLocaleString("en-US");
const load = () => (os.loadavg()[0] ?? 0).toFixed(2);

function* upTo(visitors, total) {
  let left = total;
  for (const v of visitors) {
    if (left <= 0) return;
    const events = v.events.length > left ? v.events.slice(0, left) : v.events;
    left -= events.length;
    yield { ...v, events };
  }
}

/**
 * Runs `fn` while a 1 ms timer and a loop of /healthz requests (on `app`) probe the event loop:
 * the call's time, the longest gap between timer turns, the longest /healthz wait, the turns seen.
 */
async function probed(app, fn) {
  let last = performance.now();
  let hold = 0;
  let turns = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    hold = Math.max(hold, now - last);
    last = now;
    turns++;
  }, 1);
  let running = true;
  let healthz = 0;
  const requests = (async () => {
    while (running) {
      const t = performance.now();
      await app.inject({ method: "GET", url: "/healthz" });
      healthz = Math.max(healthz, performance.now() - t);
      // A turn of the event loop between requests, as between a real server's requests
      // (inject answers within microtasks: without it the loop would starve everything else).
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  const start = performance.now();
  const result = await fn();
  const took = performance.now() - start;
  hold = Math.max(hold, performance.now() - last);
  running = false;
  clearInterval(timer);
  await requests;
  return { took, hold, healthz, turns, result };
}

const dir = mkdtempSync(join(os.tmpdir(), "storefit-results-range-bench-"));
try {
  const file = join(dir, "storefit.sqlite");
  const writer = inThreadNode.openSqliteStore(file);
  writer.migrate();
  const owner = { email: "bench@storefit.test", password: "bench-password-123" };
  await seedDemo(writer, owner);
  const experience = writer.getExperience(DEMO_ACCOUNT_ID, "exp_price_message");
  let t0 = performance.now();
  const simulated = simulateVisitors({
    experience,
    rule_id: "rule_price_everyone",
    arms: DEMO_PRICE_MESSAGE_ARMS,
    start: Date.UTC(2026, 10, 1),
    days: 28,
    visitorsPerDay: Math.ceil((EVENTS / (1.5 + EXTRA_PAGE_VIEWS) / 14) * 1.2),
    extraPageViews: EXTRA_PAGE_VIEWS,
    seed: 2026,
  });
  const written = await writeSimulation(writer, DEMO_ACCOUNT_ID, upTo(simulated, EVENTS), new Date().toISOString(), 5000);
  console.log(
    `Ranged results benchmark: ${fmt(writer.countEvents(DEMO_ACCOUNT_ID))} events, ${fmt(written.exposures)} exposures ` +
      `(${fmt(written.visitors)} visitors), written in ${((performance.now() - t0) / 1000) | 0} s`,
  );
  writer.close();

  // The same file, two nodes' stores: one reads in its thread, one on its worker.
  const nodes = {};
  for (const [name, mod] of [["in-thread", inThreadNode], ["worker", workerNode]]) {
    const store = mod.openSqliteStore(file);
    const app = await mod.buildApp({ store, log: false });
    const signIn = await app.inject({ method: "POST", url: "/api/session", payload: owner });
    const cookie = signIn.cookies.find((c) => c.name === "storefit_session");
    nodes[name] = { store, app, headers: { cookie: `storefit_session=${cookie.value}` }, times: [], holds: [], healthz: [], turns: [], storeTimes: [], storeHolds: [] };
  }
  if (nodes["in-thread"].store.reader !== null || nodes.worker.store.reader === null) throw new Error("the two nodes do not read as intended");

  let calls = 0;
  // `first`: both nodes' first calls ask the same alpha (each node has its own cache), so their
  // answers can be compared.
  const ranged = (n, first = false) =>
    probed(n.app, async () => {
      if (!first) calls++;
      const res = await n.app.inject({
        method: "GET",
        url: `/api/results/exp_price_message?from=2026-11-05&to=2026-11-11&alpha=0.05${String(calls).padStart(4, "0")}`,
        headers: n.headers,
      });
      if (res.statusCode !== 200) throw new Error(`results failed: ${res.statusCode} ${res.body}`);
      return res.json();
    });

  // First calls: each node lists the account's page paths once (in its thread, then remembered).
  const firsts = {};
  for (const name of ["in-thread", "worker"]) firsts[name] = await ranged(nodes[name], true);
  // The same answer but for when it was computed.
  const a = JSON.stringify({ ...firsts["in-thread"].result, computed_at: null });
  const b = JSON.stringify({ ...firsts.worker.result, computed_at: null });
  if (a !== b) {
    const differ = Object.keys(firsts.worker.result).filter((k) => JSON.stringify(firsts.worker.result[k]) !== JSON.stringify(firsts["in-thread"].result[k]));
    console.log(`  WARNING: the two answers differ in ${differ.join(", ")}`);
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 ? ["worker", "in-thread"] : ["in-thread", "worker"]) {
      const n = nodes[name];
      const p = await ranged(n);
      n.times.push(p.took);
      n.holds.push(p.hold);
      n.healthz.push(p.healthz);
      n.turns.push(p.turns);
      // The store's two ranged reads alone (what the worker takes off the loop), without the
      // rest of the route (packages/stats, the JSON answer), which stays in the thread.
      const range = { from_ms: Date.UTC(2026, 10, 5), to_ms: Date.UTC(2026, 10, 12) };
      const q = await probed(n.app, () =>
        Promise.all([n.store.resultsAggregate(DEMO_ACCOUNT_ID, "exp_price_message", experience.goals, range), n.store.exposureVisitors(DEMO_ACCOUNT_ID, "exp_price_message", range)]),
      );
      n.storeTimes.push(q.took);
      n.storeHolds.push(q.hold);
    }
  }
  console.log(`  load average at the end: ${load()} (2 cores, shared)`);
  for (const name of ["in-thread", "worker"]) {
    const n = nodes[name];
    const f = firsts[name];
    console.log(
      `  ${name.padEnd(9)} first call ${ms(f.took)}, longest hold ${ms(f.hold)}; median of ${ROUNDS}: call ${ms(median(n.times))}, ` +
        `longest hold ${ms(median(n.holds))} (worst ${ms(Math.max(...n.holds))}), longest /healthz wait ${ms(median(n.healthz))}, timer turns ${median(n.turns)}; ` +
        `the store's ranged reads alone: ${ms(median(n.storeTimes))}, longest hold ${ms(median(n.storeHolds))}`,
    );
  }
  const [before, after] = [nodes["in-thread"], nodes.worker];
  console.log(
    `  worker / in-thread: call ${(median(after.times) / median(before.times)).toFixed(2)}×, longest hold ${(median(after.holds) / median(before.holds)).toFixed(3)}×, ` +
      `store's reads ${(median(after.storeTimes) / median(before.storeTimes)).toFixed(2)}×, their hold ${(median(after.storeHolds) / median(before.storeHolds)).toFixed(3)}×, answers ${a === b ? "equal" : "DIFFERENT"}`,
  );

  // The other whole-history reads of these screens, on the same two nodes, alternating: the
  // overlaps endpoint (its pageViews of the last 30 days, as the route asks them) and the
  // diagnostics' pageVisitors of five pages over the whole history (a running experience with few
  // visitors, changed long ago: the most it reads). Each store read also alone, without the route.
  const month = { from_ms: Date.UTC(2026, 10, 29) - 30 * 86_400_000 };
  const OVERLAP_SAMPLE_PAGES = 500; // routes/admin-experiences.ts
  const pages = (await before.store.pageViews(DEMO_ACCOUNT_ID, month, OVERLAP_SAMPLE_PAGES)).pages.slice(0, 5);
  const overlapsCall = (n) =>
    probed(n.app, async () => {
      const res = await n.app.inject({ method: "GET", url: "/api/experiences/exp_price_message/overlaps", headers: n.headers });
      if (res.statusCode !== 200) throw new Error(`overlaps failed: ${res.statusCode} ${res.body}`);
      return res.body;
    });
  const pageReads = {};
  for (const name of ["in-thread", "worker"]) pageReads[name] = { overlaps: [], views: [], visitors: [], bare: [], answers: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 ? ["worker", "in-thread"] : ["in-thread", "worker"]) {
      const n = nodes[name];
      const m = pageReads[name];
      const o = await overlapsCall(n);
      const v = await probed(n.app, () => n.store.pageViews(DEMO_ACCOUNT_ID, month, OVERLAP_SAMPLE_PAGES));
      const u = await probed(n.app, () => n.store.pageVisitors(DEMO_ACCOUNT_ID, {}, pages));
      m.overlaps.push(o);
      m.views.push(v);
      m.visitors.push(u);
      // Without the probes: the probes' own loop competes with the worker for the two cores.
      const t = performance.now();
      await n.store.pageViews(DEMO_ACCOUNT_ID, month, OVERLAP_SAMPLE_PAGES);
      m.bare.push(performance.now() - t);
      if (r === 0) m.answers = [o.result, JSON.stringify(v.result), u.result];
    }
  }
  const pageLoad = load();
  const sameAnswers = JSON.stringify(pageReads["in-thread"].answers) === JSON.stringify(pageReads.worker.answers);
  const med = (list, key) => median(list.map((x) => x[key]));
  for (const name of ["in-thread", "worker"]) {
    const m = pageReads[name];
    console.log(
      `  ${name.padEnd(9)} median of ${ROUNDS}: GET overlaps ${ms(med(m.overlaps, "took"))}, longest hold ${ms(med(m.overlaps, "hold"))} ` +
        `(worst ${ms(Math.max(...m.overlaps.map((x) => x.hold)))}), longest /healthz wait ${ms(med(m.overlaps, "healthz"))}, timer turns ${med(m.overlaps, "turns")}; ` +
        `pageViews alone ${ms(med(m.views, "took"))} (without the probes ${ms(median(m.bare))}), hold ${ms(med(m.views, "hold"))}; ` +
        `pageVisitors of 5 pages (diagnostics) ${ms(med(m.visitors, "took"))}, hold ${ms(med(m.visitors, "hold"))} (worst ${ms(Math.max(...m.visitors.map((x) => x.hold)))}), timer turns ${med(m.visitors, "turns")}`,
    );
  }
  const [pb, pa] = [pageReads["in-thread"], pageReads.worker];
  console.log(
    `  worker / in-thread: GET overlaps ${(med(pa.overlaps, "took") / med(pb.overlaps, "took")).toFixed(2)}×, its longest hold ${(med(pa.overlaps, "hold") / med(pb.overlaps, "hold")).toFixed(3)}×; ` +
      `pageViews' hold ${(med(pa.views, "hold") / med(pb.views, "hold")).toFixed(3)}×, its time without the probes ${(median(pa.bare) / median(pb.bare)).toFixed(2)}×; pageVisitors' hold ${(med(pa.visitors, "hold") / med(pb.visitors, "hold")).toFixed(3)}×; ` +
      `answers ${sameAnswers ? "equal" : "DIFFERENT"}; load ${pageLoad}`,
  );
  for (const n of [before, after]) {
    await n.app.close();
    n.store.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
