// What the lift column shows (docs/results.md "Comparisons", docs/results-screen.md "The lift").
// Every metric is a non-negative quantity (a rate, revenue per visitor, revenue per order), so a
// relative change below −100 % is impossible; the engines' intervals are normal approximations on
// the relative scale and can reach past it when data are few. The screen starts such an interval
// at −100 % and says so; the service's `ci` is left as the engine computed it.
import type { Comparison, MetricResult, VariationMetric } from "@storefit/contract";
import { METRIC_LABELS } from "./format";

/** The lowest relative change of a non-negative quantity: down to nothing. */
export const LOWEST_LIFT = -1;

export type ShownLift = {
  effect: number;
  ci: [number, number];
  /** The engine's lower end (or estimate) was below −100 % and is shown as −100 %. */
  clamped: boolean;
  /** The engine's lower end, for the note that says what was cut. */
  rawLow: number;
};

/** The comparison as the screen and the CSV show it: nothing below −100 %. */
export function shownLift(comparison: Comparison): ShownLift {
  const [low, high] = comparison.ci;
  const floor = (x: number) => (x < LOWEST_LIFT ? LOWEST_LIFT : x);
  return {
    effect: floor(comparison.effect),
    ci: [floor(low), floor(high)],
    clamped: low < LOWEST_LIFT || comparison.effect < LOWEST_LIFT,
    rawLow: low,
  };
}

/**
 * Whether `variation`'s value is a quantity. An average order value of no orders is undefined,
 * though the service answers 0 for it (revenue 0 ÷ orders 0): a lift against it would read −100 %.
 */
export function hasValue(metric: MetricResult, variation: VariationMetric): boolean {
  return metric.metric !== "average_order_value" || variation.conversions > 0;
}

/**
 * The lift of the values shown: treatment value ÷ control value − 1. Without CUPED it is the
 * engine's estimate; with CUPED the engine's estimate is adjusted and this one is given beside it,
 * so the rates on screen can always be checked against a lift. NaN without a control value, or
 * when either value is none (`hasValue`).
 */
export function valueLift(metric: MetricResult, variation: VariationMetric): number {
  const control = metric.variations.find((v) => v.is_control);
  if (!control || !(control.value > 0)) return NaN;
  if (!hasValue(metric, control) || !hasValue(metric, variation)) return NaN;
  return variation.value / control.value - 1;
}

/**
 * The line under a CUPED metric's table: what the adjusted lift is, what it is relative to, and
 * why it cannot be recomputed from the table (the pre-exposure behaviour is not in it).
 */
export function cupedNote(metric: MetricResult, controlValue: string): string {
  const rates = metric.metric === "conversion_rate";
  return (
    "CUPED-adjusted lift: the difference from the control once what visitors did before the " +
    `experience predicts is taken out, divided by the control's ` +
    `${METRIC_LABELS[metric.metric].toLowerCase()} shown (${controlValue}). That earlier ` +
    "behaviour is not in the table, so this lift cannot be recomputed from it; " +
    `"${rates ? "Rates" : "Values"} shown" is the lift of the ${rates ? "rates" : "values"} above.`
  );
}
