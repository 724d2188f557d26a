// Issue #17: no stored event breaks the results or the events list. Hostile events (nested deeper
// than SQLite's JSON parser takes, huge strings, wrong types, lone surrogates, revenue as odd
// text) are sent through the client API and, as rows stored before any edge limit, straight into
// the store; every results screen's API still answers 200 with the same numbers. Migration 9's
// backfill takes the same rows without failing and reads amounts as the insert does.
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ConfigsResponse, TrackedEvent } from "@storefit/contract";
import { MIGRATIONS } from "../src/store/migrations.js";
import { revenueAmount } from "../src/store/event-fields.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import { call, DEMO_CLIENT_KEY, FIXED_NOW, FORM, SHOP_ORIGIN, signedInEachTest, user, insertEvents } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;

signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

/** An object nested `depth` levels deep (SQLite's JSON functions refuse more than 1,000). */
function deep(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

const post = (path: string, body: unknown) =>
  t.app.inject({ method: "POST", url: `${path}?cfenc=${DEMO_CLIENT_KEY}`, headers: { "content-type": FORM, origin: SHOP_ORIGIN }, payload: JSON.stringify(body) });

let seq = 0;
function event(type: string, name: string, ts: number, properties: Record<string, unknown> = {}): TrackedEvent {
  return {
    event_type: type,
    name,
    event_customer_id: `littlesprouts.localhost|${name}`,
    domain: "littlesprouts.localhost",
    insert_id: `h-${type}-${seq++}`,
    event_timestamp: ts,
    session_id: "s1",
    properties: { page_path: "/products/gentle-baby-wash", ...properties },
  };
}

/** Revenue amounts as a hostile client may send them; each counts 0 (the last two: their numeric start). */
const ODD_AMOUNTS: [unknown, number][] = [
  [{}, 0], [[5], 0], [true, 0], [null, 0], ["NaN", 0], ["Infinity", 0], ["abc", 0], ["-5", 0], [-5, 0],
  ["1e999", 0], ["", 0], ["0x20", 0], [" 12.5abc", 12.5], ["3e2", 300],
];

/** Every event a hostile client might store, none of them of a visitor exposed to anything. */
function hostileEvents(ts: number): TrackedEvent[] {
  return [
    event("TRACK", "add_to_cart", ts, { nested: deep(1_100) }),
    event("REVENUE", "revenue", ts, { revenue_amount: 50, nested: deep(1_100) }),
    event("PAGE", "/checkout", ts, { page_path: "/checkout", nested: deep(1_100) }),
    event("TRACK", "x".repeat(512), ts, { big: "y".repeat(200_000) }),
    event("TRACK", "\ud800", ts, { s: "\udfff\ud800", page_path: "\ud800/checkout" }),
    event("FORM", "newsletter", ts, { form_id: { nested: [1, [2, [3]]] }, page_path: 42 }),
    ...ODD_AMOUNTS.map(([amount]) => event("REVENUE", "revenue", ts, { revenue_amount: amount })),
  ];
}

/** Every results screen's API answer (each experience of the account) and the events list, all 200. */
async function readEverything(): Promise<Record<string, unknown>> {
  const read = async (url: string) => {
    const res = await call(t.app, owner, "GET", url);
    expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
    return res.json() as unknown;
  };
  const experiences = (await read("/api/experiences")) as { experiences?: { id: string }[] } | { id: string }[];
  const list = Array.isArray(experiences) ? experiences : experiences.experiences!;
  expect(list.length).toBeGreaterThan(1);
  const all: Record<string, unknown> = {};
  for (const { id } of list) all[id] = await read(`/api/results/${id}`);
  for (const q of ["", "?q=add_to", "?q=checkout", "?type=revenue", "?q=%F0%9F%98%80"]) {
    const list = (await read(`/api/events${q}`)) as { total: number };
    all[`events${q}`] = list.total;
  }
  return all;
}

describe("hostile stored events", () => {
  it("no stored event fails the results or the events list, and none changes a number", async () => {
    // A real visitor: exposed to exp_price_message, converts on its goals.
    const visitor = "real-visitor";
    const answer = (await post("/v1/users/configs/", { user: user(visitor), current_page_path: "/products/gentle-baby-wash", current_domain: "littlesprouts.localhost" })).json() as ConfigsResponse;
    const config = Object.values(answer.configs).find((c) => c.experience_behaviour_response?.experience_id === "exp_price_message")!;
    const summary = { config_id: config.config_id, user_customer_id: visitor, requested_time: FIXED_NOW, variation_id: config.variation_id, experience_id: "exp_price_message", rule_id: "rule_price_everyone", session_id: "s1" };
    expect((await post("/v1/config/request/summary/", { user: user(visitor), summaries: [summary] })).statusCode).toBe(200);
    const real = [
      event("TRACK", "add_to_cart", FIXED_NOW + 1000),
      event("PAGE", "/checkout", FIXED_NOW + 2000, { page_path: "/checkout" }),
      event("REVENUE", "revenue", FIXED_NOW + 3000, { revenue_amount: "120.5" }),
    ];
    expect((await post("/v1/cfe/", { user: user(visitor), events: real })).statusCode).toBe(200);
    const before = await readEverything();
    const results = before.exp_price_message as { rules: { metrics: { goal_id: string; metric: string; variations: { variation_id: string; revenue?: number; conversions: number }[] }[] }[] };
    const revenue = results.rules[0]!.metrics.find((m) => m.goal_id === "goal_revenue" && m.metric === "revenue_per_visitor")!;
    expect(revenue.variations.find((v) => v.variation_id === config.variation_id)).toMatchObject({ revenue: 120.5 });

    // A hostile client, through the client API: whatever the edge refuses is a 4xx, never a 5xx.
    const hostile = "hostile-visitor";
    for (const e of hostileEvents(FIXED_NOW + 5000)) {
      const res = await post("/v1/cfe/", { user: user(hostile), events: [e] });
      expect(res.statusCode, res.body.slice(0, 200)).toBeLessThan(500);
    }
    // The same events as rows stored before any edge limit (one nested 2,000 deep), straight in.
    insertEvents(t.store, t.account.id, "u_hostile_direct", [...hostileEvents(FIXED_NOW + 6000), event("TRACK", "add_to_cart", FIXED_NOW, { n: deep(2_000) })], new Date(FIXED_NOW).toISOString());
    const stored = t.store.countEvents(t.account.id);

    const after = await readEverything();
    for (const key of Object.keys(before)) {
      if (key.startsWith("events")) continue;
      expect(after[key], key).toEqual(before[key]);
    }
    // The events list counts and searches the hostile rows too (its search reads the name column).
    expect(after.events).toBe(stored);
    expect(after["events?q=add_to"]).toBeGreaterThan(before["events?q=add_to"] as number);
    expect(t.store.listEvents(t.account.id, 1000).length).toBe(stored);
  }, 60_000);

  it("an event's revenue amount: a finite number > 0, or text starting with one; anything else 0", () => {
    for (const [value, want] of [...ODD_AMOUNTS, [12, 12], ["12", 12], [1e308, 1e308], [0.01, 0.01]] as [unknown, number][]) {
      expect(revenueAmount(value), JSON.stringify(value) ?? String(value)).toBe(want);
    }
  });
});

describe("hostile stored goals", () => {
  it("a goal of a kind no save allows (stored around the admin API) fails no results call", async () => {
    const exp = structuredClone(t.store.getExperience(t.account.id, "exp_price_message")!);
    const valid = exp.goals.length;
    for (const kind of ["constructor", "__proto__", "x'); DROP TABLE events; --"]) {
      exp.goals.push({ id: `goal_odd_${valid}_${kind.length}`, name: "odd", kind: kind as never });
    }
    t.store.saveExperience(exp);
    const res = await call(t.app, owner, "GET", "/api/results/exp_price_message");
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  });
});

describe("migration 9: the columns of events stored before it", () => {
  it("backfills every row, hostile ones included, with the amounts the insert computes", () => {
    const dir = mkdtempSync(join(tmpdir(), "storefit-m9-"));
    try {
      const file = join(dir, "db.sqlite");
      const raw = new Database(file);
      raw.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
      for (const m of MIGRATIONS.filter((m) => m.version < 9)) {
        raw.exec(m.sql);
        raw.prepare("INSERT INTO schema_migrations VALUES (?, ?, ?)").run(m.version, m.name, "2026-01-01");
      }
      const insert = raw.prepare(
        `INSERT INTO events (account_id, insert_id, event_type, event_customer_id, domain, page_path, user_id, event_timestamp, received_at, event_json)
         VALUES ('acc', ?, ?, ?, 'd', NULL, 'u', 0, 'now', ?)`,
      );
      const amounts: unknown[] = [...ODD_AMOUNTS.map(([v]) => v), 12, "12", 1e308, 0.01, "  7.25 EUR"];
      amounts.forEach((v, i) => insert.run(`r${i}`, "REVENUE", "d|revenue", JSON.stringify({ name: "revenue", properties: { revenue_amount: v } })));
      insert.run("deep", "REVENUE", "d|deep-revenue", JSON.stringify({ name: "named", properties: { revenue_amount: 9, n: deep(1_500) } }));
      insert.run("named", "TRACK", "d|from-id", JSON.stringify({ name: "add_to_cart", properties: { revenue_amount: 9 } }));
      insert.run("unnamed", "TRACK", "d|from|id", JSON.stringify({ properties: {} }));
      insert.run("broken", "TRACK", "d|broken", "{not json");
      raw.close();

      const store = openSqliteStore(file);
      store.migrate();
      store.close();
      const db = new Database(file, { readonly: true });
      const rows = new Map((db.prepare("SELECT insert_id, event_name, revenue_amount FROM events").all() as { insert_id: string; event_name: string; revenue_amount: number }[]).map((r) => [r.insert_id, r]));
      db.close();
      amounts.forEach((v, i) => expect(rows.get(`r${i}`)?.revenue_amount, JSON.stringify(v) ?? String(v)).toBe(revenueAmount(v)));
      expect(rows.get("deep")).toMatchObject({ event_name: "deep-revenue", revenue_amount: 0 });
      expect(rows.get("named")).toMatchObject({ event_name: "add_to_cart", revenue_amount: 0 });
      expect(rows.get("unnamed")).toMatchObject({ event_name: "from|id" });
      expect(rows.get("broken")).toMatchObject({ event_name: "broken", revenue_amount: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
