// A variation without a comparison says why, in words (docs/results-screen.md "No comparison"):
// a review found control 20 of 200 against a treatment's 0 of 200 shown as "Not enough data" in
// the lift column, the experiences list falling back to a visitor count and no sentence under the
// tables. The service now answers `comparison_unavailable` (docs/results.md), and the table, the
// sentence under it and the list's headline say it.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ComparisonUnavailable, MetricKind, MetricResult, VariationMetric } from "@storefit/contract";
import { CSV_COLUMNS, buildResultsCsv } from "../src/pages/results/csv";
import { pickHeadline } from "../src/pages/results/headline";
import { MetricTable } from "../src/pages/results/MetricTable";
import { ruleSignificanceSentence } from "../src/pages/results/significance";
import { unavailableText } from "../src/pages/results/unavailable";
import { conversionMetric, resultsAnswer } from "./results-fixtures";

type Arm = Pick<VariationMetric, "visitors" | "conversions" | "value"> & { revenue?: number };

/** A two-arm metric whose treatment has no comparison, for `why`. */
function metricWithout(why: ComparisonUnavailable, control: Arm, treatment: Arm, metric: MetricKind = "conversion_rate", cuped = false): MetricResult {
  const m = conversionMetric({ metric, cuped, goal_kind: metric === "conversion_rate" ? "track" : "revenue" });
  m.variations[0] = { ...m.variations[0]!, ...control };
  m.variations[1] = { ...m.variations[1]!, ...treatment, comparison: null, comparison_unavailable: why };
  return m;
}

const rate = (conversions: number, visitors: number): Arm => ({ visitors, conversions, value: conversions / visitors });
const THE_REVIEW = metricWithout({ reason: "no_conversions", arm: "treatment" }, rate(20, 200), rate(0, 200));

const render = (metric: MetricResult) =>
  renderToStaticMarkup(createElement(MetricTable, { metric, engine: "sequential", correction: "holm", alpha: 0.05 }));
/** The text of the treatment's lift cell, tags removed. */
const liftCell = (metric: MetricResult) => {
  const html = render(metric);
  const cell = /<span class="lift-unavailable"[^>]*>(.*?)<\/span><\/td>/.exec(html)?.[1] ?? "";
  return cell.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ").trim();
};
const title = (metric: MetricResult) => unavailableText(metric, metric.variations[1]!)?.title;

