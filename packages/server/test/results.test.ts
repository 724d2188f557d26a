// GET /api/results/{experienceId} against real SQLite (docs/results.md): a generated data set
// with a known effect, conversions only after first exposure, pre-exposure behaviour for CUPED,
// revenue capping and order value, the sample-ratio check, corrections, engines, the daily
// series, bad queries, access, and uninformative data that must never give NaN.
import { describe, expect, it } from "vitest";
import type { ConfigsResponse, ExperienceResults, GoalDefinition, MetricResult, RuleResults, TrackedEvent } from "@storefit/contract";
import { adjustPValues, bayesianTest, frequentistTest, srmPValue } from "@storefit/stats";
import type { Statistic } from "@storefit/stats";
import { DAY_MS, simulateVisitors, writeSimulation } from "../src/seed/demo-data.js";
import type { ArmModel, SimulatedVisitor } from "../src/seed/demo-data.js";
import { pickVariation } from "../src/decide/decide.js";
import { unitHash } from "../src/decide/hash.js";
import { userIdFor } from "../src/routes/client.js";
import { mintPreviewToken, previewTokenKey } from "../src/auth/preview-token.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { ClientWrite, Exposure, NewExperience } from "../src/store/types.js";
import { addOperator, addOtherAccount, call, DEMO_CLIENT_KEY, FIXED_NOW, FORM, MEMBER_PASSWORD, OTHER, SHOP_ORIGIN, signedInEachTest, signIn, user, insertEvents, insertExposures } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;

signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

const START = Date.UTC(2026, 10, 1);
/** Tests that write thousands of visitors: the machine is shared, a few seconds may become many. */
const HEAVY_MS = 60_000;
const NOW_ISO = new Date(FIXED_NOW).toISOString();

const GOALS: GoalDefinition[] = [
  { id: "g_cart", name: "Add to cart", kind: "track", event_name: "add_to_cart" },
  { id: "g_checkout", name: "Checkout", kind: "page_view", page: { page_path: "/checkout", page_match: "exact_match" } },
  { id: "g_revenue", name: "Revenue", kind: "revenue", revenue_cap: 500 },
];

function experience(id = "exp_r", variations: { id: string; weight: number }[] = [{ id: "v_a", weight: 1 }, { id: "v_b", weight: 1 }], goals = GOALS): NewExperience {
  return {
    id,
    account_id: t.account.id,
    name: "Results test",
    status: "running",
    kind: "ab_test",
    priority: 1,
    pages: [{ domain: "littlesprouts.localhost", page_path: "/", page_match: "exact_match" }],
    goals,
    rules: [
      {
        id: "rule_r",
        audience_id: null,
        audience_name: "Everyone",
        behaviour: {
          id: "beh_r",
          name: "B",
          traffic_allocation: 1,
          variations: variations.map((v) => ({
            id: v.id,
            name: v.id.toUpperCase(),
            weight: v.weight,
            configs: [{ config_customer_id: "c", config_id: "cfg_r", variation_data_type: "STRING" as const, variation: "x", properties: { page_path: "/", domain: "littlesprouts.localhost" } }],
          })),
        },
      },
    ],
  };
}

