// Storage benchmark (issue #18, docs/benchmarks.md "Storage: SQLite and PostgreSQL"). In one run,
// on one machine, with one load generator (this process):
//
// 1. Config calls/s and events/s, with each request's p50 / p99, for
//      - a bare node:http server (bench/bare-http.mjs: parses the body, answers real answers of the
//        service): the baseline of every ratio;
//      - 1 node on SQLite (bench/service-node.ts, a temporary file);
//      - 1 node on PostgreSQL (the same node with DATABASE_URL: a database of its own);
//      - 2 nodes on PostgreSQL (two processes on one more database; the connections alternate
//        between them, so a visitor's calls land on either node, as behind a round-robin proxy).
//    The same bodies for each (each service target has a database of its own, so each sees the
//    same first visits): config calls as service.bench.mjs makes them (30 running experiences,
//    1 in 8 a visitor's first, returning visitors on any product page), then POST /v1/cfe/ with
//    batches of EVENTS_PER_BATCH events. The four targets take turns in SLICES slices (the order
//    rotating), so all see the same noise; each rate is the requests over the summed time of its
//    slices. The servers' own CPU per request is printed too: the node(s) over IPC and, for
//    PostgreSQL, the whole database server's from /proc (only one target runs at a time).
// 2. The results query at BENCH_EVENTS events (1,000,000) on each backend, against the bare
//    aggregation on that backend (SELECT event_type, count(*) FROM events WHERE account_id = ?
//    GROUP BY event_type), as results.bench.mjs does for SQLite: the same simulated visitors (the
//    server's seed, simulateVisitors / writeSimulation) written through store.commitClientWrites
//    into both, then rounds alternating the backends, medians. Each round: 1,000 new events
//    arrive (~100 new visitors, their events stored before their exposures, as the demo's
//    simulator writes them), then GET /api/results (the incremental fold: docs/results.md
//    "Incremental results"), the same query again (the node's cache), the same alpha with a
//    date range holding everything (computed in full by the SQL), the state made from nothing
//    (its row deleted), and the bare GROUP BY. Checked each round: the folded state equals the
//    state made from nothing exactly, and the incremental answer equals the full recompute's
//    (counts exactly; floats within 1e-9, the SQL's sum() adding in its own order). After the
//    rounds, a fold far behind: BENCH_BACKLOG events arrive unread, then one call, timed with
//    the event loop's longest hold; once with slices unbounded (as every fold was before
//    29d2b1b) and once in slices, each after its own backlog.
//
// PostgreSQL is a throwaway server of this run (bench/postgres-server.mjs) on loopback with
// durable defaults (fsync and synchronous_commit on), sharing the 2 cores with the nodes and the
// load generator: not a production figure. The load average (/proc/loadavg) is printed beside
// each figure: the machine is shared.
//
// Env: BENCH_REQUESTS (config calls per target, 20000), BENCH_EVENT_BATCHES (per target, 3000),
// BENCH_BATCH (events per batch, 10), BENCH_CONCURRENCY (20), BENCH_SLICES (10), BENCH_EVENTS
// (results: 1000000; e.g. 100000 for a quick run), BENCH_ROUNDS (results rounds, 7; a backend
// stops after the round that ends BENCH_RESULTS_BUDGET_S seconds of them, 1200),
// BENCH_BACKLOG (the far-behind fold's backlog, 200000), BENCH_ONLY=load|results, BENCH_PG_OPTIONS (postgres -c settings, space-separated).

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import Database from "better-sqlite3";
import pg from "pg";
import { serverBundleOptions } from "../packages/server/bundle.mjs";
import { startPostgres } from "./postgres-server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const EVENT_BATCHES = Number(process.env.BENCH_EVENT_BATCHES ?? 3000);
const EVENTS_PER_BATCH = Number(process.env.BENCH_BATCH ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const SLICES = Number(process.env.BENCH_SLICES ?? 10);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ONLY = process.env.BENCH_ONLY;
/** Events that arrive while nobody opens the results, before the far-behind fold (results part). */
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 200_000);
/** Seconds of results rounds per backend after which it does no more (at least one). */
const RESULTS_BUDGET_S = Number(process.env.BENCH_RESULTS_BUDGET_S ?? 1200);
const NEW_VISITOR_EVERY = 8;
const WARMUP_REQUESTS = 2000;
const ANSWER_SAMPLES = 200;
const CLIENT_KEY = "ck_demo_littlesprouts";
const ORIGIN = "http://littlesprouts.localhost:4200";
const CONFIG_PATH = `/v1/users/configs/?cfenc=${CLIENT_KEY}`;
const EVENTS_PATH = `/v1/cfe/?cfenc=${CLIENT_KEY}`;
const PAGES = ["/products/gentle-baby-wash", "/products/calendula-baby-lotion", "/products/kids-curl-cream", "/products/oatmeal-eczema-cream"];

