// Live events at 1,000,000 events of one account (docs/benchmarks.md "Live events at 1M
// events"): how long one GET /api/events holds the node's event loop, for the filters an operator
// types, and how long /health waits meanwhile.
//
// The events are the results benchmark's (storage.bench.mjs): the demo account's simulated
// visitors (seed/demo-data.ts simulateVisitors) written through store.commitClientWrites into
// SQLite, with one "needle" event stored before them all (page path /needle-only-once), the rare
// match an operator searches for. BENCH_EVENTS_DB keeps the database file between runs (it is
// built when missing).
//
// Baseline, same run, same database: the storage work GET /api/events did before the bounded
// search — the page by listEvents (unbounded filter), the `older` and `newer` checks by
// listEvents(1, …) and the total by countEvents(filter) — called on the same store, so the ratio
// is before / after (the old SQL, copied below). Each case is measured in alternating rounds
// (medians): the event loop's longest hold during the request (the longest gap between turns of a
// setImmediate ticker: SQLite's reads are synchronous) and the slowest GET /healthz asked every
// 10 ms meanwhile, counted from when it was due (what a shopper's request waits). Then the needle
// found by following `older`, and the hold of one search and one count per window size. Load
// average beside each.
//
// Then a viewer searching 10 times a second with a new text each time (the audit's case) for
// BENCH_LOAD_SECONDS: /healthz's median, p95 and slowest wait, before and now.
//
// With BENCH_BACKENDS=sqlite,postgres the same on PostgreSQL (a throwaway server, durable
// defaults: bench/postgres-server.mjs; the events written through the store, then VACUUM ANALYZE).
// There the reads do not hold the node's event loop; the figure is the request's time (the
// database's work).
//
// Env: BENCH_EVENTS (1000000), BENCH_EVENTS_DB (a file path to keep the SQLite database),
// BENCH_ROUNDS (5), BENCH_LOAD_SECONDS (2), BENCH_BACKENDS (sqlite).

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { importServerModules } from "./server-bundle.mjs";
import { startPostgres } from "./postgres-server.mjs";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 2);
const BACKENDS = (process.env.BENCH_BACKENDS ?? "sqlite").split(",");
const loadavg = () => os.loadavg().map((l) => l.toFixed(1)).join(" ");
const fmt = (n) => n.toLocaleString("en-US");
const ms = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const NEEDLE = "/needle-only-once";

const m = await importServerModules(
  "events-list-node",
  `
    export { buildApp } from "../packages/server/src/app.js";
    export { openSqliteStore } from "../packages/server/src/store/sqlite/index.js";
    export { openPostgresStore } from "../packages/server/src/store/postgres/index.js";
    export { seedDemo, DEMO_ACCOUNT_ID } from "../packages/server/src/seed/demo.js";
    export { simulateVisitors, writeSimulation, DEMO_PRICE_MESSAGE_ARMS } from "../packages/server/src/seed/demo-data.js";
  `,
);
const owner = { email: "bench@storefit.test", password: "bench-password-123" };

function* upTo(visitors, total) {
  let left = total;
  for (const v of visitors) {
    if (left <= 0) return;
    const events = v.events.length > left ? v.events.slice(0, left) : v.events;
    left -= events.length;
    yield { ...v, events };
  }
}

/** The demo account with the needle, then EVENTS - 1 simulated events (storage.bench.mjs's visitors). */
async function fill(store) {
  await store.migrate();
  await m.seedDemo(store, owner);
  const now = new Date().toISOString();
  await store.commitClientWrites([
    {
      kind: "events",
      accountId: m.DEMO_ACCOUNT_ID,
      userId: "u_needle",
      user: { user_customer_id: "needle-visitor", anonymous: true },
      touch: true,
      now,
      events: [
        {
          event_type: "PAGE",
          event_customer_id: `littlesprouts.localhost|page_view`,
          domain: "littlesprouts.localhost",
          name: "page_view",
          insert_id: "needle-1",
          event_timestamp: Date.UTC(2026, 9, 31),
          session_id: "needle-s",
          properties: { page_path: NEEDLE },
        },
      ],
    },
  ]);
  const experience = await store.getExperience(m.DEMO_ACCOUNT_ID, "exp_price_message");
  const EXTRA_PAGE_VIEWS = 8;
  const simulated = m.simulateVisitors({
    experience,
    rule_id: "rule_price_everyone",
    arms: m.DEMO_PRICE_MESSAGE_ARMS,
    start: Date.UTC(2026, 10, 1),
    days: 28,
    visitorsPerDay: Math.ceil((EVENTS / (1.5 + EXTRA_PAGE_VIEWS) / 14) * 1.2),
    extraPageViews: EXTRA_PAGE_VIEWS,
    seed: 2026,
  });
  await m.writeSimulation(store, m.DEMO_ACCOUNT_ID, upTo(simulated, EVENTS - 1), now, 5000);
}

