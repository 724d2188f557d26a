// Why a variation has no comparison (docs/results.md "Uninformative → null"). The review's case:
// control 20 of 200, treatment 0 of 200 (Fisher's exact p ≈ 1.2e-6) had `comparison: null` under
// every engine and nothing else, which the Results screen showed as "Not enough data". Each
// variation without a comparison now says why: from the arms' sufficient statistics in
// compute.ts (each reason, every engine), and through the API on both backends (the response
// schema must carry the field, or serialisation drops it).
import { describe, expect, it } from "vitest";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { ComparisonUnavailable, ExperienceResults, Properties, GoalDefinition, MetricKind, ResultsEngine, TrackedEvent, VariationMetric } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import { newSecretKey } from "../src/auth/access.js";
import { RESULTS_DEFAULTS, computeResults } from "../src/results/compute.js";
import type { ClientWrite, Experience, Exposure, GoalSums, Store } from "../src/store/types.js";
import { BACKENDS, openBackend } from "./support/stores.js";

const ENGINES: ResultsEngine[] = ["sequential", "frequentist", "bayesian"];
const CONVERT: GoalDefinition = { id: "g_cart", name: "Add to cart", kind: "track", event_name: "add_to_cart" };
const REVENUE: GoalDefinition = { id: "g_rev", name: "Revenue", kind: "revenue" };

function experience(goals: GoalDefinition[]): Experience {
  return {
    id: "exp_u",
    account_id: "acc",
    name: "Unavailable",
    status: "running",
    kind: "ab_test",
    priority: 0,
    pages: [{ domain: "shop.example", page_path: "/", page_match: "exact_match" }],
    rules: [{ id: "r1", audience_id: null, behaviour: { id: "b1", name: "B", traffic_allocation: 1, variations: [{ id: "va", name: "A", weight: 1, configs: [] }, { id: "vb", name: "B", weight: 1, configs: [] }] } }],
    goals,
    exclusion_group: null,
    created_at: "2026-11-01T00:00:00.000Z",
    updated_at: "2026-11-01T00:00:00.000Z",
  };
}

/** One variation's visitors, each converting (0/1) and with a revenue amount and orders. */
type Visitor = { post?: 0 | 1; pre?: 0 | 1; revenue?: number; orders?: number; preRevenue?: number };

/** A goal's sums for one variation, from its visitors as the store would add them. */
function sums(goal: string, variation: string, visitors: Visitor[]): GoalSums {
  const s: GoalSums = { goal_id: goal, variation_id: variation, date: "2026-11-10", visitors: visitors.length, post: 0, pre: 0, post_pre: 0, value: 0, value_squares: 0, pre_value: 0, pre_value_squares: 0, value_pre_value: 0, orders: 0, orders_squares: 0, value_orders: 0 };
  for (const v of visitors) {
    const r = v.revenue ?? 0;
    const o = v.orders ?? (r > 0 ? 1 : 0);
    const post = v.post ?? (o > 0 ? 1 : 0);
    s.post += post;
    s.pre += v.pre ?? 0;
    s.post_pre += post * (v.pre ?? 0);
    s.value += r;
    s.value_squares += r * r;
    s.pre_value += v.preRevenue ?? 0;
    s.pre_value_squares += (v.preRevenue ?? 0) ** 2;
    s.value_pre_value += r * (v.preRevenue ?? 0);
    s.orders += o;
    s.orders_squares += o * o;
    s.value_orders += r * o;
  }
  return s;
}

const many = (n: number, v: Visitor): Visitor[] => Array.from({ length: n }, () => ({ ...v }));