const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const fmt = (n) => Math.round(n).toLocaleString("en-US");
const ms = (n) => `${n < 100 ? n.toFixed(1) : fmt(n)} ms`;
const pct = (x) => `${(x * 100).toFixed(0)} %`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

// ---- processes ----

/** Starts a Node child process that prints `{"port":…}` when listening. */
function startChild(file, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit", "ipc"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve({ child, ...JSON.parse(out.split("\n")[0]) });
    });
    child.once("exit", (code) => reject(new Error(`${file} exited with ${code} before listening`)));
  });
}

/** The child's CPU time so far in µs (user + system), asked over IPC. */
const cpuOf = (child) =>
  new Promise((resolve) => {
    child.once("message", (m) => resolve(m.user + m.system));
    child.send("cpu");
  });

const stop = (child) =>
  new Promise((resolve) => {
    child.removeAllListeners("exit");
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", resolve);
    child.kill("SIGTERM");
  });

// ---- the client ----

/**
 * Sends `total` POSTs, CONCURRENCY at a time over keep-alive; connection k goes to
 * ports[k % ports.length]. Pushes each request's time (ms) into `times`; answers the seconds taken
 * and the requests not answered 200 (by status).
 */
async function load(ports, path, bodyOf, total, times) {
  const agents = ports.map(() => new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY }));
  const headers = { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN };
  const failed = {};
  let next = 0;
  const one = (k, body) =>
    new Promise((resolve) => {
      const start = performance.now();
      const done = (status) => {
        times?.push(performance.now() - start);
        if (status !== 200) failed[status] = (failed[status] ?? 0) + 1;
        resolve();
      };
      const req = http.request(
        { agent: agents[k % ports.length], host: "127.0.0.1", port: ports[k % ports.length], method: "POST", path, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on("end", () => done(res.statusCode));
          res.on("error", () => done(0));
        },
      );
      req.on("error", () => done(0));
      req.end(body);
    });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, k) => {
      while (next < total) await one(k, bodyOf(next++));
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  for (const a of agents) a.destroy();
  return { seconds, failed };
}

function post(port, path, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path, headers: { "content-type": "text/plain", origin: ORIGIN } }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

// ---- the bodies (those of service.bench.mjs: the same for every target) ----

/** The i-th config call: a new visitor's first every NEW_VISITOR_EVERY calls, else a returning one on any product page. */
function configBody(i, prefix = "bench") {
  const h = Math.imul(i + 1, 2654435761) >>> 0;
  const first = i % NEW_VISITOR_EVERY === 0;
  const seen = Math.floor(i / NEW_VISITOR_EVERY) + 1;
  const n = first ? seen - 1 : h % seen;
  const path = PAGES[(h >>> 8) % PAGES.length];
  return JSON.stringify({
    user: {
      user_customer_id: `${prefix}-visitor-${n}`,
      anonymous: true,
      utm_campaign: n % 3 ? "spring" : "autumn",
      private_fields: { properties: (n >> 1) % 2 ? { tier: "gold" } : {} },
      properties: {
        cf_device_type: n % 2 ? "mobile" : "desktop",
        cf_browser_name: "Chrome",
        cf_os_name: "Android",
        is_first_time_visitor: first,
        cf_current_page_url: `${ORIGIN}${path}`,
      },
    },
    current_page_path: path,
    current_domain: "littlesprouts.localhost",
    session_id: `${prefix}-s-${n}`,
  });
}

