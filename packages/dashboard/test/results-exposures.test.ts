// The exposures table's rows (pages/results/exposure-rows.ts): with several rules, each row names
// its rule's audience and its share is of its rule's visitors, the basis its target share has.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { RuleDefinition, VariationExposure } from "@storefit/contract";
import { exposureRows } from "../src/pages/results/exposure-rows";
import { ExposureTable } from "../src/pages/results/ExposureTable";

const rule = (id: string, audience_id: string | null, audience_name: string | undefined, ids: string[]): RuleDefinition => ({
  id,
  audience_id,
  ...(audience_name !== undefined ? { audience_name } : {}),
  behaviour: { id: `beh_${id}`, name: "b", traffic_allocation: 1, variations: ids.map((v) => ({ id: v, name: v.endsWith("c") ? "Control" : "Variation B", weight: 50, configs: [] })) },
});
const exposure = (variation_id: string, name: string | null, visitors: number, share: number, expected_share: number | null): VariationExposure => ({
  variation_id,
  name,
  visitors,
  share,
  expected_share,
});

// 18 visitors: 6 phones (3 / 3), 12 others (7 / 5), and one variation removed since (1).
const variations = [
  exposure("p_c", "Control", 3, 3 / 19, 0.5),
  exposure("p_b", "Variation B", 3, 3 / 19, 0.5),
  exposure("e_c", "Control", 7, 7 / 19, 0.5),
  exposure("e_b", "Variation B", 5, 5 / 19, 0.5),
  exposure("gone", null, 1, 1 / 19, null),
];
const rules = [rule("r1", "aud_phones", "Phone shoppers", ["p_c", "p_b"]), rule("r2", null, undefined, ["e_c", "e_b"])];

describe("exposure rows", () => {
  it("with several rules: the rule's audience, and the share of its rule's visitors", () => {
    const { rows, byRule } = exposureRows(variations, rules, [{ rule_id: "r1", audience_name: "Phone shoppers" }, { rule_id: "r2", audience_name: "Everyone" }]);
    expect(byRule).toBe(true);
    expect(rows.map((r) => [r.audience, r.name, r.visitors, r.shown_share])).toEqual([
      ["Phone shoppers", "Control", 3, 0.5],
      ["Phone shoppers", "Variation B", 3, 0.5],
      ["Everyone", "Control", 7, 7 / 12],
      ["Everyone", "Variation B", 5, 5 / 12],
      [null, null, 1, null],
    ]);
    // Without results per rule yet (no goals answered), the definitions name the audiences.
    expect(exposureRows(variations, rules, []).rows.map((r) => r.audience)).toEqual(["Phone shoppers", "Phone shoppers", "Everyone", "Everyone", null]);
  });

  it("with one rule (or the rules not loaded yet): the service's share, no audience column", () => {
    const one = variations.slice(0, 2).map((v) => ({ ...v, share: 0.5 }));
    for (const r of [[rules[0]!], undefined]) {
      const { rows, byRule } = exposureRows(one, r, []);
      expect(byRule).toBe(false);
      expect(rows.map((x) => [x.audience, x.shown_share])).toEqual([[null, 0.5], [null, 0.5]]);
    }
  });

  it("renders an Audience column and the share within it only with several rules", () => {
    const html = renderToStaticMarkup(createElement(ExposureTable, { variations, rules, ruleResults: [] }));
    expect(html).toContain(">Audience</th>");
    expect(html).toContain(">Share of its audience</th>");
    expect(html).toContain(">58.3%</td>");
    const single = renderToStaticMarkup(createElement(ExposureTable, { variations: variations.slice(0, 2), rules: [rules[0]!], ruleResults: [] }));
    expect(single).not.toContain(">Audience</th>");
    expect(single).toContain(">15.8%</td>");
  });
});
