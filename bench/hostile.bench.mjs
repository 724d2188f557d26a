// Load and fault benchmark (issue #17): one node of the real service (service-node.ts, bundled as
// service.bench.mjs does) on a temporary SQLite file.
//  1. quiet: config calls and event batches per second, with each request's p50 / p99;
//  2. the same while a hostile client sends deep JSON ("[[[[…", 800 KB) on two connections
//     without pause: the ratios against the quiet run show what the hostile client costs;
//  3. kill -9: events with insert ids sent at full speed while the node is killed with SIGKILL
//     a few times and restarted; then every acknowledged event must be stored once (loss and
//     duplicates counted in the database), after the unacknowledged batches are sent again as
//     the storefront script retries them.
// The load average (os.loadavg, 1 min) is printed beside each figure: the machine is shared.
// Settings: BENCH_HOSTILE_CALLS (config calls per phase), BENCH_HOSTILE_KILLS.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import Database from "better-sqlite3";
import { serverBundleOptions } from "../packages/server/bundle.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const CALLS = Number(process.env.BENCH_HOSTILE_CALLS ?? 4000);
const BATCHES = Math.round(CALLS / 4);
const KILLS = Number(process.env.BENCH_HOSTILE_KILLS ?? 4);
const CONCURRENCY = 10;
const CLIENT_KEY = "ck_demo_littlesprouts";
const ORIGIN = "http://littlesprouts.localhost:4200";
const HEADERS = { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN };
const CONFIG_PATH = `/v1/users/configs/?cfenc=${CLIENT_KEY}`;
const EVENTS_PATH = `/v1/cfe/?cfenc=${CLIENT_KEY}`;
const PAGES = ["/products/gentle-baby-wash", "/products/calendula-baby-lotion", "/products/kids-curl-cream", "/products/oatmeal-eczema-cream"];

// ---- the node ----

function startNode(bundle, dataDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle], { env: { ...process.env, BENCH_DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "inherit", "ipc"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve({ child, ...JSON.parse(out.split("\n")[0]) });
    });
    child.once("exit", (code, signal) => reject(new Error(`service node exited (${code ?? signal}) before listening`)));
  });
}

const killed = (child, signal) =>
  new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.once("exit", resolve);
    child.kill(signal);
  });

// ---- the client ----

/** One POST; resolves with the status (0 when the connection failed) and the time it took. */
function post(agent, port, path, body, headers = HEADERS) {
  return new Promise((resolve) => {
    const start = performance.now();
    const req = http.request({ agent, host: "127.0.0.1", port, method: "POST", path, headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start }));
      res.on("error", () => resolve({ status: 0, ms: performance.now() - start }));
    });
    req.on("error", () => resolve({ status: 0, ms: performance.now() - start }));
    req.end(body);
  });
}

/** `total` requests, CONCURRENCY at a time: rate, p50, p99 and the load average at the end. */
async function measure(port, path, bodyOf, total) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const times = [];
  let next = 0;
  let failed = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const r = await post(agent, port, path, bodyOf(next++));
        if (r.status !== 200) failed++;
        times.push(r.ms);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  if (failed) throw new Error(`${failed} of ${total} requests to ${path} failed`);
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  return { rate: total / seconds, p50: q(0.5), p99: q(0.99), load: os.loadavg()[0] };
}

function configBody(i, prefix) {
  const n = i % 7 === 0 ? i : Math.floor(i / 7);
  const path = PAGES[i % PAGES.length];
  return JSON.stringify({
    user: { user_customer_id: `${prefix}-${n}`, anonymous: true, properties: { cf_device_type: n % 2 ? "mobile" : "desktop", cf_current_page_url: `${ORIGIN}${path}` } },
    current_page_path: path,
    current_domain: "littlesprouts.localhost",
    session_id: `${prefix}-s-${n}`,
  });
}

function eventBody(i, prefix, perBatch = 5) {
  const events = Array.from({ length: perBatch }, (_, k) => ({
    event_type: k === 0 ? "PAGE" : "CLICK",
    event_customer_id: "littlesprouts.localhost|page_view",
    domain: "littlesprouts.localhost",
    name: "page_view",
    insert_id: `${prefix}-${i}-${k}`,
    event_timestamp: 1_790_000_000_000 + i,
    session_id: `s-${i % 500}`,
    properties: { page_path: PAGES[i % PAGES.length] },
  }));
  return JSON.stringify({ user: { user_customer_id: `${prefix}-visitor-${i % 500}`, anonymous: true }, events });
}

/** Deep JSON as issue #17's hostile client sent it: 800 KB of "[", the key being public. */
const DEEP = "[".repeat(400_000) + "]".repeat(400_000);

