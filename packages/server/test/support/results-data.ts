// Seeded random exposures and events of one experience, written in rounds, and the results
// aggregate they must give, computed here in plain JS from docs/results.md ("Who counts", "Goals
// and conversions"), independently of either backend's SQL.
//
// Revenue amounts and probabilities are multiples of 1/8, so every sum is exact in any order: the
// stores' answers can be compared with toEqual, floats included.
import { SETTINGS_DEFAULTS, matchDomain, matchPagePath } from "@storefit/contract";
import type { GoalDefinition, TrackedEvent, User } from "@storefit/contract";
import { GOAL_EVENT_TYPES, MAX_DATE_MS, NAMED_TYPES, countedAmount, eventName, eventPagePath, eventRevenue } from "../../src/store/event-fields.js";
import type { ClientWrite, Exposure, ExposureDay, GoalSums, NewAccount, ResultsAggregate } from "../../src/store/types.js";

export const EXPERIENCE = "exp";
/** The account the tests write their rows under ("acc"). */
export const SHOP: NewAccount = { id: "acc", name: "Shop", client_key: "key-acc", settings: { ...SETTINGS_DEFAULTS, domain: "shop.example" } };
const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 1);

/** The seed's mulberry32 generator: seeded, so that a failure replays. */
export { rng as random } from "../../src/seed/demo-data.js";

export const GOALS: GoalDefinition[] = [
  { id: "g-page", name: "Checkout", kind: "page_view", page: { domain: "*.example", page_path: "/checkout", page_match: "contains" } },
  { id: "g-cart", name: "Add to cart", kind: "track", event_name: "add_to_cart" },
  { id: "g-any-click", name: "Any click", kind: "click" },
  { id: "g-rev", name: "Revenue", kind: "revenue", revenue_cap: 100 },
];

/** Another goal set: what an edit of the experience's goals gives. */
export const OTHER_GOALS: GoalDefinition[] = [
  { id: "g-rev-uncapped", name: "Revenue", kind: "revenue" },
  { id: "g-home", name: "Home", kind: "page_view", page: { domain: "", page_path: "/", page_match: "exact_match" } },
];

/** Revenue amounts whose sums are exact in any order. */
export const DYADIC_AMOUNTS = [12.5, 30.25, 64, "8.125 EUR", 0, -5];
/** Amounts as shops have them: their float sums depend on the order of addition. */
export const DECIMAL_AMOUNTS = [19.99, 0.1, 0.7, "12.30 EUR", 1e-9, 3.3333];

const visitorOf = (id: string): User => ({ user_customer_id: id, anonymous: true });

/** What was written, each row with its place in the order of writing (`order`, over both lists). */
export type Written = { exposures: (Exposure & { order: number })[]; events: (TrackedEvent & { user_id: string; order: number })[] };

/**
 * One round of arrivals for `users` visitors (ids u0…): new visitors' first exposures, later
 * exposures (some to the other variation, some earlier than the first: a late summary), forced
 * exposures, and events of every kind before and after exposure, including visitors whose events
 * arrive before any exposure of theirs.
 */
