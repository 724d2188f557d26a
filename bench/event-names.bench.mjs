// The goal editor's event names at 1,000,000 events of one account (docs/api.md "Event names"):
// how long one recentEventNames call (GET /api/events/names' storage work, a window of the newest
// 50,000 events) holds a SQLite node's event loop, SQLite's reads being synchronous.
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
// Env: BENCH_EVENTS (1000000), BENCH_ROUNDS (7).

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { serverBundleOptions } from "../packages/server/bundle.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WINDOW = 50_000;
const loadavg = () => os.loadavg().map((l) => l.toFixed(1)).join(" ");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const cacheDir = join(root, "packages", "server", "node_modules", ".cache", "storefit-bench");
mkdirSync(cacheDir, { recursive: true });
const bundle = join(cacheDir, "event-names-node.mjs");
await build({
  ...serverBundleOptions,
  stdin: {
    contents: `export { openSqliteStore } from "../packages/server/src/store/sqlite/index.js";`,
    resolveDir: here,
    loader: "ts",
    sourcefile: "event-names-node.ts",
  },
  outfile: bundle,
});
const { openSqliteStore } = await import(pathToFileURL(bundle).href);

const dir = mkdtempSync(join(os.tmpdir(), "storefit-bench-event-names-"));
try {
  const store = openSqliteStore(join(dir, "store.sqlite"));
  store.migrate();
  const accountId = "acc_bench";
  store.createAccount({ id: accountId, name: "bench", client_key: "ck_bench", settings: { domain: "shop.example" } });
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
      writes.push({ kind: "events", accountId, userId: `u_${v}`, user: { user_customer_id: `c${v}`, anonymous: true }, touch: false, events, now });
    }
    store.commitClientWrites(writes);
  }
  console.log(`${EVENTS.toLocaleString("en-US")} events written in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  const time = (fn) => {
    const t = performance.now();
    fn();
    return performance.now() - t;
  };
  const names = [];
  const search = [];
  const whole = [];
  const loads = [];
  const unbounded = store.sqlite.db.prepare(
    "SELECT event_name, count(*) AS n, max(seq) AS last FROM events WHERE account_id = ? AND event_type = 'TRACK' GROUP BY event_name ORDER BY last DESC LIMIT 100",
  );
  let answer;
  for (let r = 0; r < ROUNDS; r++) {
    search.push(time(() => store.searchEvents(accountId, 50, { q: "matches-nothing" }, WINDOW)));
    names.push(time(() => (answer = store.recentEventNames(accountId, "TRACK", WINDOW, 100))));
    whole.push(time(() => unbounded.all(accountId)));
    loads.push(loadavg());
  }
  if (answer.names.length !== 30 || answer.complete !== (EVENTS <= WINDOW)) throw new Error(`unexpected answer: ${JSON.stringify(answer).slice(0, 200)}`);
  const n = median(names);
  const s = median(search);
  console.log(`recentEventNames(TRACK, window ${WINDOW}): median ${n.toFixed(1)} ms (${names.map((x) => x.toFixed(0)).join(", ")})`);
  console.log(`baseline searchEvents(q matching nothing, window ${WINDOW}): median ${s.toFixed(1)} ms (${search.map((x) => x.toFixed(0)).join(", ")})`);
  console.log(`the whole history without a window: median ${median(whole).toFixed(1)} ms (${whole.map((x) => x.toFixed(0)).join(", ")})`);
  console.log(`ratio names / search: ${(n / s).toFixed(2)}; load average per round: ${loads.join(" | ")}`);
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
