// No stored revenue amount can break or blank a results read (docs/results.md "Revenue"): an
// amount above MAX_REVENUE_AMOUNT (10^12) counts 0, in every path that reads revenue — each
// backend's full recompute (the date-range statement), the incremental fold and the state made
// from nothing, pre-exposure revenue included — and at insert. The audit's repro: two orders of
// 1e308 (each finite) made PostgreSQL's ranged statement fail for good ("value out of range:
// overflow", 500) and SQLite's sum infinite (a null revenue); with an uncapped goal one of 1e155
// was enough (its square). The column keeps such an amount as sent; rows holding what no insert
// stores (infinity, NaN) are written here straight into it: they count 0 too. An amount that
// counts 0 — those, a refund (negative), a free order — is no order and makes no buyer.
import { describe, expect, it } from "vitest";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { ExperienceResults, GoalDefinition, TrackedEvent } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import { newSecretKey } from "../src/auth/access.js";
import { MAX_REVENUE_AMOUNT, countedAmount, revenueAmount } from "../src/store/event-fields.js";
import { aggregateOf, countIn, countVisitor, emptyTotals, GoalMatcher } from "../src/results/incremental.js";
import type { CandidateEvent, CountedVisitor } from "../src/results/incremental.js";
import type { ClientWrite, Exposure, Store } from "../src/store/types.js";
import { BACKENDS, openBackend } from "./support/stores.js";
import type { Backend } from "./support/stores.js";

const SHOP = "shop.example";
const EXPERIENCE = "exp_rev";
const GOALS: GoalDefinition[] = [
  { id: "g-cap", name: "Revenue (capped)", kind: "revenue", revenue_cap: 500 },
  { id: "g-nocap", name: "Revenue", kind: "revenue" },
];
const EXPOSED = Date.UTC(2026, 10, 10, 12);
const HOUR = 3_600_000;
const NOW = new Date(Date.UTC(2026, 10, 28)).toISOString();