describe("the lift cell of a variation without a comparison", () => {
  it("the review's case: says no conversions with the counts, the rates' −100.0% without an interval, and the control's rate — never 'Not enough data'", () => {
    const html = render(THE_REVIEW);
    expect(html).not.toContain("Not enough data");
    expect(html).toContain('data-reason="no_conversions"');
    expect(liftCell(THE_REVIEW)).toBe(
      "No conversions in this variation (0 of 200) Rates shown: \u2212100.0%, no interval " +
        "The control converted 20 of 200 (10.00%). No interval can be computed while every visitor of a variation has the same value (here none converted), so this is not a measured lift; but a variation that never converts may be breaking the page: check it in preview.",
    );
  });

  it("a control without conversions: the relative lift is undefined", () => {
    const m = metricWithout({ reason: "control_zero", arm: "control" }, rate(0, 200), rate(20, 200));
    expect(liftCell(m)).toBe(
      "The control has no conversions (0 of 200) A lift relative to the control is undefined while the control's conversion rate is 0. This variation converted 20 of 200 (10.00%).",
    );
  });

  it("every visitor converted, in one arm or both", () => {
    expect(title(metricWithout({ reason: "all_converted", arm: "treatment" }, rate(20, 200), rate(200, 200)))).toBe("Every visitor in this variation converted (200 of 200)");
    expect(title(metricWithout({ reason: "all_converted", arm: "control" }, rate(200, 200), rate(150, 200)))).toBe("Every visitor in the control converted (200 of 200)");
    expect(title(metricWithout({ reason: "all_converted", arm: "both" }, rate(200, 200), rate(200, 200)))).toBe(
      "Every visitor converted, in this variation (200 of 200) and the control (200 of 200)",
    );
    expect(liftCell(metricWithout({ reason: "all_converted", arm: "treatment" }, rate(20, 200), rate(200, 200)))).toContain("Rates shown: +900.0%, no interval");
  });

  it("no conversions in either arm, too few visitors: nothing to compare yet, and no lift of the values", () => {
    const none = metricWithout({ reason: "no_conversions", arm: "both" }, rate(0, 200), rate(0, 200));
    expect(liftCell(none)).toBe("No conversions yet, in this variation or the control There is nothing to compare until some visitors convert.");
    const few = metricWithout({ reason: "too_few_visitors", arm: "treatment" }, rate(20, 200), { visitors: 1, conversions: 1, value: 1 });
    expect(liftCell(few)).toBe("Too few visitors to compare 1 in this variation and 200 in the control: at least 2 in each are needed.");
  });

  it("revenue: no revenue, the same revenue for every visitor, the same value for every order", () => {
    const money = (visitors: number, revenue: number, buyers: number, metric: MetricKind): Arm => ({
      visitors,
      conversions: buyers,
      revenue,
      value: metric === "average_order_value" ? (buyers ? revenue / buyers : 0) : revenue / visitors,
    });
    expect(title(metricWithout({ reason: "no_conversions", arm: "treatment" }, money(200, 500, 10, "revenue_per_visitor"), money(200, 0, 0, "revenue_per_visitor"), "revenue_per_visitor"))).toBe(
      "No revenue in this variation (200 visitors)",
    );
    expect(title(metricWithout({ reason: "no_conversions", arm: "treatment" }, money(200, 500, 10, "average_order_value"), money(200, 0, 0, "average_order_value"), "average_order_value"))).toBe(
      "No orders in this variation (200 visitors)",
    );
    // No orders: the average order value is undefined (the service's 0 is not a value), so no
    // "Values shown: −100.0%" beside it; no revenue per visitor is a value of 0, and has one.
    const noOrders = metricWithout({ reason: "no_conversions", arm: "treatment" }, money(200, 500, 10, "average_order_value"), money(200, 0, 0, "average_order_value"), "average_order_value");
    expect(liftCell(noOrders)).not.toContain("Values shown");
    expect(buildResultsCsv({ ...resultsAnswer(), rules: [{ ...resultsAnswer().rules[0]!, metrics: [noOrders] }] }).split("\r\n")[2]!.split(",")[CSV_COLUMNS.indexOf("lift_of_values")]).toBe("");
    expect(liftCell(metricWithout({ reason: "no_conversions", arm: "treatment" }, money(200, 500, 10, "revenue_per_visitor"), money(200, 0, 0, "revenue_per_visitor"), "revenue_per_visitor"))).toContain(
      "Values shown: \u2212100.0%, no interval",
    );
    expect(title(metricWithout({ reason: "control_zero", arm: "control" }, money(200, 0, 0, "revenue_per_visitor"), money(200, 500, 10, "revenue_per_visitor"), "revenue_per_visitor"))).toBe(
      "The control has no revenue (200 visitors)",
    );
    expect(title(metricWithout({ reason: "no_variance", arm: "treatment" }, money(200, 500, 10, "revenue_per_visitor"), money(200, 4000, 200, "revenue_per_visitor"), "revenue_per_visitor"))).toBe(
      "Every visitor in this variation has the same revenue (20.00)",
    );
    expect(title(metricWithout({ reason: "no_variance", arm: "treatment" }, money(200, 500, 10, "average_order_value"), money(200, 250, 10, "average_order_value"), "average_order_value"))).toBe(
      "Every order in this variation has the same value (25.00)",
    );
  });

  it("not computable (CUPED): says so, and says nothing when the answer gives no reason", () => {
    expect(title(metricWithout({ reason: "not_computable", arm: "both" }, rate(20, 200), rate(30, 200), "conversion_rate", true))).toBe("No interval can be computed");
    const old = metricWithout({ reason: "no_conversions", arm: "treatment" }, rate(20, 200), rate(0, 200));
    delete old.variations[1]!.comparison_unavailable;
    expect(render(old)).toContain(">No comparison<");
    // A control or a variation with a comparison has no such words.
    expect(unavailableText(THE_REVIEW, THE_REVIEW.variations[0]!)).toBeNull();
    expect(unavailableText(conversionMetric(), conversionMetric().variations[1]!)).toBeNull();
  });
});

