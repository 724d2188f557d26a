// Provider service benchmark (docs/benchmarks.md, "Provider service"). Two ratios, each against a
// baseline measured in the same run on the same machine:
//
// 1. Config decisions per second: POST /v1/users/configs/ on the real service (30 running
//    experiences, real SQLite, visitors recorded and assignments stored) against a bare node:http
//    server answering a JSON object of the same size. Both are child processes on loopback, hit by
//    the same keep-alive client with the same bodies: REQUESTS each, CONCURRENCY at a time.
// 2. Events per second: POST /v1/cfe/ with batches of 5 events into SQLite, against a bare
//    better-sqlite3 insert loop of the same rows in transactions of 5.
//
// The machine is shared and noisy: service and baseline alternate in short slices (BENCH_SLICES)
// so both see the same noise, and each rate is the requests over the summed time of its slices.
// Env: BENCH_REQUESTS (40000 each), BENCH_CONCURRENCY (20), BENCH_ROUNDS (1), BENCH_SLICES (20),
// BENCH_WARMUP (3000 calls a side before the slices), BENCH_NEW_VISITOR_EVERY (8: one config call in 8 is a visitor's first), BENCH_BROWSE (1: a
// returning visitor asks on a random product page; 0: always on the page of their first visit),
// BENCH_SERVICE_NODE_ARGS, BENCH_BARE_NODE_ARGS and BENCH_OTHER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=…"), BENCH_ONLY=decisions, BENCH_VERBOSE=1 (per slice),
// BENCH_OTHER_TREE (another checkout's service as a third side: an A/B in one run; on PostgreSQL
// with BENCH_OTHER_DATABASE_URL, a database of its own, or "sqlite": that side on SQLite),
// DATABASE_URL (the service on PostgreSQL).
// Also printed: each side's latency p50 and p99 over every request of its slices, and the p99 and
// CPU-per-call ratios (service / bare) against the config call's targets (≤ 2×, ≤ 1.4×).

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { serverBundleOptions } from "../packages/server/bundle.mjs";
import Database from "better-sqlite3";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** Each round alternates service and baseline in this many slices. */
const SLICES = Number(process.env.BENCH_SLICES ?? 20);
/**
 * One config call in this many is a new visitor's first; the others are returning visitors seen
 * earlier in the run, picked at random. 8 is about a shop's pages per visitor (5 pages a session,
 * 1.5 sessions); every share of first visits is spread evenly over the run, so each slice has it.
 */
const NEW_VISITOR_EVERY = Number(process.env.BENCH_NEW_VISITOR_EVERY ?? 8);
/**
 * Browsing (the default): a returning visitor's call is on any of the product pages, so a page
 * new to them brings new assignments to store (experiences that target that page). Off: every
 * call of a visitor is on the page of their first visit, so only first visits write.
 */
const BROWSE = process.env.BENCH_BROWSE !== "0";
/** Prints every slice's rate and CPU per request. */
const VERBOSE = process.env.BENCH_VERBOSE === "1";
/** "decisions" skips the events part (for profiling the decision path alone). */
const ONLY = process.env.BENCH_ONLY;
const EVENTS_PER_BATCH = 5;
/** Calls each side gets before the measured slices (V8 is still compiling the service's hot paths for a while). */
const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP ?? 3000);
/** Answers of the service sampled for the baseline to send (the first warm-up calls). */
const ANSWER_SAMPLES = 200;
const CLIENT_KEY = "ck_demo_littlesprouts";
const ORIGIN = "http://littlesprouts.localhost:4200";

// ---- processes ----

/** Starts a Node child process that prints `{"port":…}` when listening. */
function startChild(file, env, execArgv = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgv, file], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit", "ipc"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      // The first line that is JSON: V8's tracing flags (--log-deopt) also print to stdout.
      const line = out.split("\n").find((l, i, all) => i < all.length - 1 && l.startsWith("{"));
      if (line !== undefined) {
        child.stdout.removeAllListeners("data");
        child.stdout.resume();
        resolve({ child, ...JSON.parse(line) });
      }
    });
    child.on("exit", (code) => reject(new Error(`${file} exited with ${code}`)));
  });
}

