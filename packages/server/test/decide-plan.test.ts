// What a page plan precomputes for every visitor (decide.ts PlannedRule: the assignment key and
// the bucketing hashes' prefix states) and the per-decision memo of audiences must decide exactly
// as computing them afresh would.
import { describe, expect, it } from "vitest";
import type { ConfigsRequest } from "@storefit/contract";
import { decide } from "../src/decide/decide.js";
import type { PagePlan } from "../src/decide/decide.js";
import { hashPrefix, unitHash, unitHashAfter } from "../src/decide/hash.js";
import { assignmentKey } from "../src/store/types.js";
import type { Assignment, Audience, Experience, VariationDefinition } from "../src/store/types.js";

const DOMAIN = "shop.example";

describe("hashPrefix and unitHashAfter", () => {
  it("give unitHash of the prefix parts and the last part", () => {
    const cases: [string[], string][] = [
      [["traffic", "exp_a", "rule_1"], "visitor-1"],
      [["variation", "é", ""], "x"],
      [["group", "product-page"], ""],
      [[], "alone"],
      [["traffic", "exp_price_message", "rule_price_everyone"], "visitor-1"],
    ];
    for (const [prefix, last] of cases) expect(unitHashAfter(hashPrefix(...prefix), last)).toBe(unitHash(...prefix, last));
    expect(unitHashAfter(hashPrefix("traffic", "exp_price_message", "rule_price_everyone"), "visitor-1")).toBe(0.4208922632969916);
  });
});

function variations(prefix: string, element: string): VariationDefinition[] {
  return [0, 1, 2].map((v) => ({
    id: `${prefix}_${v}`,
    name: `${prefix} ${v}`,
    weight: v + 1,
    configs: [{ config_customer_id: `cfg_${prefix}`, config_id: `cfg_${prefix}`, variation_data_type: "HTML_ELEMENT" as const, variation: { innerHTML: `${prefix} ${v}` }, properties: { element_path: element } }],
  }));
}

// Experiences sharing two audiences, in and out of an exclusion group, some competing for one element.
const experiences: Experience[] = Array.from({ length: 12 }, (_, i) => ({
  id: `e${i}`,
  account_id: "acc",
  name: `e${i}`,
  status: "running",
  kind: "ab_test",
  priority: i % 4,
  exclusion_group: i % 3 === 0 ? { name: "g", start: (i % 2) * 0.5, end: (i % 2) * 0.5 + 0.5 } : null,
  pages: [{ domain: DOMAIN, page_path: "/products/", page_match: "contains" }],
  rules: [
    { id: `r${i}_aud`, audience_id: i % 2 ? "mobile" : "gone", behaviour: { id: `b${i}_aud`, name: "t", traffic_allocation: 1, variations: variations(`e${i}_aud`, i % 4 ? `#el${i}` : "#title") } },
    { id: `r${i}_all`, audience_id: null, behaviour: { id: `b${i}_all`, name: "a", traffic_allocation: 0.3 + (i % 5) * 0.15, variations: variations(`e${i}_all`, i % 4 ? `#el${i}` : "#title") } },
  ],
  goals: [],
  created_at: `2026-01-${String(i + 1).padStart(2, "0")}T00:00:00.000Z`,
  updated_at: "2026-01-01T00:00:00.000Z",
}));
const audiences = new Map<string, Audience>([["mobile", { id: "mobile", name: "Mobile", description: "", condition: { cf_device_type: "mobile" }, created_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-01T00:00:00.000Z" }]]);

describe("a decision from a cached page plan", () => {
  it("equals one planned afresh, for many visitors, stored assignments and devices", () => {
    const planCache = new Map<string, PagePlan>();
    for (let n = 0; n < 300; n++) {
      const visitor = `visitor-${n}`;
      const assignments = new Map<string, Assignment>();
      // Some visitors hold a stored assignment to another variation than their draw: it sticks.
      if (n % 4 === 0) assignments.set(assignmentKey("e1", "r1_all"), { experience_id: "e1", rule_id: "r1_all", behaviour_id: "b1_all", variation_id: "e1_all_0", probability: 0.1 });
      const request: ConfigsRequest = { user: { user_customer_id: visitor, anonymous: true }, current_domain: DOMAIN, current_page_path: "/products/soap" };
      const input = { request, visitorId: visitor, experiences, audiences, assignments, attributes: { cf_device_type: n % 2 ? "mobile" : "desktop" }, mainDomain: DOMAIN };
      const cached = decide({ ...input, planCache });
      const fresh = decide(input);
      expect(cached.assignments).toEqual(fresh.assignments);
      expect(cached.configs).toEqual(fresh.configs);
      // The members the answer is made of are the configs, in order.
      expect(JSON.parse(`{${cached.configMembers.map((m) => m.toString()).join(",")}}`)).toEqual(JSON.parse(JSON.stringify(cached.configs)));
      expect(Object.keys(cached.configs)).toEqual(cached.configMembers.map((m) => Object.keys(JSON.parse(`{${m.toString()}}`))[0]));
      // The audience decides the rule: mobile visitors get the odd experiences' targeted rule; the
      // gone audience of the even ones matches nobody.
      for (const a of cached.assignments) {
        const i = Number(a.experience_id.slice(1));
        expect(a.rule_id).toBe(i % 2 && n % 2 ? `r${i}_aud` : `r${i}_all`);
      }
    }
    expect(planCache.size).toBe(1);
  });
});
