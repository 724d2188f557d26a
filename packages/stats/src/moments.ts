// From two arms' sufficient statistics to the moments of the effect: its point estimate, standard
// error and the Welch–Satterthwaite degrees of freedom. Every test in this package starts here.
// The formulas follow GrowthBook's gbstats (packages/stats/gbstats/models/statistics.py and
// models/tests.py, `EffectMoments`), which the golden vectors in test/vectors.json come from.
import type { Cuped, Difference, Moments, Statistic } from "./types.js";

/** One arm reduced to what the tests need; `variance` is per unit (not of the mean). */
export type Arm = {
  n: number;
  /** The metric's mean (CUPED: adjusted, post − θ·pre). */
  mean: number;
  /** CUPED: the post-period mean without adjustment; otherwise equal to `mean`. */
  unadjustedMean: number;
  variance: number;
  /** Present for CUPED arms with θ ≠ 0: what the relative-effect variance needs. */
  cuped?: { theta: number; postVariance: number; preVariance: number; covariance: number };
};

export type EffectMoments = {
  effect: number;
  se: number;
  /** Welch–Satterthwaite degrees of freedom. */
  dof: number;
  /** Units in both arms together (the sequential test's n). */
  n: number;
};

const isFiniteNumber = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

/** Σ(x − x̄)² from Σx and Σx². */
function centredSumOfSquares(sum: number, sumSquares: number, n: number): number {
  return n === 0 ? 0 : sumSquares - (sum * sum) / n;
}

/** Within floating-point rounding of Σx² (the cancellation in Σx² − (Σx)²/n), i.e. zero. */
function isRoundingNoise(centred: number, sumSquares: number): boolean {
  return Math.abs(centred) <= 1e-12 * Math.abs(sumSquares);
}

/**
 * Sample variance (n − 1 denominator) from a sum and a sum of squares. Constant data makes
 * Σx² − (Σx)²/n cancel to ±1e-16·Σx² rather than to 0: that is snapped to exactly 0, so constant
 * data is recognised as zero variance instead of yielding a tiny, sign-random variance.
 */
export function sampleVariance(sum: number, sumSquares: number, n: number): number {
  if (n <= 1) return 0;
  const centred = centredSumOfSquares(sum, sumSquares, n);
  return isRoundingNoise(centred, sumSquares) ? 0 : centred / (n - 1);
}

/** Sample covariance of two variables over n units from their sums and Σxy. */
export function sampleCovariance(sumX: number, sumY: number, sumOfProducts: number, n: number) {
  if (n <= 1) return 0;
  return (sumOfProducts - (sumX * sumY) / n) / (n - 1);
}

/** Delta-method variance of M/D (gbstats `variance_of_ratios`). */
export function varianceOfRatio(
  meanM: number,
  varM: number,
  meanD: number,
  varD: number,
  covMD: number,
): number {
  if (meanD === 0) return 0;
  return varM / meanD ** 2 + (varD * meanM ** 2) / meanD ** 4 - (2 * covMD * meanM) / meanD ** 3;
}

function momentsAreFinite(m: Moments): boolean {
  return isFiniteNumber(m.sum) && isFiniteNumber(m.sumSquares);
}

/** False for data no test can use: non-finite numbers or a negative count. */
function isFiniteData(s: Statistic): boolean {
  if (!isFiniteNumber(s.n) || s.n < 0) return false;
  switch (s.kind) {
    case "proportion":
      return isFiniteNumber(s.sum);
    case "mean":
      return isFiniteNumber(s.sum) && isFiniteNumber(s.sumSquares);
    case "ratio":
      return (
        momentsAreFinite(s.numerator) &&
        momentsAreFinite(s.denominator) &&
        isFiniteNumber(s.sumOfProducts)
      );
    case "cuped":
      return momentsAreFinite(s.post) && momentsAreFinite(s.pre) && isFiniteNumber(s.sumOfProducts);
  }
}

/** Σx² ≥ (Σx)²/n holds for any real data (up to rounding). */
function isPossibleMoments(m: Moments, n: number): boolean {
  if (n === 0) return m.sum === 0 && m.sumSquares === 0;
  const centred = centredSumOfSquares(m.sum, m.sumSquares, n);
  return centred >= 0 || isRoundingNoise(centred, m.sumSquares);
}

