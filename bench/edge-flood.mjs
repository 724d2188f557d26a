// The 2026-11-28 audit's repros of one address against one node (docs/benchmarks.md "Load and
// faults", "One address against a node"): not part of `npm run bench`, and not a ratio: each mode
// prints a quiet phase or the other address's view beside the hostile phase, with the load average.
//   node bench/edge-flood.mjs conn   — 10,100 keep-alive sockets from 127.0.0.1, each idle after one
//                                      request; every 5 s a fresh /healthz from 127.0.0.2 and 127.0.0.1
//   node bench/edge-flood.mjs body   — event batches of BODY bytes (default 1,048,000), 4 at a time
//                                      under 100 requests/s, from one address (another process),
//                                      while /healthz is probed from 127.0.0.2 every 20 ms
//   node bench/edge-flood.mjs single — one event batch of 1 MB, then of 64 KB, alone, 8 times each
// Settings as K=V after the mode go to the node's environment (MAX_CONNECTIONS_PER_ADDRESS=0,
// CLIENT_IP_BYTES_PER_S=0 turn the per-address limits off); BODY, FLOOD, HOLD_S and ADDRESSES
// (conn: spread the sockets over 127.0.0.10 and up) are the script's.
// The node is src/main.ts of this tree, bundled with esbuild (BENCH_BUNDLE=<file>: another build).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { serverBundleOptions } from "../packages/server/bundle.mjs";
import http from "node:http";
import net from "node:net";

const here = dirname(fileURLToPath(import.meta.url));
const serverDir = join(here, "..", "packages", "server");
const [mode, ...envs] = process.argv.slice(2);
let bundle = process.env.BENCH_BUNDLE;
if (!bundle) {
  const cacheDir = join(serverDir, "node_modules", ".cache", "storefit-bench");
  mkdirSync(cacheDir, { recursive: true });
  bundle = join(cacheDir, "edge-flood-main.mjs");
  await build({ ...serverBundleOptions, entryPoints: [join(serverDir, "src", "main.ts")], outfile: bundle });
}
const PORT = 4700 + Math.floor(Math.random() * 200);
const KEY = "ck_demo_littlesprouts";
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const env = { ...process.env, PORT: String(PORT), DATA_DIR: mkdtempSync(join(tmpdir(), "edge-m-")), LOG: "0", DEMO_HISTORY: "0" };
// body and single: the node reads the hostile client's address from X-Forwarded-For (a loopback
// client is not limited per address); conn: the TCP peer is the address.
if (mode !== "conn") env.TRUST_PROXY = "loopback";
for (const kv of envs) { const [k, ...v] = kv.split("="); env[k] = v.join("="); }
const child = spawn(process.execPath, [bundle], { env, stdio: ["ignore", "pipe", "inherit"], cwd: serverDir });
await new Promise((r) => child.stdout.on("data", (d) => String(d).includes("Storefit service") && r()));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** GET /health from `localAddress` on a fresh connection: status or error, and ms. */
function health(localAddress = "127.0.0.2", timeoutMs = 4000) {
  return new Promise((resolve) => {
    const t = performance.now();
    const req = http.get({ host: "127.0.0.1", port: PORT, path: "/healthz", localAddress, agent: false, timeout: timeoutMs }, (res) => {
      res.resume(); res.on("end", () => resolve({ status: res.statusCode, ms: performance.now() - t }));
    });
    req.on("timeout", () => { req.destroy(); resolve({ status: "timeout", ms: performance.now() - t }); });
    req.on("error", (e) => resolve({ status: e.code, ms: performance.now() - t }));
  });
}
const pct = (a, p) => a[Math.min(a.length - 1, Math.floor(a.length * p))];
async function probe(label, work) {
  const lat = []; const bad = {}; let stop = false;
  const loop = (async () => { while (!stop) { const h = await health(); if (h.status === 200) lat.push(h.ms); else bad[h.status] = (bad[h.status] ?? 0) + 1; await sleep(20); } })();
  const t = performance.now(); const out = await work(); const took = performance.now() - t;
  stop = true; await loop; lat.sort((a, b) => a - b);
  console.log(`${label}: ${took.toFixed(0)} ms; /healthz from 127.0.0.2 n=${lat.length} p50=${pct(lat, 0.5)?.toFixed(0)} p95=${pct(lat, 0.95)?.toFixed(0)} max=${lat.at(-1)?.toFixed(0)} ms, failed ${JSON.stringify(bad)} (load ${load()})`);
  return out;
}

