// The results screen's words and scales (issue #16): the "Significant: …" sentence only when
// something is significant; the sample-ratio line names its threshold; the daily chart's rate
// axis fits the data (a 0 % series once got a 0–400 % axis); the date range in the URL and the
// days asked for; "few visitors" explained with the service's cause and numbers.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ResultsDiagnostics, RuleResults } from "@storefit/contract";
import { rateAxis, MIN_AXIS_TOP } from "../src/pages/results/chart-scale";
import { diagnosisText } from "../src/pages/results/diagnosis";
import { formatDay } from "../src/format";
import { ALL_TIME, describeRange, rangeDays, readRange, writeRange } from "../src/pages/results/range";
import { ruleSignificanceSentence } from "../src/pages/results/significance";
import { SrmWarning } from "../src/pages/results/SrmWarning";
import { srmOkText } from "../src/pages/results/srm-text";
import { resultsAnswer } from "./results-fixtures";

const rule = (): RuleResults => structuredClone(resultsAnswer().rules[0]!);

/** The rule with every comparison made not significant (or removed). */
function withComparisons(r: RuleResults, change: "insignificant" | "none"): RuleResults {
  for (const m of r.metrics)
    for (const v of m.variations)
      if (v.comparison) v.comparison = change === "none" ? null : { ...v.comparison, significant: false };
  return r;
}

describe("the significance sentence", () => {
  it("explains 'Significant' when some comparison is significant", () => {
    expect(ruleSignificanceSentence(rule(), "sequential", "holm", 0.05)).toMatch(/^Significant: the Holm-adjusted p-value is below 0.05/);
    expect(ruleSignificanceSentence(rule(), "bayesian", "holm", 0.05)).toMatch(/^Significant: the 95% credible interval excludes 0/);
  });

  it("says that nothing is significant yet otherwise, never 'Significant: …'", () => {
    const text = ruleSignificanceSentence(withComparisons(rule(), "insignificant"), "sequential", "holm", 0.05);
    expect(text).toBe(
      "Nothing is significant yet: no variation differs from the control by more than chance explains (Holm-adjusted p-values of 0.05 or more).",
    );
    expect(ruleSignificanceSentence(withComparisons(rule(), "insignificant"), "frequentist", "none", 0.1)).toContain("(p-values of 0.1 or more)");
    expect(ruleSignificanceSentence(withComparisons(rule(), "insignificant"), "bayesian", "holm", 0.05)).toBe(
      "Nothing is significant yet: every variation's 95% credible interval still includes no change from the control.",
    );
  });

  it("says nothing when the rule has no comparison (one variation, or no informative data)", () => {
    expect(ruleSignificanceSentence(withComparisons(rule(), "none"), "sequential", "holm", 0.05)).toBeNull();
    expect(ruleSignificanceSentence({ ...rule(), metrics: [] }, "sequential", "holm", 0.05)).toBeNull();
  });
});

describe("the sample-ratio check's threshold", () => {
  it("is stated in the quiet line", () => {
    expect(srmOkText(0.82)).toBe(
      "Traffic split matches the weights (sample-ratio check, p = 0.820; a mismatch is flagged only below p = 0.001, a 1-in-1,000 chance).",
    );
  });

  it("is stated in the warning", () => {
    const html = renderToStaticMarkup(
      createElement(SrmWarning, { srm: { p_value: 0.00002, mismatch: true, observed: [240, 160], expected: [200, 200] }, variationNames: ["A", "B"] }),
    );
    expect(html).toContain("less than once in 1,000 times (p &lt; 0.001)");
  });
});

describe("the daily chart's rate axis", () => {
  it("a series of zeros gets a small axis from 0, not 0–400 %", () => {
    expect(rateAxis([0, 0, null, 0])).toEqual({ domain: [0, MIN_AXIS_TOP], ticks: [0, 0.005, 0.01] });
    expect(rateAxis([])).toEqual({ domain: [0, 0.01], ticks: [0, 0.005, 0.01] });
  });

  it("runs from 0 to a round value a little above the highest rate", () => {
    expect(rateAxis([0.1, 0.148, null, "2026-11-01"])).toEqual({ domain: [0, 0.2], ticks: [0, 0.05, 0.1, 0.15, 0.2] });
    expect(rateAxis([0.5])).toEqual({ domain: [0, 0.6], ticks: [0, 0.2, 0.4, 0.6] });
    expect(rateAxis([0.031])).toEqual({ domain: [0, 0.04], ticks: [0, 0.01, 0.02, 0.03, 0.04] });
  });

  it("never goes below 0 nor above 100 %", () => {
    expect(rateAxis([1, 0.99])).toEqual({ domain: [0, 1], ticks: [0, 0.5, 1] });
    expect(rateAxis([-0.2, Number.NaN, Number.POSITIVE_INFINITY]).domain).toEqual([0, 0.01]);
  });
});