export function round(next: () => number, accountId: string, round: number, users: number, written: Written, amounts: readonly (number | string)[] = DYADIC_AMOUNTS): ClientWrite[] {
  const writes: ClientWrite[] = [];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const now = new Date(START + 30 * DAY).toISOString();
  for (let n = 0; n < users; n++) {
    const u = `u${Math.floor(next() * users * 2)}`;
    const base = START + Math.floor(next() * 10 * DAY);
    const exposures: Exposure[] = [];
    const count = next() < 0.2 ? 0 : 1 + Math.floor(next() * 3);
    for (let i = 0; i < count; i++) {
      const variation = pick(["va", "vb", "vc"]);
      // Two exposures at one millisecond: the smaller variation id is the first.
      const time = next() < 0.1 ? START + DAY : base + Math.floor((next() - 0.3) * 3 * DAY);
      const split = pick([null, '{"va":0.5,"vb":0.5}', '{"va":0.25,"vb":0.75}']);
      exposures.push({
        config_id: "cfg",
        user_customer_id: u,
        user_id: u,
        session_id: `s${round}-${n}-${i}`,
        requested_time: time,
        variation_id: variation,
        experience_id: next() < 0.05 ? "other-exp" : EXPERIENCE,
        rule_id: "r1",
        behaviour_id: "r1-b",
        probability: pick([null, 0.5, 0.25, 0.125]),
        split,
        forced: next() < 0.1,
      });
    }
    const events: TrackedEvent[] = [];
    const eventCount = Math.floor(next() * 6);
    for (let i = 0; i < eventCount; i++) {
      const ts = base + Math.floor((next() - 0.4) * 4 * DAY);
      const insert_id = `${round}-${n}-${i}`;
      const kind = Math.floor(next() * 6);
      if (kind === 0) events.push({ event_type: "PAGE", event_customer_id: "x|page", domain: pick(["shop.example", "Shop.Example", "elsewhere.test"]), insert_id, event_timestamp: ts, properties: { page_path: pick(["/checkout", "/checkout/step", "/", "/cart"]) } });
      else if (kind === 1) events.push({ event_type: "TRACK", event_customer_id: `shop.example|${pick(["add_to_cart", "other"])}`, domain: "shop.example", insert_id, event_timestamp: ts, properties: {} });
      else if (kind === 2) events.push({ event_type: "CLICK", event_customer_id: "shop.example|button", domain: "shop.example", insert_id, event_timestamp: ts, properties: {} });
      else events.push({ event_type: "REVENUE", event_customer_id: "shop.example|order", domain: "shop.example", insert_id, event_timestamp: ts, properties: { revenue_amount: pick(amounts) } });
    }
    // Events first for some visitors: their exposure arrives in this round's later write, or a later round.
    const eventsFirst = next() < 0.3;
    const exposureWrite: ClientWrite = { kind: "exposures", accountId, userId: u, user: visitorOf(u), touch: false, exposures, now };
    const eventWrite: ClientWrite = { kind: "events", accountId, userId: u, user: visitorOf(u), touch: false, events, now };
    for (const w of eventsFirst ? [eventWrite, exposureWrite] : [exposureWrite, eventWrite]) {
      if (w.kind === "exposures" && w.exposures.length) {
        writes.push(w);
        for (const x of w.exposures) written.exposures.push({ ...x, order: written.exposures.length + written.events.length });
      }
      if (w.kind === "events" && w.events.length) {
        writes.push(w);
        for (const e of w.events) written.events.push({ ...e, user_id: u, order: written.exposures.length + written.events.length });
      }
    }
  }
  return writes;
}

