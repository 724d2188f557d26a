// The public shapes of @storefit/stats (product.md §3 "Results"). Every input is a sufficient
// statistic of one arm: counts and sums that the service can add up from stored events without
// keeping per-visitor rows.

/** The first two raw moments of one variable over an arm's units. */
export type Moments = { sum: number; sumSquares: number };

/** A conversion (0/1 per unit): `sum` units out of `n` converted. */
export type Proportion = { kind: "proportion"; n: number; sum: number };

/** A per-unit value such as revenue per visitor. */
export type Mean = { kind: "mean"; n: number; sum: number; sumSquares: number };

/**
 * A ratio of two per-unit values whose unit is not the analysis unit, e.g. revenue per order with
 * visitors as units: the metric is Σnumerator / Σdenominator. `sumOfProducts` is
 * Σ(numerator·denominator) over units, needed for their covariance.
 */
export type Ratio = {
  kind: "ratio";
  n: number;
  numerator: Moments;
  denominator: Moments;
  sumOfProducts: number;
};

/**
 * A per-unit value with its pre-experiment value as covariate (CUPED, Deng et al. 2013).
 * `sumOfProducts` is Σ(post·pre) over units.
 */
export type Cuped = {
  kind: "cuped";
  n: number;
  post: Moments;
  pre: Moments;
  sumOfProducts: number;
};

export type Statistic = Proportion | Mean | Ratio | Cuped;

/** Relative: (treatment − control) / control mean. Absolute: treatment − control. */
export type Difference = "relative" | "absolute";

/** The alternative hypothesis, stated for treatment against control. */
export type Alternative = "two-sided" | "greater" | "less";

export type FrequentistOptions = {
  /** Significance level, in (0, 1). Default 0.05. */
  alpha?: number;
  /** Default "relative". */
  difference?: Difference;
  /** Default "two-sided". */
  alternative?: Alternative;
  /**
   * When present, an always-valid sequential test (asymptotic confidence sequence) tuned for this
   * total sample size N* (both arms together); must be > 0. GrowthBook's default is 5000
   * (`DEFAULT_SEQUENTIAL_TUNING`).
   */
  sequentialTuning?: number;
};

export type FrequentistResult = {
  /** Point estimate of the difference (scale given by `difference`). */
  effect: number;
  /** (1 − alpha) confidence interval; one-sided tests have an infinite side. */
  ci: [number, number];
  /** Standard error of `effect`; 0 exactly when the result is uninformative. */
  se: number;
  pValue: number;
};

/** A proper Gaussian prior on the effect, on the scale chosen by `difference`. */
export type GaussianPrior = { mean: number; variance: number };

export type BayesianOptions = {
  /** The credible interval holds 1 − alpha of the posterior; in (0, 1). Default 0.05. */
  alpha?: number;
  /** Default "relative". */
  difference?: Difference;
  /** Absent: flat (improper) prior. `variance` must be > 0. */
  prior?: GaussianPrior;
};

export type BayesianResult = {
  /** Posterior mean of the effect. */
  effect: number;
  /** Central (1 − alpha) credible interval. */
  ci: [number, number];
  /** Posterior standard deviation; 0 exactly when the result is uninformative. */
  sd: number;
  /** Posterior probability that the effect is > 0. */
  chanceToWin: number;
  /**
   * Expected loss of shipping [control, treatment]: E[max(effect, 0)] and E[max(−effect, 0)], on
   * the effect's scale.
   */
  risk: [number, number];
};

export type PValueAdjustment = "holm" | "bh";
