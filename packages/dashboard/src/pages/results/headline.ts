// The one line the experiences list shows per experience: the primary goal's best variation.
import type {
  ExperienceResults,
  MetricResult,
  ResultsEngine,
  VariationMetric,
} from "@storefit/contract";

export type Headline =
  | { kind: "no_data" }
  /** Visitors, but nothing to compare: a single-variation personalization, or no conversions yet. */
  | { kind: "visitors"; visitors: number }
  | {
      kind: "lift";
      goalName: string;
      variationName: string;
      effect: number;
      significant: boolean;
      engine: ResultsEngine;
      /** Chance to win (Bayesian) or the p-value (adjusted when a correction applies). */
      chanceToWin?: number;
      pValue?: number;
      /** The lift is CUPED-adjusted, as the Results screen labels it (not the lift of the rates). */
      cuped?: true;
    };

/**
 * The rule with the most visitors decides (the one most operators read first); within it the
 * first metric (the primary goal: the service answers metrics in the operator's goal order), and
 * the treatment with the largest lift among those with an informative comparison.
 */
export function pickHeadline(results: ExperienceResults): Headline {
  if (results.total_visitors === 0) return { kind: "no_data" };
  let metric: MetricResult | undefined;
  let mostVisitors = -1;
  for (const rule of results.rules) {
    const visitors = rule.srm.observed.reduce((sum, n) => sum + n, 0);
    if (rule.metrics[0] && visitors > mostVisitors) {
      mostVisitors = visitors;
      metric = rule.metrics[0];
    }
  }
  const visitorsOnly: Headline = { kind: "visitors", visitors: results.total_visitors };
  if (!metric) return visitorsOnly;
  let top: VariationMetric | null = null;
  for (const variation of metric.variations) {
    if (variation.is_control || !variation.comparison) continue;
    if (!top || !top.comparison || variation.comparison.effect > top.comparison.effect) {
      top = variation;
    }
  }
  if (!top || !top.comparison) return visitorsOnly;
  const comparison = top.comparison;
  const headline: Headline = {
    kind: "lift",
    goalName: metric.goal_name,
    variationName: top.name ?? top.variation_id,
    effect: comparison.effect,
    significant: comparison.significant,
    engine: results.engine,
  };
  if (comparison.chance_to_win !== undefined) headline.chanceToWin = comparison.chance_to_win;
  const p = comparison.adjusted_p_value ?? comparison.p_value;
  if (p !== undefined) headline.pValue = p;
  if (metric.cuped) headline.cuped = true;
  return headline;
}
