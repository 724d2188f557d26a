// The config decision as a pure function (product.md §3 "Decisions"): bucketing, stickiness,
// traffic, rules and audiences, priority, desired / preferred experiences, preview.
import { describe, expect, it } from "vitest";
import type { ConfigsRequest } from "@storefit/contract";
import { decide, parseDesired, pickVariation } from "../src/decide/decide.js";
import type { Decision, DecisionInput } from "../src/decide/decide.js";
import { unitHash } from "../src/decide/hash.js";
import { assignmentKey } from "../src/store/types.js";
import type { Assignment, Audience, Experience, VariationDefinition } from "../src/store/types.js";

const DOMAIN = "shop.example";

function variation(id: string, weight: number, element = "#title"): VariationDefinition {
  return {
    id,
    name: id,
    weight,
    configs: [
      {
        config_customer_id: `cfg_${element.slice(1)}`,
        config_id: `cfg_${element.slice(1)}`,
        variation_data_type: "HTML_ELEMENT",
        variation: { innerHTML: id },
        properties: { element_path: element },
      },
    ],
  };
}

function experience(id: string, over: Partial<Experience> = {}, variations = [variation("a", 1), variation("b", 1)], traffic = 1): Experience {
  return {
    id,
    account_id: "acc",
    name: id,
    status: "running",
    kind: "ab_test",
    priority: 0,
    exclusion_group: null,
    pages: [{ domain: DOMAIN, page_path: "/products/", page_match: "contains" }],
    rules: [{ id: `rule_${id}`, audience_id: null, behaviour: { id: `beh_${id}`, name: "b", traffic_allocation: traffic, variations } }],
    goals: [],
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...over,
  };
}

function request(over: Partial<ConfigsRequest> = {}): ConfigsRequest {
  return { user: { user_customer_id: "v", anonymous: true }, current_domain: DOMAIN, current_page_path: "/products/soap", ...over };
}

function run(
  experiences: Experience[],
  visitor: string,
  over: Partial<DecisionInput> = {},
  req: Partial<ConfigsRequest> = {},
): Decision {
  return decide({
    request: request(req),
    visitorId: visitor,
    experiences,
    audiences: new Map(),
    assignments: new Map(),
    attributes: {},
    mainDomain: DOMAIN,
    ...over,
  });
}

const chosen = (d: Decision, key = "cfg_title") => d.configs[key]?.variation_id;

/**
 * Chi-square critical values at p = 0.001 by degrees of freedom (standard tables, e.g.
 * NIST/SEMATECH e-Handbook 1.3.6.7.4): a fair bucketing exceeds them one time in a thousand.
 * The visitor ids are fixed, so each test's outcome is fixed too; the bound says the hash is fair.
 */
const CHI_SQUARE_CRITICAL_P001: Readonly<Record<number, number>> = { 1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467 };

function chiSquare(observed: readonly number[], weights: readonly number[]): number {
  const n = observed.reduce((a, b) => a + b, 0);
  const w = weights.reduce((a, b) => a + b, 0);
  return observed.reduce((sum, o, i) => {
    const expected = (n * weights[i]!) / w;
    return sum + (o - expected) ** 2 / expected;
  }, 0);
}

const VISITORS = Array.from({ length: 10_000 }, (_, i) => `visitor-${i}-${(i * 2654435761) % 1000003}`);

