// The visitor timeline lists what a visitor saw once per page view: the script sends a config
// summary per config shown, all stamped with the view's start, so a variation with three changes
// was listed three times per view (found by an operator reading a shopper's timeline).

import { describe, expect, it } from "vitest";
import type { ConfigsResponse, VisitorTimelineResponse } from "@storefit/contract";
import { call, DEMO_CLIENT_KEY, FIXED_NOW, FORM, SHOP_ORIGIN, signedInEachTest, user } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;
signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

const post = (path: string, body: unknown) =>
  t.app.inject({ method: "POST", url: `${path}?cfenc=${DEMO_CLIENT_KEY}`, headers: { "content-type": FORM, origin: SHOP_ORIGIN }, payload: JSON.stringify(body) });

describe("the visitor timeline", () => {
  it("lists a page view's exposure to a variation once, however many of its configs the view showed", async () => {
    const visitor = "three-changes";
    const answer = (await post("/v1/users/configs/", { user: user(visitor), current_page_path: "/products/gentle-baby-wash", current_domain: "littlesprouts.localhost" })).json() as ConfigsResponse;
    const config = Object.values(answer.configs).find((c) => c.experience_behaviour_response?.experience_id === "exp_price_message")!;
    const summary = (configId: string, requested_time: number) => ({
      config_id: configId,
      user_customer_id: visitor,
      requested_time,
      variation_id: config.variation_id,
      experience_id: "exp_price_message",
      rule_id: "rule_price_everyone",
      session_id: "s1",
    });
    // Two views, each showing three configs of the variation.
    const summaries = [FIXED_NOW, FIXED_NOW + 60_000].flatMap((at) => ["cfg_a", "cfg_b", "cfg_c"].map((id) => summary(id, at)));
    const res = await post("/v1/config/request/summary/", { user: user(visitor), summaries });
    expect(res.json()).toMatchObject({ accepted: 6 });
    const timeline = (await call(t.app, owner, "GET", `/api/visitors/${visitor}/timeline`)).json() as VisitorTimelineResponse;
    const shown = timeline.items.flatMap((i) => (i.kind === "exposure" ? [[i.at, i.experience_id, i.variation_id]] : []));
    expect(shown).toEqual([
      [FIXED_NOW, "exp_price_message", config.variation_id],
      [FIXED_NOW + 60_000, "exp_price_message", config.variation_id],
    ]);
  });
});