function post(path, body, headers = {}) {
  return new Promise((resolve) => {
    const t = performance.now();
    const req = http.request({ host: "127.0.0.1", port: PORT, path: `${path}?cfenc=${KEY}`, method: "POST", headers: { "content-type": "text/plain", ...headers } }, (res) => {
      res.resume(); res.on("end", () => resolve({ status: res.statusCode, ms: performance.now() - t }));
    });
    req.on("error", (e) => resolve({ status: e.code, ms: performance.now() - t }));
    req.end(body);
  });
}
const batch = (bytes, tag) => {
  const mk = (n) => JSON.stringify({ user: { user_customer_id: "big" }, events: Array.from({ length: 500 }, (_, i) => ({ event_type: "TRACK", insert_id: `big-${tag}-${i}`, event_timestamp: Date.now(), name: "n", properties: Object.fromEntries(Array.from({ length: n }, (_, j) => ["k" + j, j])) })) });
  let lo = 0, hi = 200;
  while (lo < hi) { const mid = Math.ceil((lo + hi) / 2); if (mk(mid).length <= bytes) lo = mid; else hi = mid - 1; }
  let b = mk(lo);
  if (lo === 0 || b.length > bytes) { // fewer events
    let e = 500; const one = (k) => JSON.stringify({ user: { user_customer_id: "big" }, events: Array.from({ length: k }, (_, i) => ({ event_type: "TRACK", insert_id: `big-${tag}-${i}`, event_timestamp: Date.now(), name: "n", properties: { a: 1 } })) });
    while ((b = one(e)).length > bytes) e -= 5;
  }
  return b;
};
const XFF = { "x-forwarded-for": "203.0.113.9" };

try {
  console.log(`# edge-flood ${mode} ${envs.join(" ")} — Node ${process.version} (load ${load()})`);
  if (mode === "single") {
    for (const size of [1_048_000, 64_000]) {
      const times = [];
      for (let i = 0; i < 8; i++) { const r = await post("/v1/cfe/", batch(size, `s${size}-${i}-${Date.now()}`), XFF); times.push(r); }
      console.log(`one ${size} B body, alone, 8 times: ${times.map((r) => `${r.status}:${r.ms.toFixed(0)}`).join(" ")} ms (load ${load()})`);
    }
  }
  if (mode === "body") {
    const size = Number(env.BODY ?? 1_048_000);
    await probe("quiet", () => sleep(3000));
    const out = await probe(`4 at a time, ${size} B event batches from one address (another process), 20 s`, () => new Promise((resolve) => {
      const c = spawn(process.execPath, [join(here, "edge-flood-client.mjs"), String(PORT), String(size), "20"], { stdio: ["ignore", "pipe", "inherit"] });
      let text = ""; c.stdout.on("data", (d) => (text += d)); c.on("close", () => resolve(text.trim()));
    }));
    console.log("the hostile client's body and answers:", out);
  }
  if (mode === "conn") {
    const N = Number(env.FLOOD ?? 10_100), holdS = Number(env.HOLD_S ?? 30), ADDRESSES = Number(env.ADDRESSES ?? 1);
    const socks = []; let closed = 0; const t0 = Date.now();
    for (let i = 0; i < N; i++) {
      const s = net.connect({ port: PORT, host: "127.0.0.1", localAddress: ADDRESSES > 1 ? `127.0.0.${10 + (i % ADDRESSES)}` : "127.0.0.1" });
      s.on("error", () => {}); s.on("close", () => closed++); s.resume();
      s.on("connect", () => s.write("GET /v1/accounts/x/snippet.js HTTP/1.1\r\nHost: a\r\n\r\n"));
      socks.push(s);
      if (i % 500 === 499) await sleep(50);
    }
    console.log(`opened ${N} from ${ADDRESSES > 1 ? `127.0.0.10 … 127.0.0.${9 + ADDRESSES}` : "127.0.0.1"} in ${Date.now() - t0} ms`);
    for (let k = 0; k < holdS; k += 5) {
      await sleep(5000);
      const other = await health("127.0.0.2"), same = await health("127.0.0.1");
      console.log(`t=${((Date.now() - t0) / 1000).toFixed(0)}s attacker sockets open=${N - closed}; /healthz from 127.0.0.2: ${other.status} ${other.ms.toFixed(0)} ms; from 127.0.0.1: ${same.status} (load ${load()})`);
    }
    for (const s of socks) s.destroy();
  }
} finally {
  child.kill("SIGINT");
}
