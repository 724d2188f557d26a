// The sample-ratio check over split cohorts (docs/results.md, "Sample-ratio check"). Visitors
// assigned under different splits (weights or traffic changed during the experiment) are
// multinomial draws with different probabilities; pooling them and testing against a mean split
// flags a mismatch that is not there. Here each cohort has its own expected counts, and the test
// is on the deviations summed over cohorts, with their exact multinomial covariance.

import { srmPValue } from "@storefit/stats";

/** One split cohort of a rule: its visitors per variation (rule order) and the split's probabilities. */
export type SrmCohort = { observed: readonly number[]; probabilities: readonly number[] };

export type SrmTest = { p_value: number; observed: number[]; expected: number[] };

/** Relative size below which an elimination pivot counts as zero (a direction of no variance). */
const PIVOT_EPSILON = 1e-9;

/**
 * P(X > x) for a chi-square variable with `df` degrees of freedom, through the stats package's
 * Pearson test (it exports no distribution functions): counts [e + d, e, …, e, e − d] against
 * equal weights give x = 2d²/e on df + 1 categories.
 */
export function chiSquareSurvival(x: number, df: number): number {
  if (!(x > 0) || df < 1) return 1;
  if (!Number.isFinite(x)) return 0;
  const e = x + 1;
  const d = Math.sqrt((x * e) / 2);
  const counts = Array.from({ length: df + 1 }, (_, i) => (i === 0 ? e + d : i === df ? e - d : e));
  return srmPValue(counts, counts.map(() => 1));
}

/**
 * Per cohort c of n_c visitors, variation v is expected n_c·q_cv times (q: the split normalised
 * over the rule's variations). D = Σ_c (O_c − E_c) has covariance V = Σ_c n_c (diag q_c − q_c q_cᵀ);
 * the statistic Dᵀ V⁺ D is chi-square with rank(V) degrees of freedom. With one cohort it is
 * Pearson's chi-square, as before; with several it is exact where a mean split is not.
 * A visitor in a variation their cohort gives probability 0 is impossible under the split: p 0.
 */
export function srmTest(variationCount: number, cohorts: readonly SrmCohort[]): SrmTest {
  const k = variationCount;
  const observed = new Array<number>(k).fill(0);
  const expected = new Array<number>(k).fill(0);
  const deviation = new Array<number>(k).fill(0);
  const cov = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  let impossible = false;
  for (const c of cohorts) {
    const n = c.observed.reduce((s, x) => s + x, 0);
    if (n === 0) continue;
    const p = c.probabilities.map((x) => (Number.isFinite(x) && x > 0 ? x : 0));
    const total = p.reduce((s, x) => s + x, 0);
    const q = p.map((x) => (total > 0 ? x / total : 0));
    for (let v = 0; v < k; v++) {
      const o = c.observed[v] ?? 0;
      observed[v]! += o;
      expected[v]! += n * q[v]!;
      deviation[v]! += o - n * q[v]!;
      if (o > 0 && q[v] === 0) impossible = true;
      for (let w = 0; w < k; w++) cov[v]![w]! += n * ((v === w ? q[v]! : 0) - q[v]! * q[w]!);
    }
  }
  if (impossible) return { p_value: 0, observed, expected };
  // Dᵀ V⁺ D by symmetric elimination (LDLᵀ), skipping directions of no variance: V is positive
  // semi-definite, and D has no part along them (each cohort's deviations sum to 0 over its split).
  const a = cov.map((row) => [...row]);
  const y = [...deviation];
  const scale = Math.max(1, ...a.map((row, i) => row[i]!));
  let stat = 0;
  let rank = 0;
  for (let i = 0; i < k; i++) {
    const pivot = a[i]![i]!;
    if (!(pivot > PIVOT_EPSILON * scale)) continue;
    rank++;
    stat += (y[i]! * y[i]!) / pivot;
    for (let j = i + 1; j < k; j++) {
      const f = a[j]![i]! / pivot;
      if (f === 0) continue;
      y[j]! -= f * y[i]!;
      for (let m = i; m < k; m++) a[j]![m]! -= f * a[i]![m]!;
    }
  }
  return { p_value: Math.min(1, Math.max(0, chiSquareSurvival(stat, rank))), observed, expected };
}