describe("the revenue limit (JS)", () => {
  it("an amount counts up to 10^12 and 0 above it, as an invalid one; the column keeps it as sent", () => {
    expect(MAX_REVENUE_AMOUNT).toBe(1e12);
    for (const [amount, counted] of [
      [1e12, 1e12],
      ["1000000000000 IDR", 1e12],
      [999_999_999_999.99, 999_999_999_999.99],
      [1e12 + 0.0001, 0],
      ["2e12 VND", 0],
      [1e155, 0],
      [1e308, 0],
      [Number.MAX_VALUE, 0],
      [Infinity, 0],
      [NaN, 0],
      [-1, 0],
      [12.5, 12.5],
    ] as const) {
      expect(countedAmount(revenueAmount(amount)), String(amount)).toBe(counted);
      if (typeof amount === "number") expect(countedAmount(amount), String(amount)).toBe(counted);
    }
    expect(revenueAmount("2e12 VND")).toBe(2e12);
    // What the fold may read from a row stored before the limit (SQLite gives NaN as NULL).
    expect(countedAmount(null)).toBe(0);
  });

  it("the fold counts a stored amount above the limit as 0, after and before exposure, and no order with it", () => {
    const matcher = new GoalMatcher(GOALS);
    const order = (ts: number, amount: number): CandidateEvent => ({ user_id: "u", event_timestamp: ts, event_type: "REVENUE", event_name: "order", page_path: null, domain: SHOP, revenue_amount: amount });
    const first = { variation_id: "va", requested_time: EXPOSED, probability: 0.5, split: null };
    const v = countVisitor(first, [order(EXPOSED - HOUR, 1e308), order(EXPOSED - HOUR, 40), order(EXPOSED + HOUR, 1e308), order(EXPOSED + HOUR, 1e12), order(EXPOSED + 2 * HOUR, Infinity), order(EXPOSED + 2 * HOUR, NaN), order(EXPOSED + 3 * HOUR, 25)], matcher);
    expect(v.goals).toEqual([
      { post: 1, pre: 1, first: EXPOSED + HOUR, orders: 2, amount: 1e12 + 25, preAmount: 40 },
      { post: 1, pre: 1, first: EXPOSED + HOUR, orders: 2, amount: 1e12 + 25, preAmount: 40 },
    ]);
    const totals = emptyTotals();
    countIn(totals, GOALS, v, 1);
    const [capped, uncapped] = aggregateOf(totals, GOALS).goals;
    expect(capped).toMatchObject({ value: 500, value_squares: 250_000, pre_value: 40, value_pre_value: 20_000, orders: 2, value_orders: 1_000 });
    expect(uncapped).toMatchObject({ value: 1e12 + 25, value_squares: (1e12 + 25) ** 2, pre_value: 40, pre_value_squares: 1_600 });
    // Taken away again, nothing is left: no infinity entered the exact sums.
    countIn(totals, GOALS, v, -1);
    expect(totals.sums).toEqual({});
  });

  it("the bound: every sum stays finite for the most a table can hold, each event at the limit", () => {
    // 2^63 events (their seq is a 64-bit integer), all one visitor's orders at the limit, after
    // and before exposure: the largest sum of amounts, squares and products there can be.
    const events = 2 ** 63;
    const most = events * MAX_REVENUE_AMOUNT;
    const v: CountedVisitor = {
      variation_id: "va", requested_time: EXPOSED, probability: 0.5, split: null,
      goals: GOALS.map(() => ({ post: 1, pre: 1, first: EXPOSED, orders: events, amount: most, preAmount: most })),
    };
    const totals = emptyTotals();
    countIn(totals, GOALS, v, 1);
    const [, uncapped] = aggregateOf(totals, GOALS).goals;
    for (const k of ["value", "value_squares", "pre_value", "pre_value_squares", "value_pre_value", "value_orders", "orders_squares"] as const) {
      expect(Number.isFinite(uncapped![k]), k).toBe(true);
    }
    expect(uncapped!.value_squares).toBeLessThan(1e62);
    // With a margin of more than 10^246 to float8's largest: no count of visitors, orders or the
    // statistics' own products (n · Σr², (Σr)²) comes near it either.
    expect(uncapped!.value_squares * events * events).toBeLessThan(Number.MAX_VALUE / 1e200);
  });
});

