// Two A/B tests on the same element, split by a mutually exclusive group (issue #16), measured
// from end to end of the service: config calls and the summaries a script sends for what it was
// given, then each experience's results. Real SQLite, the demo account, whose running "Price
// message" (priority 10) rewrites #product-price on every US product page.
import { beforeAll, afterAll, describe, expect, it } from "vitest";
import type { ConfigsResponse, ExperienceDetail, ExperienceResults } from "@storefit/contract";
import { DEMO_CLIENT_KEY } from "../src/seed/demo.js";
import { FIXED_NOW, FORM, SHOP_ORIGIN, call, experienceBody, makeApp, signIn, user } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

const PRICE = "exp_price_message";
const GROUP = "product-price";
const VISITORS = 400;
const q = `?cfenc=${DEMO_CLIENT_KEY}`;

let t: TestApp;
let owner: Auth;
let second: ExperienceDetail;
/** Per visitor, the experiences whose configs the answer carried. */
const shown = new Map<string, string[]>();

const post = (url: string, body: unknown) =>
  t.app.inject({ method: "POST", url, headers: { "content-type": FORM, origin: SHOP_ORIGIN }, payload: JSON.stringify(body) });

async function results(id: string): Promise<ExperienceResults> {
  const res = await call(t.app, owner, "GET", `/api/results/${id}?engine=sequential&correction=holm`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ExperienceResults;
}

beforeAll(async () => {
  t = await makeApp();
  owner = await signIn(t.app);
  const page = t.account.settings.pages.find((p) => p.domain === t.account.settings.domain)!.page_path;

  // A second test of the price line: a plain control and a treatment, in the lower half of the group.
  const body = experienceBody({ name: "Price colour", priority: 0, pages: [{ domain: "littlesprouts.localhost", page_path: page, page_match: "exact_match" }], exclusion_group: { name: GROUP, start: 0.5, end: 1 } });
  const [control, treatment] = body.rules[0]!.behaviour.variations;
  control!.configs = [];
  for (const c of treatment!.configs) c.properties.element_path = "#product-price";
  const created = await call(t.app, owner, "POST", "/api/experiences", body);
  expect(created.statusCode, created.body).toBe(201);
  second = created.json() as ExperienceDetail;
  // The running price test takes the upper half; then both run.
  const moved = await call(t.app, owner, "PATCH", `/api/experiences/${PRICE}`, { exclusion_group: { name: GROUP, start: 0, end: 0.5 } });
  expect(moved.statusCode, moved.body).toBe(200);
  expect((await call(t.app, owner, "POST", `/api/experiences/${second.id}/status`, { status: "running" })).statusCode).toBe(200);

  for (let i = 0; i < VISITORS; i++) {
    const visitor = `group-visitor-${i}`;
    const res = await post(`/v1/users/configs/${q}`, { user: user(visitor), current_page_path: page, current_domain: "littlesprouts.localhost" });
    expect(res.statusCode, res.body).toBe(200);
    const configs = Object.values((res.json() as ConfigsResponse).configs);
    shown.set(visitor, [...new Set(configs.map((c) => c.experience_behaviour_response!.experience_id))]);
    // What a script sends for the configs it was given: one summary each.
    const summaries = configs.map((c) => ({
      config_id: c.config_id,
      user_customer_id: visitor,
      requested_time: FIXED_NOW,
      variation_id: c.variation_id,
      experience_id: c.experience_behaviour_response!.experience_id,
      rule_id: c.experience_behaviour_response!.rule_id,
      behaviour_id: c.experience_behaviour_response!.behaviour_id,
      session_id: `s-${visitor}`,
    }));
    if (summaries.length) expect((await post(`/v1/config/request/summary/${q}`, { user: user(visitor), summaries })).statusCode).toBe(200);
  }
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe("two tests of one element in a mutually exclusive group", () => {
  it("every visitor gets exactly one of them, and each gets about its half", () => {
    const per = { [PRICE]: 0, [second.id]: 0 };
    for (const [visitor, experiences] of shown) {
      expect(experiences, visitor).toHaveLength(1);
      per[experiences[0]!]!++;
    }
    // Half of 400 each: far outside 150–250 only with a broken split (p < 1e-6).
    expect(per[PRICE]).toBeGreaterThan(150);
    expect(per[second.id]).toBeGreaterThan(150);
    expect(per[PRICE]! + per[second.id]!).toBe(VISITORS);
  });

  it("stores each exposure with the group's share in its probability", () => {
    const exposures = t.store.listExposures(t.account.id, 2 * VISITORS).filter((x) => x.user_customer_id.startsWith("group-visitor-"));
    expect(exposures).toHaveLength(VISITORS);
    // Half of the group, then one of two equal variations: 0.25.
    for (const x of exposures) expect(x.probability, `${x.experience_id} ${x.variation_id}`).toBe(0.25);
  });

  it("results count every visitor in exactly one experience, both arms of each, and the split passes the check", async () => {
    const [price, colour] = [await results(PRICE), await results(second.id)];
    expect(price.total_visitors + colour.total_visitors).toBe(VISITORS);
    for (const r of [price, colour]) {
      const rule = r.rules[0]!;
      expect(rule.srm.mismatch, r.experience_id).toBe(false);
      // Both arms, the plain control too.
      for (const visitors of rule.srm.observed) expect(visitors, r.experience_id).toBeGreaterThan(50);
    }
    // The plain control is exposed (an exposure-only config), so its arm is counted.
    const control = second.rules[0]!.behaviour.variations[0]!;
    expect(control.configs).toEqual([]);
    expect(t.store.listExposures(t.account.id, 2 * VISITORS).some((x) => x.variation_id === control.id)).toBe(true);
  });
});
