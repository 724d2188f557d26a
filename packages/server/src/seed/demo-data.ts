// A simulated history for the demo account (issue #7 part 4): visitors, their exposures with the
// assignment probability, and their events before and after exposure, with a known true effect
// per variation, so the results screen shows something meaningful and tests can check that the
// engine recovers what was planted. `simulateVisitors` is pure (a seeded generator); the
// `writeSimulation` and `fillDemoHistory` functions write through the Store.
//
// The model, per visitor: a day of first exposure, a variation drawn by the split, a propensity z
// (log-normal, mean 1) shared by their behaviour before and after exposure (what CUPED exploits),
// and per goal a conversion with probability min(1, rate × z) — the variation's rate after
// exposure, the control's before it for the share of returning visitors. Revenue goals place one
// order (a second with ORDER_REPEAT_P) of log-normal value. The planted relative lift of a goal
// is rate(variation) / rate(control) − 1 (z barely changes it while rate × z rarely reaches 1).

import type { ConfigSummary, GoalDefinition, TrackedEvent, User } from "@storefit/contract";
import { userIdFor } from "../routes/client.js";
import type { ClientWrite, Experience, Exposure, Store } from "../store/types.js";
import { DEMO_ACCOUNT_ID } from "./demo.js";
import { DEMO_DOMAIN } from "./demo-pages.js";

export const DAY_MS = 86_400_000;

/** What one variation does, per goal id: the conversion rate after exposure and, for revenue goals, the mean order value. */
export type ArmModel = {
  variation_id: string;
  /** Share of the rule's visitors who get this variation (the real split). */
  split: number;
  /** The assignment probability stored with each exposure (what the split should be); default: split. */
  probability?: number;
  rates: Record<string, number>;
  order_values?: Record<string, number>;
};

export type SimulationSpec = {
  experience: Pick<Experience, "id" | "rules" | "goals">;
  rule_id: string;
  arms: ArmModel[];
  /** UTC midnight (ms) of the first day. */
  start: number;
  days: number;
  visitorsPerDay: number;
  /** Share of visitors with pre-exposure behaviour (returning visitors); default 0.3. */
  returningShare?: number;
  /** σ of the log-normal propensity; default 0.5. 0 makes every visitor alike. */
  propensitySigma?: number;
  /** Extra PAGE views per visitor after exposure on the experience's pages (load for the benchmark); default 0. */
  extraPageViews?: number;
  seed: number;
  /** Prefix of the visitors' user_customer_id; default "sim-<experience id>". */
  visitorPrefix?: string;
  accountId?: string;
};

export type SimulatedVisitor = {
  user: User;
  user_id: string;
  exposure: Exposure;
  events: TrackedEvent[];
};

/** A second order after the first, for this share of buyers. */
export const ORDER_REPEAT_P = 0.15;

/** mulberry32: a small, fast, seeded PRNG (uniform in [0, 1)). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** Log-normal with the given mean. */
const logNormal = (random: () => number, mean: number, sigma: number) => mean * Math.exp(sigma * gaussian(random) - (sigma * sigma) / 2);

const EVENT_TYPE_OF_GOAL = { page_view: "PAGE", click: "CLICK", form_submit: "FORM", track: "TRACK", revenue: "REVENUE" } as const;

/** The pages an experience's configs run on (its exposures happen there). */
function pagesOf(spec: SimulationSpec): { domain: string; page_path: string; config_id: string }[] {
  const rule = spec.experience.rules.find((r) => r.id === spec.rule_id);
  const pages = (rule?.behaviour.variations[0]?.configs ?? []).map((c) => {
    const { domain, page_path } = c.properties ?? {};
    return {
      domain: typeof domain === "string" && domain ? domain : DEMO_DOMAIN,
      page_path: typeof page_path === "string" ? page_path : "/",
      config_id: c.config_id,
    };
  });
  return pages.length ? pages : [{ domain: DEMO_DOMAIN, page_path: "/", config_id: `cfg_${spec.experience.id}` }];
}

function goalEvent(goal: GoalDefinition, amount: number): Pick<TrackedEvent, "event_type" | "name" | "domain" | "properties"> {
  const type = EVENT_TYPE_OF_GOAL[goal.kind];
  if (goal.kind === "page_view") {
    const domain = goal.page?.domain || DEMO_DOMAIN;
    const path = goal.page?.page_match === "exact_match" ? goal.page.page_path : "/checkout";
    return { event_type: type, name: path, domain, properties: { page_path: path } };
  }
  if (goal.kind === "revenue") return { event_type: type, name: "checkout", domain: DEMO_DOMAIN, properties: { page_path: "/checkout/thank-you", revenue_amount: Math.round(amount * 100) / 100 } };
  return { event_type: type, name: goal.event_name || goal.kind, domain: DEMO_DOMAIN, properties: { page_path: "/" } };
}