describe("bucketing", () => {
  for (const weights of [[1, 1], [50, 30, 20], [1, 1, 1, 1], [10, 20, 30, 25, 15]]) {
    it(`10,000 visitors land within the chi-square tolerance of weights ${weights.join("/")}`, () => {
      const variations = weights.map((w, i) => variation(`v${i}`, w));
      const exp = experience("e", {}, variations);
      const counts = new Array<number>(weights.length).fill(0);
      for (const v of VISITORS) {
        const id = chosen(run([exp], v))!;
        counts[Number(id.slice(1))]! += 1;
      }
      const df = weights.length - 1;
      expect(counts.reduce((a, b) => a + b, 0)).toBe(VISITORS.length);
      expect(chiSquare(counts, weights)).toBeLessThan(CHI_SQUARE_CRITICAL_P001[df]!);
    });
  }

  it("traffic allocation lets in its share of visitors (chi-square, 1 df)", () => {
    const exp = experience("e", {}, undefined, 0.3);
    const inside = VISITORS.filter((v) => chosen(run([exp], v)) !== undefined).length;
    expect(chiSquare([inside, VISITORS.length - inside], [0.3, 0.7])).toBeLessThan(CHI_SQUARE_CRITICAL_P001[1]!);
  });

  it("the same visitor always gets the same variation, on any node (no shared state)", () => {
    const exp = experience("e", {}, [variation("a", 1), variation("b", 1), variation("c", 1)]);
    for (const v of VISITORS.slice(0, 200)) {
      const first = chosen(run([exp], v));
      // A fresh decision with equal inputs — what another node computes — agrees, every time.
      for (let i = 0; i < 3; i++) expect(chosen(run([structuredClone(exp)], v))).toBe(first);
    }
  });

  it("different experiences bucket independently", () => {
    const e1 = experience("e1", { pages: [{ domain: DOMAIN, page_path: "/p", page_match: "contains" }] }, [variation("a", 1, "#x"), variation("b", 1, "#x")]);
    const e2 = experience("e2", { pages: [{ domain: DOMAIN, page_path: "/p", page_match: "contains" }] }, [variation("a", 1, "#y"), variation("b", 1, "#y")]);
    let same = 0;
    for (const v of VISITORS.slice(0, 2000)) {
      const d = run([e1, e2], v, {}, { current_page_path: "/p" });
      if (d.configs.cfg_x!.variation_id === d.configs.cfg_y!.variation_id) same++;
    }
    // Independent 50/50 splits agree about half the time (chi-square on agree/disagree).
    expect(chiSquare([same, 2000 - same], [1, 1])).toBeLessThan(CHI_SQUARE_CRITICAL_P001[1]!);
  });

  it("admits by unitHash(\"traffic\", experience, rule, visitor) and picks by unitHash(\"variation\", …): the values visitors were bucketed with", () => {
    const exp = experience("e", {}, [variation("a", 1), variation("b", 2), variation("c", 1)], 0.6);
    for (const v of VISITORS.slice(0, 500)) {
      const admitted = unitHash("traffic", "e", "rule_e", v) < 0.6;
      const expected = admitted ? pickVariation(exp.rules[0]!.behaviour.variations, unitHash("variation", "e", "rule_e", v))!.variation.id : undefined;
      expect(chosen(run([exp], v)), v).toBe(expected);
    }
    // A later rule's visitors are bucketed by that rule's id, not the first rule's.
    const mobileOnly = { id: "aud_m", name: "Mobile", description: "", condition: { cf_device_type: "mobile" }, created_at: "", updated_at: "" };
    const twoRules: Experience = {
      ...exp,
      rules: [
        { id: "r_mobile", audience_id: "aud_m", behaviour: { id: "b1", name: "m", traffic_allocation: 1, variations: [variation("m", 1)] } },
        { id: "r_rest", audience_id: null, behaviour: { id: "b2", name: "rest", traffic_allocation: 0.6, variations: [variation("a", 1), variation("b", 2), variation("c", 1)] } },
      ],
    };
    const desktop = { audiences: new Map([["aud_m", mobileOnly]]), attributes: { cf_device_type: "desktop" } };
    for (const v of VISITORS.slice(0, 500)) {
      const admitted = unitHash("traffic", "e", "r_rest", v) < 0.6;
      const expected = admitted ? pickVariation(twoRules.rules[1]!.behaviour.variations, unitHash("variation", "e", "r_rest", v))!.variation.id : undefined;
      expect(chosen(run([twoRules], v, desktop)), v).toBe(expected);
    }
  });

  it("pickVariation ignores zero weights and answers null without any weight", () => {
    expect(pickVariation([variation("a", 0), variation("b", 2)], 0)!.variation.id).toBe("b");
    expect(pickVariation([variation("a", 1), variation("b", 0)], 0.9999999)!.variation.id).toBe("a");
    expect(pickVariation([variation("a", 0)], 0.5)).toBeNull();
  });
});