/** An account, the experience (two variations, a capped and an uncapped revenue goal), an app reading with a secret key. */
async function setUp(store: Store) {
  await store.createAccount({ id: "acc", name: "Shop", client_key: "ck_rev", settings: { ...SETTINGS_DEFAULTS, domain: SHOP } });
  const key = newSecretKey();
  await store.createSecretKey({ id: "key_rev", account_id: "acc", name: "test", prefix: key.prefix, created_at: NOW }, key.hash);
  await store.saveExperience({
    id: EXPERIENCE,
    account_id: "acc",
    name: "Revenue",
    status: "running",
    kind: "ab_test",
    priority: 0,
    pages: [{ domain: SHOP, page_path: "/", page_match: "exact_match" }],
    rules: [{ id: "r1", audience_id: null, behaviour: { id: "b1", name: "B", traffic_allocation: 1, variations: [{ id: "va", name: "A", weight: 1, configs: [] }, { id: "vb", name: "B", weight: 1, configs: [] }] } }],
    goals: GOALS,
  });
  const app = await buildApp({ store, log: false });
  const get = async (url: string): Promise<ExperienceResults> => {
    const res = await app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key.secret}` } });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
    return res.json() as ExperienceResults;
  };
  return { app, get };
}

let n = 0;
/** A visitor's exposure to `variation` at EXPOSED and their orders: [hours after exposure (negative: before), amount]. */
function visitor(user: string, variation: string, orders: [number, number][]): ClientWrite[] {
  const u = { user_customer_id: user, anonymous: true };
  const exposure: Exposure = { config_id: "cfg", user_customer_id: user, user_id: user, session_id: "s", requested_time: EXPOSED, variation_id: variation, experience_id: EXPERIENCE, rule_id: "r1", behaviour_id: "b1", probability: 0.5, split: '{"va":0.5,"vb":0.5}' };
  const events: TrackedEvent[] = orders.map(([hours, amount]) => ({ event_type: "REVENUE", name: "order", event_customer_id: `${SHOP}|order`, domain: SHOP, insert_id: `${user}-${n++}`, event_timestamp: EXPOSED + hours * HOUR, properties: { revenue_amount: amount } }));
  return [
    { kind: "exposures", accountId: "acc", userId: user, user: u, touch: false, exposures: [exposure], now: NOW },
    ...(events.length ? [{ kind: "events" as const, accountId: "acc", userId: user, user: u, touch: false, events, now: NOW }] : []),
  ];
}

/** A visitor's stored amounts overwritten in the column, in seq order. */
async function storedBeforeTheLimit(b: Backend, name: string, user: string, amounts: string[]): Promise<void> {
  const ids = (await b.query<{ seq: number }>(`SELECT seq FROM events WHERE user_id = ${name === "postgres" ? "$1" : "?"} ORDER BY seq`, [user])).map((r) => r.seq);
  expect(ids.length).toBe(amounts.length);
  for (const [i, seq] of ids.entries()) await b.exec(`UPDATE events SET revenue_amount = ${amounts[i]} WHERE seq = ${seq}`);
}

type Revenue = { [goal: string]: { [variation: string]: { visitors: number; buyers: number; orders: number; revenue: number } } };

/** Per revenue goal and variation: visitors, buyers (visitors with an order), orders (AOV conversions) and summed revenue, every one a finite number. */
function revenueOf(r: ExperienceResults): Revenue {
  const out: Revenue = {};
  for (const m of r.rules[0]!.metrics) {
    for (const v of m.variations) {
      expect(typeof v.value, `${m.goal_id} ${m.metric} ${v.variation_id}`).toBe("number");
      expect(Number.isFinite(v.value)).toBe(true);
      expect(typeof v.revenue).toBe("number");
      expect(Number.isFinite(v.revenue)).toBe(true);
      const g = (out[m.goal_id] ??= {});
      const row = (g[v.variation_id] ??= { visitors: v.visitors, buyers: 0, orders: 0, revenue: v.revenue! });
      if (m.metric === "average_order_value") row.orders = v.conversions;
      else row.buyers = v.conversions;
      expect(v.revenue).toBe(row.revenue);
    }
    // With the cap, a comparison with finite numbers, not an uninformative null: both arms vary,
    // the control's mean is > 0. Uncapped, the visitor at the limit is nearly all of their arm's
    // variance and CUPED takes it away (their revenue before exposure predicts it): a null is the
    // statistics' answer there, and a comparison given is finite.
    const treated = m.variations.find((v) => v.variation_id === "vb")!.comparison;
    if (m.goal_id === "g-cap") expect(treated, `${m.goal_id} ${m.metric}`).not.toBeNull();
    if (treated) for (const x of [treated.effect, ...treated.ci]) expect(Number.isFinite(x)).toBe(true);
  }
  return out;
}

describe.each(BACKENDS)("revenue above the limit on %s", (name) => {
  it("answers 200 with finite, correct numbers: all time (folded and from nothing) and every date range, capped and uncapped goals", async () => {
    const b = await openBackend(name);
    const { app, get } = await setUp(b.store);
    try {
      // Ordinary visitors, read once: the state is made from nothing here, and folded into below.
      await b.store.commitClientWrites([
        ...visitor("a1", "va", [[-24, 10], [1, 20]]),
        ...visitor("a2", "va", [[2, 40.5]]),
        ...visitor("a3", "va", []),
        ...visitor("a4", "va", [[3, 600]]),
        ...visitor("b1", "vb", [[1, 30]]),
        ...visitor("b2", "vb", [[-2, 8], [1, 12.25]]),
        ...visitor("b3", "vb", [[4, 64]]),
        ...visitor("b4", "vb", []),
        // A refund (a negative amount) and a free order count 0, and neither is an order: r1 has
        // one order, z1 none and is no buyer.
        ...visitor("r1", "va", [[1, 50], [2, -50]]),
        ...visitor("z1", "vb", [[1, 0]]),
      ]);
      await get(`/api/results/${EXPERIENCE}`);
      // The audit's repro, through the Store's insert: two orders of 1e308 after exposure and one
      // before; one of 1e155 (its square overflows); a visitor with 66 orders at exactly the limit
      // (more than STATE_ROW_EVENTS: the fold keeps a row for them) and 2 before exposure.
      await b.store.commitClientWrites([
        ...visitor("h1", "vb", [[-1, 1e308], [1, 1e308], [2, 1e308]]),
        ...visitor("h2", "va", [[1, 1e155]]),
        ...visitor("big", "vb", [[-3, 1e12], [-2, 1e12], ...Array.from({ length: 66 }, (_, i): [number, number] => [1 + i / 100, 1e12])]),
      ]);
      // Stored as sent: the readers apply the limit.
      const column = await b.query<{ revenue_amount: number }>("SELECT revenue_amount FROM events WHERE user_id IN ('h1', 'h2') ORDER BY seq");
      expect(column.map((r) => Number(r.revenue_amount))).toEqual([1e308, 1e308, 1e308, 1e155]);
      // Rows no insert writes but another path may have: infinity, NaN (PostgreSQL only: SQLite
      // stores it as NULL, which the column refuses).
      await b.store.commitClientWrites(visitor("h3", "va", [[1, 5], [2, 6]]));
      await storedBeforeTheLimit(b, name, "h3", name === "postgres" ? ["'Infinity'::float8", "'NaN'::float8"] : ["9e999", "9e999"]);

      const big = 66 * 1e12;
      // An amount that counts 0 (above the limit, infinite, NaN) makes no order: h1, h2 and h3
      // are no buyers; big's 66 orders at the limit count.
      const expected: Revenue = {
        "g-cap": {
          va: { visitors: 7, buyers: 4, orders: 4, revenue: 20 + 40.5 + 500 + 50 },
          vb: { visitors: 7, buyers: 4, orders: 69, revenue: 30 + 12.25 + 64 + 500 },
        },
        "g-nocap": {
          va: { visitors: 7, buyers: 4, orders: 4, revenue: 20 + 40.5 + 600 + 50 },
          vb: { visitors: 7, buyers: 4, orders: 69, revenue: 30 + 12.25 + 64 + big },
        },
      };
      const folded = await get(`/api/results/${EXPERIENCE}`);
      expect(revenueOf(folded)).toEqual(expected);
      // Pre-exposure revenue (a1, b2, big; h1's 1e308 counts 0) makes the revenue per visitor CUPED-adjusted.
      expect(folded.rules[0]!.metrics.filter((m) => m.metric === "revenue_per_visitor").map((m) => m.cuped)).toEqual([true, true]);
      for (const q of ["?from=2026-11-01", "?from=2026-11-01&to=2026-11-30", "?to=2026-11-10", "?from=2026-11-10&to=2026-11-10&engine=bayesian", "?from=2026-11-01&engine=frequentist"]) {
        const ranged = await get(`/api/results/${EXPERIENCE}${q}`);
        const sums = revenueOf(ranged);
        // The SQL sums in its own order: counts equal, revenue to the last digits.
        for (const [goal, byVariation] of Object.entries(expected)) {
          for (const [variation, want] of Object.entries(byVariation)) {
            const got = sums[goal]![variation]!;
            expect([got.visitors, got.buyers, got.orders], `${q} ${goal} ${variation}`).toEqual([want.visitors, want.buyers, want.orders]);
            expect(got.revenue / want.revenue).toBeCloseTo(1, 12);
          }
        }
      }
      // The state made from nothing equals the folded one.
      await b.exec("DELETE FROM results_visitors");
      await b.exec("DELETE FROM results_state");
      const fromNothing = await get(`/api/results/${EXPERIENCE}`);
      expect(fromNothing.rules).toEqual(folded.rules);
      // And a full recompute without a range counts the same (the Store's SQL statement).
      const full = await b.store.resultsAggregate("acc", EXPERIENCE, GOALS);
      const state = await b.store.foldResults("acc", EXPERIENCE, GOALS);
      expect(full.goals.map((g) => [g.goal_id, g.variation_id, g.date, g.visitors, g.post, g.pre, g.orders, g.orders_squares])).toEqual(
        state.aggregate.goals.map((g) => [g.goal_id, g.variation_id, g.date, g.visitors, g.post, g.pre, g.orders, g.orders_squares]),
      );
      full.goals.forEach((g, i) => {
        const f = state.aggregate.goals[i]!;
        for (const k of ["value", "value_squares", "pre_value", "pre_value_squares", "value_pre_value", "value_orders"] as const) {
          expect(Number.isFinite(g[k]), k).toBe(true);
          expect(g[k] === f[k] || Math.abs(g[k] / f[k] - 1) < 1e-12, `${g.goal_id} ${g.variation_id} ${k}: ${g[k]} vs ${f[k]}`).toBe(true);
        }
      });
    } finally {
      await app.close();
    }
  });

  it("a state of format 3 (it counted amounts above the limit, up to infinite sums) is made again, not folded into", async () => {
    const b = await openBackend(name);
    const { app } = await setUp(b.store);
    await app.close();
    await b.store.commitClientWrites([...visitor("a1", "va", [[1, 20]]), ...visitor("h1", "vb", [[1, 1e308], [2, 1e308]]), ...visitor("b1", "vb", [[1, 30]])]);
    // As a node of the version before wrote it, at the last seqs: the sums of format 3 kept the
    // infinity apart ("inf") and JSON wrote the visitor's amount as null.
    const sums = (value: object) => ({ visitors: 2, post: 2, pre: 0, post_pre: 0, orders: 3, orders_squares: 5, value, value_squares: value, pre_value: { p: [] }, pre_value_squares: { p: [] }, value_pre_value: { p: [] }, value_orders: value });
    const stale = {
      visitors: 3,
      seen: { va: 1, vb: 2 },
      days: {},
      sums: { [JSON.stringify(["g-nocap", "vb", "2026-11-10"])]: sums({ p: [30], inf: 1 }), [JSON.stringify(["g-cap", "vb", "2026-11-10"])]: sums({ p: [530] }) },
    };
    const p = name === "postgres" ? ["$1", "$2", "$3"] : ["?", "?", "?"];
    await b.query(
      `INSERT INTO results_state (account_id, experience_id, goals, event_seq, exposure_seq, totals)
       VALUES ('acc', ${p[0]}, ${p[1]}, (SELECT max(seq) FROM events), (SELECT max(seq) FROM exposures), ${p[2]}) RETURNING account_id`,
      [EXPERIENCE, `3 ${JSON.stringify(GOALS)}`, JSON.stringify(stale)],
    );
    const state = await b.store.foldResults("acc", EXPERIENCE, GOALS);
    const vb = state.aggregate.goals.filter((g) => g.variation_id === "vb").map((g) => [g.goal_id, g.visitors, g.orders, g.value, g.value_squares]);
    expect(vb).toEqual([
      ["g-cap", 1, 1, 30, 900],
      ["g-nocap", 1, 1, 30, 900],
    ]);
  });
});
