// Frequentist tests: Welch's t-test at a fixed horizon, and the always-valid asymptotic confidence
// sequence of Waudby-Smith et al. (2023) for results read while the experiment runs, as GrowthBook
// implements them (gbstats/frequentist/tests.py).
import { tCdf, tQuantile, tSurvival } from "./distributions.js";
import { effectMoments, type EffectMoments } from "./moments.js";
import { checkAlpha, checkDifference, checkPositive } from "./options.js";
import type { Alternative, FrequentistOptions, FrequentistResult, Statistic } from "./types.js";

/** What every frequentist test returns when the data cannot support inference (README). */
export function uninformativeFrequentist(): FrequentistResult {
  return { effect: 0, ci: [0, 0], se: 0, pValue: 1 };
}

/**
 * Welch's t-test on the effect's moments: t = effect / se with the Welch–Satterthwaite degrees of
 * freedom; one-sided intervals are open on the untested side.
 */
export function fixedHorizon(
  m: EffectMoments,
  alpha: number,
  alternative: Alternative,
): FrequentistResult {
  const { effect, se, dof } = m;
  const t = effect / se;
  if (alternative === "two-sided") {
    const half = tQuantile(1 - alpha / 2, dof) * se;
    return {
      effect,
      ci: [effect - half, effect + half],
      se,
      pValue: Math.min(1, 2 * tSurvival(Math.abs(t), dof)),
    };
  }
  const half = tQuantile(1 - alpha, dof) * se;
  return alternative === "greater"
    ? { effect, ci: [effect - half, Infinity], se, pValue: tSurvival(t, dof) }
    : { effect, ci: [-Infinity, effect + half], se, pValue: tCdf(t, dof) };
}

/**
 * The mixture parameter ρ of the normal-mixture confidence sequence, chosen so the boundary is
 * tightest when the total sample size reaches N* (Waudby-Smith et al. 2023, eq. for ρ; gbstats
 * `sequential_rho`). One-sided sequences spend 2α in the same formula.
 */
export function sequentialRho(alpha: number, tuning: number, twoSided: boolean): number {
  const a = twoSided ? alpha : 2 * alpha;
  return Math.sqrt((-2 * Math.log(a) + Math.log(-2 * Math.log(a) + 1)) / tuning);
}

/**
 * The confidence sequence at level α for a fixed ρ. With n units in both arms and the effect's
 * standard error se, the per-unit variance is s² = se²·n and the half-width is
 *   two-sided: √( s² · 2(nρ²+1)/(nρ)² · ln(√(nρ²+1) / α) )
 *   one-sided: √( s² · 2(nρ²+1)/(nρ)² · ln(1 + √(nρ²+1) / (2α)) )
 * (Waudby-Smith et al. 2023, asymptotic normal-mixture confidence sequence; gbstats
 * `sequential_interval_halfwidth` and its one-sided variant).
 */
export function sequentialInterval(
  m: EffectMoments,
  alpha: number,
  rho: number,
  alternative: Alternative,
): [number, number] {
  const { effect, se, n } = m;
  const nrho2 = n * rho * rho;
  // s²·2(nρ²+1)/(nρ)² with s² = se²·n.
  const width2 = (se * se * 2 * (nrho2 + 1)) / nrho2;
  if (alternative === "two-sided") {
    const half = Math.sqrt(width2 * Math.log(Math.sqrt(nrho2 + 1) / alpha));
    return [effect - half, effect + half];
  }
  const half = Math.sqrt(width2 * Math.log(1 + Math.sqrt(nrho2 + 1) / (2 * alpha)));
  return alternative === "greater" ? [effect - half, Infinity] : [-Infinity, effect + half];
}

/**
 * The always-valid p-value: the smallest α at which the sequence (ρ held at the configured α)
 * excludes 0. With X = effect²·nρ² / (2·se²·(nρ²+1)):
 *   two-sided: min(1, √(nρ²+1)·e^(−X)), i.e. 1 / e-value (eq. 155 of arXiv:2103.06476v7, as gbstats);
 *   one-sided: min(1, √(nρ²+1) / (2·(e^X − 1))) when the effect lies on the tested side, else 1 —
 *   the closed-form root of half-width(α) = |effect|, where gbstats bisects over [1e-5, 0.4999].
 */
export function sequentialPValue(m: EffectMoments, rho: number, alternative: Alternative): number {
  const { effect, se, n } = m;
  const nrho2 = n * rho * rho;
  const x = (effect * effect * nrho2) / (2 * se * se * (nrho2 + 1));
  if (alternative === "two-sided") return Math.min(1, Math.sqrt(nrho2 + 1) * Math.exp(-x));
  const onTestedSide = alternative === "greater" ? effect > 0 : effect < 0;
  return onTestedSide ? Math.min(1, Math.sqrt(nrho2 + 1) / (2 * Math.expm1(x))) : 1;
}

function sequential(
  m: EffectMoments,
  alpha: number,
  alternative: Alternative,
  tuning: number,
): FrequentistResult {
  const rho = sequentialRho(alpha, tuning, alternative === "two-sided");
  return {
    effect: m.effect,
    ci: sequentialInterval(m, alpha, rho, alternative),
    se: m.se,
    pValue: sequentialPValue(m, rho, alternative),
  };
}

/**
 * Compares treatment with control. Fixed horizon: Welch's t-test, with the delta method for
 * relative effects and ratio metrics. With `sequentialTuning`: the always-valid test above.
 */
export function frequentistTest(
  control: Statistic,
  treatment: Statistic,
  options: FrequentistOptions = {},
): FrequentistResult {
  const alpha = checkAlpha(options.alpha);
  const difference = checkDifference(options.difference);
  const alternative = options.alternative ?? "two-sided";
  if (alternative !== "two-sided" && alternative !== "greater" && alternative !== "less") {
    throw new RangeError(`@storefit/stats: unknown alternative ${String(alternative)}`);
  }
  const tuning =
    options.sequentialTuning === undefined
      ? undefined
      : checkPositive("sequentialTuning", options.sequentialTuning);
  if (tuning !== undefined && alternative !== "two-sided" && !(alpha < 0.5)) {
    // ρ for a one-sided sequence uses ln(2α), which needs 2α < 1.
    throw new RangeError("@storefit/stats: a one-sided sequential test needs alpha < 0.5");
  }

  const m = effectMoments(control, treatment, difference);
  if (!m) return uninformativeFrequentist();
  return tuning === undefined
    ? fixedHorizon(m, alpha, alternative)
    : sequential(m, alpha, alternative, tuning);
}
