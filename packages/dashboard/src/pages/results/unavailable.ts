// A variation without a comparison, in words (docs/results.md "Uninformative → null"): the service
// says why (`comparison_unavailable`), and the screen says it with the counts instead of a
// blanket "Not enough data", which a variation converting 0 of 200 against the control's 20 of
// 200 is not.
import type { MetricResult, VariationMetric } from "@storefit/contract";
import { formatCount, formatMetricValue, formatMoney } from "./format";

export type UnavailableText = {
  /** One line naming the cause with the counts: "No conversions in this variation (0 of 200)". */
  title: string;
  /** What it means, and what to check. */
  detail: string;
};

type Who = "this variation" | "the control";

const ofVisitors = (v: VariationMetric) => `${formatCount(v.conversions)} of ${formatCount(v.visitors)}`;

/** What an arm at 0 lacks, with its counts: conversions (0 of 200), orders or revenue (200 visitors). */
function nothing(metric: MetricResult, v: VariationMetric): { what: string; counts: string } {
  if (metric.metric === "conversion_rate") return { what: "conversions", counts: ofVisitors(v) };
  const what = metric.metric === "average_order_value" && v.conversions === 0 ? "orders" : "revenue";
  return { what, counts: `${formatCount(v.visitors)} visitors` };
}

/** The arm's counts for a sentence: "converted 20 of 200 (10.00%)", "$1,234.00 from 200 visitors". */
function countsOf(metric: MetricResult, v: VariationMetric): string {
  if (metric.metric === "conversion_rate")
    return `converted ${ofVisitors(v)} (${formatMetricValue(metric.metric, v.value)})`;
  if (metric.metric === "average_order_value")
    return `${formatCount(v.conversions)} orders, ${formatMoney(v.value)} per order`;
  return `${formatMoney(v.revenue ?? v.value * v.visitors)} from ${formatCount(v.visitors)} visitors`;
}

/** "Every visitor in this variation converted (200 of 200)", "… has the same revenue (20.00)". */
function sameValueIn(metric: MetricResult, v: VariationMetric, who: Who): string {
  if (metric.metric === "conversion_rate") return `Every visitor in ${who} converted (${ofVisitors(v)})`;
  if (metric.metric === "average_order_value")
    return `Every order in ${who} has the same value (${formatMoney(v.value)})`;
  return `Every visitor in ${who} has the same revenue (${formatMoney(v.value)})`;
}

/**
 * The words for `variation`'s missing comparison, or null when it has one (or is the control, or
 * the service did not say why).
 */
export function unavailableText(metric: MetricResult, variation: VariationMetric): UnavailableText | null {
  const why = variation.comparison_unavailable;
  const control = metric.variations.find((v) => v.is_control);
  if (variation.is_control || variation.comparison || !why || !control) return null;
  const label = metric.metric === "conversion_rate" ? "conversion rate" : metric.metric === "revenue_per_visitor" ? "revenue per visitor" : "average order value";
  switch (why.reason) {
    case "too_few_visitors":
      return {
        title: "Too few visitors to compare",
        detail: `${formatCount(variation.visitors)} in this variation and ${formatCount(control.visitors)} in the control: at least 2 in each are needed.`,
      };
    case "no_conversions": {
      if (why.arm === "both")
        return {
          title:
            metric.metric === "conversion_rate"
              ? "No conversions yet, in this variation or the control"
              : metric.metric === "average_order_value" && variation.conversions === 0 && control.conversions === 0
                ? "No orders yet, in this variation or the control"
                : "No revenue yet, in this variation or the control",
          detail: "There is nothing to compare until some visitors convert.",
        };
      const { what, counts } = nothing(metric, variation);
      return {
        title: `No ${what} in this variation (${counts})`,
        detail:
          `The control ${countsOf(metric, control)}. No interval can be computed while every visitor ` +
          "of a variation has the same value (here none converted), so this is not a measured lift; " +
          "but a variation that never converts may be breaking the page: check it in preview.",
      };
    }
    case "control_zero": {
      const { what, counts } = nothing(metric, control);
      return {
        title: `The control has no ${what} (${counts})`,
        detail: `A lift relative to the control is undefined while the control's ${label} is 0. This variation ${countsOf(metric, variation)}.`,
      };
    }
    case "all_converted": {
      const title =
        why.arm === "both"
          ? `Every visitor converted, in this variation (${ofVisitors(variation)}) and the control (${ofVisitors(control)})`
          : sameValueIn(metric, why.arm === "control" ? control : variation, why.arm === "control" ? "the control" : "this variation");
      return {
        title,
        detail:
          "No interval can be computed while a conversion rate is 100%. Check that the goal does not " +
          "count something every visitor does (such as a view of the experience's own page).",
      };
    }
    case "no_variance": {
      const title =
        why.arm === "both"
          ? `Every ${metric.metric === "average_order_value" ? "order" : "visitor"} has the same ${metric.metric === "average_order_value" ? "value" : "revenue"}, in this variation and the control`
          : sameValueIn(metric, why.arm === "control" ? control : variation, why.arm === "control" ? "the control" : "this variation");
      return { title, detail: "No interval can be computed from values that do not vary." };
    }
    case "not_computable":
      return {
        title: "No interval can be computed",
        detail: metric.cuped
          ? "With the CUPED adjustment (what visitors did before the experience), these numbers leave the engine nothing to estimate."
          : "These numbers leave the engine nothing to estimate.",
      };
  }
}
