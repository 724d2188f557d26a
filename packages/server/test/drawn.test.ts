// The assignment an exposure's visitor drew, recomputed on a node that cannot read it yet
// (decide/drawn.ts): it must be exactly what decide() assigns, for every visitor.
import { describe, expect, it } from "vitest";
import { decide } from "../src/decide/decide.js";
import { drawnAssignment } from "../src/decide/drawn.js";
import type { Experience, VariationDefinition } from "../src/store/types.js";

const DOMAIN = "shop.example";

function variation(id: string, weight: number): VariationDefinition {
  return { id, name: id, weight, configs: [{ config_customer_id: `cfg_${id}`, config_id: `cfg_${id}`, variation_data_type: "HTML_ELEMENT", variation: { innerHTML: id }, properties: { element_path: `#${id}` } }] };
}

function experience(id: string, traffic: number, weights: number[], group: Experience["exclusion_group"] = null): Experience {
  return {
    id,
    account_id: "acc",
    name: id,
    status: "running",
    kind: "ab_test",
    priority: 0,
    exclusion_group: group,
    pages: [{ domain: DOMAIN, page_path: "/", page_match: "contains" }],
    rules: [{ id: `rule_${id}`, audience_id: null, behaviour: { id: `beh_${id}`, name: "b", traffic_allocation: traffic, variations: weights.map((w, i) => variation(`${id}_v${i}`, w)) } }],
    goals: [],
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
}

describe("drawnAssignment", () => {
  it("is decide()'s new assignment for every visitor, variation, traffic allocation and exclusion group", () => {
    const experiences = [
      experience("even", 1, [1, 1]),
      experience("uneven", 0.6, [1, 2, 3]),
      experience("grouped", 0.8, [1, 1], { name: "g", start: 0.25, end: 0.75 }),
      experience("zero", 1, [0, 1]),
    ];
    let drawnCount = 0;
    for (let i = 0; i < 400; i++) {
      const visitor = `visitor-${i}`;
      const decision = decide({
        request: { user: { user_customer_id: visitor, anonymous: true }, current_domain: DOMAIN, current_page_path: "/" },
        visitorId: visitor,
        experiences,
        audiences: new Map(),
        assignments: new Map(),
        attributes: {},
        mainDomain: DOMAIN,
      });
      for (const exp of experiences) {
        const assigned = decision.assignments.find((a) => a.experience_id === exp.id);
        for (const v of exp.rules[0]!.behaviour.variations) {
          const drawn = drawnAssignment(exp, exp.rules[0]!.id, v.id, visitor);
          expect(drawn, `${visitor} ${v.id}`).toEqual(assigned?.variation_id === v.id ? assigned : null);
          if (drawn) drawnCount++;
        }
      }
    }
    // Most visitors drew something in most experiences: the comparison is not of nulls only.
    expect(drawnCount).toBeGreaterThan(800);
  });

  it("draws nothing under a rule the experience does not have", () => {
    expect(drawnAssignment(experience("e", 1, [1, 1]), "rule_other", "e_v0", "v")).toBeNull();
  });
});