describe("sticky assignments", () => {
  it("a new assignment carries traffic allocation × weight share as its probability, and the split it was drawn from", () => {
    const exp = experience("e", {}, [variation("a", 3), variation("b", 1)], 0.5);
    const v = VISITORS.find((x) => chosen(run([exp], x)) === "a")!;
    const d = run([exp], v);
    expect(d.assignments).toEqual([
      { experience_id: "e", rule_id: "rule_e", behaviour_id: "beh_e", variation_id: "a", probability: 0.375, split: '{"a":0.375,"b":0.125}' },
    ]);
  });

  it("forced choices (desired experiences, preview) store no assignment and no split", () => {
    const exp = experience("e", {}, [variation("a", 3), variation("b", 1)], 0.5);
    expect(run([exp], VISITORS[0]!, {}, { desired_experiences: ["e:b"] }).assignments).toEqual([]);
    expect(run([exp], VISITORS[0]!, {}, { desired_experiences: ["e"] }).assignments).toEqual([]);
    expect(run([exp], VISITORS[0]!, {}, { preview_mode: true }).assignments).toEqual([]);
  });

  it("changing weights later does not move visitors already assigned", () => {
    const before = experience("e", {}, [variation("a", 1), variation("b", 1)]);
    const after = experience("e", {}, [variation("a", 1), variation("b", 99)]);
    let moved = 0;
    let movedWithoutMemory = 0;
    for (const v of VISITORS.slice(0, 1000)) {
      const first = run([before], v);
      const stored = new Map(first.assignments.map((a) => [assignmentKey(a.experience_id, a.rule_id), a]));
      const later = run([after], v, { assignments: stored });
      if (chosen(later) !== chosen(first)) moved++;
      if (chosen(run([after], v)) !== chosen(first)) movedWithoutMemory++;
      // A kept assignment is not written again, and keeps the probability it was made with.
      expect(later.assignments).toEqual([]);
    }
    expect(moved).toBe(0);
    // Without the stored assignment, about half of the A visitors would have moved to B.
    expect(movedWithoutMemory).toBeGreaterThan(300);
  });

  it("a kept assignment survives a lower traffic allocation too", () => {
    const exp = experience("e", {}, undefined, 1);
    const v = VISITORS.find((x) => chosen(run([experience("e", {}, undefined, 0.01)], x)) === undefined)!;
    const first = run([exp], v);
    const stored = new Map(first.assignments.map((a) => [assignmentKey(a.experience_id, a.rule_id), a]));
    expect(chosen(run([experience("e", {}, undefined, 0.01)], v, { assignments: stored }))).toBe(chosen(first));
  });

  it("a removed variation reassigns the visitor, and the new assignment is returned to store", () => {
    const exp = experience("e", {}, [variation("a", 1), variation("b", 1), variation("c", 1)]);
    const v = VISITORS.find((x) => chosen(run([exp], x)) === "b")!;
    const stored = new Map<string, Assignment>([["e:rule_e", run([exp], v).assignments[0]!]]);
    const without = experience("e", {}, [variation("a", 1), variation("c", 1)]);
    const d = run([without], v, { assignments: stored });
    expect(["a", "c"]).toContain(chosen(d));
    expect(d.assignments).toHaveLength(1);
    expect(d.assignments[0]).toMatchObject({ experience_id: "e", variation_id: chosen(d), probability: 0.5 });
  });

  it("an assignment from another rule does not carry over", () => {
    const exp = experience("e");
    const stored = new Map<string, Assignment>([["e:rule_e", { experience_id: "e", rule_id: "rule_old", behaviour_id: "beh_e", variation_id: "b", probability: 0.5 }]]);
    const d = run([exp], "x", { assignments: stored });
    expect(d.assignments[0]!.rule_id).toBe("rule_e");
  });
});

