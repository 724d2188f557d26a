// Config summaries a hostile client could send with the public client key (found by this
// session's audit): a summary's own `user_id` must not make one assignment count as many
// visitors, and a batch naming many other visitors must not hold the database with reads.

import { describe, expect, it } from "vitest";
import type { ConfigsResponse, ExperienceResults } from "@storefit/contract";
import { call, DEMO_CLIENT_KEY, FIXED_NOW, FORM, SHOP_ORIGIN, signedInEachTest, user } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";
import { userIdFor } from "../src/routes/client.js";

let t: TestApp;
let owner: Auth;
signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

const EXPERIENCE = "exp_price_message";
const RULE = "rule_price_everyone";

const post = (path: string, body: unknown) =>
  t.app.inject({ method: "POST", url: `${path}?cfenc=${DEMO_CLIENT_KEY}`, headers: { "content-type": FORM, origin: SHOP_ORIGIN }, payload: JSON.stringify(body) });

async function configCall(visitor: string): Promise<{ config_id: string; variation_id: string }> {
  const answer = (await post("/v1/users/configs/", { user: user(visitor), current_page_path: "/products/gentle-baby-wash", current_domain: "littlesprouts.localhost" })).json() as ConfigsResponse;
  const config = Object.values(answer.configs).find((c) => c.experience_behaviour_response?.experience_id === EXPERIENCE);
  expect(config).toBeDefined();
  return { config_id: config!.config_id, variation_id: config!.variation_id! };
}

const summary = (visitor: string, config: { config_id: string; variation_id: string }, requested_time: number, extra: Record<string, unknown> = {}) => ({
  config_id: config.config_id,
  user_customer_id: visitor,
  requested_time,
  variation_id: config.variation_id,
  experience_id: EXPERIENCE,
  rule_id: RULE,
  session_id: "s1",
  ...extra,
});

async function visitorsCounted(): Promise<number> {
  const res = await call(t.app, owner, "GET", `/api/results/${EXPERIENCE}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ExperienceResults).rules[0]!.srm.observed.reduce((a, b) => a + b, 0);
}

describe("config summaries from a hostile client", () => {
  it("a summary's own user_id is not used: one assignment counts one visitor, under the service's id", async () => {
    const visitor = "real-visitor";
    const config = await configCall(visitor);
    const summaries = Array.from({ length: 50 }, (_, i) => summary(visitor, config, FIXED_NOW + i, { user_id: `fake-${i}` }));
    const res = await post("/v1/config/request/summary/", { user: user(visitor), summaries });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accepted: 50 });
    expect(await visitorsCounted()).toBe(1);
    const stored = t.store.listExposures(t.account.id, 100).filter((x) => x.experience_id === EXPERIENCE);
    expect(new Set(stored.map((x) => x.user_id))).toEqual(new Set([userIdFor(t.account.id, visitor)]));
  });

  it("summaries naming other visitors are checked once, not read again after each wait for a commit", async () => {
    const experience = t.store.listExperiences(t.account.id).find((x) => x.id === EXPERIENCE)!;
    const variations = experience.rules.find((r) => r.id === RULE)!.behaviour.variations.map((v) => v.id);
    expect(variations.length).toBeGreaterThan(1);
    const own = "batch-sender";
    const config = await configCall(own);
    // Visitors never assigned, each named with every variation: one of them is the visitor's draw,
    // the case the route waits for when it is the request's own visitor.
    const others = Array.from({ length: 20 }, (_, i) => `never-assigned-${i}`);
    const summaries = others.flatMap((v, i) => variations.map((variation_id) => summary(v, { config_id: config.config_id, variation_id }, FIXED_NOW + i)));
    const reads: string[] = [];
    const getAssignments = t.store.getAssignments.bind(t.store);
    t.store.getAssignments = (accountId: string, userId: string) => {
      reads.push(userId);
      return getAssignments(accountId, userId);
    };
    const res = await post("/v1/config/request/summary/", { user: user(own), summaries });
    expect(res.statusCode, res.body).toBe(200);
    // One read per visitor named, none again.
    expect(reads.length).toBe(others.length);
    // Not randomised by any assignment: stored, as forced, and counted nowhere.
    expect(res.json()).toMatchObject({ accepted: summaries.length });
    expect(await visitorsCounted()).toBe(0);
  });
});