const isoDay = (ms: number): string | null => (ms >= 0 && ms <= MAX_DATE_MS ? new Date(ms).toISOString().slice(0, 10) : null);
const byText = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/** The aggregate docs/results.md defines, without a date range. */
export function expectedAggregate(written: Written, goals: readonly GoalDefinition[]): ResultsAggregate {
  const firsts = new Map<string, Exposure & { order: number }>();
  for (const x of written.exposures) {
    if (x.forced || x.experience_id !== EXPERIENCE || !x.user_id) continue;
    const f = firsts.get(x.user_id);
    if (!f || x.requested_time < f.requested_time || (x.requested_time === f.requested_time && x.variation_id! < f.variation_id!)) firsts.set(x.user_id, x);
  }
  const days = new Map<string, ExposureDay>();
  for (const f of firsts.values()) {
    const date = isoDay(f.requested_time);
    const key = JSON.stringify([f.variation_id, date, f.split ?? null]);
    const d = days.get(key) ?? { variation_id: f.variation_id!, date, split: f.split ?? null, visitors: 0, probability_sum: 0, probability_count: 0 };
    d.visitors++;
    if (f.probability != null) {
      d.probability_sum += f.probability;
      d.probability_count++;
    }
    days.set(key, d);
  }
  const exposures = [...days.values()].sort((a, b) => byText(a.variation_id, b.variation_id) || byText(a.date, b.date) || byText(a.split, b.split));

  const sums = new Map<string, GoalSums>();
  for (const g of goals) {
    const type = GOAL_EVENT_TYPES[g.kind];
    const cap = g.kind === "revenue" ? g.revenue_cap : undefined;
    const page = g.page ?? { page_path: "", page_match: "exact_match" as const, domain: "" };
    const perVisitor = new Map<string, { post: number; pre: number; first: number | null; orders: number; amount: number; preAmount: number }>();
    for (const e of written.events) {
      if (e.event_type !== type) continue;
      const f = firsts.get(e.user_id);
      if (!f) continue;
      if (g.kind === "page_view") {
        const path = eventPagePath(e);
        if (path === null || !matchPagePath(page.page_match, page.page_path, path)) continue;
        if (page.domain && !matchDomain(e.domain ?? "", page.domain)) continue;
      } else if (g.kind !== "revenue" && g.event_name && !(NAMED_TYPES.includes(type) && eventName(e) === g.event_name)) continue;
      const amount = countedAmount(eventRevenue(e));
      // An order is a REVENUE event whose amount counts (> 0).
      if (g.kind === "revenue" && amount === 0) continue;
      const s = perVisitor.get(e.user_id) ?? { post: 0, pre: 0, first: null, orders: 0, amount: 0, preAmount: 0 };
      const ts = Math.trunc(e.event_timestamp);
      if (ts >= f.requested_time) {
        s.post = 1;
        s.first = s.first === null ? ts : Math.min(s.first, ts);
        s.orders++;
        s.amount += amount;
      } else {
        s.pre = 1;
        s.preAmount += amount;
      }
      perVisitor.set(e.user_id, s);
    }
    for (const [user, s] of perVisitor) {
      const variation = firsts.get(user)!.variation_id!;
      const date = s.first === null ? null : isoDay(s.first);
      const key = JSON.stringify([g.id, variation, date]);
      const t = sums.get(key) ?? {
        goal_id: g.id, variation_id: variation, date, visitors: 0, post: 0, pre: 0, post_pre: 0, value: 0, value_squares: 0,
        pre_value: 0, pre_value_squares: 0, value_pre_value: 0, orders: 0, orders_squares: 0, value_orders: 0,
      };
      const v = cap !== undefined && s.amount > cap ? cap : s.amount;
      const pv = cap !== undefined && s.preAmount > cap ? cap : s.preAmount;
      t.visitors++;
      t.post += s.post;
      t.pre += s.pre;
      t.post_pre += s.post * s.pre;
      t.value += v;
      t.value_squares += v * v;
      t.pre_value += pv;
      t.pre_value_squares += pv * pv;
      t.value_pre_value += v * pv;
      t.orders += s.orders;
      t.orders_squares += s.orders * s.orders;
      t.value_orders += v * s.orders;
      sums.set(key, t);
    }
  }
  const goalSums = [...sums.values()].sort((a, b) => byText(a.goal_id, b.goal_id) || byText(a.variation_id, b.variation_id) || byText(a.date, b.date));
  return { exposures, goals: goals.length ? goalSums : [] };
}

/** The distinct visitors exposureVisitors answers without a range: in all, and per variation seen. */
export function expectedExposed(written: Written): { distinct: number; byVariation: { variation_id: string; visitors: number }[] } {
  const all = new Set<string>();
  const byVariation = new Map<string, Set<string>>();
  for (const x of written.exposures) {
    if (x.forced || x.experience_id !== EXPERIENCE || !x.user_id) continue;
    all.add(x.user_id);
    const users = byVariation.get(x.variation_id!) ?? new Set<string>();
    byVariation.set(x.variation_id!, users.add(x.user_id));
  }
  return {
    distinct: all.size,
    byVariation: [...byVariation].map(([variation_id, users]) => ({ variation_id, visitors: users.size })).sort((a, b) => byText(a.variation_id, b.variation_id)),
  };
}

/** What foldResults must answer for what was written: the aggregate and the exposed visitors. */
export function expectedFold(written: Written, goals: readonly GoalDefinition[] = GOALS) {
  return { aggregate: expectedAggregate(written, goals), exposed: expectedExposed(written) };
}