async function results(id = "exp_r", query = "", auth: Auth = owner): Promise<ExperienceResults> {
  const res = await call(t.app, auth, "GET", `/api/results/${id}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.body).not.toMatch(/NaN|Infinity/);
  return res.json() as ExperienceResults;
}

const metric = (rule: RuleResults, goal: string, kind = "conversion_rate"): MetricResult =>
  rule.metrics.find((m) => m.goal_id === goal && m.metric === kind)!;

/** The same numbers to 12 decimals, each named in a failure. */
function expectNumbers(got: Record<string, number | undefined>, want: Record<string, number>) {
  expect(Object.keys(got)).toEqual(Object.keys(want));
  for (const [k, x] of Object.entries(got)) expect(x, k).toBeCloseTo(want[k]!, 12);
}

type Ev = [type: string, name: string, at: number, props?: Record<string, unknown>];

let insertSeq = 0;
/** One visitor: an exposure to `variation` at `at`, and their events. */
function visit(ucid: string, variation: string, at: number, events: Ev[] = [], opts: { experience?: string; probability?: number | null } = {}) {
  const userId = userIdFor(t.account.id, ucid);
  insertExposures(t.store, 
    t.account.id,
    [
      {
        config_id: "cfg_r",
        user_customer_id: ucid,
        user_id: userId,
        requested_time: at,
        variation_id: variation,
        experience_id: opts.experience ?? "exp_r",
        rule_id: "rule_r",
        session_id: "s1",
        probability: opts.probability === undefined ? 0.5 : opts.probability,
      },
    ],
    NOW_ISO,
  );
  const tracked: TrackedEvent[] = events.map(([type, name, ts, props]) => ({
    event_type: type,
    name,
    event_customer_id: `littlesprouts.localhost|${name}`,
    domain: "littlesprouts.localhost",
    insert_id: `ev_${insertSeq++}`,
    event_timestamp: ts,
    properties: { page_path: type === "PAGE" ? name : "/", ...props },
  }));
  if (tracked.length) insertEvents(t.store, t.account.id, userId, tracked, NOW_ISO);
}

/** Independent ground truth from the generated visitors: per variation, visitors and converters of a goal after exposure. */
function truth(visitors: SimulatedVisitor[], match: (e: TrackedEvent) => boolean) {
  const out = new Map<string, { n: number; converted: number }>();
  for (const v of visitors) {
    const row = out.get(v.exposure.variation_id!) ?? { n: 0, converted: 0 };
    row.n++;
    if (v.events.some((e) => match(e) && e.event_timestamp >= v.exposure.requested_time)) row.converted++;
    out.set(v.exposure.variation_id!, row);
  }
  return out;
}

describe("a generated data set with a known effect", () => {
  const ARMS: ArmModel[] = [
    { variation_id: "v_a", split: 0.5, rates: { g_cart: 0.1, g_checkout: 0.05, g_revenue: 0.04 }, order_values: { g_revenue: 50 } },
    { variation_id: "v_b", split: 0.5, rates: { g_cart: 0.13, g_checkout: 0.05, g_revenue: 0.04 }, order_values: { g_revenue: 50 } },
  ];

  it("counts visitors and conversions as the data says, and the interval covers the planted +30 %", async () => {
    const exp = t.store.saveExperience(experience());
    const visitors = [...simulateVisitors({ experience: exp, rule_id: "rule_r", arms: ARMS, start: START, days: 10, visitorsPerDay: 1500, seed: 42, accountId: t.account.id })];
    await writeSimulation(t.store, t.account.id, visitors, NOW_ISO);

    const r = await results();
    expect(r).toMatchObject({ engine: "sequential", correction: "holm", alpha: 0.05, total_visitors: visitors.length });
    const rule = r.rules[0]!;
    const cart = metric(rule, "g_cart");
    const expected = truth(visitors, (e) => e.event_type === "TRACK" && e.name === "add_to_cart");
    for (const v of cart.variations) {
      const want = expected.get(v.variation_id)!;
      expect(v).toMatchObject({ visitors: want.n, conversions: want.converted });
      expect(v.value).toBeCloseTo(want.converted / want.n, 12);
    }
    const checkout = truth(visitors, (e) => e.event_type === "PAGE" && e.properties?.page_path === "/checkout");
    expect(metric(rule, "g_checkout").variations.map((v) => v.conversions)).toEqual(["v_a", "v_b"].map((id) => checkout.get(id)!.converted));

    const [control, treatment] = cart.variations;
    expect(control!.is_control).toBe(true);
    expect(control!.comparison).toBeNull();
    const c = treatment!.comparison!;
    // Returning visitors had add-to-cart events before exposure: CUPED applies.
    expect(cart.cuped).toBe(true);
    expect(c.ci[0]).toBeLessThan(0.3);
    expect(c.ci[1]).toBeGreaterThan(0.3);
    expect(c.ci[0]).toBeGreaterThan(0); // a +30 % lift on 7,500 visitors per arm is found
    expect(c.significant).toBe(true);
    expect(c.p_value).toBeLessThan(0.001);
    // The checkout goal has no planted effect: its interval covers 0.
    const nothing = metric(rule, "g_checkout").variations[1]!.comparison!;
    expect(nothing.ci[0]).toBeLessThan(0);
    expect(nothing.ci[1]).toBeGreaterThan(0);
    expect(rule.srm.mismatch).toBe(false);
  }, HEAVY_MS);

  it("CUPED narrows the interval compared with the plain test on the same sums", async () => {
    const exp = t.store.saveExperience(experience());
    const visitors = [
      ...simulateVisitors({ experience: exp, rule_id: "rule_r", arms: ARMS, start: START, days: 4, visitorsPerDay: 1500, seed: 5, returningShare: 0.8, propensitySigma: 1, accountId: t.account.id }),
    ];
    await writeSimulation(t.store, t.account.id, visitors, NOW_ISO);
    const rule = (await results("exp_r", "?engine=frequentist")).rules[0]!;
    const cart = metric(rule, "g_cart");
    expect(cart.cuped).toBe(true);
    const [a, b] = cart.variations;
    const plain = frequentistTest({ kind: "proportion", n: a!.visitors, sum: a!.conversions }, { kind: "proportion", n: b!.visitors, sum: b!.conversions });
    const cuped = b!.comparison!;
    expect(cuped.ci[1] - cuped.ci[0]).toBeLessThan(plain.ci[1] - plain.ci[0]);
  }, HEAVY_MS);
});

describe("conversions and CUPED", () => {
  it("events before exposure are not conversions but feed CUPED; events at or after are", async () => {
    t.store.saveExperience(experience());
    const at = START + DAY_MS;
    visit("pre-only", "v_a", at, [["TRACK", "add_to_cart", at - 5000]]);
    visit("both", "v_a", at, [["TRACK", "add_to_cart", at - 5000], ["TRACK", "add_to_cart", at + 5000]]);
    visit("post", "v_b", at, [["TRACK", "add_to_cart", at]]);
    visit("other-name", "v_b", at, [["TRACK", "remove_from_cart", at + 1]]);
    const cart = metric((await results()).rules[0]!, "g_cart");
    expect(cart.variations.map((v) => [v.visitors, v.conversions])).toEqual([[2, 1], [2, 1]]);
    expect(cart.cuped).toBe(true);
    // Without any pre-exposure behaviour there is no CUPED.
    const checkout = metric((await results()).rules[0]!, "g_checkout");
    expect(checkout.cuped).toBe(false);
  });

  it("a visitor belongs to their first exposure's variation; later exposures elsewhere do not move them", async () => {
    t.store.saveExperience(experience());
    const at = START + DAY_MS;
    visit("x", "v_a", at, [["TRACK", "add_to_cart", at + 10]]);
    visit("x", "v_b", at + 1000); // later, another variation
    visit("y", "v_b", at);
    const r = await results();
    expect(r.total_visitors).toBe(2);
    expect(metric(r.rules[0]!, "g_cart").variations.map((v) => [v.visitors, v.conversions])).toEqual([[1, 1], [1, 0]]);
  });

  it("matches goal pages (exact, contains, regex, domain), click and form names, and event names without a name field", async () => {
    const goals: GoalDefinition[] = [
      { id: "g_exact", name: "Exact", kind: "page_view", page: { page_path: "/checkout", page_match: "exact_match" } },
      { id: "g_contains", name: "Contains", kind: "page_view", page: { page_path: "thank", page_match: "contains" } },
      { id: "g_regex", name: "Regex", kind: "page_view", page: { page_path: "^/products/[a-z]+$", page_match: "regex" } },
      { id: "g_uk", name: "UK checkout", kind: "page_view", page: { domain: "littlesprouts-uk.localhost", page_path: "/checkout", page_match: "exact_match" } },
      { id: "g_click", name: "Click", kind: "click", event_name: "hero_cta" },
      { id: "g_form", name: "Form", kind: "form_submit", event_name: "newsletter" },
      { id: "g_any_form", name: "Any form", kind: "form_submit" },
    ];
    t.store.saveExperience(experience("exp_r", undefined, goals));
    const at = START;
    visit("a", "v_a", at, [
      ["PAGE", "/checkout/", at + 1], // trailing slash: the same page
      ["PAGE", "/cart/thank-you", at + 2],
      ["PAGE", "/products/soap", at + 3],
      ["CLICK", "hero_cta", at + 4],
      ["FORM", "contact", at + 5],
    ]);
    visit("b", "v_a", at, [
      ["PAGE", "/checkout/step-2", at + 1],
      ["PAGE", "/products/soap/reviews", at + 3],
      ["CLICK", "other_cta", at + 4],
      ["FORM", "newsletter", at + 5],
    ]);
    // A server-to-server event without `name`: the name is the part of event_customer_id after "|".
    insertEvents(t.store, t.account.id, userIdFor(t.account.id, "b"), [
      { event_type: "CLICK", event_customer_id: "littlesprouts.localhost|hero_cta", insert_id: "no-name", event_timestamp: at + 9 },
    ], NOW_ISO);
    const rule = (await results()).rules[0]!;
    const conversions = (goal: string) => metric(rule, goal).variations[0]!.conversions;
    expect(conversions("g_exact")).toBe(1);
    expect(conversions("g_contains")).toBe(1);
    expect(conversions("g_regex")).toBe(1);
    expect(conversions("g_uk")).toBe(0); // the events are on the main domain
    expect(conversions("g_click")).toBe(2);
    expect(conversions("g_form")).toBe(1);
    expect(conversions("g_any_form")).toBe(2);
  });

  it("page goals over many distinct paths: each goal counts the paths that match it", async () => {
    const goals: GoalDefinition[] = [
      { id: "g_all", name: "Any product", kind: "page_view", page: { page_path: "/p/", page_match: "contains" } },
      { id: "g_ones", name: "Products 1…", kind: "page_view", page: { page_path: "^/p/1", page_match: "regex" } },
    ];
    t.store.saveExperience(experience("exp_r", undefined, goals));
    const n = 1500;
    const userIds = Array.from({ length: n }, (_, i) => `many-${i}`);
    insertExposures(t.store, 
      t.account.id,
      userIds.map((u) => ({ config_id: "cfg_r", user_customer_id: u, user_id: userIdFor(t.account.id, u), requested_time: START, variation_id: "v_a", experience_id: "exp_r", session_id: "s1", probability: 0.5 })),
      NOW_ISO,
    );
    t.store.commitClientWrites(
      userIds.map((u, i) => ({
        kind: "events" as const,
        accountId: t.account.id,
        userId: userIdFor(t.account.id, u),
        user: user(u),
        touch: false,
        now: NOW_ISO,
        events: [{ event_type: "PAGE", event_customer_id: `littlesprouts.localhost|/p/${i}`, domain: "littlesprouts.localhost", insert_id: `many-${i}`, event_timestamp: START + 1, properties: { page_path: `/p/${i}` } }],
      })),
    );
    const rule = (await results()).rules[0]!;
    const ones = Array.from({ length: n }, (_, i) => String(i)).filter((i) => i.startsWith("1")).length;
    expect(metric(rule, "g_all").variations[0]!.conversions).toBe(n);
    expect(metric(rule, "g_ones").variations[0]!.conversions).toBe(ones);
  }, HEAVY_MS);

  it("a goal page first visited after an earlier results call counts, also when another node stored it", async () => {
    t.store.saveExperience(experience());
    visit("a", "v_a", START, [["PAGE", "/cart", START + 1]]);
    visit("b", "v_b", START);
    expect(metric((await results()).rules[0]!, "g_checkout").variations.map((v) => v.conversions)).toEqual([0, 0]);
    visit("a", "v_a", START, [["PAGE", "/checkout", START + 2]]);
    expect(metric((await results()).rules[0]!, "g_checkout").variations.map((v) => v.conversions)).toEqual([1, 0]);
    const nodeB = openSqliteStore(t.file);
    try {
      insertEvents(nodeB, t.account.id, userIdFor(t.account.id, "b"), [
        { event_type: "PAGE", name: "/checkout/", event_customer_id: "littlesprouts.localhost|/checkout/", domain: "littlesprouts.localhost", insert_id: "node-b", event_timestamp: START + 3, properties: { page_path: "/checkout/" } },
      ], NOW_ISO);
    } finally {
      nodeB.close();
    }
    expect(metric((await results()).rules[0]!, "g_checkout").variations.map((v) => v.conversions)).toEqual([1, 1]);
  });
});

describe("revenue", () => {
  it("caps each visitor's revenue, gives revenue per visitor and average order value", async () => {
    t.store.saveExperience(experience());
    const at = START;
    visit("big", "v_a", at, [["REVENUE", "checkout", at + 1, { revenue_amount: 400 }], ["REVENUE", "checkout", at + 2, { revenue_amount: 300 }]]);
    visit("small", "v_a", at, [["REVENUE", "checkout", at + 1, { revenue_amount: "100.5" }], ["REVENUE", "checkout", at - 1, { revenue_amount: 90 }]]);
    visit("none", "v_a", at);
    visit("buyer-b", "v_b", at, [["REVENUE", "checkout", at + 1, { revenue_amount: 60 }]]);
    visit("odd-b", "v_b", at, [["REVENUE", "checkout", at + 1, { revenue_amount: -20 }]]);
    const rule = (await results()).rules[0]!;
    const rpv = metric(rule, "g_revenue", "revenue_per_visitor");
    const aov = metric(rule, "g_revenue", "average_order_value");
    // v_a: min(700, 500) + 100.5 over 3 visitors; the 90 before exposure is not counted.
    expect(rpv.variations[0]).toMatchObject({ visitors: 3, conversions: 2, revenue: 600.5 });
    expect(rpv.variations[0]!.value).toBeCloseTo(600.5 / 3, 10);
    expect(aov.variations[0]).toMatchObject({ conversions: 3, revenue: 600.5 });
    expect(aov.variations[0]!.value).toBeCloseTo(600.5 / 3, 10);
    // v_b: a negative amount (a refund) counts 0 and is no order: odd-b is no buyer.
    expect(rpv.variations[1]).toMatchObject({ visitors: 2, conversions: 1, revenue: 60, value: 30 });
    expect(aov.variations[1]).toMatchObject({ conversions: 1, value: 60 });
    expect(rpv.cuped).toBe(true); // "small" bought before exposure
    expect(aov.cuped).toBe(false);
    expect(rule.metrics.map((m) => m.metric)).toEqual(["conversion_rate", "conversion_rate", "revenue_per_visitor", "average_order_value"]);
  });

  it("without a cap, revenue is summed as it is", async () => {
    t.store.saveExperience(experience("exp_r", undefined, [{ id: "g_rev", name: "Revenue", kind: "revenue" }]));
    visit("big", "v_a", START, [["REVENUE", "checkout", START + 1, { revenue_amount: 400 }], ["REVENUE", "checkout", START + 2, { revenue_amount: 300 }]]);
    const rpv = metric((await results()).rules[0]!, "g_rev", "revenue_per_visitor");
    expect(rpv.variations[0]).toMatchObject({ revenue: 700, value: 700 });
  });

  it("the AOV comparison is a ratio test on the sums of revenue, orders and their products", async () => {
    t.store.saveExperience(experience("exp_r", undefined, [{ id: "g_rev", name: "Revenue", kind: "revenue" }]));
    const amounts = { v_a: [[10], [20, 30], [40], [15, 25]], v_b: [[30], [60], [20, 40], [50]] };
    let i = 0;
    for (const [variation, visitors] of Object.entries(amounts)) {
      for (const orders of visitors) visit(`buyer-${i++}`, variation, START, orders.map((a, k): Ev => ["REVENUE", "checkout", START + 1 + k, { revenue_amount: a }]));
    }
    const aov = metric((await results("exp_r", "?engine=frequentist")).rules[0]!, "g_rev", "average_order_value");
    const ratio = (visitors: number[][]) => {
      const m = visitors.map((o) => o.reduce((s, x) => s + x, 0));
      const d = visitors.map((o) => o.length);
      const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
      return {
        kind: "ratio" as const,
        n: visitors.length,
        numerator: { sum: sum(m), sumSquares: sum(m.map((x) => x * x)) },
        denominator: { sum: sum(d), sumSquares: sum(d.map((x) => x * x)) },
        sumOfProducts: sum(m.map((x, k) => x * d[k]!)),
      };
    };
    const want = frequentistTest(ratio(amounts.v_a), ratio(amounts.v_b));
    const got = aov.variations[1]!.comparison!;
    expect(got.effect).toBeCloseTo(want.effect, 12);
    expect(got.ci[0]).toBeCloseTo(want.ci[0], 12);
    expect(got.p_value).toBeCloseTo(want.pValue, 12);
    expect(aov.variations.map((v) => v.value)).toEqual([140 / 6, 200 / 5]);
  });
});

describe("CUPED on exact sums", () => {
  const CAP = 100;
  const goals: GoalDefinition[] = [
    { id: "g_cart", name: "Add to cart", kind: "track", event_name: "add_to_cart" },
    { id: "g_rev", name: "Revenue", kind: "revenue", revenue_cap: CAP },
  ];
  /** A visitor by hand: add-to-cart before and after exposure, and their orders' amounts before and after. */
  type Hand = { id: string; variation: "v_a" | "v_b"; cartBefore: boolean; cartAfter: boolean; before: number[]; after: number[] };
  const at = START + DAY_MS;
  const h = (id: string, variation: Hand["variation"], cartBefore: boolean, cartAfter: boolean, before: number[] = [], after: number[] = []): Hand => ({ id, variation, cartBefore, cartAfter, before, after });
  const HANDS: Hand[] = [
    h("a1", "v_a", true, true, [80, 70], [120]), // the cap hit before (150) and after (120) exposure
    h("a2", "v_a", true, false, [30]),
    h("a3", "v_a", false, true, [], [40]),
    h("a4", "v_a", false, false),
    h("a5", "v_a", true, true, [20], [60, 70]), // capped after only
    h("a6", "v_a", false, false, [15]),
    h("b1", "v_b", true, true, [200], [90]), // capped before only
    h("b2", "v_b", false, true, [], [50]),
    h("b3", "v_b", true, false, [40], [45]),
    h("b4", "v_b", true, true, [], [150]),
    h("b5", "v_b", false, false),
    h("b6", "v_b", false, true, [10], [25]),
    h("b7", "v_b", true, true, [60, 55], [110, 5]), // capped on both sides
  ];
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

  function seed() {
    t.store.saveExperience(experience("exp_r", undefined, goals));
    for (const v of HANDS) {
      const events: Ev[] = [];
      if (v.cartBefore) events.push(["TRACK", "add_to_cart", at - 60_000]);
      if (v.cartAfter) events.push(["TRACK", "add_to_cart", at + 60_000]);
      v.before.forEach((amount, k) => events.push(["REVENUE", "checkout", at - 1000 - k, { revenue_amount: amount }]));
      v.after.forEach((amount, k) => events.push(["REVENUE", "checkout", at + 1000 + k, { revenue_amount: amount }]));
      visit(v.id, v.variation, at, events);
    }
  }

  /** The CUPED sufficient statistics of one arm, from its visitors one by one (docs/results.md). */
  function cupedSums(variation: string, post: (v: Hand) => number, pre: (v: Hand) => number): Statistic {
    const arm = HANDS.filter((v) => v.variation === variation);
    const y = arm.map(post);
    const x = arm.map(pre);
    return {
      kind: "cuped",
      n: arm.length,
      post: { sum: sum(y), sumSquares: sum(y.map((a) => a * a)) },
      pre: { sum: sum(x), sumSquares: sum(x.map((a) => a * a)) },
      sumOfProducts: sum(y.map((a, i) => a * x[i]!)),
    };
  }
  const conversionSums = (variation: string) => cupedSums(variation, (v) => Number(v.cartAfter), (v) => Number(v.cartBefore));
  const revenueSums = (variation: string) =>
    cupedSums(
      variation,
      (v) => Math.min(sum(v.after), CAP),
      (v) => Math.min(sum(v.before), CAP),
    );


  it("the conversion rate and revenue per visitor are the stats package's CUPED test on the per-visitor sums, capped before and after exposure", async () => {
    seed();
    const rule = (await results("exp_r", "?engine=frequentist&correction=none")).rules[0]!;
    const cart = metric(rule, "g_cart");
    const rpv = metric(rule, "g_rev", "revenue_per_visitor");
    expect([cart.cuped, rpv.cuped]).toEqual([true, true]);
    expect(rpv.variations.map((v) => v.revenue)).toEqual(["v_a", "v_b"].map((id) => sum(HANDS.filter((v) => v.variation === id).map((v) => Math.min(sum(v.after), CAP)))));
    for (const [m, sums] of [[cart, conversionSums], [rpv, revenueSums]] as const) {
      const want = frequentistTest(sums("v_a"), sums("v_b"));
      const got = m.variations[1]!.comparison;
      expect(got, m.metric).not.toBeNull();
      expectNumbers({ effect: got!.effect, lower: got!.ci[0], upper: got!.ci[1], p: got!.p_value }, { effect: want.effect, lower: want.ci[0], upper: want.ci[1], p: want.pValue });
      // The sums matter: the plain test on the same post-exposure values answers otherwise.
      const plain = (id: string) => {
        const s = sums(id) as Extract<Statistic, { kind: "cuped" }>;
        return { kind: "mean" as const, n: s.n, sum: s.post.sum, sumSquares: s.post.sumSquares };
      };
      expect(Math.abs(frequentistTest(plain("v_a"), plain("v_b")).ci[0] - want.ci[0])).toBeGreaterThan(1e-6);
    }
  });

  it("the sequential engine is the stats package's always-valid test with N* = 5000; the Bayesian engine its flat-prior model", async () => {
    seed();
    const seq = (await results("exp_r", "?correction=none")).rules[0]!;
    const bayes = (await results("exp_r", "?engine=bayesian")).rules[0]!;
    for (const [goal, kind, sums] of [["g_cart", "conversion_rate", conversionSums], ["g_rev", "revenue_per_visitor", revenueSums]] as const) {
      const s = metric(seq, goal, kind).variations[1]!.comparison!;
      const want = frequentistTest(sums("v_a"), sums("v_b"), { sequentialTuning: 5000 });
      expectNumbers({ effect: s.effect, lower: s.ci[0], upper: s.ci[1], p: s.p_value }, { effect: want.effect, lower: want.ci[0], upper: want.ci[1], p: want.pValue });
      const b = metric(bayes, goal, kind).variations[1]!.comparison!;
      const wantB = bayesianTest(sums("v_a"), sums("v_b"));
      expectNumbers(
        { effect: b.effect, lower: b.ci[0], upper: b.ci[1], chanceToWin: b.chance_to_win, riskControl: b.risk?.[0], riskTreatment: b.risk?.[1] },
        { effect: wantB.effect, lower: wantB.ci[0], upper: wantB.ci[1], chanceToWin: wantB.chanceToWin, riskControl: wantB.risk[0], riskTreatment: wantB.risk[1] },
      );
    }
  });
});

describe("an experience with two rules", () => {
  const goals: GoalDefinition[] = [
    { id: "g_cart", name: "Add to cart", kind: "track", event_name: "add_to_cart" },
    { id: "g_checkout", name: "Checkout", kind: "page_view", page: { page_path: "/checkout", page_match: "exact_match" } },
  ];
  /** Per variation: visitors, add-to-cart converters, checkout converters, and the day of exposure. */
  const PLAN = {
    rule_r: { v_a: [40, 8, 4, 0], v_b: [40, 14, 6, 0] }, // the VIP audience's rule: a fair split, day 0
    rule_2: { v_c: [30, 6, 3, 2], v_d: [70, 20, 9, 2] }, // everyone else: 30 vs 70 on 50/50, day 2
  } as const;

  function seed() {
    t.store.saveAudience({ id: "aud_vip", account_id: t.account.id, name: "VIP shoppers", description: "", condition: { all: [] } as never });
    const base = experience("exp_r", undefined, goals);
    const first = base.rules[0]!;
    const variation = (id: string) => ({ ...first.behaviour.variations[0]!, id, name: id.toUpperCase() });
    t.store.saveExperience({
      ...base,
      rules: [
        { ...first, audience_id: "aud_vip", audience_name: "An old label" },
        {
          id: "rule_2",
          audience_id: null,
          audience_name: "Everyone else",
          behaviour: { ...first.behaviour, id: "beh_2", variations: [variation("v_c"), variation("v_d")] },
        },
      ],
    });
    // In two transactions: 180 visitors one by one take seconds on a busy machine.
    const exposures: Exposure[] = [];
    const writes: ClientWrite[] = [];
    for (const [rule, variations] of Object.entries(PLAN)) {
      for (const [id, [n, carts, checkouts, day]] of Object.entries(variations)) {
        const at = START + day * DAY_MS;
        for (let i = 0; i < n; i++) {
          const ucid = `${id}-${i}`;
          const userId = userIdFor(t.account.id, ucid);
          exposures.push({ config_id: "cfg_r", user_customer_id: ucid, user_id: userId, requested_time: at, variation_id: id, experience_id: "exp_r", rule_id: rule, session_id: "s1", probability: 0.5 });
          const event = (type: string, name: string, ts: number): TrackedEvent => ({
            event_type: type,
            name,
            event_customer_id: `littlesprouts.localhost|${name}`,
            domain: "littlesprouts.localhost",
            insert_id: `${ucid}-${name}`,
            event_timestamp: ts,
            properties: { page_path: type === "PAGE" ? name : "/" },
          });
          const events = [...(i < carts ? [event("TRACK", "add_to_cart", at + 1000)] : []), ...(i < checkouts ? [event("PAGE", "/checkout", at + 2000)] : [])];
          if (events.length) writes.push({ kind: "events", accountId: t.account.id, userId, user: user(ucid), touch: false, now: NOW_ISO, events });
        }
      }
    }
    insertExposures(t.store, t.account.id, exposures, NOW_ISO);
    t.store.commitClientWrites(writes);
  }

  it("each rule has its own visitors, conversions, sample-ratio check, correction family, daily series and audience name", async () => {
    seed();
    // Fixed-horizon: on so few visitors the sequential p-values are all 1, the same in any family.
    const r = await results("exp_r", "?engine=frequentist");
    expect(r.total_visitors).toBe(180);
    const [vip, rest] = r.rules;
    expect([vip!.rule_id, rest!.rule_id]).toEqual(["rule_r", "rule_2"]);
    // The audience's current name, not the label stored on the rule; a rule without one keeps its label.
    expect(vip!.audience_name).toBe("VIP shoppers");
    expect(rest!.audience_name).toBe("Everyone else");

    for (const [rule, plan] of [[vip!, PLAN.rule_r], [rest!, PLAN.rule_2]] as const) {
      const ids = Object.keys(plan);
      const rows = Object.values(plan);
      for (const m of rule.metrics) expect(m.variations.map((v) => v.variation_id)).toEqual(ids);
      expect(metric(rule, "g_cart").variations.map((v) => [v.visitors, v.conversions])).toEqual(rows.map(([n, carts]) => [n, carts]));
      expect(metric(rule, "g_checkout").variations.map((v) => [v.visitors, v.conversions])).toEqual(rows.map(([n, , checkouts]) => [n, checkouts]));
      // Holm over this rule's comparisons only (two goals × one treatment), not the experience's four.
      const cs = rule.metrics.map((m) => m.variations[1]!.comparison!);
      const adjusted = adjustPValues(cs.map((c) => c.p_value!), "holm");
      cs.forEach((c, i) => expect(c.adjusted_p_value, rule.metrics[i]!.goal_id).toBeCloseTo(adjusted[i]!, 12));
      expect(Math.max(...adjusted)).toBeLessThan(1);
      expect(rule.daily.every((d) => d.variations.map((v) => v.variation_id).join() === ids.join())).toBe(true);
    }

    expect(vip!.srm).toMatchObject({ mismatch: false, observed: [40, 40], expected: [40, 40] });
    expect(vip!.srm.p_value).toBeCloseTo(1, 12);
    expect(rest!.srm).toMatchObject({ mismatch: true, observed: [30, 70], expected: [50, 50] });
    expect(rest!.srm.p_value).toBeCloseTo(srmPValue([30, 70], [1, 1]), 12);

    // Each rule's series covers the days its own variations had visitors or conversions.
    expect(vip!.daily.map((d) => d.date)).toEqual(["2026-11-01"]);
    expect(vip!.daily[0]!.variations.map((v) => [v.visitors, v.conversions])).toEqual([[40, { g_cart: 8, g_checkout: 4 }], [40, { g_cart: 14, g_checkout: 6 }]]);
    expect(rest!.daily.map((d) => d.date)).toEqual(["2026-11-03"]);
    expect(rest!.daily[0]!.variations.map((v) => [v.visitors, v.conversions])).toEqual([[30, { g_cart: 6, g_checkout: 3 }], [70, { g_cart: 20, g_checkout: 9 }]]);
   }, HEAVY_MS);
});

describe("sample-ratio check", () => {
  /** `a` and `b` visitors exposed to v_a and v_b, in one transaction. */
  function split(a: number, b: number, probabilities: [number | null, number | null] = [0.5, 0.5]) {
    const exposure = (ucid: string, variation_id: string, probability: number | null) => ({
      config_id: "cfg_r",
      user_customer_id: ucid,
      user_id: userIdFor(t.account.id, ucid),
      requested_time: START,
      variation_id,
      experience_id: "exp_r",
      session_id: "s1",
      probability,
    });
    insertExposures(t.store, 
      t.account.id,
      [
        ...Array.from({ length: a }, (_, i) => exposure(`a${i}`, "v_a", probabilities[0])),
        ...Array.from({ length: b }, (_, i) => exposure(`b${i}`, "v_b", probabilities[1])),
      ],
      NOW_ISO,
    );
  }

  it("flags a broken split (1000 vs 1200 on 50/50: p = 0.000020079)", async () => {
    t.store.saveExperience(experience());
    split(1000, 1200);
    const srm = (await results()).rules[0]!.srm;
    expect(srm.p_value).toBeCloseTo(0.000020079, 9);
    expect(srm).toMatchObject({ mismatch: true, observed: [1000, 1200], expected: [1100, 1100] });
  }, HEAVY_MS);

  it("does not flag a fair split", async () => {
    t.store.saveExperience(experience());
    split(1000, 1040);
    const srm = (await results()).rules[0]!.srm;
    expect(srm.mismatch).toBe(false);
    expect(srm.p_value).toBeCloseTo(srmPValue([1000, 1040], [1, 1]), 12);
  }, HEAVY_MS);

  it("flags below p = 0.001 only (documented threshold)", async () => {
    t.store.saveExperience(experience());
    split(1000, 1130); // p ≈ 0.005: suspicious, not flagged
    const srm = (await results()).rules[0]!.srm;
    expect(srm.p_value).toBeGreaterThan(0.001);
    expect(srm.p_value).toBeLessThan(0.01);
    expect(srm.mismatch).toBe(false);
    t.store.saveExperience(experience("exp_r2"));
    for (let i = 0; i < 1000; i++) visit(`c${i}`, "v_a", START, [], { experience: "exp_r2" });
    insertExposures(t.store, 
      t.account.id,
      Array.from({ length: 1160 }, (_, i) => ({ config_id: "cfg_r", user_customer_id: `d${i}`, user_id: userIdFor(t.account.id, `d${i}`), requested_time: START, variation_id: "v_b", experience_id: "exp_r2", session_id: "s1", probability: 0.5 })),
      NOW_ISO,
    );
    const broken = (await results("exp_r2")).rules[0]!.srm; // p ≈ 0.0006
    expect(broken.p_value).toBeLessThan(0.001);
    expect(broken.p_value).toBeGreaterThan(0.0001);
    expect(broken.mismatch).toBe(true);
  }, HEAVY_MS);

  it("tests against the stored assignment probabilities, not today's weights", async () => {
    t.store.saveExperience(experience()); // weights 1:1 today
    split(250, 750, [0.25, 0.75]); // assigned 1:3 at the time
    const srm = (await results()).rules[0]!.srm;
    expect(srm).toMatchObject({ mismatch: false, expected: [250, 750] });
    expect(srm.p_value).toBe(1);
  }, HEAVY_MS);

  /** `a` and `b` visitors exposed to v_a and v_b, assigned under the split `p` of v_a (v_b: 1 − p). */
  function cohort(tag: string, a: number, b: number, p: number) {
    const split = JSON.stringify({ v_a: p, v_b: 1 - p });
    const exposure = (ucid: string, variation_id: string, probability: number) => ({
      config_id: "cfg_r",
      user_customer_id: ucid,
      user_id: userIdFor(t.account.id, ucid),
      requested_time: START,
      variation_id,
      experience_id: "exp_r",
      session_id: "s1",
      probability,
      split,
    });
    insertExposures(t.store, 
      t.account.id,
      [
        ...Array.from({ length: a }, (_, i) => exposure(`${tag}a${i}`, "v_a", p)),
        ...Array.from({ length: b }, (_, i) => exposure(`${tag}b${i}`, "v_b", 1 - p)),
      ],
      NOW_ISO,
    );
  }

  it("weights changed during the experiment: each split cohort is expected by its own split (no false alarm)", async () => {
    t.store.saveExperience(experience("exp_r", [{ id: "v_a", weight: 9 }, { id: "v_b", weight: 1 }]));
    cohort("early", 500, 500, 0.5); // 1,000 visitors at 50/50, exactly on target
    cohort("late", 900, 100, 0.9); // then 1,000 at 90/10, exactly on target
    const srm = (await results()).rules[0]!.srm;
    // A mean of the stored probabilities (0.757 / 0.243) gave p = 2.7e-9 here.
    expect(srm).toMatchObject({ mismatch: false, observed: [1400, 600], expected: [1400, 600] });
    expect(srm.p_value).toBeCloseTo(1, 12);
  }, HEAVY_MS);

  it("weights changed during the experiment: a real mismatch in one cohort is still flagged", async () => {
    t.store.saveExperience(experience("exp_r", [{ id: "v_a", weight: 9 }, { id: "v_b", weight: 1 }]));
    cohort("early", 500, 500, 0.5);
    cohort("late", 820, 180, 0.9); // 80 visitors too many in v_b at 90/10
    const srm = (await results()).rules[0]!.srm;
    // D = −80 for v_a; Var = 1000·0.25 + 1000·0.09 = 340; χ² = 6400/340 on 1 df (Pearson on 2,000 at 50/50 with the same χ²).
    expect(srm).toMatchObject({ mismatch: true, observed: [1320, 680], expected: [1400, 600] });
    const d = Math.sqrt((6400 / 340) * 2000) / 2;
    expect(srm.p_value).toBeCloseTo(srmPValue([1000 + d, 1000 - d], [1, 1]), 12);
    expect(srm.p_value).toBeLessThan(0.001);
  }, HEAVY_MS);

  it("rows without a stored split fall back to their mean stored probability, beside split cohorts", async () => {
    t.store.saveExperience(experience());
    split(250, 750, [0.25, 0.75]); // stored before splits were kept: 1:3 by their probabilities
    cohort("new", 500, 500, 0.5);
    const srm = (await results()).rules[0]!.srm;
    expect(srm).toMatchObject({ mismatch: false, observed: [750, 1250], expected: [750, 1250] });
    expect(srm.p_value).toBeCloseTo(1, 12);
  }, HEAVY_MS);

  it("falls back to the weights when no probability was stored", async () => {
    t.store.saveExperience(experience("exp_r", [{ id: "v_a", weight: 1 }, { id: "v_b", weight: 3 }]));
    split(500, 500, [null, null]);
    const srm = (await results()).rules[0]!.srm;
    expect(srm).toMatchObject({ mismatch: true, expected: [250, 750] });
  }, HEAVY_MS);
});

describe("corrections and engines", () => {
  const goals: GoalDefinition[] = [
    { id: "g1", name: "G1", kind: "track", event_name: "e1" },
    { id: "g2", name: "G2", kind: "track", event_name: "e2" },
    { id: "g3", name: "G3", kind: "track", event_name: "e3" },
  ];
  /** Three goals with different true effects, three variations. */
  async function seed() {
    const exp = t.store.saveExperience(experience("exp_r", [{ id: "v_a", weight: 1 }, { id: "v_b", weight: 1 }, { id: "v_c", weight: 1 }], goals));
    const arms: ArmModel[] = [
      { variation_id: "v_a", split: 1, rates: { g1: 0.1, g2: 0.1, g3: 0.1 } },
      { variation_id: "v_b", split: 1, rates: { g1: 0.125, g2: 0.105, g3: 0.1 } },
      { variation_id: "v_c", split: 1, rates: { g1: 0.1, g2: 0.115, g3: 0.09 } },
    ];
    await writeSimulation(t.store, t.account.id, simulateVisitors({ experience: exp, rule_id: "rule_r", arms, start: START, days: 5, visitorsPerDay: 1500, seed: 3, returningShare: 0, accountId: t.account.id }), NOW_ISO);
  }
  const comparisons = (r: ExperienceResults) => r.rules[0]!.metrics.flatMap((m) => m.variations.slice(1).map((v) => v.comparison!));

  it("Holm (default) and Benjamini–Hochberg adjust across the rule's comparisons; none leaves them", async () => {
    await seed();
    for (const method of ["holm", "bh"] as const) {
      const cs = comparisons(await results("exp_r", method === "holm" ? "?engine=frequentist" : `?engine=frequentist&correction=${method}`));
      expect(cs).toHaveLength(6);
      const adjusted = adjustPValues(cs.map((c) => c.p_value!), method);
      cs.forEach((c, i) => {
        expect(c.adjusted_p_value).toBeCloseTo(adjusted[i]!, 12);
        expect(c.significant).toBe(adjusted[i]! < 0.05);
      });
      expect(cs.some((c) => c.adjusted_p_value! > c.p_value!)).toBe(true);
    }
    const none = comparisons(await results("exp_r", "?engine=frequentist&correction=none"));
    for (const c of none) {
      expect(c.adjusted_p_value).toBeUndefined();
      expect(c.significant).toBe(c.p_value! < 0.05);
    }
    // Some comparison is significant alone but not after Holm: the correction matters here.
    const holm = comparisons(await results("exp_r", "?engine=frequentist"));
    expect(none.some((c, i) => c.significant && !holm[i]!.significant)).toBe(true);
  }, HEAVY_MS);

  it("sequential (default) is wider than the fixed-horizon test; bayesian gives chance to win and risk", async () => {
    await seed();
    const seq = await results();
    const fixed = await results("exp_r", "?engine=frequentist&alpha=0.1");
    const fixed05 = await results("exp_r", "?engine=frequentist");
    const bayes = await results("exp_r", "?engine=bayesian");
    expect([seq.engine, fixed.engine, bayes.engine]).toEqual(["sequential", "frequentist", "bayesian"]);
    expect(fixed.alpha).toBe(0.1);
    const width = (c: { ci: [number, number] }) => c.ci[1] - c.ci[0];
    comparisons(seq).forEach((c, i) => {
      const f = comparisons(fixed05)[i]!;
      expect(c.effect).toBeCloseTo(f.effect, 12);
      expect(width(c)).toBeGreaterThan(width(f));
      expect(c.p_value!).toBeGreaterThan(f.p_value!);
      expect(width(comparisons(fixed)[i]!)).toBeLessThan(width(f)); // alpha 0.1: narrower
    });
    for (const c of comparisons(bayes)) {
      expect(c.p_value).toBeUndefined();
      expect(c.adjusted_p_value).toBeUndefined();
      expect(c.chance_to_win).toBeGreaterThan(0);
      expect(c.chance_to_win).toBeLessThan(1);
      expect(c.risk).toHaveLength(2);
      expect(c.significant).toBe(c.ci[0] > 0 || c.ci[1] < 0);
    }
    const g1b = bayes.rules[0]!.metrics[0]!.variations[1]!.comparison!;
    expect(g1b.chance_to_win).toBeGreaterThan(0.95);
    // Exactly the stats package's answers on the same sums (no pre-exposure behaviour: proportions).
    const proportion = (v: { visitors: number; conversions: number }) => ({ kind: "proportion" as const, n: v.visitors, sum: v.conversions });
    const pairs = (r: ExperienceResults) =>
      r.rules[0]!.metrics.flatMap((m) => {
        expect(m.cuped).toBe(false);
        return m.variations.slice(1).map((v) => [proportion(m.variations[0]!), proportion(v), v.comparison!] as const);
      });
    for (const [a, b, c] of pairs(seq)) {
      const want = frequentistTest(a, b, { sequentialTuning: 5000 });
      expectNumbers({ effect: c.effect, lower: c.ci[0], upper: c.ci[1], p: c.p_value }, { effect: want.effect, lower: want.ci[0], upper: want.ci[1], p: want.pValue });
    }
    for (const [a, b, c] of pairs(bayes)) {
      const want = bayesianTest(a, b);
      expectNumbers(
        { effect: c.effect, lower: c.ci[0], upper: c.ci[1], chanceToWin: c.chance_to_win, riskControl: c.risk?.[0], riskTreatment: c.risk?.[1] },
        { effect: want.effect, lower: want.ci[0], upper: want.ci[1], chanceToWin: want.chanceToWin, riskControl: want.risk[0], riskTreatment: want.risk[1] },
      );
    }
  }, HEAVY_MS);
});

describe("daily series", () => {
  it("new visitors per day of first exposure and conversions per day of first conversion, gaps filled", async () => {
    t.store.saveExperience(experience());
    const day = (d: number, h = 1) => START + d * DAY_MS + h * 3_600_000;
    visit("a1", "v_a", day(0), [["TRACK", "add_to_cart", day(0, 2)], ["TRACK", "add_to_cart", day(2)]]);
    visit("a2", "v_a", day(0), [["TRACK", "add_to_cart", day(3)]]);
    visit("b1", "v_b", day(3), [["PAGE", "/checkout", day(3, 5)]]);
    visit("b1", "v_b", day(4)); // a later exposure is not a new visitor
    const daily = (await results()).rules[0]!.daily;
    expect(daily.map((d) => d.date)).toEqual(["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04"]);
    const conv = (g: string, c: number) => ({ g_cart: 0, g_checkout: 0, g_revenue: 0, [g]: c });
    expect(daily[0]!.variations).toEqual([
      { variation_id: "v_a", visitors: 2, conversions: conv("g_cart", 1) },
      { variation_id: "v_b", visitors: 0, conversions: conv("g_cart", 0) },
    ]);
    expect(daily[1]!.variations.every((v) => v.visitors === 0)).toBe(true);
    expect(daily[3]!.variations).toEqual([
      { variation_id: "v_a", visitors: 0, conversions: conv("g_cart", 1) },
      { variation_id: "v_b", visitors: 1, conversions: conv("g_checkout", 1) },
    ]);
  });

  it("a visitor whose clock is years off does not make a series of thousands of days", async () => {
    t.store.saveExperience(experience());
    visit("a", "v_a", Date.UTC(2001, 0, 1));
    visit("b", "v_a", START);
    const daily = (await results()).rules[0]!.daily;
    expect(daily.map((d) => d.date)).toEqual(["2001-01-01", "2026-11-01"]);
  });

  it("a clock beyond year 9999 or before 1970 counts its visitor and conversion, on no day", async () => {
    t.store.saveExperience(experience());
    visit("future", "v_a", 1e18, [["TRACK", "add_to_cart", 1e18 + 1]]);
    visit("past", "v_b", -5 * DAY_MS, [["TRACK", "add_to_cart", -DAY_MS]]);
    visit("now", "v_b", START);
    const rule = (await results()).rules[0]!;
    expect(metric(rule, "g_cart").variations.map((v) => [v.visitors, v.conversions])).toEqual([[1, 1], [2, 1]]);
    expect(rule.daily.map((d) => d.date)).toEqual(["2026-11-01"]);
  });
});

describe("uninformative data", () => {
  it("no visitors: zeros, comparison null, SRM p 1", async () => {
    t.store.saveExperience(experience());
    const r = await results();
    expect(r.total_visitors).toBe(0);
    const rule = r.rules[0]!;
    expect(rule.srm).toMatchObject({ p_value: 1, mismatch: false, observed: [0, 0] });
    expect(rule.daily).toEqual([]);
    for (const m of rule.metrics) {
      for (const v of m.variations) {
        expect(v).toMatchObject({ visitors: 0, conversions: 0, value: 0, comparison: null });
      }
    }
  });

  it("visitors without conversions, one visitor per arm, and one variation: comparison null, never NaN", async () => {
    t.store.saveExperience(experience());
    visit("a", "v_a", START);
    visit("b", "v_b", START, [["TRACK", "add_to_cart", START + 1]]);
    for (const engine of ["sequential", "frequentist", "bayesian"]) {
      const rule = (await results("exp_r", `?engine=${engine}`)).rules[0]!;
      for (const m of rule.metrics) expect(m.variations[1]!.comparison).toBeNull();
    }
    for (let i = 0; i < 20; i++) visit(`x${i}`, "v_b", START); // the control has no conversion: control mean 0
    expect(metric((await results()).rules[0]!, "g_cart").variations[1]!.comparison).toBeNull();

    t.store.saveExperience(experience("exp_one", [{ id: "v_only", weight: 1 }]));
    visit("c", "v_only", START, [["TRACK", "add_to_cart", START + 1]], { experience: "exp_one", probability: 1 });
    const one = (await results("exp_one")).rules[0]!;
    expect(one.srm).toMatchObject({ p_value: 1, mismatch: false, observed: [1] });
    expect(metric(one, "g_cart").variations).toEqual([
      { variation_id: "v_only", name: "V_ONLY", is_control: true, visitors: 1, conversions: 1, value: 1, comparison: null },
    ]);
  });

  it("one arm with zero variance (no visitor converted, or every visitor did): comparison null, for every engine", async () => {
    t.store.saveExperience(experience());
    for (let i = 0; i < 10; i++) visit(`a${i}`, "v_a", START, i < 3 ? [["TRACK", "add_to_cart", START + 1]] : []);
    for (let i = 0; i < 10; i++) visit(`b${i}`, "v_b", START, [["PAGE", "/checkout", START + 1]]); // all converted on checkout, none on cart
    for (let i = 0; i < 10; i++) visit(`c${i}`, "v_a", START, i < 4 ? [["PAGE", "/checkout", START + 1]] : []);
    for (const engine of ["sequential", "frequentist", "bayesian"]) {
      const rule = (await results("exp_r", `?engine=${engine}`)).rules[0]!;
      expect(metric(rule, "g_cart").variations.map((v) => [v.visitors, v.conversions, v.comparison])).toEqual([[20, 3, null], [10, 0, null]]);
      expect(metric(rule, "g_checkout").variations.map((v) => [v.visitors, v.conversions, v.comparison])).toEqual([[20, 4, null], [10, 10, null]]);
    }
  });

  it("an experience without goals has rules with no metrics; visitors of a removed variation stay out of the rule", async () => {
    t.store.saveExperience(experience("exp_r", undefined, []));
    visit("a", "v_a", START);
    visit("gone", "v_removed", START);
    const r = await results();
    expect(r.total_visitors).toBe(2);
    expect(r.variations.map((v) => [v.variation_id, v.visitors])).toEqual([["v_a", 1], ["v_b", 0], ["v_removed", 1]]);
    expect(r.rules[0]).toMatchObject({ rule_id: "rule_r", audience_name: "Everyone", metrics: [], srm: { observed: [1, 0] } });
  });
});

describe("the query and access", () => {
  it("refuses bad queries with 400 JSON", async () => {
    t.store.saveExperience(experience());
    for (const q of ["engine=magic", "correction=bonferroni", "alpha=0.7", "alpha=0", "alpha=abc", "alpha=-0.05", "alpha=1", "colour=blue", "engine=bayesian&engine=sequential"]) {
      const res = await call(t.app, owner, "GET", `/api/results/exp_r?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toMatchObject({ error: { code: "invalid_body" } });
    }
    expect((await results("exp_r", "?alpha=.01&correction=bh&engine=frequentist")).alpha).toBe(0.01);
  });

  it("a viewer reads results; another account's experience is 404; anonymous is 401", async () => {
    t.store.saveExperience(experience());
    await addOperator(t.store, t.account.id, "viewer@test.example", "viewer");
    const viewer = await signIn(t.app, { email: "viewer@test.example", password: MEMBER_PASSWORD });
    expect((await results("exp_r", "", viewer)).experience_id).toBe("exp_r");
    await addOtherAccount(t.store);
    const other = await signIn(t.app, OTHER.owner);
    const res = await call(t.app, other, "GET", "/api/results/exp_r");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: "not_found" } });
    expect((await call(t.app, null, "GET", "/api/results/exp_r")).statusCode).toBe(401);
  });

  it("through the client API: the config call's assignment, its summary and the visitor's events", async () => {
    const post = (path: string, body: unknown) =>
      t.app.inject({ method: "POST", url: `${path}?cfenc=${DEMO_CLIENT_KEY}`, headers: { "content-type": FORM, origin: SHOP_ORIGIN }, payload: JSON.stringify(body) });
    const visitor = "client-visitor";
    const answer = (await post("/v1/users/configs/", { user: user(visitor), current_page_path: "/products/gentle-baby-wash", current_domain: "littlesprouts.localhost" })).json() as ConfigsResponse;
    const config = Object.values(answer.configs).find((c) => c.experience_behaviour_response?.experience_id === "exp_price_message")!;
    expect(config).toBeDefined();
    const summary = {
      config_id: config.config_id,
      user_customer_id: visitor,
      requested_time: FIXED_NOW,
      variation_id: config.variation_id,
      experience_id: "exp_price_message",
      rule_id: "rule_price_everyone",
      session_id: "s1",
    };
    expect((await post("/v1/config/request/summary/", { user: user(visitor), summaries: [summary] })).statusCode).toBe(200);
    const event = (type: string, name: string, ts: number, properties: Record<string, unknown> = {}) => ({
      event_type: type,
      name,
      event_customer_id: `littlesprouts.localhost|${name}`,
      domain: "littlesprouts.localhost",
      insert_id: `e-${type}-${ts}`,
      event_timestamp: ts,
      session_id: "s1",
      properties: { page_path: "/products/gentle-baby-wash", ...properties },
    });
    const events = [
      event("TRACK", "add_to_cart", FIXED_NOW - 60_000), // before exposure
      event("TRACK", "add_to_cart", FIXED_NOW + 1000),
      event("PAGE", "/checkout", FIXED_NOW + 2000, { page_path: "/checkout" }),
      event("REVENUE", "revenue", FIXED_NOW + 3000, { revenue_amount: 612 }),
    ];
    expect((await post("/v1/cfe/", { user: user(visitor), events })).statusCode).toBe(200);

    const rule = (await results("exp_price_message")).rules[0]!;
    const mine = (m: MetricResult) => m.variations.find((v) => v.variation_id === config.variation_id)!;
    expect(rule.srm.observed.reduce((s, n) => s + n, 0)).toBe(1);
    expect(mine(metric(rule, "goal_add_to_cart"))).toMatchObject({ visitors: 1, conversions: 1 });
    expect(metric(rule, "goal_add_to_cart").cuped).toBe(true);
    expect(mine(metric(rule, "goal_checkout"))).toMatchObject({ conversions: 1 });
    expect(mine(metric(rule, "goal_revenue", "revenue_per_visitor"))).toMatchObject({ revenue: 500, value: 500 }); // capped at 500
    // The stored probability (0.5) is what the SRM check expects.
    expect(rule.srm.expected).toEqual([0.5, 0.5]);
  });
});

