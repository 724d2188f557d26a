// The special functions, from stdlib (CommonJS packages: under Node's ESM loader a default import
// is their `module.exports`, which is the function itself). Tails are taken on the side where the
// CDF is small, so p-values of 1e-12 keep their digits instead of becoming 1 − (1 − p).
import normalCdfStd from "@stdlib/stats-base-dists-normal-cdf";
import normalQuantileStd from "@stdlib/stats-base-dists-normal-quantile";
import tCdfStd from "@stdlib/stats-base-dists-t-cdf";
import tQuantileStd from "@stdlib/stats-base-dists-t-quantile";
import chisqCdfStd from "@stdlib/stats-base-dists-chisquare-cdf";

/** Standard normal CDF Φ(x). */
export function normalCdf(x: number): number {
  return normalCdfStd(x, 0, 1);
}

/** Standard normal quantile Φ⁻¹(p). */
export function normalQuantile(p: number): number {
  return normalQuantileStd(p, 0, 1);
}

/** Standard normal density φ(x) (elementary: no library needed). */
export function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

/** Student t CDF with `dof` degrees of freedom. */
export function tCdf(x: number, dof: number): number {
  return tCdfStd(x, dof);
}

/** Student t quantile with `dof` degrees of freedom. */
export function tQuantile(p: number, dof: number): number {
  return tQuantileStd(p, dof);
}

/** P(T > x) for Student t, computed as CDF(−x) by symmetry. */
export function tSurvival(x: number, dof: number): number {
  return tCdfStd(-x, dof);
}

/** P(X > x) for a chi-square variable with `k` degrees of freedom. */
export function chiSquareSurvival(x: number, k: number): number {
  return 1 - chisqCdfStd(x, k);
}