/** The child's CPU time so far in µs (user + system), asked over IPC; the service's revision reads so far in `reads`. */
const reads = new WeakMap();
const cpuOf = (child) =>
  new Promise((resolve) => {
    child.once("message", (m) => {
      if (m.revisionReads !== undefined) reads.set(child, m.revisionReads);
      resolve(m.user + m.system);
    });
    child.send("cpu");
  });

const stop = (child) =>
  new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.on("exit", resolve);
    child.kill("SIGTERM");
  });

// ---- the client ----

/**
 * Sends `total` POSTs, `concurrency` at a time over keep-alive, and answers requests per second.
 * `latencies`: each request's time from send to the end of its answer (ms) is pushed to it.
 */
async function load(port, path, bodyOf, total, concurrency = CONCURRENCY, latencies = null) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const headers = { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN };
  let next = 0;
  let failed = 0;
  const one = (body) =>
    new Promise((resolve, reject) => {
      const sent = performance.now();
      const req = http.request(
        { agent, host: "127.0.0.1", port, method: "POST", path, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on("end", () => {
            if (res.statusCode !== 200) failed++;
            latencies?.push(performance.now() - sent);
            resolve();
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await one(bodyOf(next++));
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  if (failed) throw new Error(`${failed} of ${total} requests to ${path} failed`);
  return total / seconds;
}

function post(port, path, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method: "POST", path, headers: { "content-type": "text/plain", origin: ORIGIN } },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

// ---- the bodies (the same for service and baseline) ----

const PAGES = ["/products/gentle-baby-wash", "/products/calendula-baby-lotion", "/products/kids-curl-cream", "/products/oatmeal-eczema-cream"];

/** The i-th config call: a new visitor's first every NEW_VISITOR_EVERY calls, else a returning one. */
function configBody(i, prefix = "bench") {
  const h = Math.imul(i + 1, 2654435761) >>> 0;
  const first = i % NEW_VISITOR_EVERY === 0;
  const seen = Math.floor(i / NEW_VISITOR_EVERY) + 1;
  const n = first ? seen - 1 : h % seen;
  const path = PAGES[BROWSE ? (h >>> 8) % PAGES.length : n % PAGES.length];
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
const CONFIG_BODIES = Array.from({ length: REQUESTS }, (_, i) => configBody(i));
// The warm-up's visitors are others: every measured first visit is a first visit to the service.
const WARMUP_BODIES = Array.from({ length: WARMUP_REQUESTS }, (_, i) => configBody(i, "warmup"));

/** The events' batches come from this many visitors. */
const EVENT_VISITORS = 5000;
let eventSeq = 0;
function eventBatch(i, round) {
  const events = Array.from({ length: EVENTS_PER_BATCH }, (_, k) => ({
    event_type: k === 0 ? "PAGE" : "CLICK",
    event_customer_id: "littlesprouts.localhost|page_view",
    domain: "littlesprouts.localhost",
    name: "page_view",
    insert_id: `bench-${round}-${i}-${k}-${eventSeq++}`,
    event_timestamp: 1_790_000_000_000 + i,
    session_id: `s-${i % EVENT_VISITORS}`,
    pageview_seq_number: 1,
    properties: { page_path: PAGES[i % PAGES.length], scroll_depth: 40 },
  }));
  return { user: { user_customer_id: `bench-visitor-${i % EVENT_VISITORS}`, anonymous: true }, events, cf_client_sdk_version: "0.0.21" };
}

// ---- the bare SQLite baseline ----

/** The events table of migration 1, inserted into in transactions of 5 by a bare loop. */
function bareSqliteRowsPerSecond(dir, batches, round) {
  const db = new Database(join(dir, `bare-${round}.sqlite`));
  db.pragma("journal_mode = WAL");
  db.exec(`CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, account_id TEXT NOT NULL, insert_id TEXT NOT NULL,
    event_type TEXT NOT NULL, event_customer_id TEXT NOT NULL, domain TEXT NOT NULL, page_path TEXT,
    user_id TEXT NOT NULL, session_id TEXT, event_timestamp INTEGER NOT NULL, received_at TEXT NOT NULL,
    event_json TEXT NOT NULL, UNIQUE (account_id, insert_id));
    CREATE INDEX events_account_seq ON events (account_id, seq);`);
  const insert = db.prepare(
    "INSERT INTO events (account_id, insert_id, event_type, event_customer_id, domain, page_path, user_id, session_id, event_timestamp, received_at, event_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, insert_id) DO NOTHING",
  );
  const insertBatch = db.transaction((batch) => {
    const now = new Date().toISOString();
    for (const e of batch.events) {
      insert.run("acc", e.insert_id, e.event_type, e.event_customer_id, e.domain, e.properties.page_path, "u_x", e.session_id, e.event_timestamp, now, JSON.stringify(e));
    }
  });
  const start = performance.now();
  for (const b of batches) insertBatch(b);
  const seconds = (performance.now() - start) / 1000;
  db.close();
  return (batches.length * EVENTS_PER_BATCH) / seconds;
}

// ---- the run ----

const fmt = (n) => Math.round(n).toLocaleString("en-US");
const pct = (x) => `${(x * 100).toFixed(0)} %`;

const dir = mkdtempSync(join(os.tmpdir(), "storefit-bench-"));
// Beside the service's node_modules, where some of its dependencies are installed.
const cacheDir = join(root, "packages", "server", "node_modules", ".cache", "storefit-bench");
mkdirSync(cacheDir, { recursive: true });
const serviceBundle = join(cacheDir, "service-node.mjs");
// The server bundled from source as packages/server/build.mjs does (npm dependencies external);
// written under node_modules so the bundle resolves them.
await build({
  ...serverBundleOptions,
  entryPoints: [join(here, "service-node.ts")],
  outfile: serviceBundle,
});

// BENCH_SERVICE_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the service.
const serviceArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? "").split(" ").filter(Boolean);
const service = await startChild(serviceBundle, { BENCH_DATA_DIR: dir }, serviceArgs);
// BENCH_OTHER_TREE: the root of another checkout (its node_modules linked to this one's), whose
// service runs as a third side in every slice — an A/B of two versions of the code in one run.
const otherTree = process.env.BENCH_OTHER_TREE;
let other = null;
if (otherTree) {
  const otherBundle = join(cacheDir, "service-node-other.mjs");
  await build({ ...serverBundleOptions, entryPoints: [join(otherTree, "bench", "service-node.ts")], outfile: otherBundle });
  mkdirSync(join(dir, "other"));
  // On PostgreSQL (DATABASE_URL), BENCH_OTHER_DATABASE_URL: a database of its own; "sqlite": the
  // other side on SQLite (the same code on both backends in one run).
  const otherDb = process.env.BENCH_OTHER_DATABASE_URL;
  const otherArgs = (process.env.BENCH_OTHER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  other = await startChild(
    otherBundle,
    { BENCH_DATA_DIR: join(dir, "other"), ...(otherDb ? { DATABASE_URL: otherDb === "sqlite" ? "" : otherDb } : {}) },
    otherArgs,
  );
}
try {
  // The baseline answers real answers of the service: those to the first warm-up calls, in turn,
  // so that both sides send the same sizes of answer on average.
  const answers = [];
  for (const body of WARMUP_BODIES.slice(0, ANSWER_SAMPLES)) {
    const sample = await post(service.port, `/v1/users/configs/?cfenc=${CLIENT_KEY}`, body);
    if (sample.status !== 200) throw new Error(`config call failed: ${sample.status} ${sample.body}`);
    answers.push(JSON.parse(sample.body));
  }
  const configs = answers.reduce((n, a) => n + Object.keys(a.configs).length, 0) / answers.length;
  const answerBytes = answers.reduce((n, a) => n + Buffer.byteLength(JSON.stringify(a)), 0) / answers.length;
  const answerFile = join(dir, "answers.json");
  writeFileSync(answerFile, JSON.stringify(answers));
  const bareArgs = (process.env.BENCH_BARE_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const bare = await startChild(join(here, "bare-http.mjs"), { BENCH_ANSWER_FILE: answerFile }, bareArgs);
  try {
    const path = `/v1/users/configs/?cfenc=${CLIENT_KEY}`;
    const warm = (i) => WARMUP_BODIES[i];
    await load(service.port, path, (i) => WARMUP_BODIES[ANSWER_SAMPLES + i], WARMUP_REQUESTS - ANSWER_SAMPLES);
    if (other) await load(other.port, path, warm, WARMUP_REQUESTS);
    await load(bare.port, path, warm, WARMUP_REQUESTS);

    // The machine is shared: alternate short slices so both sides see the same noise, and sum.
    const decisions = { service: { n: 0, s: 0 }, bare: { n: 0, s: 0 }, other: { n: 0, s: 0 }, slices: { service: [], bare: [], other: [] }, latencies: { service: [], bare: [], other: [] } };
    const sides = [["service", service], ["bare", bare], ...(other ? [["other", other]] : [])];
    for (let r = 0; r < ROUNDS; r++) {
      // Each round has visitors of its own, so that every round has its share of first visits.
      const bodies = r === 0 ? CONFIG_BODIES : Array.from({ length: REQUESTS }, (_, i) => configBody(i, `bench${r}`));
      for (let k = 0; k < SLICES; k++) {
        const from = Math.floor((k * REQUESTS) / SLICES);
        const slice = Math.floor(((k + 1) * REQUESTS) / SLICES) - from;
        const bodyOf = (i) => bodies[from + i];
        // The order of the sides turns from slice to slice: none always runs first.
        const order = k % 2 ? sides : [...sides].reverse();
        for (const [side, { port, child }] of [...order.slice(k % order.length), ...order.slice(0, k % order.length)]) {
          const cpuBefore = await cpuOf(child);
          const readsBefore = reads.get(child);
          const rate = await load(port, path, bodyOf, slice, CONCURRENCY, decisions.latencies[side]);
          const used = (await cpuOf(child)) - cpuBefore;
          decisions[side].cpu = (decisions[side].cpu ?? 0) + used;
          const sliceReads = readsBefore === undefined ? undefined : reads.get(child) - readsBefore;
          if (sliceReads !== undefined) decisions[side].reads = (decisions[side].reads ?? 0) + sliceReads;
          if (VERBOSE) {
            const perCall = sliceReads === undefined ? "" : `, ${(sliceReads / slice).toFixed(3)} revision reads per call`;
            console.log(`  slice ${k} ${side.padEnd(7)} ${fmt(rate)}/s, ${(used / slice).toFixed(0)} µs CPU per request${perCall}`);
          }
          decisions[side].n += slice;
          decisions[side].s += slice / rate;
          decisions.slices[side].push(rate);
        }
      }
    }

    const batches = REQUESTS / EVENTS_PER_BATCH;
    const events = { service: { n: 0, s: 0 }, bare: { n: 0, s: 0 } };
    for (let r = 0; r < (ONLY === "decisions" ? 0 : ROUNDS); r++) {
      const bodies = Array.from({ length: batches }, (_, i) => JSON.stringify(eventBatch(i, r)));
      const rows = bodies.map((b) => JSON.parse(b));
      for (let k = 0; k < SLICES; k++) {
        const part = bodies.slice((k * batches) / SLICES, ((k + 1) * batches) / SLICES);
        const bareRate = bareSqliteRowsPerSecond(dir, rows.slice((k * batches) / SLICES, ((k + 1) * batches) / SLICES), `${r}-${k}`);
        events.bare.n += part.length * EVENTS_PER_BATCH;
        events.bare.s += (part.length * EVENTS_PER_BATCH) / bareRate;
        const rate = EVENTS_PER_BATCH * (await load(service.port, `/v1/cfe/?cfenc=${CLIENT_KEY}`, (i) => part[i], part.length));
        events.service.n += part.length * EVENTS_PER_BATCH;
        events.service.s += (part.length * EVENTS_PER_BATCH) / rate;
      }
    }

    const rate = (x) => x.n / x.s;
    const d = { service: rate(decisions.service), bare: rate(decisions.bare) };
    const e = { service: rate(events.service), bare: rate(events.bare) };
    const spread = (xs) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
    // Each service slice runs right next to a bare one: the median of those pairs' ratios shrugs
    // off a burst of the machine's other load that hits one slice, which the sums do not.
    const pairs = decisions.slices.service.map((x, i) => x / decisions.slices.bare[i]).sort((a, b) => a - b);
    const median = (xs) => (xs.length % 2 ? xs[(xs.length - 1) / 2] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2);
    console.log(`Provider service — Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`);
    console.log(
      `  config decisions: service ${fmt(d.service)}/s vs bare node:http ${fmt(d.bare)}/s → ${pct(d.service / d.bare)} ` +
        `(target ≥ 70 %; ${service.running} running experiences, ${configs.toFixed(1)} configs and ${fmt(answerBytes)} bytes per answer, ` +
        `${fmt(ROUNDS * REQUESTS)} requests each, 1 in ${NEW_VISITOR_EVERY} a first visit, returning visitors ${BROWSE ? "on any product page" : "on the page of their first visit"}, in ${ROUNDS * SLICES} alternating slices, concurrency ${CONCURRENCY}; ` +
        `slices ${spread(decisions.slices.service)} vs ${spread(decisions.slices.bare)})`,
    );
    console.log(
      `  median of the ${pairs.length} adjacent slice pairs: ${pct(median(pairs))} (pairs ${pct(pairs[0])}–${pct(pairs[pairs.length - 1])})`,
    );
    const cpu = (x) => x.cpu / x.n;
    console.log(
      `  server CPU per decision: service ${cpu(decisions.service).toFixed(0)} µs vs bare node:http ${cpu(decisions.bare).toFixed(0)} µs ` +
        `→ ${pct(cpu(decisions.bare) / cpu(decisions.service))} (each server's own CPU time: less disturbed by the machine's other load)`,
    );
    // Latency as the page sees it (the page is hidden until the answer): every request's time from
    // send to answer over all slices, at CONCURRENCY in flight. The client is in the parent
    // process, the same for both sides.
    const quantile = (xs, q) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
    const lat = Object.fromEntries(sides.map(([side]) => {
      const xs = decisions.latencies[side].sort((a, b) => a - b);
      return [side, { p50: quantile(xs, 0.5), p99: quantile(xs, 0.99) }];
    }));
    const ms = (x) => `${x.toFixed(1)} ms`;
    const times = (x) => `${x.toFixed(2)}×`;
    console.log(
      `  latency: p50 service ${ms(lat.service.p50)} vs bare ${ms(lat.bare.p50)} (${times(lat.service.p50 / lat.bare.p50)}); ` +
        `p99 service ${ms(lat.service.p99)} vs bare ${ms(lat.bare.p99)} → ${times(lat.service.p99 / lat.bare.p99)} (target ≤ 2×)`,
    );
    console.log(`  CPU per call: service / bare → ${times(cpu(decisions.service) / cpu(decisions.bare))} (target ≤ 1.4×); load average now ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
    // One revision read per event-loop turn of config calls (decide/snapshots.ts): fewer per call, more calls share each.
    const readsPerCall = (side) => (decisions[side].reads === undefined ? "n/a" : (decisions[side].reads / decisions[side].n).toFixed(3));
    console.log(`  revision reads per call: service ${readsPerCall("service")}${other ? `, other tree ${readsPerCall("other")}` : ""}`);
    if (other) {
      console.log(
        `  other tree (${otherTree}): CPU per call ${cpu(decisions.other).toFixed(0)} µs → ${times(cpu(decisions.other) / cpu(decisions.bare))} bare; ` +
          `p50 ${ms(lat.other.p50)}, p99 ${ms(lat.other.p99)} → ${times(lat.other.p99 / lat.bare.p99)} bare; this tree / other: CPU ${times(cpu(decisions.service) / cpu(decisions.other))}`,
      );
    }
    if (ONLY !== "decisions") console.log(
      `  events ingested:  service ${fmt(e.service)}/s (batches of ${EVENTS_PER_BATCH} over HTTP) vs bare SQLite insert loop ${fmt(e.bare)}/s → ${pct(e.service / e.bare)}`,
    );
  } finally {
    await stop(bare.child);
  }
} finally {
  await stop(service.child);
  if (other) await stop(other.child);
  rmSync(dir, { recursive: true, force: true });
}