describe("through the client API: split cohorts and forced exposures", () => {
  const post = (path: string, body: unknown) =>
    t.app.inject({ method: "POST", url: `${path}?cfenc=${DEMO_CLIENT_KEY}`, headers: { "content-type": FORM, origin: SHOP_ORIGIN }, payload: JSON.stringify(body) });
  /** A config call on the experience's page; the variation answered for exp_r. */
  async function configCall(visitor: string, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await post("/v1/users/configs/", { user: user(visitor), current_page_path: "/", current_domain: "littlesprouts.localhost", ...extra });
    expect(res.statusCode, res.body).toBe(200);
    const config = Object.values((res.json() as ConfigsResponse).configs).find((c) => c.experience_behaviour_response?.experience_id === "exp_r");
    return config!.variation_id;
  }
  async function summary(visitor: string, variation_id: string, requested_time: number) {
    const s = { config_id: "cfg_r", user_customer_id: visitor, requested_time, variation_id, experience_id: "exp_r", rule_id: "rule_r", session_id: "s1" };
    expect((await post("/v1/config/request/summary/", { user: user(visitor), summaries: [s] })).statusCode).toBe(200);
  }

  it("each exposure carries the split its assignment was drawn from; the check expects each cohort by its own", async () => {
    t.store.saveExperience(experience());
    const seen: Record<string, [number, number]> = {};
    const phase = async (tag: string, n: number) => {
      const counts: [number, number] = [0, 0];
      for (let i = 0; i < n; i++) {
        const variation = await configCall(`${tag}-${i}`);
        counts[variation === "v_a" ? 0 : 1]++;
        await summary(`${tag}-${i}`, variation, START + i);
      }
      seen[tag] = counts;
    };
    await phase("early", 60);
    t.store.saveExperience(experience("exp_r", [{ id: "v_a", weight: 9 }, { id: "v_b", weight: 1 }]));
    await phase("late", 60);
    const splits = new Set(t.store.listExposures(t.account.id, 1000).map((x) => x.split));
    expect(splits).toEqual(new Set(['{"v_a":0.5,"v_b":0.5}', '{"v_a":0.9,"v_b":0.1}']));
    const srm = (await results()).rules[0]!.srm;
    const [ea, eb] = seen.early!;
    const [la, lb] = seen.late!;
    expect(srm.observed).toEqual([ea + la, eb + lb]);
    expect(srm.expected[0]).toBeCloseTo((ea + eb) * 0.5 + (la + lb) * 0.9, 9);
    expect(srm.expected[1]).toBeCloseTo((ea + eb) * 0.5 + (la + lb) * 0.1, 9);
  }, HEAVY_MS);

  it("a desired_experiences visit is stored as forced and left out; the visitor's later randomised exposure counts", async () => {
    t.store.saveExperience(experience());
    const exp = t.store.getExperience(t.account.id, "exp_r")!;
    const rule = exp.rules[0]!;
    // A visitor whom randomisation puts in v_b, forced into v_a first.
    let visitor = "";
    for (let i = 0; !visitor; i++) {
      const picked = pickVariation(rule.behaviour.variations, unitHash("variation", exp.id, rule.id, `forced-${i}`));
      if (picked?.variation.id === "v_b") visitor = `forced-${i}`;
    }
    expect(await configCall(visitor, { desired_experiences: ["exp_r:v_a"] })).toBe("v_a");
    await summary(visitor, "v_a", START);
    expect(t.store.listExposures(t.account.id, 10)[0]).toMatchObject({ variation_id: "v_a", forced: true, probability: null, split: null });
    const before = await results();
    expect(before.total_visitors).toBe(0);
    expect(before.rules[0]!.srm.observed).toEqual([0, 0]);

    const event = (ts: number) => ({
      event_type: "TRACK",
      name: "add_to_cart",
      event_customer_id: "littlesprouts.localhost|add_to_cart",
      domain: "littlesprouts.localhost",
      insert_id: `forced-ev-${ts}`,
      event_timestamp: ts,
      session_id: "s1",
      properties: { page_path: "/" },
    });
    expect((await post("/v1/cfe/", { user: user(visitor), events: [event(START + 1000)] })).statusCode).toBe(200);
    expect(await configCall(visitor)).toBe("v_b"); // randomised now: stored, and sticky
    await summary(visitor, "v_b", START + 2000);
    expect((await post("/v1/cfe/", { user: user(visitor), events: [event(START + 3000)] })).statusCode).toBe(200);

    const after = await results();
    expect(after.total_visitors).toBe(1);
    expect(after.variations.map((v) => [v.variation_id, v.visitors])).toEqual([["v_a", 0], ["v_b", 1]]);
    const r = after.rules[0]!;
    expect(r.srm.observed).toEqual([0, 1]);
    const cart = metric(r, "g_cart");
    // First exposure is the randomised one (START + 2000): the event at START + 1000 is pre-exposure.
    expect(cart.cuped).toBe(true);
    expect(cart.variations.map((v) => [v.visitors, v.conversions])).toEqual([[0, 0], [1, 1]]);
  });

  it("a preview visit is forced too; a desired visit naming the visitor's own randomised variation counts", async () => {
    t.store.saveExperience(experience());
    const preview_token = mintPreviewToken(await previewTokenKey(t.store), t.account.id, FIXED_NOW).token;
    const shown = await configCall("previewer", { preview_mode: true, preview_token });
    await summary("previewer", shown, START);
    expect(t.store.listExposures(t.account.id, 10)[0]).toMatchObject({ forced: true, probability: null });

    const mine = await configCall("regular"); // randomised and stored
    expect(await configCall("regular", { desired_experiences: [`exp_r:${mine}`] })).toBe(mine);
    await summary("regular", mine, START);
    expect(t.store.listExposures(t.account.id, 10)[0]).toMatchObject({ forced: false, probability: 0.5, split: '{"v_a":0.5,"v_b":0.5}' });
    const r = await results();
    expect(r.total_visitors).toBe(1);
    expect(r.rules[0]!.srm.observed.reduce((a, b) => a + b, 0)).toBe(1);
  });
});