// ---- the old storage work of GET /api/events (before the bounded search), as SQL ----

/**
 * The WHERE clause GET /api/events used before (store/{sqlite,postgres}/events.ts at 91733a8), with
 * named parameters (`@name`) for better-sqlite3, or numbered ones for pg.
 */
function oldFilterSql(filter, dialect) {
  const params = { account: m.DEMO_ACCOUNT_ID };
  const sqlite = dialect === "sqlite";
  const terms = ["e.account_id = @account"];
  if (filter.type) {
    terms.push("e.event_type = @type");
    params.type = filter.type;
  }
  if (filter.q) {
    terms.push(
      sqlite
        ? "(instr(lower(coalesce(e.page_path, '')), @q) > 0 OR instr(lower(e.event_name), @q) > 0)"
        : "(strpos(ascii_lower(coalesce(e.page_path, '')), @q) > 0 OR strpos(ascii_lower(e.event_name), @q) > 0)",
    );
    params.q = filter.q.toLowerCase();
  }
  if (filter.visitorIds) {
    if (sqlite) {
      terms.push(`e.user_id IN (${filter.visitorIds.map((_, i) => `@visitor_${i}`).join(", ")})`);
      filter.visitorIds.forEach((v, i) => (params[`visitor_${i}`] = v));
    } else {
      terms.push("e.user_id = ANY (@visitors::text[])");
      params.visitors = filter.visitorIds;
    }
  }
  if (filter.experience) {
    terms.push("e.user_id IN (SELECT x.user_id FROM exposures x WHERE x.account_id = @account AND x.experience_id = @experience)");
    params.experience = filter.experience;
  }
  if (filter.before !== undefined) {
    terms.push("e.seq < @before");
    params.before = filter.before;
  }
  if (filter.after !== undefined) {
    terms.push("e.seq > @after");
    params.after = filter.after;
  }
  return { where: terms.join(" AND "), params };
}

/** `@name` parameters as pg's $1, $2, …. */
function numbered(text, params) {
  const names = [];
  const sql = text.replace(/@([a-z_0-9]+)/g, (_, name) => {
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return { sql, values: names.map((n) => params[n]) };
}

/** A connection of the benchmark's own that runs the old route's SQL: synchronous on SQLite, as the store's were. */
function oldReader(backend) {
  if (backend.name === "SQLite") {
    const db = new Database(backend.file, { readonly: true });
    return { all: async (text, params) => db.prepare(text).all(params), close: async () => db.close() };
  }
  const pool = new pg.Pool({ connectionString: backend.url, max: 4 });
  return {
    all: async (text, params) => {
      const { sql, values } = numbered(text, params);
      return (await pool.query(sql, values)).rows;
    },
    close: async () => pool.end(),
  };
}

/** The old route's reads: the page, one row past each end, and the count. */
async function oldRequest(reader, dialect, filter, limit = 50) {
  const list = async (n, f) => {
    const { where, params } = oldFilterSql(f, dialect);
    const order = f.after !== undefined ? "ASC" : "DESC";
    return reader.all(`SELECT * FROM events e WHERE ${where} ORDER BY e.seq ${order} LIMIT @limit`, { ...params, limit: n });
  };
  const rows = await list(limit, filter);
  if (rows.length) {
    await list(1, { ...filter, before: Number(rows.at(-1).seq) });
    await list(1, { ...filter, after: Number(rows[0].seq) });
  }
  const { where, params } = oldFilterSql(filter, dialect);
  return Number((await reader.all(`SELECT count(*) AS n FROM events e WHERE ${where}`, params))[0].n);
}

/**
 * Runs `fn` while a ticker on setImmediate notes the longest gap between its turns (the event
 * loop's longest hold: SQLite's reads are synchronous) and /healthz is asked every 10 ms, each
 * ping's wait counted from when it was due (a shopper arriving then waits as long).
 */
async function held(app, fn) {
  let running = true;
  let hold = 0;
  let last = performance.now();
  const ticker = new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      hold = Math.max(hold, now - last);
      last = now;
      if (running) setImmediate(tick);
      else resolve();
    };
    setImmediate(tick);
  });
  const pings = [];
  const pinger = (async () => {
    let due = performance.now();
    while (running) {
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      await app.inject({ method: "GET", url: "/healthz" });
      pings.push(Math.max(0, performance.now() - due));
      due += 10;
      if (due < performance.now() - 10) due = performance.now();
    }
  })();
  await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  const result = await fn();
  const took = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 15));
  running = false;
  await ticker;
  await pinger;
  return { took, hold, health: Math.max(...pings), result };
}