describe("rules and audiences", () => {
  const audiences = new Map<string, Audience>([
    ["aud_mobile", { id: "aud_mobile", name: "Mobile", description: "", condition: { cf_device_type: "mobile" }, created_at: "", updated_at: "" }],
    ["aud_uk", { id: "aud_uk", name: "UK", description: "", condition: { domain: { $regex: "\\.uk$" } }, created_at: "", updated_at: "" }],
  ]);
  const twoRules = (): Experience => ({
    ...experience("e"),
    rules: [
      { id: "r_mobile", audience_id: "aud_mobile", behaviour: { id: "b1", name: "mobile", traffic_allocation: 1, variations: [variation("m", 1)] } },
      { id: "r_all", audience_id: null, audience_name: "Everyone else", behaviour: { id: "b2", name: "all", traffic_allocation: 1, variations: [variation("x", 1)] } },
    ],
  });

  it("the first rule whose audience matches wins; its audience name is answered", () => {
    const mobile = run([twoRules()], "v", { audiences, attributes: { cf_device_type: "mobile" } });
    expect(chosen(mobile)).toBe("m");
    expect(mobile.configs.cfg_title!.experience_behaviour_response).toMatchObject({ rule_id: "r_mobile", audience_name: "Mobile" });
    const desktop = run([twoRules()], "v", { audiences, attributes: { cf_device_type: "desktop" } });
    expect(chosen(desktop)).toBe("x");
    expect(desktop.configs.cfg_title!.experience_behaviour_response?.audience_name).toBe("Everyone else");
  });

  it("each rule keeps its own assignment: weights changed on a later rule do not move its visitors", () => {
    const rules = (weights: [number, number]): Experience => ({
      ...experience("e"),
      rules: [
        { id: "r_mobile", audience_id: "aud_mobile", behaviour: { id: "b1", name: "mobile", traffic_allocation: 1, variations: [variation("m1", 1), variation("m2", 1)] } },
        { id: "r_all", audience_id: null, behaviour: { id: "b2", name: "all", traffic_allocation: 1, variations: [variation("x", weights[0]), variation("y", weights[1])] } },
      ],
    });
    const desktop = { audiences, attributes: { cf_device_type: "desktop" } };
    const mobile = { audiences, attributes: { cf_device_type: "mobile" } };
    let moved = 0;
    let movedWithoutMemory = 0;
    for (const v of VISITORS.slice(0, 400)) {
      // The visitor has been on both rules: an assignment under each key.
      const stored = new Map<string, Assignment>();
      for (const a of [...run([rules([1, 1])], v, mobile).assignments, ...run([rules([1, 1])], v, desktop).assignments]) {
        stored.set(assignmentKey(a.experience_id, a.rule_id), a);
      }
      expect([...stored.keys()].sort()).toEqual(["e:r_all", "e:r_mobile"]);
      const later = run([rules([1, 99])], v, { ...desktop, assignments: stored });
      if (chosen(later) !== stored.get("e:r_all")!.variation_id) moved++;
      if (chosen(run([rules([1, 99])], v, desktop)) !== stored.get("e:r_all")!.variation_id) movedWithoutMemory++;
      expect(later.assignments).toEqual([]);
      expect(chosen(run([rules([1, 99])], v, { ...mobile, assignments: stored }))).toBe(stored.get("e:r_mobile")!.variation_id);
    }
    expect(moved).toBe(0);
    expect(movedWithoutMemory).toBeGreaterThan(100);
  });

  it("a rule whose audience no longer exists matches nobody", () => {
    const exp = { ...experience("e"), rules: [{ ...experience("e").rules[0]!, audience_id: "aud_gone" }] };
    expect(run([exp], "v", { audiences })).toMatchObject({ configs: {}, assignments: [] });
  });
});

