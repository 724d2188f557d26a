// Experiment statistics over sufficient statistics (product.md §3 "Results"): pure functions,
// no I/O. See README.md for the methods, their sources and what an uninformative result is.
export type {
  Alternative,
  BayesianOptions,
  BayesianResult,
  Cuped,
  Difference,
  FrequentistOptions,
  FrequentistResult,
  GaussianPrior,
  Mean,
  Moments,
  Proportion,
  PValueAdjustment,
  Ratio,
  Statistic,
} from "./types.js";
export { frequentistTest } from "./frequentist.js";
export { bayesianTest } from "./bayesian.js";
export { srmPValue } from "./srm.js";
export { adjustPValues } from "./corrections.js";
export { DEFAULT_ALPHA, DEFAULT_SEQUENTIAL_TUNING } from "./options.js";
