// The Gaussian Bayesian model of GrowthBook's effect-based engine (gbstats/bayesian/tests.py,
// `EffectBayesianABTest`): the likelihood of the effect is normal with the frequentist point
// estimate and standard error (delta method on the relative scale), the prior is flat or a proper
// normal on the same scale, and the posterior is the conjugate normal.
import { normalCdf, normalPdf, normalQuantile } from "./distributions.js";
import { effectMoments, type EffectMoments } from "./moments.js";
import { checkAlpha, checkDifference, checkPositive } from "./options.js";
import type { BayesianOptions, BayesianResult, GaussianPrior, Statistic } from "./types.js";

/** What the Bayesian test returns when the data cannot support inference (README). */
export function uninformativeBayesian(): BayesianResult {
  return { effect: 0, ci: [0, 0], sd: 0, chanceToWin: 0.5, risk: [0, 0] };
}

/**
 * Expected loss of each decision under a N(mu, sd²) posterior of the effect:
 *   shipping control loses E[max(effect, 0)]  = mu·Φ(z) + sd·φ(z),
 *   shipping treatment loses E[max(−effect, 0)] = −mu·Φ(−z) + sd·φ(z),   z = mu/sd.
 * These are gbstats' P(effect > 0)·E[effect | effect > 0] and P(effect < 0)·|E[effect | effect < 0]|
 * in closed form (no division by a tail probability that underflows).
 */
export function gaussianRisk(mu: number, sd: number): [number, number] {
  const z = mu / sd;
  const density = sd * normalPdf(z);
  return [mu * normalCdf(z) + density, -mu * normalCdf(-z) + density];
}

/**
 * Posterior of the effect of treatment against control, with chance to win P(effect > 0), the
 * central credible interval and the expected loss of each choice.
 */
export function bayesianTest(
  control: Statistic,
  treatment: Statistic,
  options: BayesianOptions = {},
): BayesianResult {
  const alpha = checkAlpha(options.alpha);
  const difference = checkDifference(options.difference);
  const prior = options.prior;
  if (prior !== undefined) {
    checkPositive("prior.variance", prior.variance);
    if (!Number.isFinite(prior.mean)) {
      throw new RangeError(`@storefit/stats: prior.mean must be finite, got ${prior.mean}`);
    }
  }

  const m = effectMoments(control, treatment, difference);
  return m ? posterior(m, alpha, prior) : uninformativeBayesian();
}

/**
 * The conjugate normal update: the data say effect ~ N(m.effect, m.se²); a proper prior
 * N(mean₀, variance₀) adds its precision and pulls the mean towards mean₀.
 */
export function posterior(
  m: EffectMoments,
  alpha: number,
  prior: GaussianPrior | undefined,
): BayesianResult {
  const dataVariance = m.se * m.se;
  let precision = 1 / dataVariance;
  let mean = m.effect;
  if (prior) {
    precision += 1 / prior.variance;
    mean = (m.effect / dataVariance + prior.mean / prior.variance) / precision;
  }
  const sd = Math.sqrt(1 / precision);
  const ci: [number, number] = [
    mean + sd * normalQuantile(alpha / 2),
    mean + sd * normalQuantile(1 - alpha / 2),
  ];
  return { effect: mean, ci, sd, chanceToWin: normalCdf(mean / sd), risk: gaussianRisk(mean, sd) };
}
