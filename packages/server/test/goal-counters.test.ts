// Goals counted in every variation (decide/goal-counters.ts, docs/api.md "Goal counters"): a
// click goal counted by one variation's on-click action alone (or a custom event by its on-load
// action) is counted in the rule's other variations too, so each of them can convert on it.
import { describe, expect, it } from "vitest";
import type { Config } from "@storefit/contract";
import { decide } from "../src/decide/decide.js";
import type { Decision } from "../src/decide/decide.js";
import type { ConfigDefinition, Experience, VariationDefinition } from "../src/store/types.js";

const DOMAIN = "shop.example";
const PAGE = "/products/soap";

const clickGoal = (goal: string | null, type = "track_click") => ({
  customfit_meta: { onclick_action: { action_type: type, action_txt: goal === null ? {} : { goal_name: goal } } },
});

function config(id: string, element: string, variation: unknown, properties: Record<string, unknown> = {}): ConfigDefinition {
  return {
    config_customer_id: id,
    config_id: id,
    variation_data_type: "HTML_ELEMENT",
    variation: variation as ConfigDefinition["variation"],
    properties: { element_path: element, ...properties },
  };
}

const variation = (id: string, configs: ConfigDefinition[]): VariationDefinition => ({ id, name: id, weight: 1, configs });

function experience(variations: VariationDefinition[]): Experience {
  return {
    id: "exp_button",
    account_id: "acc",
    name: "Button",
    status: "running",
    kind: "ab_test",
    priority: 0,
    exclusion_group: null,
    pages: [{ domain: DOMAIN, page_path: "/products/", page_match: "contains" }],
    rules: [{ id: "rule_1", audience_id: null, behaviour: { id: "beh_1", name: "b", traffic_allocation: 1, variations } }],
    goals: [],
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
}

function decideFor(exp: Experience, visitor: string): Decision {
  return decide({
    request: { user: { user_customer_id: visitor, anonymous: true }, current_domain: DOMAIN, current_page_path: PAGE },
    visitorId: visitor,
    experiences: [exp],
    audiences: new Map(),
    assignments: new Map(),
    attributes: {},
    mainDomain: DOMAIN,
  });
}

/** The answer of a visitor decided into `variationId` (the first of v0, v1, … that is). */
function answerIn(exp: Experience, variationId: string): Record<string, Config> {
  for (let i = 0; i < 500; i++) {
    const d = decideFor(exp, `v${i}`);
    const configs = Object.values(d.configs);
    if (configs.length && configs[0]!.variation_id === variationId) return d.configs;
  }
  throw new Error(`no visitor in ${variationId}`);
}

const COUNTER = "cf_goal_counter_exp_button_rule_1_0";

describe("click goals are counted in every variation", () => {
  it("a plain control is answered with a counter of the goal Variation B counts: same element and page, nothing visible", () => {
    const exp = experience([
      variation("control", []),
      variation("b", [config("cfg_buy", "#buy", { innerHTML: "Buy now", ...clickGoal("cta_click") }, { page_path: PAGE, page_match: "exact_match", element_hint: "button" })]),
    ]);
    const control = answerIn(exp, "control");
    expect(Object.keys(control)).toEqual([COUNTER]);
    expect(control[COUNTER]).toMatchObject({
      config_id: COUNTER,
      variation_id: "control",
      variation_data_type: "HTML_ELEMENT",
      variation: clickGoal("cta_click"),
      properties: { element_path: "#buy", page_path: PAGE, page_match: "exact_match", element_hint: "button", system_created: true },
      experience_behaviour_response: { experience_id: "exp_button", rule_id: "rule_1", behaviour_id: "beh_1" },
    });
    // Variation B counts it itself: no counter beside its own config.
    expect(Object.keys(answerIn(exp, "b"))).toEqual(["cfg_buy"]);
  });

  it("a variation with its own change of the element keeps it and gets the counter beside it", () => {
    const exp = experience([
      variation("a", [config("cfg_buy_a", "#buy", { innerHTML: "Add to bag" })]),
      variation("b", [config("cfg_buy_b", "#buy", { innerHTML: "Buy now", ...clickGoal("cta_click") })]),
    ]);
    const a = answerIn(exp, "a");
    expect(Object.keys(a)).toEqual(["cfg_buy_a", COUNTER]);
    expect(a["cfg_buy_a"]!.variation).toEqual({ innerHTML: "Add to bag" });
    expect(a[COUNTER]!.variation).toEqual(clickGoal("cta_click"));
  });

  it("adds nothing when every variation counts the goal, or when the click only runs JavaScript", () => {
    const both = experience([
      variation("a", [config("cfg_a", "#buy", clickGoal("cta_click", "track_click_and_execute_javascript"))]),
      variation("b", [config("cfg_b", "#buy", { innerHTML: "Buy", ...clickGoal("cta_click") })]),
    ]);
    expect(Object.keys(answerIn(both, "a"))).toEqual(["cfg_a"]);
    expect(Object.keys(answerIn(both, "b"))).toEqual(["cfg_b"]);
    const jsOnly = experience([variation("control", []), variation("b", [config("cfg_b", "#buy", clickGoal("x", "execute_javascript"))])]);
    expect(Object.keys(answerIn(jsOnly, "control"))).toEqual(["cf_exposure_exp_button"]);
  });

  it("counts each goal and element once, a goal without a name too, and only on the pages its config applies", () => {
    const exp = experience([
      variation("control", []),
      variation("b", [
        config("cfg_buy", "#buy", clickGoal("cta_click")),
        config("cfg_buy_again", "#buy", clickGoal("cta_click")),
        config("cfg_any", "#help", clickGoal(null)),
        config("cfg_elsewhere", "#cart-button", clickGoal("cart_click"), { page_path: "/cart", page_match: "exact_match" }),
      ]),
    ]);
    const control = answerIn(exp, "control");
    expect(Object.keys(control)).toEqual([COUNTER, "cf_goal_counter_exp_button_rule_1_1"]);
    expect(control[COUNTER]!.properties).toEqual({ element_path: "#buy", system_created: true });
    expect(control["cf_goal_counter_exp_button_rule_1_1"]).toMatchObject({ variation: clickGoal(null), properties: { element_path: "#help", system_created: true } });
  });
  it("counts a custom event sent by an on-load action the same way, with or without an element", () => {
    const onLoad = (goal: string) => ({ customfit_meta: { onload_action: { action_type: "track_click", action_txt: { goal_name: goal } } } });
    const elementless: ConfigDefinition = { config_customer_id: "cfg_page", config_id: "cfg_page", variation_data_type: "HTML_ELEMENT", variation: onLoad("saw_offer") as ConfigDefinition["variation"], properties: {} };
    const exp = experience([variation("control", []), variation("b", [config("cfg_banner", "#banner", { innerHTML: "Offer", ...onLoad("banner_seen") }), elementless])]);
    const control = answerIn(exp, "control");
    expect(Object.values(control).map((c) => [c.variation, c.properties])).toEqual([
      [onLoad("banner_seen"), { element_path: "#banner", system_created: true }],
      [onLoad("saw_offer"), { system_created: true }],
    ]);
  });
});