describe("the date range", () => {
  const NOW = Date.UTC(2026, 10, 22, 9, 30);

  it("reads presets and custom days from the URL; anything else is all time", () => {
    expect(readRange(new URLSearchParams(""))).toEqual(ALL_TIME);
    expect(readRange(new URLSearchParams("range=7d"))).toEqual({ preset: "7d", from: "", to: "" });
    expect(readRange(new URLSearchParams("range=custom&from=2026-11-03&to=2026-11-09"))).toEqual({ preset: "custom", from: "2026-11-03", to: "2026-11-09" });
    expect(readRange(new URLSearchParams("range=custom&from=2026-02-30&to=x"))).toEqual({ preset: "custom", from: "", to: "" });
    expect(readRange(new URLSearchParams("range=forever"))).toEqual(ALL_TIME);
  });

  it("writes the range and keeps other parameters", () => {
    const params = new URLSearchParams("engine=bayesian&range=7d");
    expect(writeRange(params, { preset: "custom", from: "2026-11-03", to: "" }).toString()).toBe("engine=bayesian&range=custom&from=2026-11-03");
    expect(writeRange(params, { preset: "30d", from: "2026-11-03", to: "" }).toString()).toBe("engine=bayesian&range=30d");
    expect(writeRange(params, ALL_TIME).toString()).toBe("engine=bayesian");
  });

  it("asks for UTC days: a preset ends today, custom days in order", () => {
    expect(rangeDays({ preset: "7d", from: "", to: "" }, NOW)).toEqual({ from: "2026-11-16", to: "2026-11-22" });
    expect(rangeDays({ preset: "30d", from: "", to: "" }, NOW)).toEqual({ from: "2026-10-24", to: "2026-11-22" });
    expect(rangeDays(ALL_TIME, NOW)).toEqual({});
    expect(rangeDays({ preset: "custom", from: "2026-11-09", to: "2026-11-03" }, NOW)).toEqual({ from: "2026-11-03", to: "2026-11-09" });
    expect(rangeDays({ preset: "custom", from: "", to: "2026-11-03" }, NOW)).toEqual({ to: "2026-11-03" });
  });

  it("describes the range an answer covers", () => {
    expect(describeRange({ from: null, to: null })).toBe("all time");
    expect(describeRange({ from: "2026-11-03", to: "2026-11-09" })).toBe(`${formatDay("2026-11-03")} – ${formatDay("2026-11-09")}`);
    expect(describeRange({ from: "2026-11-03", to: "2026-11-03" })).toBe(formatDay("2026-11-03"));
    expect(describeRange({ from: "2026-11-03", to: null })).toBe(`from ${formatDay("2026-11-03")}`);
  });
});

describe("few visitors explained", () => {
  const base: ResultsDiagnostics = {
    cause: "no_traffic",
    since: "2026-11-20T10:00:00.000Z",
    page_views: 0,
    target_page_views: 0,
    target_visitors: 0,
    exposed_visitors: 0,
    top_pages: [],
    overlaps: [],
  };

  it("names each cause with its numbers", () => {
    expect(diagnosisText(base).detail).toMatch(/^The shop has sent no page views since .*2026.*snippet/);
    expect(diagnosisText({ ...base, cause: "pages_never_matched", page_views: 1204, top_pages: [{ page: "shop.example/products/bib", views: 900 }] }).detail).toMatch(
      /^1,204 page views on the shop since .*, but none on a page this experience targets\. Most viewed: shop\.example\/products\/bib \(900\)\./,
    );
    expect(diagnosisText({ ...base, cause: "few_shoppers", target_visitors: 12, exposed_visitors: 11 }).detail).toMatch(/^12 visitors viewed this experience's pages since .*, and 11 of them saw it/);
    expect(diagnosisText({ ...base, cause: "audience_or_allocation", target_visitors: 1, exposed_visitors: 0 }).detail).toMatch(
      /^1 visitor viewed .* but only 0 saw it: its audiences or traffic allocation let few in/,
    );
  });

  it("names the experience that takes the element, and the element", () => {
    const text = diagnosisText({
      ...base,
      cause: "overlap_lost",
      page_views: 2000,
      target_page_views: 1204,
      target_visitors: 600,
      overlaps: [{ experience_id: "exp_price", name: "Price message", priority: 5, pages: ["shop.example/products/bib"], elements: ["#product-price"] }],
    });
    expect(text.title).toBe("A higher-priority experience takes this one's place");
    expect(text.detail).toMatch(
      /^1,204 page views on this experience's pages since .*, but a higher-priority experience 'Price message' changes the same element \(#product-price\) there/,
    );
    expect(text.detail).toContain("mutually exclusive group");
    const two = diagnosisText({
      ...base,
      cause: "overlap_lost",
      target_page_views: 3,
      overlaps: [
        { experience_id: "a", name: "A", priority: 5, pages: [], elements: ["#x"] },
        { experience_id: "b", name: "B", priority: 4, pages: [], elements: ["#x", "#y"] },
      ],
    });
    expect(two.detail).toContain("higher-priority experiences 'A' and 'B' change the same elements (#x and #y) there");
  });
});