describe("under the tables and in the experiences list", () => {
  const answer = () => {
    const a = resultsAnswer({ total_visitors: 400 });
    a.rules[0]!.metrics = [structuredClone(THE_REVIEW)];
    return a;
  };

  it("the sentence under a rule without comparisons points at the reasons; a single-variation rule still gets none", () => {
    expect(ruleSignificanceSentence(answer().rules[0]!, "sequential", "holm", 0.05)).toBe(
      "No variation could be compared with the control: the lift column of each table says why.",
    );
    const single = answer().rules[0]!;
    single.metrics[0]!.variations = [single.metrics[0]!.variations[0]!];
    expect(ruleSignificanceSentence(single, "sequential", "holm", 0.05)).toBeNull();
  });

  it("the CSV gives the reason and its arm, empty for the control and for a variation with a comparison", () => {
    const rows = buildResultsCsv(answer()).trim().split("\r\n").map((line) => line.split(","));
    const column = (row: string[], name: string) => row[CSV_COLUMNS.indexOf(name as (typeof CSV_COLUMNS)[number])];
    expect(rows.slice(1).map((r) => [column(r, "variation"), column(r, "lift"), column(r, "comparison_unavailable"), column(r, "comparison_unavailable_arm")])).toEqual([
      ["Control", "", "", ""],
      ["Free shipping", "", "no_conversions", "treatment"],
    ]);
    const withComparison = buildResultsCsv(resultsAnswer()).split("\r\n")[2]!.split(",");
    expect([column(withComparison, "comparison_unavailable"), column(withComparison, "comparison_unavailable_arm")]).toEqual(["", ""]);
  });

  it("the headline names the variation and the reason instead of a visitor count", () => {
    expect(pickHeadline(answer())).toEqual({
      kind: "unavailable",
      goalName: "Add to cart",
      variationName: "Free shipping",
      reason: "no_conversions",
      title: "No conversions in this variation (0 of 200)",
    });
  });

  it("the headline prefers a reason to act on over neither arm converting, and too few visitors stays a visitor count", () => {
    const a = answer();
    const m = a.rules[0]!.metrics[0]!;
    const none: VariationMetric = { ...m.variations[1]!, variation_id: "var_c", name: "C", conversions: 0, value: 0, comparison_unavailable: { reason: "no_conversions", arm: "both" } };
    const full: VariationMetric = { ...m.variations[1]!, variation_id: "var_d", name: "D", conversions: 200, value: 1, comparison_unavailable: { reason: "all_converted", arm: "treatment" } };
    m.variations = [m.variations[0]!, none, full];
    expect(pickHeadline(a)).toMatchObject({ kind: "unavailable", variationName: "D", reason: "all_converted" });
    m.variations = [m.variations[0]!, { ...m.variations[1]!, comparison_unavailable: { reason: "too_few_visitors", arm: "treatment" } }];
    expect(pickHeadline(a)).toEqual({ kind: "visitors", visitors: 400 });
  });

  it("beside another treatment's lift, a variation that never converts is named too", () => {
    const a = resultsAnswer();
    const m = a.rules[0]!.metrics[0]!;
    m.variations.push({ ...THE_REVIEW.variations[1]!, variation_id: "var_c", name: "C" });
    expect(pickHeadline(a)).toMatchObject({ kind: "lift", variationName: "Free shipping", also: { variationName: "C", title: "No conversions in this variation (0 of 200)" } });
    // Too few visitors in the other is nothing to act on: not named.
    m.variations[2] = { ...m.variations[2]!, visitors: 1, comparison_unavailable: { reason: "too_few_visitors", arm: "treatment" } };
    expect(pickHeadline(a)).not.toHaveProperty("also");
  });
});
