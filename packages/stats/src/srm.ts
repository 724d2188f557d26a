// Sample-ratio-mismatch check: Pearson's chi-square goodness-of-fit test of the units seen per
// variation against the configured weights (gbstats `check_srm`).
import { chiSquareSurvival } from "./distributions.js";

/**
 * p-value of the observed counts under the expected split. Weights need not sum to 1 (they are
 * normalised); variations with a weight ≤ 0 take no part (neither counted nor expected). With no
 * units, or fewer than two weighted variations, there is nothing to test and the result is 1.
 */
export function srmPValue(observed: number[], weights: number[]): number {
  if (observed.length !== weights.length) {
    throw new RangeError(
      `@storefit/stats: srmPValue needs one weight per variation (${observed.length} counts, ${weights.length} weights)`,
    );
  }
  const used: Array<[number, number]> = [];
  for (let i = 0; i < observed.length; i++) {
    const o = observed[i] ?? 0;
    const w = weights[i] ?? 0;
    if (!Number.isFinite(o) || o < 0 || !Number.isFinite(w)) {
      throw new RangeError(`@storefit/stats: srmPValue got an invalid count or weight at ${i}`);
    }
    if (w > 0) used.push([o, w]);
  }
  const total = used.reduce((s, [o]) => s + o, 0);
  const totalWeight = used.reduce((s, [, w]) => s + w, 0);
  if (used.length < 2 || total === 0) return 1;
  let x = 0;
  for (const [o, w] of used) {
    const e = (w / totalWeight) * total;
    x += ((o - e) * (o - e)) / e;
  }
  return Math.min(1, Math.max(0, chiSquareSurvival(x, used.length - 1)));
}