/** Cauchy–Schwarz: |Σ(x − x̄)(y − ȳ)| ≤ √(Σ(x − x̄)² · Σ(y − ȳ)²), up to rounding. */
function isPossibleProduct(x: Moments, y: Moments, sumOfProducts: number, n: number): boolean {
  if (n === 0) return sumOfProducts === 0;
  const cx = Math.max(0, centredSumOfSquares(x.sum, x.sumSquares, n));
  const cy = Math.max(0, centredSumOfSquares(y.sum, y.sumSquares, n));
  const cxy = sumOfProducts - (x.sum * y.sum) / n;
  return (
    Math.abs(cxy) <= Math.sqrt(cx * cy) + 1e-9 * Math.sqrt(Math.abs(x.sumSquares * y.sumSquares))
  );
}

/**
 * False for sums that no real data can produce: a proportion outside [0, n], Σx² < (Σx)²/n, or
 * Σxy outside the Cauchy–Schwarz bound. Such sums would give a covariance matrix that is not
 * positive semi-definite, and any "result" built on them would be noise; they are uninformative.
 */
export function isPossible(s: Statistic): boolean {
  switch (s.kind) {
    case "proportion":
      return s.sum >= 0 && s.sum <= s.n;
    case "mean":
      return isPossibleMoments(s, s.n);
    case "ratio":
      return (
        isPossibleMoments(s.numerator, s.n) &&
        isPossibleMoments(s.denominator, s.n) &&
        isPossibleProduct(s.numerator, s.denominator, s.sumOfProducts, s.n)
      );
    case "cuped":
      return (
        isPossibleMoments(s.post, s.n) &&
        isPossibleMoments(s.pre, s.n) &&
        isPossibleProduct(s.post, s.pre, s.sumOfProducts, s.n)
      );
  }
}

function meanOf(sum: number, n: number): number {
  return n === 0 ? 0 : sum / n;
}

function simpleArm(n: number, mean: number, variance: number): Arm {
  return { n, mean, unadjustedMean: mean, variance };
}

/** A proportion, mean or ratio arm (CUPED arms need θ from both arms: see `toArms`). */
export function plainArm(s: Exclude<Statistic, Cuped>): Arm {
  switch (s.kind) {
    case "proportion": {
      // gbstats ProportionStatistic: the Bernoulli variance p(1 − p).
      const p = meanOf(s.sum, s.n);
      return simpleArm(s.n, p, p * (1 - p));
    }
    case "mean":
      return simpleArm(s.n, meanOf(s.sum, s.n), sampleVariance(s.sum, s.sumSquares, s.n));
    case "ratio": {
      // gbstats RatioStatistic: the metric is ΣM/ΣD; its per-unit variance by the delta method.
      const { n, numerator: m, denominator: d } = s;
      const mean = d.sum === 0 ? 0 : m.sum / d.sum;
      const meanD = meanOf(d.sum, n);
      const variance =
        n <= 1 || meanD === 0
          ? 0
          : varianceOfRatio(
              meanOf(m.sum, n),
              sampleVariance(m.sum, m.sumSquares, n),
              meanD,
              sampleVariance(d.sum, d.sumSquares, n),
              sampleCovariance(m.sum, d.sum, s.sumOfProducts, n),
            );
      return simpleArm(n, mean, variance);
    }
  }
}

/**
 * CUPED's θ, pooled across both arms (Deng et al. 2013; gbstats `compute_theta`): the regression
 * slope of post on pre over all units of both arms, cov(post, pre) / var(pre). 0 when either
 * pooled variance is 0, which turns the adjustment off.
 */
export function pooledTheta(a: Cuped, b: Cuped): number {
  const n = a.n + b.n;
  const preVariance = sampleVariance(a.pre.sum + b.pre.sum, a.pre.sumSquares + b.pre.sumSquares, n);
  const postVariance = sampleVariance(
    a.post.sum + b.post.sum,
    a.post.sumSquares + b.post.sumSquares,
    n,
  );
  if (preVariance === 0 || postVariance === 0) return 0;
  const covariance = sampleCovariance(
    a.post.sum + b.post.sum,
    a.pre.sum + b.pre.sum,
    a.sumOfProducts + b.sumOfProducts,
    n,
  );
  return covariance / preVariance;
}

function cupedArm(s: Cuped, theta: number): Arm {
  const postMean = meanOf(s.post.sum, s.n);
  const preMean = meanOf(s.pre.sum, s.n);
  const postVariance = sampleVariance(s.post.sum, s.post.sumSquares, s.n);
  if (theta === 0) return simpleArm(s.n, postMean, postVariance);
  const preVariance = sampleVariance(s.pre.sum, s.pre.sumSquares, s.n);
  const covariance = sampleCovariance(s.post.sum, s.pre.sum, s.sumOfProducts, s.n);
  return {
    n: s.n,
    mean: postMean - theta * preMean,
    unadjustedMean: postMean,
    variance: s.n <= 1 ? 0 : postVariance + theta * theta * preVariance - 2 * theta * covariance,
    cuped: { theta, postVariance, preVariance, covariance },
  };
}