/** The treatment's row of each metric, computed from two arms' visitors under `engine`. */
function treatmentRows(goal: GoalDefinition, control: Visitor[], treatment: Visitor[], engine: ResultsEngine = "sequential"): Map<MetricKind, VariationMetric> {
  const results = computeResults({
    experience: experience([goal]),
    exposed: { distinct: control.length + treatment.length, byVariation: [{ variation_id: "va", visitors: control.length }, { variation_id: "vb", visitors: treatment.length }] },
    aggregate: {
      exposures: [
        { variation_id: "va", date: "2026-11-10", split: null, visitors: control.length, probability_sum: 0, probability_count: 0 },
        { variation_id: "vb", date: "2026-11-10", split: null, visitors: treatment.length, probability_sum: 0, probability_count: 0 },
      ].filter((x) => x.visitors > 0),
      goals: [sums(goal.id, "va", control), sums(goal.id, "vb", treatment)].filter((g) => g.visitors > 0),
    },
    audienceNames: new Map(),
    options: { ...RESULTS_DEFAULTS, engine },
    now: new Date("2026-11-20T00:00:00Z"),
    range: { from: null, to: null },
    diagnostics: null,
  });
  const out = new Map<MetricKind, VariationMetric>();
  for (const m of results.rules[0]!.metrics) {
    // The control never gets a reason: its comparison is null by design.
    expect(m.variations[0]!.comparison_unavailable).toBeUndefined();
    out.set(m.metric, m.variations[1]!);
  }
  return out;
}

/** The treatment's reason for `metric`, the same under every engine, its comparison null. */
function reasonOf(goal: GoalDefinition, metric: MetricKind, control: Visitor[], treatment: Visitor[]): ComparisonUnavailable | undefined {
  const reasons = ENGINES.map((engine) => {
    const row = treatmentRows(goal, control, treatment, engine).get(metric)!;
    if (row.comparison_unavailable) expect(row.comparison, engine).toBeNull();
    else expect(row.comparison, engine).not.toBeNull();
    return row.comparison_unavailable;
  });
  expect(reasons[1], "frequentist").toEqual(reasons[0]);
  expect(reasons[2], "bayesian").toEqual(reasons[0]);
  return reasons[0];
}

const converted = (n: number, of: number): Visitor[] => [...many(n, { post: 1 }), ...many(of - n, { post: 0 })];

describe("why a comparison is missing (compute.ts)", () => {
  it("the review's case: 0 of 200 against 20 of 200 is no conversions in the treatment, under every engine", () => {
    expect(reasonOf(CONVERT, "conversion_rate", converted(20, 200), converted(0, 200))).toEqual({ reason: "no_conversions", arm: "treatment" });
  });

  it("a control without conversions: the relative lift is undefined; neither arm converting is no conversions in both", () => {
    expect(reasonOf(CONVERT, "conversion_rate", converted(0, 200), converted(20, 200))).toEqual({ reason: "control_zero", arm: "control" });
    expect(reasonOf(CONVERT, "conversion_rate", converted(0, 200), converted(0, 200))).toEqual({ reason: "no_conversions", arm: "both" });
  });

  it("every visitor of an arm converted", () => {
    expect(reasonOf(CONVERT, "conversion_rate", converted(20, 200), converted(200, 200))).toEqual({ reason: "all_converted", arm: "treatment" });
    expect(reasonOf(CONVERT, "conversion_rate", converted(200, 200), converted(150, 200))).toEqual({ reason: "all_converted", arm: "control" });
    expect(reasonOf(CONVERT, "conversion_rate", converted(200, 200), converted(200, 200))).toEqual({ reason: "all_converted", arm: "both" });
  });

  it("too few visitors comes first: none, or one, in an arm", () => {
    expect(reasonOf(CONVERT, "conversion_rate", converted(20, 200), [])).toEqual({ reason: "too_few_visitors", arm: "treatment" });
    expect(reasonOf(CONVERT, "conversion_rate", converted(1, 1), converted(20, 200))).toEqual({ reason: "too_few_visitors", arm: "control" });
    expect(reasonOf(CONVERT, "conversion_rate", [], [])).toEqual({ reason: "too_few_visitors", arm: "both" });
  });

  it("revenue: an arm without revenue, or with the same amount for every visitor, and average order value", () => {
    const buyers = (amounts: number[], others: number): Visitor[] => [...amounts.map((revenue) => ({ revenue })), ...many(others, {})];
    const control = buyers([10, 25, 40, 12.5, 60], 195);
    // No revenue in the treatment: both metrics.
    expect(reasonOf(REVENUE, "revenue_per_visitor", control, buyers([], 200))).toEqual({ reason: "no_conversions", arm: "treatment" });
    expect(reasonOf(REVENUE, "average_order_value", control, buyers([], 200))).toEqual({ reason: "no_conversions", arm: "treatment" });
    // The control without: the relative lift is undefined.
    expect(reasonOf(REVENUE, "revenue_per_visitor", buyers([], 200), control)).toEqual({ reason: "control_zero", arm: "control" });
    // Every visitor of the treatment spent the same $20 (a subscription): no variance.
    expect(reasonOf(REVENUE, "revenue_per_visitor", control, many(200, { revenue: 20 }))).toEqual({ reason: "no_variance", arm: "treatment" });
    // Every order the same amount ($0.1: Σx² − (Σx)²/n leaves rounding, not variance), some
    // visitors without orders: revenue per visitor varies, the order value does not.
    const sameOrders = buyers([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1], 193);
    expect(reasonOf(REVENUE, "revenue_per_visitor", control, sameOrders)).toBeUndefined();
    expect(reasonOf(REVENUE, "average_order_value", control, sameOrders)).toEqual({ reason: "no_variance", arm: "treatment" });
  });

  it("with CUPED, a treatment without conversions is still named as the cause", () => {
    // Pre-exposure behaviour in the control only: CUPED applies to the metric.
    const control = [...many(20, { post: 1, pre: 1 }), ...many(180, { post: 0 })];
    const rows = treatmentRows(CONVERT, control, converted(0, 200));
    const row = rows.get("conversion_rate")!;
    expect(row.comparison).toBeNull();
    expect(row.comparison_unavailable).toEqual({ reason: "no_conversions", arm: "treatment" });
  });

  it("an informative comparison has no reason", () => {
    expect(reasonOf(CONVERT, "conversion_rate", converted(20, 200), converted(30, 200))).toBeUndefined();
  });
});

