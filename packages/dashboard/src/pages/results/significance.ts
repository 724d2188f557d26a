// What "significant" and the drawn intervals mean under each engine and correction
// (docs/results.md "Corrections", "significant"). With Holm or Benjamini-Hochberg, `significant`
// comes from the adjusted p-value but the intervals are not adjusted: a bar can exclude 0 next to
// "not significant". The screen says so in the lift column's header and under the tables.
import type { ResultsCorrection, ResultsEngine, RuleResults } from "@storefit/contract";
import { CORRECTION_LABELS } from "./options";

/** A correction changes `significant` only for the engines with p-values (not Bayesian). */
export const correctionApplies = (engine: ResultsEngine, correction: ResultsCorrection): boolean =>
  engine !== "bayesian" && correction !== "none";

const levelText = (alpha: number) => `${Math.round((1 - alpha) * 1000) / 10}%`;

/** "95% CI" / "95% credible interval", from alpha. */
export function intervalLabel(engine: ResultsEngine, alpha: number): string {
  return engine === "bayesian" ? `${levelText(alpha)} credible interval` : `${levelText(alpha)} CI`;
}

// "Uncorrected", not "unadjusted": CUPED-adjusted lifts sit in the same column, and an
// "adjusted lift (95% CI, unadjusted)" would read as a contradiction.

/** The interval as the lift bar names it: "95% CI (uncorrected)" when a correction applies. */
export function barIntervalLabel(
  engine: ResultsEngine,
  correction: ResultsCorrection,
  alpha: number,
): string {
  const label = intervalLabel(engine, alpha);
  return correctionApplies(engine, correction) ? `${label} (uncorrected)` : label;
}

/**
 * The lift column's header: "Lift (95% CI)", "Lift (95% CI, uncorrected)" with a correction, and
 * "CUPED-adjusted lift (…)" when the metric's lift is CUPED's (docs/results.md "CUPED").
 */
export function liftColumnHeader(
  engine: ResultsEngine,
  correction: ResultsCorrection,
  alpha: number,
  cuped = false,
): string {
  const label = intervalLabel(engine, alpha);
  const lift = cuped ? "CUPED-adjusted lift" : "Lift";
  return correctionApplies(engine, correction) ? `${lift} (${label}, uncorrected)` : `${lift} (${label})`;
}

/** The sentence under a rule's tables saying what "Significant" is based on. */
export function significanceNote(
  engine: ResultsEngine,
  correction: ResultsCorrection,
  alpha: number,
): string {
  if (engine === "bayesian")
    return (
      `Significant: the ${intervalLabel(engine, alpha)} excludes 0 (a chance to win above ` +
      `${levelText(alpha / 2)} or below ${Math.round((alpha / 2) * 1000) / 10}%). The Bayesian ` +
      "engine has no p-values, so no correction across goals applies."
    );
  if (correction === "none")
    return (
      `Significant: the p-value is below ${alpha}. No correction across goals: with several ` +
      "goals and variations compared, some will look significant by chance."
    );
  return (
    `Significant: the ${CORRECTION_LABELS[correction]}-adjusted p-value is below ${alpha}, ` +
    "adjusted for every goal and variation compared in this audience. The lift intervals are " +
    "not corrected, so a bar can exclude 0 while the result is not significant: go by the " +
    "adjusted p-value."
  );
}

/**
 * The sentence under a rule's tables. "Significant: …" explains a verdict, so it appears only when
 * some comparison is significant; otherwise one line says that nothing is yet. A rule without any
 * comparison gets one line pointing at the reasons in its tables when the service gave some
 * (docs/results.md "Uninformative → null"), and nothing when it has a single variation.
 */
export function ruleSignificanceSentence(
  rule: RuleResults,
  engine: ResultsEngine,
  correction: ResultsCorrection,
  alpha: number,
): string | null {
  const comparisons = rule.metrics.flatMap((m) => m.variations.flatMap((v) => (v.comparison ? [v.comparison] : [])));
  if (comparisons.length === 0) {
    const unavailable = rule.metrics.some((m) => m.variations.some((v) => v.comparison_unavailable));
    return unavailable
      ? "No variation could be compared with the control: the lift column of each table says why."
      : null;
  }
  if (comparisons.some((c) => c.significant)) return significanceNote(engine, correction, alpha);
  return engine === "bayesian"
    ? `Nothing is significant yet: every variation's ${intervalLabel(engine, alpha)} still includes no change from the control.`
    : `Nothing is significant yet: no variation differs from the control by more than chance explains (${
        correctionApplies(engine, correction) ? `${CORRECTION_LABELS[correction]}-adjusted ` : ""
      }p-values of ${alpha} or more).`;
}
