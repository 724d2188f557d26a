// The audience builder's two-way mapping against the service's own condition language: every
// operator the builder offers produces a condition the service accepts at save time
// (validateCondition), that matches and misses the visitors it should (evalCondition, as the
// config call runs it), and that the builder reads back unchanged. No browser: this file lives
// with the dashboard's browser tests because it checks the dashboard against the server's code.

import { describe, expect, it } from "vitest";
import { evalCondition, validateCondition } from "../packages/server/src/decide/conditions.js";
import {
  type BuilderState,
  type Rule,
  describeCondition,
  fromCondition,
  ruleProblem,
  toCondition,
} from "../packages/dashboard/src/pages/audiences/conditionModel.js";

type Case = { rule: Rule; condition: unknown; yes: Record<string, unknown>; no: Record<string, unknown> };

const cases: Case[] = [
  { rule: { attribute: "cf_device_type", operator: "is", value: "mobile" }, condition: { cf_device_type: "mobile" }, yes: { cf_device_type: "mobile" }, no: { cf_device_type: "desktop" } },
  { rule: { attribute: "cf_device_type", operator: "is_not", value: "mobile" }, condition: { cf_device_type: { $ne: "mobile" } }, yes: {}, no: { cf_device_type: "mobile" } },
  { rule: { attribute: "utm_campaign", operator: "in", value: "spring, summer" }, condition: { utm_campaign: { $in: ["spring", "summer"] } }, yes: { utm_campaign: "summer" }, no: { utm_campaign: "autumn" } },
  { rule: { attribute: "utm_source", operator: "not_in", value: "google,bing" }, condition: { utm_source: { $nin: ["google", "bing"] } }, yes: { utm_source: "meta" }, no: { utm_source: "bing" } },
  { rule: { attribute: "path", operator: "contains", value: "cream (50ml)" }, condition: { path: { $regex: "cream \\(50ml\\)", $options: "i" } }, yes: { path: "/p/Cream (50ml)" }, no: { path: "/p/cream" } },
  { rule: { attribute: "url", operator: "not_contains", value: "sale" }, condition: { url: { $not: { $regex: "sale", $options: "i" } } }, yes: { url: "https://x/new" }, no: { url: "https://x/SALE" } },
  { rule: { attribute: "path", operator: "starts_with", value: "/products/" }, condition: { path: { $regex: "^\\/products\\/", $options: "i" } }, yes: { path: "/products/a" }, no: { path: "/p/products/" } },
  { rule: { attribute: "domain", operator: "ends_with", value: ".co.uk" }, condition: { domain: { $regex: "\\.co\\.uk$", $options: "i" } }, yes: { domain: "shop.co.uk" }, no: { domain: "shop.com" } },
  { rule: { attribute: "referrer", operator: "regex", value: "^https://(www\\.)?google\\." }, condition: { referrer: { $regex: "^https://(www\\.)?google\\." } }, yes: { referrer: "https://google.com/" }, no: { referrer: "https://bing.com/" } },
  { rule: { attribute: "cf_screen_width", operator: "lt", value: "768" }, condition: { cf_screen_width: { $lt: 768 } }, yes: { cf_screen_width: 390 }, no: { cf_screen_width: 1280 } },
  { rule: { attribute: "cf_screen_width", operator: "gte", value: "1024" }, condition: { cf_screen_width: { $gte: 1024 } }, yes: { cf_screen_width: 1024 }, no: {} },
  { rule: { attribute: "cf_browser_version", operator: "vgte", value: "120" }, condition: { cf_browser_version: { $vgte: "120" } }, yes: { cf_browser_version: "131.0.2" }, no: { cf_browser_version: "99" } },
  { rule: { attribute: "is_first_time_visitor", operator: "is", value: "true" }, condition: { is_first_time_visitor: true }, yes: { is_first_time_visitor: true }, no: { is_first_time_visitor: false } },
  { rule: { attribute: "tags", operator: "is", value: "vip" }, condition: { tags: "vip" }, yes: { tags: ["new", "vip"] }, no: { tags: ["new"] } },
  { rule: { attribute: "tags", operator: "has_all", value: "vip, gold" }, condition: { tags: { $all: ["vip", "gold"] } }, yes: { tags: ["gold", "vip", "x"] }, no: { tags: ["vip"] } },
  { rule: { attribute: "gclid", operator: "exists", value: "" }, condition: { gclid: { $exists: true } }, yes: { gclid: "abc" }, no: {} },
  { rule: { attribute: "fbclid", operator: "not_exists", value: "" }, condition: { fbclid: { $exists: false } }, yes: {}, no: { fbclid: "abc" } },
  // A custom property: a number typed stays a number (so "8" and 8 both match, as the service's equality says).
  { rule: { attribute: "properties.orders", operator: "is", value: "3" }, condition: { "properties.orders": 3 }, yes: { properties: { orders: "3" } }, no: { properties: { orders: 4 } } },
  { rule: { attribute: "private.tier", operator: "is", value: "gold" }, condition: { "private.tier": "gold" }, yes: { private: { tier: "gold" } }, no: { private: {} } },
];