/**
 * The simulated visitors of one rule, in order of first exposure. A generator: the benchmark
 * draws a million events without holding them all.
 */
export function* simulateVisitors(spec: SimulationSpec): Generator<SimulatedVisitor> {
  const random = rng(spec.seed);
  const accountId = spec.accountId ?? DEMO_ACCOUNT_ID;
  const rule = spec.experience.rules.find((r) => r.id === spec.rule_id);
  if (!rule) throw new Error(`no rule ${spec.rule_id} in ${spec.experience.id}`);
  const control = spec.arms[0];
  if (!control) throw new Error("a simulation needs at least one arm");
  const splitSum = spec.arms.reduce((s, a) => s + a.split, 0);
  const returning = spec.returningShare ?? 0.3;
  const sigma = spec.propensitySigma ?? 0.5;
  const pages = pagesOf(spec);
  const prefix = spec.visitorPrefix ?? `sim-${spec.experience.id}`;
  const end = spec.start + spec.days * DAY_MS;
  let index = 0;

  for (let day = 0; day < spec.days; day++) {
    // Daily traffic varies by ±20 %.
    const count = Math.round(spec.visitorsPerDay * (0.8 + 0.4 * random()));
    for (let k = 0; k < count; k++, index++) {
      const t = Math.floor(spec.start + (day + random()) * DAY_MS);
      let pick = random() * splitSum;
      const arm = spec.arms.find((a) => (pick -= a.split) < 0) ?? control;
      const z = sigma > 0 ? logNormal(random, 1, sigma) : 1;
      const page = pages[Math.floor(random() * pages.length)]!;
      const ucid = `${prefix}-${index}`;
      const user_id = userIdFor(accountId, ucid);
      const session = `s-${ucid}`;
      const events: TrackedEvent[] = [];
      let seq = 0;
      const push = (ts: number, e: Pick<TrackedEvent, "event_type" | "name" | "domain" | "properties">) => {
        const name = e.name ?? "";
        events.push({
          ...e,
          event_customer_id: `${e.domain ?? ""}|${name}`,
          insert_id: `sim_${ucid}_${seq++}`,
          event_timestamp: ts,
          session_id: session,
        });
      };
      const pageView = (ts: number) => push(ts, { event_type: "PAGE", name: page.page_path, domain: page.domain, properties: { page_path: page.page_path } });

      // Before exposure: returning visitors behaved as the control does, days earlier.
      if (random() < returning) {
        const before = t - Math.floor((1 + 6 * random()) * DAY_MS);
        pageView(before);
        for (const goal of spec.experience.goals) {
          if (random() < Math.min(1, (control.rates[goal.id] ?? 0) * z)) {
            push(before + 60_000, goalEvent(goal, logNormal(random, control.order_values?.[goal.id] ?? 40, 0.6)));
          }
        }
      }
      // The exposure: the page view that showed the variation.
      pageView(t);
      for (let x = 0; x < (spec.extraPageViews ?? 0); x++) pageView(t + Math.floor(random() * Math.min(DAY_MS, end - t)));
      for (const goal of spec.experience.goals) {
        if (random() >= Math.min(1, (arm.rates[goal.id] ?? 0) * z)) continue;
        // Within two days, and within the simulated window.
        const at = () => t + 1000 + Math.floor(random() * Math.max(1, Math.min(2 * DAY_MS, end - t - 1000)));
        const orders = goal.kind === "revenue" && random() < ORDER_REPEAT_P ? 2 : 1;
        for (let o = 0; o < orders; o++) push(at(), goalEvent(goal, logNormal(random, arm.order_values?.[goal.id] ?? 40, 0.6)));
      }
      events.sort((a, b) => a.event_timestamp - b.event_timestamp);

      const summary: ConfigSummary = {
        config_id: page.config_id,
        user_customer_id: ucid,
        user_id,
        requested_time: t,
        variation_id: arm.variation_id,
        experience_id: spec.experience.id,
        rule_id: rule.id,
        behaviour_id: rule.behaviour.id,
        session_id: session,
      };
      yield {
        user: { user_customer_id: ucid, anonymous: true },
        user_id,
        exposure: { ...summary, probability: arm.probability ?? arm.split / splitSum },
        events,
      };
    }
  }
}

/**
 * Writes simulated visitors through the Store: their events and exposures (and the visitor
 * records), `batch` visitors per transaction. Idempotent: event insert ids and exposure keys are
 * deterministic, so writing the same simulation again stores nothing new.
 */