describe("pages, priority, preferred and desired experiences", () => {
  it("answers only experiences whose pages match, and configs bound to this page", () => {
    const bound = variation("a", 1);
    bound.configs.push({
      config_customer_id: "cfg_other_page",
      config_id: "cfg_other_page",
      variation_data_type: "HTML_ELEMENT",
      variation: { innerHTML: "x" },
      properties: { element_path: "#other", page_path: "/products/other", page_match: "exact_match" },
    });
    const d = run([experience("e", {}, [bound])], "v");
    expect(Object.keys(d.configs)).toEqual(["cfg_title"]);
    expect(run([experience("e")], "v", {}, { current_page_path: "/cart" }).configs).toEqual({});
    expect(run([experience("e")], "v", {}, { current_domain: "elsewhere.example" }).configs).toEqual({});
  });

  it("page_paths lists the paths personalized on the current domain", () => {
    const e1 = experience("e1", { pages: [{ domain: DOMAIN, page_path: "/products/", page_match: "contains" }] });
    const e2 = experience("e2", { pages: [{ domain: "", page_path: "/cart", page_match: "exact_match" }] });
    const e3 = experience("e3", { pages: [{ domain: "other.example", page_path: "/x", page_match: "exact_match" }] });
    expect(run([e1, e2, e3], "v").page_paths.sort()).toEqual(["/cart", "/products/"]);
  });

  it("experiences on the same element resolve by priority; the loser is left out whole", () => {
    const low = experience("low", { priority: 1 }, [{ ...variation("l", 1), configs: [...variation("l", 1).configs, ...variation("l", 1, "#extra").configs] }]);
    const high = experience("high", { priority: 5 }, [variation("h", 1)]);
    const d = run([low, high], "v");
    expect(chosen(d)).toBe("h");
    // The low-priority experience lost #title, so its #extra change is not shown either.
    expect(d.configs.cfg_extra).toBeUndefined();
    // Equal priorities: the older experience wins.
    const older = experience("older", { created_at: "2025-01-01T00:00:00.000Z" }, [variation("o", 1)]);
    expect(chosen(run([experience("newer", {}, [variation("n", 1)]), older], "v"))).toBe("o");
  });

  it("experiences on different elements all apply", () => {
    const d = run([experience("e1", {}, [variation("a", 1, "#x")]), experience("e2", {}, [variation("b", 1, "#y")])], "v");
    expect(Object.keys(d.configs).sort()).toEqual(["cfg_x", "cfg_y"]);
  });

  it("a preferred experience wins an element over priority", () => {
    const low = experience("low", { priority: 1 }, [variation("l", 1)]);
    const high = experience("high", { priority: 5 }, [variation("h", 1)]);
    expect(chosen(run([low, high], "v", {}, { preferred_experiences: ["low"] }))).toBe("l");
  });

  it("a desired experience bypasses audience and traffic, bucketing deterministically", () => {
    const noTraffic = experience("e", {}, [variation("a", 1), variation("b", 1)], 0);
    expect(run([noTraffic], "v").configs).toEqual({});
    const forced = run([noTraffic], "v", {}, { desired_experiences: ["e"] });
    const again = run([noTraffic], "v", {}, { desired_experiences: ["e"] });
    expect(chosen(forced)).toBeDefined();
    expect(chosen(again)).toBe(chosen(forced));
    // A forced choice is not a random assignment: nothing to store.
    expect(forced.assignments).toEqual([]);
    const withAudience = { ...noTraffic, rules: [{ ...noTraffic.rules[0]!, audience_id: "aud_nobody" }] };
    expect(chosen(run([withAudience], "v", {}, { desired_experiences: ["e"] }))).toBeDefined();
  });

  it('"expId:variationId" forces that variation over priority and over a stored assignment, and stores nothing', () => {
    const exp = experience("e", { priority: 0 }, [variation("a", 1), variation("b", 0)]);
    const rival = experience("rival", { priority: 9 }, [variation("r", 1)]);
    const stored = new Map<string, Assignment>([["e:rule_e", { experience_id: "e", rule_id: "rule_e", behaviour_id: "beh_e", variation_id: "a", probability: 1 }]]);
    const d = run([exp, rival], "v", { assignments: stored }, { desired_experiences: ["e:b"] });
    expect(chosen(d)).toBe("b");
    expect(d.assignments.find((a) => a.experience_id === "e")).toBeUndefined();
    // The next call without the forcing parameter shows the stored assignment again.
    expect(chosen(run([exp], "v", { assignments: stored }))).toBe("a");
    expect(parseDesired(["e:b", "f", " g : h ", ":x"])).toEqual(new Map([["e", "b"], ["f", null], ["g", "h"]]));
  });

  it("a desired experience that is not running is not shown outside preview", () => {
    expect(run([experience("e", { status: "draft" })], "v", {}, { desired_experiences: ["e"] }).configs).toEqual({});
  });
});

