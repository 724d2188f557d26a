// The one line the experiences list shows per experience: the primary goal's best variation.
import type {
  ComparisonUnavailableReason,
  ExperienceResults,
  MetricResult,
  ResultsEngine,
  VariationMetric,
} from "@storefit/contract";
import { unavailableText } from "./unavailable";

export type Headline =
  | { kind: "no_data" }
  /** Visitors, but nothing to compare: a single-variation personalization, or too few visitors yet. */
  | { kind: "visitors"; visitors: number }
  /**
   * No treatment of the primary goal has a comparison, and the service says why of one: its words
   * (unavailable.ts), so a variation converting 0 of 200 against 20 of 200 is not shown as "no
   * comparison yet".
   */
  | { kind: "unavailable"; goalName: string; variationName: string; reason: ComparisonUnavailableReason; title: string }
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
      /** Another treatment of the goal without a comparison, for a reason to act on (0 of 200): named too. */
      also?: { variationName: string; title: string };
    };

/**
 * Which missing comparison the list names first: what an operator should act on before what only
 * needs more time. Too few visitors is "no comparison yet", as before.
 */
const UNAVAILABLE_ORDER: ComparisonUnavailableReason[] = ["no_conversions", "all_converted", "control_zero", "no_variance", "not_computable"];

function unavailableHeadline(metric: MetricResult): Headline | null {
  let pick: { variation: VariationMetric; rank: number } | null = null;
  for (const variation of metric.variations) {
    const reason = variation.comparison_unavailable;
    if (variation.is_control || variation.comparison || !reason) continue;
    // Neither arm converting is the least telling (nothing happened yet in either).
    const rank = reason.reason === "no_conversions" && reason.arm === "both" ? UNAVAILABLE_ORDER.length : UNAVAILABLE_ORDER.indexOf(reason.reason);
    if (rank >= 0 && (!pick || rank < pick.rank)) pick = { variation, rank };
  }
  const text = pick && unavailableText(metric, pick.variation);
  if (!pick || !text) return null;
  return {
    kind: "unavailable",
    goalName: metric.goal_name,
    variationName: pick.variation.name ?? pick.variation.variation_id,
    reason: pick.variation.comparison_unavailable!.reason,
    title: text.title,
  };
}

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
  if (!top || !top.comparison) return unavailableHeadline(metric) ?? visitorsOnly;
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
  const other = unavailableHeadline(metric);
  if (other?.kind === "unavailable") headline.also = { variationName: other.variationName, title: other.title };
  return headline;
}