/** A viewer searching 10 times a second, a new text each time, for LOAD_SECONDS: /healthz meanwhile. */
async function sustained(app, search) {
  const pings = [];
  let running = true;
  const pinger = (async () => {
    let due = performance.now();
    while (running) {
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      await app.inject({ method: "GET", url: "/healthz" });
      pings.push(Math.max(0, performance.now() - due));
      due += 10;
      if (due < performance.now() - 10) due = performance.now();
    }
  })();
  const searches = [];
  for (let i = 0; i < LOAD_SECONDS * 10; i++) {
    searches.push(new Promise((resolve, reject) => setTimeout(() => search(i).then(resolve, reject), i * 100)));
  }
  await Promise.all(searches);
  running = false;
  await pinger;
  const sorted = [...pings].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], p95: sorted[Math.floor(sorted.length * 0.95)], max: sorted.at(-1) };
}

async function measure(backend) {
  const { store, name } = backend;
  const dialect = name === "SQLite" ? "sqlite" : "postgres";
  const reader = oldReader(backend);
  const app = await m.buildApp({ store, log: false });
  try {
    const signIn = await app.inject({ method: "POST", url: "/api/session", payload: owner });
    const cookie = signIn.cookies.find((c) => c.name === "storefit_session");
    const headers = { cookie: `storefit_session=${cookie.value}` };
    const get = async (query) => {
      const res = await app.inject({ method: "GET", url: `/api/events${query}`, headers });
      if (res.statusCode !== 200) throw new Error(`GET /api/events${query}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const countAll = async () => Number((await reader.all("SELECT count(*) AS n FROM events WHERE account_id = @account", { account: m.DEMO_ACCOUNT_ID }))[0].n);
    const events = await countAll();
    console.log(`Live events, GET /api/events at ${fmt(events)} events of one account, ${name}, ${ROUNDS} rounds (loadavg ${loadavg()})`);

    // The unfiltered total: the first request of a node counts the index in slices.
    const first = await held(app, () => get("?limit=50"));
    const oldCount = await held(app, countAll);
    console.log(
      `  the node's first unfiltered page (its total counted in slices): ${ms(first.took)} ms, event loop held ${ms(first.hold)} ms at most; ` +
        `one count(*) of the account's index: ${ms(oldCount.took)} ms, held ${ms(oldCount.hold)} ms (loadavg ${loadavg()})`,
    );

    const cases = [
      { label: "newest page, no filter", query: () => "", filter: () => ({}) },
      { label: "rare q (matches nothing; a new text each time)", query: (i) => `?q=zz-nothing-${i}`, filter: (i) => ({ q: `zz-nothing-${i}` }) },
      { label: "type=REVENUE (0.5 % of events)", query: () => "?type=REVENUE", filter: () => ({ type: "REVENUE" }) },
      { label: "type=CLICK (none stored)", query: () => "?type=CLICK", filter: () => ({ type: "CLICK" }) },
      // The route looks a visitor up by both ids it may have: the text and the id derived from it.
      { label: "visitor nobody", query: () => "?visitor=nobody", filter: () => ({ visitorIds: ["nobody", "u_0123456789abcdef01234567"] }) },
      { label: "experience of nobody", query: () => "?experience=exp_none", filter: () => ({ experience: "exp_none" }) },
    ];
    for (const c of cases) {
      const before = [];
      const after = [];
      let answer;
      for (let round = 0; round < ROUNDS; round++) {
        before.push(await held(app, () => oldRequest(reader, dialect, c.filter(round))));
        const now = await held(app, () => get(c.query(round)));
        answer = now.result;
        after.push(now);
      }
      const med = (xs, key) => median(xs.map((x) => x[key]));
      console.log(
        `  ${c.label}: event loop held ${ms(med(before, "hold"))} ms before, ${ms(med(after, "hold"))} ms now; ` +
          `slowest /healthz ${ms(med(before, "health"))} → ${ms(med(after, "health"))} ms; request ${ms(med(before, "took"))} → ${ms(med(after, "took"))} ms ` +
          `(${(med(before, "took") / med(after, "took")).toFixed(0)}×); ` +
          `now: ${answer.events.length} events, total ${fmt(answer.total)}${answer.total_exact ? "" : "+"}, searched ${answer.searched ?? "-"} (loadavg ${loadavg()})`,
      );
    }

    // The needle, stored before everything: found by following `older`, one bounded page each.
    let query = `?q=${NEEDLE.slice(1)}`;
    const pages = [];
    for (let guard = 0; guard < 1000; guard++) {
      const page = await held(app, () => get(query));
      pages.push(page);
      if (page.result.events.length || page.result.older === null) break;
      query = `?q=${NEEDLE.slice(1)}&before=${page.result.older}`;
    }
    const found = pages.at(-1).result.events.map((e) => e.page_path);
    const oldNeedle = await held(app, () => oldRequest(reader, dialect, { q: NEEDLE.slice(1) }));
    console.log(
      `  the needle (the oldest event): ${pages.length} pages by older, found ${JSON.stringify(found)}; each request ${ms(median(pages.map((p) => p.took)))} ms ` +
        `(median; slowest ${ms(Math.max(...pages.map((p) => p.took)))}), event loop held ${ms(Math.max(...pages.map((p) => p.hold)))} ms at most; ` +
        `before: one request, ${ms(oldNeedle.took)} ms, held ${ms(oldNeedle.hold)} ms (loadavg ${loadavg()})`,
    );

    // The audit's case: 10 searches a second, each a new text matching nothing.
    const oldLoad = await sustained(app, (i) => oldRequest(reader, dialect, { q: `zz-old-load-${i}` }));
    const newLoad = await sustained(app, (i) => get(`?q=zz-new-load-${i}`));
    console.log(
      `  10 searches/s for ${LOAD_SECONDS} s (a new text matching nothing each): /healthz median ${ms(oldLoad.median)} → ${ms(newLoad.median)} ms, ` +
        `p95 ${ms(oldLoad.p95)} → ${ms(newLoad.p95)} ms, slowest ${ms(oldLoad.max)} → ${ms(newLoad.max)} ms (loadavg ${loadavg()})`,
    );

    // The window's size: one bounded search and one bounded count for a text matching nothing.
    for (const window of [10_000, 25_000, 50_000, 100_000]) {
      const search = [];
      const count = [];
      for (let round = 0; round < ROUNDS; round++) {
        search.push(await held(app, async () => store.searchEvents(m.DEMO_ACCOUNT_ID, 50, { q: `zz-w-${round}` }, window)));
        count.push(await held(app, async () => store.countEventsBounded(m.DEMO_ACCOUNT_ID, { q: `zz-w-${round}` }, window, 10_000)));
      }
      const med = (xs, key) => ms(median(xs.map((x) => x[key])));
      console.log(
        `  window ${fmt(window)}: a search matching nothing ${med(search, "took")} ms (held ${med(search, "hold")}), a count ${med(count, "took")} ms (held ${med(count, "hold")}) (loadavg ${loadavg()})`,
      );
    }
  } finally {
    await app.close();
    await reader.close();
  }
}

const dir = mkdtempSync(join(os.tmpdir(), "storefit-events-bench-"));
let postgres;
try {
  for (const name of BACKENDS) {
    if (name === "sqlite") {
      const file = process.env.BENCH_EVENTS_DB ?? join(dir, "events.sqlite");
      if (!existsSync(file)) {
        const t0 = performance.now();
        const store = m.openSqliteStore(file);
        await fill(store);
        store.close();
        console.log(`Built ${file}: ${fmt(EVENTS)} events in ${((performance.now() - t0) / 1000).toFixed(0)} s (loadavg ${loadavg()})`);
      }
      const store = m.openSqliteStore(file);
      try {
        await measure({ name: "SQLite", store, file });
      } finally {
        store.close();
      }
    } else if (name === "postgres") {
      postgres = await startPostgres();
      const url = await postgres.createDatabase("bench_events");
      const store = await m.openPostgresStore(url);
      try {
        const t0 = performance.now();
        await fill(store);
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        // What autovacuum does soon after a bulk insert: the visibility map and the statistics.
        await admin.query("VACUUM (ANALYZE)");
        await admin.end();
        console.log(`Built PostgreSQL ${postgres.version}: ${fmt(EVENTS)} events in ${((performance.now() - t0) / 1000).toFixed(0)} s, then VACUUM (ANALYZE) (loadavg ${loadavg()})`);
        await measure({ name: "PostgreSQL", store, url });
      } finally {
        await store.close();
      }
    } else throw new Error(`BENCH_BACKENDS: unknown backend ${name}`);
  }
} finally {
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
}