// ---- through the API, on each backend ----

const SHOP = "shop.example";
const EXPOSED = Date.UTC(2026, 10, 10, 12);
const NOW = new Date(Date.UTC(2026, 10, 28)).toISOString();

async function setUp(store: Store) {
  await store.createAccount({ id: "acc", name: "Shop", client_key: "ck_u", settings: { ...SETTINGS_DEFAULTS, domain: SHOP } });
  const key = newSecretKey();
  await store.createSecretKey({ id: "key_u", account_id: "acc", name: "test", prefix: key.prefix, created_at: NOW }, key.hash);
  const { created_at: _c, updated_at: _u, ...exp } = experience([CONVERT, REVENUE]);
  await store.saveExperience(exp);
  const app = await buildApp({ store, log: false });
  const get = async (url: string): Promise<ExperienceResults> => {
    const res = await app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key.secret}` } });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
    return res.json() as ExperienceResults;
  };
  return { app, get };
}

let seq = 0;
/** A visitor exposed to `variation`; `cart`: they add to cart after exposure; `amount`: an order. */
function visitor(user: string, variation: string, cart: boolean, amount?: number): ClientWrite[] {
  const u = { user_customer_id: user, anonymous: true };
  const exposure: Exposure = { config_id: "cfg", user_customer_id: user, user_id: user, session_id: "s", requested_time: EXPOSED, variation_id: variation, experience_id: "exp_u", rule_id: "r1", behaviour_id: "b1", probability: 0.5, split: '{"va":0.5,"vb":0.5}' };
  const event = (type: string, name: string, properties: Properties): TrackedEvent => ({ event_type: type, name, event_customer_id: `${SHOP}|${name}`, domain: SHOP, insert_id: `${user}-${seq++}`, event_timestamp: EXPOSED + 60_000, properties });
  const events = [...(cart ? [event("TRACK", "add_to_cart", {})] : []), ...(amount !== undefined ? [event("REVENUE", "order", { revenue_amount: amount })] : [])];
  return [
    { kind: "exposures", accountId: "acc", userId: user, user: u, touch: false, exposures: [exposure], now: NOW },
    ...(events.length ? [{ kind: "events" as const, accountId: "acc", userId: user, user: u, touch: false, events, now: NOW }] : []),
  ];
}

type Schema = { properties?: Record<string, Schema>; items?: Schema; enum?: string[]; required?: string[]; additionalProperties?: boolean };

/** The 200 answer's schema of GET /api/results/{experienceId}, as /api/openapi.json gives it. */
async function resultsSchemaOf(app: Awaited<ReturnType<typeof buildApp>>): Promise<Schema> {
  const doc = (await app.inject("/api/openapi.json")).json() as { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>> };
  return doc.paths["/api/results/{experienceId}"]!.get!.responses["200"]!.content["application/json"]!.schema;
}

/** Every key of `value` is a property its schema allows, and every string is in its enum, recursively. */
function expectFits(value: unknown, schema: Schema, at: string): void {
  if (Array.isArray(value)) {
    value.forEach((x, i) => expectFits(x, schema.items!, `${at}[${i}]`));
  } else if (value && typeof value === "object" && schema.properties) {
    for (const [k, x] of Object.entries(value)) {
      expect(schema.properties, `${at}.${k}`).toHaveProperty(k);
      expectFits(x, schema.properties[k]!, `${at}.${k}`);
    }
  } else if (typeof value === "string" && schema.enum) {
    expect(schema.enum, at).toContain(value);
  }
}

it("the OpenAPI document describes the reason: its values and arms", async () => {
  const b = await openBackend("sqlite");
  const { app } = await setUp(b.store);
  try {
    const results = await resultsSchemaOf(app);
    const reason = results.properties!.rules!.items!.properties!.metrics!.items!.properties!.variations!.items!.properties!.comparison_unavailable!;
    expect(reason.required).toEqual(["reason", "arm"]);
    expect(reason.properties!.reason!.enum).toEqual(["too_few_visitors", "no_conversions", "control_zero", "all_converted", "no_variance", "not_computable"]);
    expect(reason.properties!.arm!.enum).toEqual(["control", "treatment", "both"]);
  } finally {
    await app.close();
  }
});

describe.each(BACKENDS)("the reason in the answer on %s", (name) => {
  it("0 of 200 against 20 of 200: no conversions in the treatment, every engine, all time and in a date range; a control without revenue", async () => {
    const b = await openBackend(name);
    const { app, get } = await setUp(b.store);
    try {
      const writes: ClientWrite[] = [];
      // Control: 20 of 200 add to cart, none orders; treatment: none adds to cart, 10 order.
      for (let i = 0; i < 200; i++) writes.push(...visitor(`a${i}`, "va", i < 20));
      for (let i = 0; i < 200; i++) writes.push(...visitor(`b${i}`, "vb", false, i < 10 ? 15 + i : undefined));
      await b.store.commitClientWrites(writes);
      const schema = await resultsSchemaOf(app);
      for (const engine of ENGINES) {
        for (const range of ["", "&from=2026-11-01&to=2026-11-30"]) {
          const r = await get(`/api/results/exp_u?engine=${engine}${range}`);
          // The answer is what the API documents (the serialiser does not check it).
          expectFits(r, schema, "results");
          const [cart, rpv, aov] = r.rules[0]!.metrics;
          const at = `${engine}${range}`;
          expect(cart!.variations.map((v) => [v.visitors, v.conversions]), at).toEqual([[200, 20], [200, 0]]);
          expect(cart!.variations[1]!.comparison, at).toBeNull();
          expect(cart!.variations[1]!.comparison_unavailable, at).toEqual({ reason: "no_conversions", arm: "treatment" });
          expect(cart!.variations[0]!, at).not.toHaveProperty("comparison_unavailable");
          expect(rpv!.variations[1]!.comparison_unavailable, at).toEqual({ reason: "control_zero", arm: "control" });
          expect(aov!.variations[1]!.comparison_unavailable, at).toEqual({ reason: "control_zero", arm: "control" });
        }
      }
    } finally {
      await app.close();
    }
  });
});