/**
 * Both arms reduced to `Arm`s. Proportions and means mix freely (both are per-unit values); a
 * ratio or CUPED statistic must face one of its own kind.
 */
export function toArms(control: Statistic, treatment: Statistic): [Arm, Arm] | null {
  const simple = (s: Statistic) => s.kind === "proportion" || s.kind === "mean";
  if (control.kind !== treatment.kind && !(simple(control) && simple(treatment))) {
    throw new TypeError(
      `@storefit/stats: cannot compare a "${control.kind}" control with a "${treatment.kind}" treatment`,
    );
  }
  if (!isFiniteData(control) || !isFiniteData(treatment)) return null;
  if (!isPossible(control) || !isPossible(treatment)) return null;
  if (control.kind === "cuped" && treatment.kind === "cuped") {
    const theta = pooledTheta(control, treatment);
    return [cupedArm(control, theta), cupedArm(treatment, theta)];
  }
  return [
    plainArm(control as Exclude<Statistic, Cuped>),
    plainArm(treatment as Exclude<Statistic, Cuped>),
  ];
}

/**
 * Variance of the relative CUPED effect (adjusted difference ÷ unadjusted control mean) by the
 * delta method, as gbstats `frequentist_variance_relative_cuped`: the control's gradient uses the
 * treatment's post-period mean in place of (adjusted treatment mean + θ·control pre mean), the two
 * being equal in expectation under randomisation.
 */
function relativeCupedVariance(a: Arm, b: Arm): number {
  const ca = a.cuped;
  const cb = b.cuped;
  if (!ca || !cb) return 0;
  const base = a.unadjustedMean;
  const theta = ca.theta;
  const treatmentTerm = b.variance / (b.n * base * base);
  const c = -b.unadjustedMean;
  const controlTerm =
    ((ca.postVariance * c * c) / (base * base) +
      (2 * theta * ca.covariance * c) / base +
      theta * theta * ca.preVariance) /
    (a.n * base * base);
  return treatmentTerm + controlTerm;
}

/** Welch–Satterthwaite degrees of freedom for the difference of two means. */
export function welchDof(a: Arm, b: Arm): number {
  const va = a.variance / a.n;
  const vb = b.variance / b.n;
  return (va + vb) ** 2 / ((vb * vb) / (b.n - 1) + (va * va) / (a.n - 1));
}

/**
 * The effect's moments from two arms, or null when they cannot support inference: an arm with
 * n ≤ 1 or zero (or negative) variance, a control mean of 0, or a non-finite result.
 */
export function momentsFromArms(a: Arm, b: Arm, difference: Difference): EffectMoments | null {
  if (a.n <= 1 || b.n <= 1 || !(a.variance > 0) || !(b.variance > 0)) return null;
  if (a.mean === 0 || a.unadjustedMean === 0) return null;

  let effect: number;
  let variance: number;
  if (difference === "absolute") {
    effect = b.mean - a.mean;
    variance = b.variance / b.n + a.variance / a.n;
  } else if (a.cuped && b.cuped) {
    effect = (b.mean - a.mean) / a.unadjustedMean;
    variance = relativeCupedVariance(a, b);
  } else {
    // Delta method for (mean_b − mean_a) / mean_a = mean_b / mean_a − 1, the arms independent.
    effect = (b.mean - a.mean) / a.mean;
    variance = b.variance / b.n / a.mean ** 2 + ((a.variance / a.n) * b.mean ** 2) / a.mean ** 4;
  }
  const dof = welchDof(a, b);
  if (!(variance > 0) || !Number.isFinite(variance) || !Number.isFinite(effect)) return null;
  if (!(dof > 0) || Number.isNaN(dof)) return null;
  return { effect, se: Math.sqrt(variance), dof, n: a.n + b.n };
}

/** The effect's moments, or null when the data cannot support inference (README). */
export function effectMoments(
  control: Statistic,
  treatment: Statistic,
  difference: Difference,
): EffectMoments | null {
  const arms = toArms(control, treatment);
  return arms ? momentsFromArms(arms[0], arms[1], difference) : null;
}
