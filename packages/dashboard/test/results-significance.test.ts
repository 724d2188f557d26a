// What "significant" and the intervals mean on the results screen: with a Holm or BH correction
// `significant` follows the adjusted p-value while the intervals drawn are not corrected, so the
// lift column says "uncorrected" then (and only then); the Bayesian engine ignores the correction.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ResultsCorrection, ResultsEngine } from "@storefit/contract";
import { MetricTable } from "../src/pages/results/MetricTable";
import { SrmWarning } from "../src/pages/results/SrmWarning";
import { liftColumnHeader, significanceNote } from "../src/pages/results/significance";
import { conversionMetric } from "./results-fixtures";

function table(engine: ResultsEngine, correction: ResultsCorrection, metric = conversionMetric()): string {
  return renderToStaticMarkup(createElement(MetricTable, { metric, engine, correction, alpha: 0.05 }));
}

const headers = (html: string) => [...html.matchAll(/<th[^>]*scope="col"[^>]*>(.*?)<\/th>/g)].map((m) => m[1]);
const barLabel = (html: string) => /aria-label="([^"]*)"/.exec(html)?.[1];

describe("the lift interval next to a corrected significance", () => {
  it("labels the interval column and bar uncorrected when a correction applies", () => {
    for (const [engine, correction, name] of [
      ["sequential", "holm", "Holm"],
      ["frequentist", "bh", "Benjamini-Hochberg"],
    ] as const) {
      const html = table(engine, correction);
      expect(headers(html)).toContain("Lift (95% CI, uncorrected)");
      expect(headers(html)).toContain(`p-value (${name}-adjusted)`);
      expect(barLabel(html)).toMatch(/^Lift \+48\.5%, 95% CI \(uncorrected\) .* significant$/);
      // The adjusted p-value is the one shown, and it decides "Significant".
      expect(html).toContain("0.001");
      expect(significanceNote(engine, correction, 0.05)).toContain(`${name}-adjusted p-value is below 0.05`);
      expect(significanceNote(engine, correction, 0.05)).toContain("intervals are not corrected");
    }
  });

  it("says nothing of adjustment without a correction: the p-value is the raw one (no adjusted_p_value then)", () => {
    const metric = conversionMetric();
    const { adjusted_p_value: _, ...raw } = metric.variations[1]!.comparison!;
    const html = table("sequential", "none", { ...metric, variations: [metric.variations[0]!, { ...metric.variations[1]!, comparison: raw }] });
    expect(headers(html)).toContain("Lift (95% CI)");
    expect(headers(html)).toContain("p-value");
    expect(html).not.toContain("uncorrected");
    expect(html).toContain("&lt; 0.001");
    expect(significanceNote("sequential", "none", 0.05)).not.toMatch(/adjusted/);
    expect(liftColumnHeader("frequentist", "none", 0.1)).toBe("Lift (90% CI)");
  });

  it("ignores the correction for the Bayesian engine: a credible interval, chance to win, no p-value", () => {
    const metric = conversionMetric();
    const { p_value: _p, adjusted_p_value: _a, ...rest } = metric.variations[1]!.comparison!;
    const bayes = { ...rest, chance_to_win: 0.999, risk: [0.04, 0.0001] as [number, number] };
    const html = table("bayesian", "holm", { ...metric, variations: [metric.variations[0]!, { ...metric.variations[1]!, comparison: bayes }] });
    expect(headers(html)).toContain("Lift (95% credible interval)");
    expect(headers(html)).toContain("Chance to win");
    expect(html).not.toContain("uncorrected");
    expect(html).not.toContain("p-value");
    expect(html).toContain("99.9%");
    const note = significanceNote("bayesian", "holm", 0.05);
    expect(note).toContain("credible interval excludes 0");
    expect(note).toContain("97.5%");
    expect(note).toContain("no correction");
  });
});

describe("the sample-ratio warning", () => {
  it("reads srm.expected as expected visitor counts, and shows each one's share of them", () => {
    const html = renderToStaticMarkup(
      createElement(SrmWarning, {
        srm: { p_value: 0.0001, mismatch: true, observed: [1200, 800], expected: [1000.4, 999.6] },
        variationNames: ["Control", "Free shipping"],
      }),
    );
    const rows = [...html.matchAll(/<tr data-testid="srm-row">(.*?)<\/tr>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim());
    expect(rows).toEqual(["Control 1,200 (60.0%) 1,000 (50.0%)", "Free shipping 800 (40.0%) 1,000 (50.0%)"]);
  });
});