describe("preview mode", () => {
  it("shows draft and paused experiences, never archived ones, whatever the audience or traffic, and stores nothing", () => {
    const gated = (id: string, status: Experience["status"]) => {
      const e = experience(id, { status }, [variation(id, 1, `#${id}`)], 0);
      return { ...e, rules: [{ ...e.rules[0]!, audience_id: "aud_nobody" }] };
    };
    const d = run([gated("draft", "draft"), gated("paused", "paused"), gated("archived", "archived")], "v", {}, { preview_mode: true });
    expect(Object.keys(d.configs).sort()).toEqual(["cfg_draft", "cfg_paused"]);
    expect(d.assignments).toEqual([]);
  });

  it("ignores stored assignments (a fresh user) but still buckets deterministically", () => {
    const exp = experience("e");
    const v = VISITORS.find((x) => chosen(run([exp], x)) === "a")!;
    const stored = new Map<string, Assignment>([["e:rule_e", { experience_id: "e", rule_id: "rule_e", behaviour_id: "beh_e", variation_id: "b", probability: 0.5 }]]);
    expect(chosen(run([exp], v, { assignments: stored }))).toBe("b");
    expect(chosen(run([exp], v, { assignments: stored }, { preview_mode: true }))).toBe("a");
  });
});

/** A variation that changes nothing anywhere: a plain control. */
const plain = (id: string, weight = 1): VariationDefinition => ({ id, name: id, weight, configs: [] });
const exposureKey = (expId: string) => `cf_exposure_${expId}`;

describe("exposure of every assignment (issue #16)", () => {
  it("a plain control is answered as one exposure-only config carrying the assignment's ids; a treatment gets its own configs only", () => {
    const exp = experience("ab", {}, [plain("control"), variation("treat", 1)]);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const d = run([exp], `visitor-${i}`);
      const marker = d.configs[exposureKey("ab")];
      const title = d.configs["cfg_title"];
      // Exactly one of the two, never both, never neither.
      expect(!!marker !== !!title).toBe(true);
      if (marker) {
        seen.add("control");
        expect(marker).toMatchObject({
          config_customer_id: exposureKey("ab"),
          config_id: exposureKey("ab"),
          variation_id: "control",
          variation: null,
          variation_data_type: "JSON",
          properties: { system_created: true },
          experience_behaviour_response: { experience_id: "ab", rule_id: "rule_ab", behaviour_id: "beh_ab" },
        });
        expect(d.assignments[0]).toMatchObject({ experience_id: "ab", variation_id: "control", probability: 0.5 });
      } else {
        seen.add("treat");
        expect(title!.variation_id).toBe("treat");
      }
    }
    expect([...seen].sort()).toEqual(["control", "treat"]);
  });

  it("a variation whose changes are bound to other pages is exposed on this one too", () => {
    const elsewhere: VariationDefinition = { ...variation("v", 1), configs: variation("v", 1).configs.map((c) => ({ ...c, properties: { ...c.properties, page_path: "/products/other", page_match: "exact_match" as const } })) };
    const d = run([experience("e", {}, [elsewhere])], "visitor-1");
    expect(Object.keys(d.configs)).toEqual([exposureKey("e")]);
    expect(d.configs[exposureKey("e")]!.variation_id).toBe("v");
  });

  it("an overlap leaves a lower experience out for all of its variations, its plain control too, so its split stays fair", () => {
    const high = experience("high", { priority: 5 }, [variation("h", 1)]);
    const low = experience("low", { priority: 1 }, [plain("control"), variation("treat", 1), variation("other", 1, "#other")]);
    for (let i = 0; i < 100; i++) {
      const d = run([high, low], `visitor-${i}`);
      expect(d.configs["cfg_title"]!.variation_id).toBe("h");
      expect(d.configs[exposureKey("low")]).toBeUndefined();
      expect(d.configs["cfg_other"]).toBeUndefined();
    }
  });
});