export async function writeSimulation(
  store: Store,
  accountId: string,
  visitors: Iterable<SimulatedVisitor>,
  now: string,
  batch = 2000,
): Promise<{ visitors: number; events: number; exposures: number }> {
  const totals = { visitors: 0, events: 0, exposures: 0 };
  let writes: ClientWrite[] = [];
  const flush = async () => {
    if (!writes.length) return;
    const results = await store.commitClientWrites(writes);
    writes.forEach((w, i) => {
      if (w.kind === "events") totals.events += results[i]!.accepted;
      if (w.kind === "exposures") totals.exposures += results[i]!.accepted;
    });
    writes = [];
  };
  for (const v of visitors) {
    totals.visitors++;
    writes.push({ kind: "events", accountId, userId: v.user_id, user: v.user, touch: true, events: v.events, now });
    writes.push({ kind: "exposures", accountId, userId: v.user_id, user: v.user, touch: false, exposures: [v.exposure], now });
    if (writes.length >= 2 * batch) await flush();
  }
  await flush();
  return totals;
}

/**
 * The demo account's history: 14 days ending at `end` (UTC midnight), for each seeded running
 * experience. The price-message A/B test has the planted effects below; the personalizations
 * have one variation (no comparison, only counts and the daily series).
 */
export const DEMO_HISTORY_DAYS = 14;

/** The planted truth of the A/B test (exp_price_message): free shipping lifts add-to-cart by 12 %. */
export const DEMO_PRICE_MESSAGE_ARMS: ArmModel[] = [
  {
    variation_id: "var_price_control",
    split: 0.5,
    rates: { goal_add_to_cart: 0.1, goal_checkout: 0.05, goal_revenue: 0.03 },
    order_values: { goal_revenue: 48 },
  },
  {
    variation_id: "var_price_free_shipping",
    split: 0.5,
    rates: { goal_add_to_cart: 0.112, goal_checkout: 0.055, goal_revenue: 0.033 },
    order_values: { goal_revenue: 46 },
  },
];

export function demoSimulations(experiences: readonly Experience[], end: number): SimulationSpec[] {
  const start = end - DEMO_HISTORY_DAYS * DAY_MS;
  const byId = new Map(experiences.map((e) => [e.id, e]));
  const specs: SimulationSpec[] = [];
  const add = (id: string, arms: ArmModel[], visitorsPerDay: number, seed: number) => {
    const experience = byId.get(id);
    const rule = experience?.rules[0];
    if (!experience || !rule) return;
    // Only variations the experience still has (the operator may have edited it).
    const known = new Set(rule.behaviour.variations.map((v) => v.id));
    if (!arms.every((a) => known.has(a.variation_id))) return;
    specs.push({ experience, rule_id: rule.id, arms, start, days: DEMO_HISTORY_DAYS, visitorsPerDay, seed, visitorPrefix: `demo-${id}` });
  };
  add("exp_price_message", DEMO_PRICE_MESSAGE_ARMS, 2000, 7);
  const single = (variation_id: string, rate: number): ArmModel[] => [
    { variation_id, split: 1, rates: { goal_revenue: rate }, order_values: { goal_revenue: 45 } },
  ];
  add("exp_uk_tax_line", single("var_uk_tax_line", 0.035), 150, 11);
  add("exp_welcome_popup", single("var_welcome_popup", 0.03), 400, 13);
  add("exp_gallery_device", single("var_gallery_device", 0.032), 250, 17);
  return specs;
}

/** UTC midnight of the day of `ms`. */
export const utcMidnight = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * Fills the demo account with its simulated history (`npm run demo-data`). Refuses to fill twice:
 * when the last experience's first simulated event is already stored (it is written last),
 * nothing is written. Each experience's history is written in one transaction; re-running on the
 * same UTC day after an interruption completes it (the writes are idempotent).
 */
export async function fillDemoHistory(
  store: Store,
  now = Date.now(),
): Promise<{ filled: boolean; experiences: string[]; visitors: number; events: number; exposures: number }> {
  const experiences = await store.listRunningExperiences(DEMO_ACCOUNT_ID);
  const specs = demoSimulations(experiences, utcMidnight(now));
  const out = { filled: false, experiences: specs.map((s) => s.experience.id), visitors: 0, events: 0, exposures: 0 };
  const last = specs[specs.length - 1];
  const first = last && simulateVisitors(last).next().value;
  if (!first || (await store.hasEvent(DEMO_ACCOUNT_ID, first.events[0]!.insert_id))) return out;
  const at = new Date(now).toISOString();
  for (const spec of specs) {
    const t = await writeSimulation(store, DEMO_ACCOUNT_ID, simulateVisitors(spec), at, Number.MAX_SAFE_INTEGER);
    out.visitors += t.visitors;
    out.events += t.events;
    out.exposures += t.exposures;
  }
  return { ...out, filled: true };
}