describe("audience builder ↔ condition language", () => {
  for (const c of cases) {
    it(`${c.rule.attribute} ${c.rule.operator} ${JSON.stringify(c.rule.value)}`, () => {
      expect(ruleProblem(c.rule)).toBeNull();
      const state: BuilderState = { combinator: "all", rules: [c.rule] };
      const condition = toCondition(state);
      expect(condition).toEqual(c.condition);
      expect(validateCondition(condition)).toEqual({ ok: true });
      expect(evalCondition(c.yes, condition)).toBe(true);
      expect(evalCondition(c.no, condition)).toBe(false);
      const back = fromCondition(condition);
      expect(back).toEqual({ combinator: "all", rules: [{ ...c.rule, value: c.rule.operator.endsWith("exists") ? "" : back!.rules[0]!.value }] });
      // Lists come back normalised ("a,b" → "a, b"); everything else exactly.
      if (!["in", "not_in", "has_all"].includes(c.rule.operator)) expect(back!.rules[0]!.value).toBe(c.rule.value);
      expect(toCondition(back!)).toEqual(condition);
    });
  }

  it("joins rules: all → one object ($and when an attribute repeats), any → $or", () => {
    const mobile: Rule = { attribute: "cf_device_type", operator: "is", value: "mobile" };
    const spring: Rule = { attribute: "utm_campaign", operator: "is", value: "spring" };
    const wide: Rule = { attribute: "cf_screen_width", operator: "gte", value: "300" };
    const narrow: Rule = { attribute: "cf_screen_width", operator: "lte", value: "500" };
    expect(toCondition({ combinator: "all", rules: [mobile, spring] })).toEqual({ cf_device_type: "mobile", utm_campaign: "spring" });
    expect(toCondition({ combinator: "any", rules: [mobile, spring] })).toEqual({ $or: [{ cf_device_type: "mobile" }, { utm_campaign: "spring" }] });
    const range = toCondition({ combinator: "all", rules: [wide, narrow] });
    expect(range).toEqual({ $and: [{ cf_screen_width: { $gte: 300 } }, { cf_screen_width: { $lte: 500 } }] });
    expect(evalCondition({ cf_screen_width: 390 }, range)).toBe(true);
    expect(evalCondition({ cf_screen_width: 600 }, range)).toBe(false);
    for (const state of [
      { combinator: "all", rules: [mobile, spring] },
      { combinator: "any", rules: [mobile, spring] },
      { combinator: "all", rules: [wide, narrow] },
    ] as BuilderState[]) {
      expect(fromCondition(toCondition(state))).toEqual(state);
    }
    // A hand-written range on one attribute reads as two rules joined by "all".
    expect(fromCondition({ cf_screen_width: { $gte: 300, $lte: 500 } })).toEqual({ combinator: "all", rules: [wide, narrow] });
    expect(toCondition({ combinator: "all", rules: [] })).toEqual({});
    expect(describeCondition({})).toBe("Everyone");
    expect(describeCondition({ cf_device_type: "mobile", utm_campaign: { $in: ["a", "b"] } })).toBe(
      "Device type is mobile and Campaign name (utm_campaign) is one of a, b",
    );
  });

  it("leaves to the JSON view what the builder cannot show, rather than dropping parts of it", () => {
    for (const condition of [
      { orders: { $elemMatch: { sku: "oat" } } },
      { $or: [{ a: 1, b: 2 }, { c: 3 }] },
      { $nor: [{ a: 1 }] },
      { $or: [{ $and: [{ a: 1 }] }] },
      { path: { $regex: "^/x", $options: "im" } },
      { tags: { $in: ["a,b"] } },
      { a: { $size: 2 } },
      { a: { x: 1 } },
      { $not: { a: 1 } },
    ]) {
      expect(fromCondition(condition), JSON.stringify(condition)).toBeNull();
    }
  });

  it("checks a rule before it is sent", () => {
    expect(ruleProblem({ attribute: "", operator: "is", value: "x" })).toBe("Choose an attribute.");
    expect(ruleProblem({ attribute: "properties.", operator: "is", value: "x" })).toBe("Choose an attribute.");
    expect(ruleProblem({ attribute: "utm_source", operator: "is", value: " " })).toBe("Enter a value.");
    expect(ruleProblem({ attribute: "cf_screen_width", operator: "gt", value: "wide" })).toBe("Enter a number.");
    expect(ruleProblem({ attribute: "cf_browser_version", operator: "vgt", value: "new" })).toContain("Enter a version");
    expect(ruleProblem({ attribute: "path", operator: "regex", value: "(" })).toContain("Not a valid pattern");
    expect(ruleProblem({ attribute: "gclid", operator: "exists", value: "" })).toBeNull();
  });
});