const EVENT_VISITORS = 5000;
function eventBody(i, prefix = "bench") {
  const events = Array.from({ length: EVENTS_PER_BATCH }, (_, k) => ({
    event_type: k === 0 ? "PAGE" : "CLICK",
    event_customer_id: "littlesprouts.localhost|page_view",
    domain: "littlesprouts.localhost",
    name: "page_view",
    insert_id: `${prefix}-${i}-${k}`,
    event_timestamp: 1_790_000_000_000 + i,
    session_id: `s-${i % EVENT_VISITORS}`,
    pageview_seq_number: 1,
    properties: { page_path: PAGES[i % PAGES.length], scroll_depth: 40 },
  }));
  return JSON.stringify({ user: { user_customer_id: `bench-visitor-${i % EVENT_VISITORS}`, anonymous: true }, events, cf_client_sdk_version: "0.0.21" });
}

// ---- part 1: config calls and events on four targets ----

async function loadPart(postgres, dir, bundle) {
  console.log(`Config calls and events — 4 targets taking turns in ${SLICES} slices, concurrency ${CONCURRENCY} (loadavg ${loadavg()})`);
  const start = (env) => startChild(bundle, env);
  const sqlite = await start({ BENCH_DATA_DIR: dir });
  const one = await start({ DATABASE_URL: await postgres.createDatabase("bench_one") });
  const twoUrl = await postgres.createDatabase("bench_two");
  // One after the other: the second finds the account the first seeded.
  const twoA = await start({ DATABASE_URL: twoUrl });
  const twoB = await start({ DATABASE_URL: twoUrl });
  const nodes = [sqlite, one, twoA, twoB];
  const bares = [];
  try {
    // The baseline answers real answers of the service (the SQLite node's to the first warm-up
    // calls), in turn; for events, the service's answer to a batch.
    const answers = [];
    for (let i = 0; i < ANSWER_SAMPLES; i++) {
      const r = await post(sqlite.port, CONFIG_PATH, configBody(i, "warmup"));
      if (r.status !== 200) throw new Error(`config call failed: ${r.status} ${r.body}`);
      answers.push(JSON.parse(r.body));
    }
    const configs = answers.reduce((n, a) => n + Object.keys(a.configs).length, 0) / answers.length;
    const answerBytes = answers.reduce((n, a) => n + Buffer.byteLength(JSON.stringify(a)), 0) / answers.length;
    writeFileSync(join(dir, "answers.json"), JSON.stringify(answers));
    const eventAnswer = await post(sqlite.port, EVENTS_PATH, eventBody(0, "sample"));
    if (eventAnswer.status !== 200) throw new Error(`event batch failed: ${eventAnswer.status} ${eventAnswer.body}`);
    writeFileSync(join(dir, "event-answers.json"), JSON.stringify([JSON.parse(eventAnswer.body)]));
    const bareConfig = await startChild(join(here, "bare-http.mjs"), { BENCH_ANSWER_FILE: join(dir, "answers.json") });
    bares.push(bareConfig);
    const bareEvents = await startChild(join(here, "bare-http.mjs"), { BENCH_ANSWER_FILE: join(dir, "event-answers.json") });
    bares.push(bareEvents);

    const targets = [
      { name: "bare node:http", config: [bareConfig], events: [bareEvents], db: false },
      { name: "1 node, SQLite", config: [sqlite], events: [sqlite], db: false },
      { name: "1 node, PostgreSQL", config: [one], events: [one], db: "bench_one" },
      { name: "2 nodes, PostgreSQL", config: [twoA, twoB], events: [twoA, twoB], db: "bench_two" },
    ];

    // Warm-up (other visitors than the measured ones; the SQLite node's first calls were the samples).
    for (const t of targets) {
      const from = t.name.includes("SQLite") ? ANSWER_SAMPLES : 0;
      await load(t.config.map((n) => n.port), CONFIG_PATH, (i) => configBody(from + i, "warmup"), WARMUP_REQUESTS - from);
      await load(t.events.map((n) => n.port), EVENTS_PATH, (i) => eventBody(i, "warmup"), 200);
    }

    // Transactions per request on each PostgreSQL database (pg_stat_database, every statement
    // outside a transaction being one): what the group commit and the node's caches save. A
    // backend reports its counts within about 10 s of going idle, hence the pauses.
    const statsClient = new pg.Client({ connectionString: postgres.url("postgres") });
    await statsClient.connect();
    const transactions = async () => {
      await new Promise((r) => setTimeout(r, 11_000));
      const { rows } = await statsClient.query("SELECT datname, xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname IN ('bench_one', 'bench_two')");
      return Object.fromEntries(rows.map((r) => [r.datname, Number(r.n)]));
    };

    const run = async (kind, path, total, bodyOf, perRequest) => {
      const stats = targets.map(() => ({ n: 0, s: 0, times: [], cpu: 0, dbCpu: 0, failed: {}, loads: [] }));
      const xactsBefore = await transactions();
      for (let k = 0; k < SLICES; k++) {
        const from = Math.floor((k * total) / SLICES);
        const count = Math.floor(((k + 1) * total) / SLICES) - from;
        for (let j = 0; j < targets.length; j++) {
          const ti = (j + k) % targets.length;
          const t = targets[ti];
          const st = stats[ti];
          const procs = t[kind];
          const cpuBefore = (await Promise.all(procs.map((p) => cpuOf(p.child)))).reduce((a, b) => a + b, 0);
          const dbBefore = postgres.cpu();
          const r = await load(
            procs.map((p) => p.port),
            path,
            (i) => bodyOf(from + i),
            count,
            st.times,
          );
          st.dbCpu += postgres.cpu() - dbBefore;
          st.cpu += (await Promise.all(procs.map((p) => cpuOf(p.child)))).reduce((a, b) => a + b, 0) - cpuBefore;
          st.n += count;
          st.s += r.seconds;
          for (const [status, n] of Object.entries(r.failed)) st.failed[status] = (st.failed[status] ?? 0) + n;
        }
        stats.forEach((st) => st.loads.push(os.loadavg()[0]));
      }
      const xactsAfter = await transactions();
      const rows = stats.map((st, i) => {
        const sorted = st.times.sort((a, b) => a - b);
        return {
          name: targets[i].name,
          db: targets[i].db,
          rate: (st.n * perRequest) / st.s,
          p50: quantile(sorted, 0.5),
          p99: quantile(sorted, 0.99),
          cpu: st.cpu / st.n,
          dbCpu: st.dbCpu / st.n,
          failed: st.failed,
          loads: st.loads,
          xacts: targets[i].db ? (xactsAfter[targets[i].db] - xactsBefore[targets[i].db]) / st.n : undefined,
        };
      });
      return rows;
    };

    const print = (title, unit, rows) => {
      console.log(title);
      const bare = rows[0];
      for (const r of rows) {
        const failed = Object.entries(r.failed).map(([s, n]) => `${fmt(n)} × ${s === "0" ? "connection error" : s}`).join(", ");
        console.log(
          `  ${r.name.padEnd(20)} ${fmt(r.rate).padStart(7)} ${unit}/s  ${r === bare ? "        " : `${pct(r.rate / bare.rate).padStart(5)} of bare`}  ` +
            `p50 ${ms(r.p50).padStart(8)}  p99 ${ms(r.p99).padStart(8)}  CPU per request: node ${fmt(r.cpu)} µs` +
            (r.db ? ` + PostgreSQL ${fmt(r.dbCpu)} µs; ${r.xacts.toFixed(2)} transactions per request` : "") +
            (failed ? `  NOT 200: ${failed}` : ""),
        );
      }
      const loads = rows[0].loads;
      console.log(`  (1-minute load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} over the slices; loadavg now ${loadavg()})`);
    };

    const configRows = await run("config", CONFIG_PATH, REQUESTS, (i) => configBody(i), 1);
    print(
      `Config calls: ${fmt(REQUESTS)} per target, 30 running experiences, ${configs.toFixed(1)} configs and ${fmt(answerBytes)} bytes per answer, 1 in ${NEW_VISITOR_EVERY} a first visit, returning visitors on any product page:`,
      "calls",
      configRows,
    );
    const eventRows = await run("events", EVENTS_PATH, EVENT_BATCHES, (i) => eventBody(i), EVENTS_PER_BATCH);
    print(`Events: ${fmt(EVENT_BATCHES)} batches of ${EVENTS_PER_BATCH} per target (POST /v1/cfe/; p50 / p99 per batch):`, "events", eventRows);
    await statsClient.end();
  } finally {
    for (const n of [...nodes, ...bares]) await stop(n.child);
  }
}