describe("mutually exclusive groups (issue #16)", () => {
  const inGroup = (id: string, start: number, end: number, over: Partial<Experience> = {}) =>
    experience(id, { exclusion_group: { name: "product-page", start, end }, ...over }, [plain(`${id}_control`), variation(`${id}_treat`, 1)]);

  it("splits the group's visitors between its members by their slices: each visitor in at most one, with the slice in the probability", () => {
    const a = inGroup("a", 0, 0.5, { priority: 5 });
    const b = inGroup("b", 0.5, 1);
    const counts = { a: 0, b: 0 };
    for (let i = 0; i < 4000; i++) {
      const d = run([a, b], `visitor-${i}`);
      const ins = d.assignments.map((x) => x.experience_id);
      expect(ins).toHaveLength(1);
      const inA = ins[0] === "a";
      counts[inA ? "a" : "b"]++;
      // The place in the group is unitHash("group", name, visitor): the slice says who enters.
      expect(inA).toBe(unitHash("group", "product-page", `visitor-${i}`) < 0.5);
      expect(d.assignments[0]!.probability).toBe(0.25);
      expect(JSON.parse(d.assignments[0]!.split!)).toEqual({ [`${ins[0]}_control`]: 0.25, [`${ins[0]}_treat`]: 0.25 });
    }
    // Both members get their share although they change the same element: neither starves.
    expect(chiSquare([counts.a, counts.b], [1, 1])).toBeLessThan(CHI_SQUARE_CRITICAL_P001[1]!);
  });

  it("a visitor outside the slice is left out even with a stored assignment (the slice was moved)", () => {
    const visitor = Array.from({ length: 100 }, (_, i) => `visitor-${i}`).find((v) => unitHash("group", "product-page", v) >= 0.5)!;
    const a = inGroup("a", 0, 0.5);
    const stored: Assignment = { experience_id: "a", rule_id: "rule_a", behaviour_id: "beh_a", variation_id: "a_treat", probability: 0.5 };
    const d = run([a], visitor, { assignments: new Map([[assignmentKey("a", "rule_a"), stored]]) });
    expect(d.configs).toEqual({});
  });

  it("a desired experience or preview is not held back by its group", () => {
    const visitor = Array.from({ length: 100 }, (_, i) => `visitor-${i}`).find((v) => unitHash("group", "product-page", v) >= 0.5)!;
    const a = inGroup("a", 0, 0.5);
    expect(Object.keys(run([a], visitor, {}, { desired_experiences: ["a:a_treat"] }).configs)).toEqual(["cfg_title"]);
    expect(Object.keys(run([a], visitor, {}, { preview_mode: true }).configs)).toHaveLength(1);
  });
});

describe("what a repeat view may keep (docs/api.md \"Answer cache\")", () => {
  const aud = (id: string, condition: Audience["condition"]): [string, Audience] => [id, { id, name: id, description: "", condition, created_at: "", updated_at: "" }];
  const audiences = new Map<string, Audience>([
    aud("aud_plan", { $or: [{ "properties.plan": "gold" }, { $not: { tags: { $elemMatch: { $eq: "vip" } } } }] }),
    aud("aud_page", { path: { $regex: "^/products" }, domain: DOMAIN, utm_source: "mail" }),
    aud("aud_time", { now: { $gt: 0 } }),
  ]);
  const withAudience = (id: string, audienceId: string, pages = experience(id).pages): Experience => ({
    ...experience(id, { pages }),
    rules: [{ id: `rule_${id}`, audience_id: audienceId, behaviour: { id: `beh_${id}`, name: "b", traffic_allocation: 1, variations: [variation("a", 1)] } }],
  });

  it("names the attributes that the audiences of the page's experiences read (page-bound path and domain left out)", () => {
    const d = run([withAudience("e1", "aud_plan"), withAudience("e2", "aud_page")], "v", { audiences });
    expect([...d.cache!.attributes].sort()).toEqual(["properties", "tags", "utm_source"]);
  });

  it("leaves out experiences that do not target the page", () => {
    const elsewhere = withAudience("e3", "aud_time", [{ domain: DOMAIN, page_path: "/cart", page_match: "exact_match" }]);
    expect(run([experience("e1"), elsewhere], "v", { audiences }).cache).toEqual({ attributes: [] });
  });

  it("keeps nothing when an audience reads the decision time, or the answer is forced", () => {
    expect(run([withAudience("e1", "aud_time")], "v", { audiences }).cache).toBeNull();
    expect(run([experience("e1")], "v", {}, { preview_mode: true }).cache).toBeNull();
    expect(run([experience("e1")], "v", {}, { desired_experiences: ["e1"] }).cache).toBeNull();
    expect(run([experience("e1")], "v", {}, { preferred_experiences: ["e1"] }).cache).toBeNull();
  });

  it("is the same for a page answered from the plan cache", () => {
    const planCache = new Map();
    const first = run([withAudience("e1", "aud_plan")], "v1", { audiences, planCache });
    const second = run([withAudience("e1", "aud_plan")], "v2", { audiences, planCache });
    expect(second.cache).toEqual(first.cache);
    expect(planCache.size).toBe(1);
  });
});