/** Sends DEEP on `connections` connections without pause until stopped; counts the answers. */
function hostileClient(port, connections = 2) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const statuses = new Map();
  let running = true;
  const loops = Array.from({ length: connections }, async () => {
    while (running) {
      const r = await post(agent, port, CONFIG_PATH, DEEP);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
  });
  return {
    statuses,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

// ---- the run ----

const fmt = (n) => Math.round(n).toLocaleString("en-US");
const ms = (n) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
const line = (label, m, unit) => `  ${label}: ${fmt(m.rate)} ${unit}/s, p50 ${ms(m.p50)}, p99 ${ms(m.p99)} (load ${m.load.toFixed(1)})`;

const dir = mkdtempSync(join(os.tmpdir(), "storefit-hostile-"));
// Beside the service's node_modules, where some of its dependencies are installed.
const cacheDir = join(root, "packages", "server", "node_modules", ".cache", "storefit-bench");
mkdirSync(cacheDir, { recursive: true });
const bundle = join(cacheDir, "service-node-hostile.mjs");
await build({ ...serverBundleOptions, entryPoints: [join(here, "service-node.ts")], outfile: bundle });

console.log(`Load and faults — Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the start`);
try {
  mkdirSync(join(dir, "a"), { recursive: true });
  let node = await startNode(bundle, join(dir, "a"));
  try {
    // Warm-up, then the quiet baseline.
    await measure(node.port, CONFIG_PATH, (i) => configBody(i, "warm"), 500);
    const quietConfig = await measure(node.port, CONFIG_PATH, (i) => configBody(i, "quiet"), CALLS);
    const quietEvents = await measure(node.port, EVENTS_PATH, (i) => eventBody(i, "quiet"), BATCHES);
    console.log("One node, quiet:");
    console.log(line("config calls", quietConfig, "calls"));
    console.log(line("event batches of 5", { ...quietEvents, rate: quietEvents.rate * 5 }, "events"));

    const hostile = hostileClient(node.port);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const loudConfig = await measure(node.port, CONFIG_PATH, (i) => configBody(i, "loud"), CALLS);
    const loudEvents = await measure(node.port, EVENTS_PATH, (i) => eventBody(i, "loud"), BATCHES);
    await hostile.stop();
    const answered = [...hostile.statuses].map(([s, n]) => `${fmt(n)} × ${s || "connection error"}`).join(", ");
    console.log(`While a hostile client sends ${fmt(DEEP.length / 1000)} KB of nested "[" on 2 connections (answered: ${answered}):`);
    console.log(line("config calls", loudConfig, "calls") + ` → rate ${ratio(loudConfig.rate, quietConfig.rate)}, p50 ${ratio(loudConfig.p50, quietConfig.p50)}, p99 ${ratio(loudConfig.p99, quietConfig.p99)} of quiet`);
    console.log(
      line("event batches of 5", { ...loudEvents, rate: loudEvents.rate * 5 }, "events") +
        ` → rate ${ratio(loudEvents.rate, quietEvents.rate)}, p50 ${ratio(loudEvents.p50, quietEvents.p50)}, p99 ${ratio(loudEvents.p99, quietEvents.p99)} of quiet`,
    );
  } finally {
    await killed(node.child, "SIGTERM");
  }

  // kill -9 under load: a node on its own database, events sent until it dies, then restarted.
  const killDir = join(dir, "k");
  mkdirSync(killDir, { recursive: true });
  const acked = new Set();
  const unacked = new Map();
  let batch = 0;
  for (let k = 0; k <= KILLS; k++) {
    node = await startNode(bundle, killDir);
    // First the batches the last node never answered, as the script's retry sends them.
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    for (const [id, body] of [...unacked]) {
      const r = await post(agent, node.port, EVENTS_PATH, body);
      if (r.status === 200) {
        acked.add(id);
        unacked.delete(id);
      }
    }
    if (k === KILLS) {
      agent.destroy();
      await killed(node.child, "SIGTERM");
      break;
    }
    let dead = false;
    const senders = Array.from({ length: CONCURRENCY }, async () => {
      while (!dead) {
        const id = batch++;
        const body = eventBody(id, "kill");
        unacked.set(id, body);
        const r = await post(agent, node.port, EVENTS_PATH, body);
        if (r.status === 200) {
          acked.add(id);
          unacked.delete(id);
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1500 + 500 * k));
    await killed(node.child, "SIGKILL");
    dead = true;
    await Promise.all(senders);
    agent.destroy();
  }
  const db = new Database(join(killDir, "service.sqlite"), { readonly: true });
  const rows = db.prepare("SELECT insert_id, count(*) AS n FROM events WHERE insert_id LIKE 'kill-%' GROUP BY insert_id").all();
  db.close();
  const stored = new Map(rows.map((r) => [r.insert_id, r.n]));
  let lost = 0;
  for (const id of acked) for (let e = 0; e < 5; e++) if (!stored.has(`kill-${id}-${e}`)) lost++;
  const duplicates = rows.reduce((n, r) => n + (r.n - 1), 0);
  console.log(`kill -9 under load (${KILLS} kills, ${CONCURRENCY} senders, batches of 5; load ${os.loadavg()[0].toFixed(1)}):`);
  console.log(`  ${fmt(acked.size * 5)} events acknowledged, ${fmt(rows.length)} stored; acknowledged and lost: ${lost}; stored twice: ${duplicates}; never acknowledged: ${unacked.size * 5}`);
  if (lost || duplicates) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