// ---- part 2: the results query at EVENTS events on each backend ----

/** The simulated visitors, cut so that their events add up to exactly `total` (results.bench.mjs). */
function* upTo(visitors, total) {
  let left = total;
  for (const v of visitors) {
    if (left <= 0) return;
    const events = v.events.length > left ? v.events.slice(0, left) : v.events;
    left -= events.length;
    yield { ...v, events };
  }
}

async function resultsPart(postgres, dir, cacheDir) {
  const bundle = join(cacheDir, "storage-results-node.mjs");
  await build({
    ...serverBundleOptions,
    stdin: {
      contents: `
        export { buildApp } from "../packages/server/src/app.js";
        export { openSqliteStore } from "../packages/server/src/store/sqlite/index.js";
        export { openPostgresStore } from "../packages/server/src/store/postgres/index.js";
        export { seedDemo, DEMO_ACCOUNT_ID } from "../packages/server/src/seed/demo.js";
        export { simulateVisitors, writeSimulation, DEMO_PRICE_MESSAGE_ARMS } from "../packages/server/src/seed/demo-data.js";
        export { stateBuild } from "../packages/server/src/results/build.js";
      `,
      resolveDir: here,
      loader: "ts",
      sourcefile: "storage-results-node.ts",
    },
    outfile: bundle,
  });
  const m = await import(pathToFileURL(bundle).href);
  const owner = { email: "bench@storefit.test", password: "bench-password-123" };
  const now = new Date().toISOString();
  const EXTRA_PAGE_VIEWS = 8;

  console.log(`Results at ${fmt(EVENTS)} events (loadavg ${loadavg()}):`);
  const pgUrl = await postgres.createDatabase("bench_results");
  const sqliteFile = join(dir, "results.sqlite");
  const backends = [
    { name: "SQLite", store: m.openSqliteStore(sqliteFile) },
    { name: "PostgreSQL", store: await m.openPostgresStore(pgUrl) },
  ];
  let bareSqlite;
  const barePg = new pg.Client({ connectionString: pgUrl });
  try {
    for (const b of backends) {
      await b.store.migrate();
      await m.seedDemo(b.store, owner);
      b.experience = await b.store.getExperience(m.DEMO_ACCOUNT_ID, "exp_price_message");
      // The same visitors for both (same seed, same receive time), as results.bench.mjs makes them.
      const t0 = performance.now();
      const visitorsPerDay = Math.ceil((EVENTS / (1.5 + EXTRA_PAGE_VIEWS) / 14) * 1.2);
      const simulated = m.simulateVisitors({
        experience: b.experience,
        rule_id: "rule_price_everyone",
        arms: m.DEMO_PRICE_MESSAGE_ARMS,
        start: Date.UTC(2026, 10, 1),
        days: 28,
        visitorsPerDay,
        extraPageViews: EXTRA_PAGE_VIEWS,
        seed: 2026,
      });
      const written = await m.writeSimulation(b.store, m.DEMO_ACCOUNT_ID, upTo(simulated, EVENTS), now, 5000);
      const stored = await b.store.countEvents(m.DEMO_ACCOUNT_ID);
      if (stored !== EVENTS) throw new Error(`${b.name}: expected ${EVENTS} events, stored ${stored}`);
      console.log(
        `  ${b.name}: ${fmt(stored)} events, ${fmt(written.exposures)} exposures (${fmt(written.visitors)} visitors) written through commitClientWrites in ${((performance.now() - t0) / 1000).toFixed(0)} s (loadavg ${loadavg()})`,
      );
    }
    // What autovacuum does on a running server soon after a bulk insert: the visibility map and
    // the statistics (without it the first scans set hint bits, and the planner guesses).
    await barePg.connect();
    const t0 = performance.now();
    await barePg.query("VACUUM (ANALYZE)");
    await barePg.query("CHECKPOINT");
    console.log(`  PostgreSQL: VACUUM (ANALYZE) and CHECKPOINT after the load, ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    bareSqlite = new Database(sqliteFile, { readonly: true });
    const BARE_SQL = "SELECT event_type, count(*) AS n FROM events WHERE account_id = $1 GROUP BY event_type";
    const bareSqliteQuery = bareSqlite.prepare(BARE_SQL.replace("$1", "?"));
    backends[0].bare = async () => bareSqliteQuery.all(m.DEMO_ACCOUNT_ID);
    backends[1].bare = async () => (await barePg.query(BARE_SQL, [m.DEMO_ACCOUNT_ID])).rows;

    // Deleting a results state row makes the next call fold from nothing (the state made again).
    const writerSqlite = new Database(sqliteFile);
    backends[0].forgetState = async () => writerSqlite.prepare("DELETE FROM results_state").run();
    backends[1].forgetState = async () => barePg.query("DELETE FROM results_state");

    for (const b of backends) {
      b.app = await m.buildApp({ store: b.store, log: false });
      const signIn = await b.app.inject({ method: "POST", url: "/api/session", payload: owner });
      const cookie = signIn.cookies.find((c) => c.name === "storefit_session");
      b.headers = { cookie: `storefit_session=${cookie.value}` };
      b.calls = 0;
      b.times = { incremental: [], cached: [], full: [], rebuild: [], blocked: [], bare: [], incrementalCpu: [], cachedCpu: [] };
      b.checks = { rebuild: [], full: [] };
    }
    // Each round asks another alpha, so that it computes rather than reuses (results/cache.ts);
    // `range` asks for everything as a date range, which is computed in full.
    const call = async (b, { next = true, range = false } = {}) => {
      if (next) b.calls++;
      const alpha = `0.05${String(b.calls).padStart(4, "0")}`;
      const cpu = process.cpuUsage();
      const start = performance.now();
      const res = await b.app.inject({ method: "GET", url: `/api/results/exp_price_message?alpha=${alpha}${range ? "&from=2000-01-01" : ""}`, headers: b.headers });
      const took = performance.now() - start;
      const used = process.cpuUsage(cpu);
      if (res.statusCode !== 200) throw new Error(`${b.name}: results failed: ${res.statusCode} ${res.body}`);
      return { took, cpu: (used.user + used.system) / 1000, body: res.json() };
    };
    const bare = async (b) => {
      const start = performance.now();
      const rows = await b.bare();
      const took = performance.now() - start;
      if (rows.reduce((s, r) => s + Number(r.n), 0) < EVENTS) throw new Error(`${b.name}: the bare query did not count every event`);
      return took;
    };
    /** 1,000 new events of new visitors (and their exposures), the same for both backends. */
    const arrivals = (r) => {
      const simulated = m.simulateVisitors({
        experience: backends[0].experience,
        rule_id: "rule_price_everyone",
        arms: m.DEMO_PRICE_MESSAGE_ARMS,
        start: Date.UTC(2026, 10, 14),
        days: 1,
        visitorsPerDay: 400,
        extraPageViews: EXTRA_PAGE_VIEWS,
        seed: 9000 + r,
        visitorPrefix: `bench-new-${r}`,
      });
      return [...upTo(simulated, 1000)];
    };
    // Numbers compared one by one: exactly, or within 1e-9 (relative) with `close`; the first difference, if any.
    const differ = (a, b, close, path = "") => {
      if (typeof a === "number" && typeof b === "number") {
        return (close ? Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b)) : Object.is(a, b)) ? null : `${path}: ${a} / ${b}`;
      }
      if (a && b && typeof a === "object" && typeof b === "object") {
        for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
          const d = differ(a[k], b[k], close, `${path}.${k}`);
          if (d) return d;
        }
        return null;
      }
      return a === b ? null : `${path}: ${JSON.stringify(a)} / ${JSON.stringify(b)}`;
    };

    /**
     * The longest the event loop was held during `fn` (ms): what a request arriving meanwhile
     * (a config call, a health check) waits at worst. A state made from nothing used to be one
     * synchronous call on SQLite: the whole build (docs/results.md).
     */
    const blockedDuring = async (fn) => {
      const h = monitorEventLoopDelay({ resolution: 5 });
      m.stateBuild.longest = { ms: 0, step: "" };
      h.enable();
      // The histogram's first timer turn only sets its baseline: a synchronous call made before
      // it (a fold in one go) would not be counted.
      await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        const result = await fn();
        // The histogram records a hold when its timer runs late: let it run once after a
        // synchronous fold (which otherwise ends, and is measured, before the timer fires).
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { result, blocked: h.max / 1e6, slice: m.stateBuild.longest };
      } finally {
        h.disable();
      }
    };
    // The first call makes each backend's state from nothing (and lists the page paths).
    for (const b of backends) {
      const first = await blockedDuring(() => call(b));
      b.first = first.result;
      b.firstBlocked = first.blocked;
      b.firstSlice = first.slice;
      await bare(b);
    }
    const firstDifference = differ(backends[0].first.body.rules, backends[1].first.body.rules, true, "rules");
    // A backend whose calls take minutes stops after the round that spends its time budget.
    for (let r = 0; r < ROUNDS; r++) {
      const batch = arrivals(r);
      for (const b of r % 2 ? [...backends].reverse() : backends) {
        if ((b.spent ?? 0) > RESULTS_BUDGET_S * 1000) continue;
        const start = performance.now();
        const written = await m.writeSimulation(b.store, m.DEMO_ACCOUNT_ID, batch, now, 5000);
        if (written.events !== 1000) throw new Error(`${b.name}: ${written.events} new events stored, not 1,000`);
        const incremental = await call(b);
        b.times.incremental.push(incremental.took);
        b.times.incrementalCpu.push(incremental.cpu);
        const cached = await call(b, { next: false });
        b.times.cached.push(cached.took);
        b.times.cachedCpu.push(cached.cpu);
        const full = await call(b, { next: false, range: true });
        b.times.full.push(full.took);
        b.checks.full.push(differ(incremental.body.rules, full.body.rules, true, "rules"));
        // The state as folded, against the state made from nothing: bit for bit.
        const folded = await b.store.foldResults(m.DEMO_ACCOUNT_ID, b.experience.id, b.experience.goals);
        await b.forgetState();
        const t0 = performance.now();
        const { result: remade, blocked, slice } = await blockedDuring(() => b.store.foldResults(m.DEMO_ACCOUNT_ID, b.experience.id, b.experience.goals));
        b.times.rebuild.push(performance.now() - t0);
        b.times.blocked.push(blocked);
        if (slice.ms > (b.longestSlice?.ms ?? 0)) b.longestSlice = slice;
        b.checks.rebuild.push(differ(folded, remade, false, "state"));
        b.times.bare.push(await bare(b));
        b.spent = (b.spent ?? 0) + performance.now() - start;
      }
    }
    // A far-behind fold: BACKLOG events arrive while nobody opens the results, then one call.
    // Once with slices unbounded (one fold in one transaction: what every fold was before
    // 29d2b1b), then, after another backlog as large, in slices of stateBuild.sliceRows.
    for (const b of backends) {
      b.behind = [];
      for (const [label, rows] of [["in one go", Infinity], ["in slices", m.stateBuild.sliceRows]]) {
        const simulated = m.simulateVisitors({
          experience: b.experience,
          rule_id: "rule_price_everyone",
          arms: m.DEMO_PRICE_MESSAGE_ARMS,
          start: Date.UTC(2026, 10, 20),
          days: 1,
          visitorsPerDay: Math.ceil((BACKLOG / (1.5 + EXTRA_PAGE_VIEWS)) * 1.2),
          extraPageViews: EXTRA_PAGE_VIEWS,
          seed: 7000 + b.behind.length,
          visitorPrefix: `bench-behind-${b.behind.length}`,
        });
        const written = await m.writeSimulation(b.store, m.DEMO_ACCOUNT_ID, upTo(simulated, BACKLOG), now, 5000);
        if (written.events !== BACKLOG) throw new Error(`${b.name}: ${written.events} backlog events stored, not ${BACKLOG}`);
        const saved = m.stateBuild.sliceRows;
        const slices = m.stateBuild.slices;
        m.stateBuild.sliceRows = rows;
        try {
          const { result, blocked } = await blockedDuring(() => call(b));
          b.behind.push({ label, took: result.took, blocked, slices: m.stateBuild.slices - slices });
        } finally {
          m.stateBuild.sliceRows = saved;
        }
      }
    }
    const rule = backends[0].first.body.rules[0];
    const cart = rule.metrics.find((x) => x.goal_id === "goal_add_to_cart").variations[1];
    console.log(
      `  answer: ${fmt(backends[0].first.body.total_visitors)} visitors, ${rule.metrics.length} metrics; add-to-cart lift ${(cart.comparison.effect * 100).toFixed(1)} % (planted +12 %); ` +
        `the same answer on both backends: ${firstDifference ? `NO (first difference, SQLite / PostgreSQL: ${firstDifference})` : "yes"}`,
    );
    console.log(`  medians of the rounds, backends alternating; each round after 1,000 new events (loadavg ${loadavg()}):`);
    for (const b of backends) {
      const [inc, cached, full, rebuild, x] = ["incremental", "cached", "full", "rebuild", "bare"].map((k) => median(b.times[k]));
      const blocked = Math.max(...b.times.blocked);
      const wrong = [...b.checks.full.filter(Boolean).map((d) => `incremental ≠ full recompute (${d})`), ...b.checks.rebuild.filter(Boolean).map((d) => `folded ≠ made from nothing (${d})`)];
      console.log(
        `  ${b.name.padEnd(11)} (${b.times.incremental.length} rounds) incremental ${ms(inc).padStart(9)}  cached ${ms(cached).padStart(7)}  incremental / cached ${(inc / cached).toFixed(1)}×  ` +
          `full recompute ${ms(full).padStart(9)}  state made from nothing ${ms(rebuild).padStart(9)}  bare GROUP BY ${ms(x).padStart(9)}  full / bare ${(full / x).toFixed(1)}×  ` +
          `first call ${ms(b.first.took)}`,
      );
      // The node's own CPU per call: under a high load a call of a few ms is stretched by the
      // scheduler far more than one of 1 ms, and the wall-time ratio follows the load. On
      // SQLite the node does all of a call's work; on PostgreSQL the server's share is not in it.
      const [incCpu, cachedCpu] = ["incrementalCpu", "cachedCpu"].map((k) => median(b.times[k]));
      console.log(`  ${"".padEnd(11)} node CPU per call: incremental ${ms(incCpu)}, cached ${ms(cachedCpu)}, incremental / cached ${(incCpu / cachedCpu).toFixed(1)}×`);
      console.log(
        `  ${"".padEnd(11)} event loop held at most: ${ms(blocked)} while the state was made from nothing (max of the rounds; longest slice ${ms(b.longestSlice?.ms ?? 0)}, ${b.longestSlice?.step || "none"}), ` +
          `${ms(b.firstBlocked)} during the first call (longest slice ${ms(b.firstSlice.ms)}, ${b.firstSlice.step || "none"})`,
      );
      console.log(
        `  ${"".padEnd(11)} a fold ${fmt(BACKLOG)} events behind: ` +
          b.behind.map((x) => `${x.label} ${ms(x.took)}, event loop held at most ${ms(x.blocked)} (${x.slices} yields)`).join("; ") +
          ` (loadavg ${loadavg()})`,
      );
      console.log(`  ${"".padEnd(11)} checks: ${wrong.length ? `FAILED: ${wrong[0]}` : `incremental = full recompute and folded = made from nothing, every round`}`);
    }
    const [s, p] = backends.map((b) => median(b.times.incremental));
    const [sf, pf] = backends.map((b) => median(b.times.full));
    console.log(`  PostgreSQL / SQLite: incremental ${(p / s).toFixed(2)}×, full recompute ${(pf / sf).toFixed(2)}×  (loadavg ${loadavg()})`);
    writerSqlite.close();
  } finally {
    bareSqlite?.close();
    await barePg.end().catch(() => {});
    for (const b of backends) {
      await b.app?.close();
      await b.store.close();
    }
  }
}

// ---- the run ----

const dir = mkdtempSync(join(os.tmpdir(), "storefit-storage-bench-"));
// The bundles are written under the server's node_modules, so that they resolve its dependencies
// (@fastify/cookie and @fastify/static are installed there, not at the root, since 252184d).
const cacheDir = join(root, "packages", "server", "node_modules", ".cache", "storefit-bench");
mkdirSync(cacheDir, { recursive: true });
const serviceBundle = join(cacheDir, "service-node-storage.mjs");
await build({ ...serverBundleOptions, entryPoints: [join(here, "service-node.ts")], outfile: serviceBundle });
const postgres = await startPostgres();
console.log(
  `Storage: SQLite and PostgreSQL — Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), PostgreSQL ${postgres.version} on loopback ` +
    `(durable defaults${process.env.BENCH_PG_OPTIONS ? `, ${process.env.BENCH_PG_OPTIONS}` : ""}), loadavg ${loadavg()} at the start`,
);
try {
  if (ONLY !== "results") await loadPart(postgres, dir, serviceBundle);
  if (ONLY !== "load") await resultsPart(postgres, dir, cacheDir);
} finally {
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
}
