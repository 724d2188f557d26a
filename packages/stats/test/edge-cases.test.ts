// Edge cases and properties that hold whatever the data: thin or degenerate data gives the
// documented uninformative result (never NaN, never a throw), bad options throw, and the tests
// agree with each other (intervals and p-values, risk and effect, CUPED and plain means).
import { describe, expect, it } from "vitest";
import {
  adjustPValues,
  bayesianTest,
  frequentistTest,
  srmPValue,
  type Alternative,
  type BayesianResult,
  type Cuped,
  type FrequentistResult,
  type Mean,
  type Proportion,
  type Ratio,
  type Statistic,
} from "../src/index.js";
import { normalQuantile } from "../src/distributions.js";

const UNINFORMATIVE_FREQUENTIST: FrequentistResult = { effect: 0, ci: [0, 0], se: 0, pValue: 1 };
const UNINFORMATIVE_BAYESIAN: BayesianResult = {
  effect: 0,
  ci: [0, 0],
  sd: 0,
  chanceToWin: 0.5,
  risk: [0, 0],
};
const ALTERNATIVES: Alternative[] = ["two-sided", "greater", "less"];

const mean = (n: number, sum: number, sumSquares: number): Mean => ({
  kind: "mean",
  n,
  sum,
  sumSquares,
});
const proportion = (n: number, sum: number): Proportion => ({ kind: "proportion", n, sum });

/** Per-unit values → the sufficient statistics the service would store. */
function meanOf(values: number[]): Mean {
  return mean(
    values.length,
    values.reduce((s, x) => s + x, 0),
    values.reduce((s, x) => s + x * x, 0),
  );
}
function cupedOf(post: number[], pre: number[]): Cuped {
  const m = meanOf(post);
  const p = meanOf(pre);
  return {
    kind: "cuped",
    n: post.length,
    post: { sum: m.sum, sumSquares: m.sumSquares },
    pre: { sum: p.sum, sumSquares: p.sumSquares },
    sumOfProducts: post.reduce((s, x, i) => s + x * (pre[i] ?? 0), 0),
  };
}
function ratioOf(num: number[], den: number[]): Ratio {
  const m = meanOf(num);
  const d = meanOf(den);
  return {
    kind: "ratio",
    n: num.length,
    numerator: { sum: m.sum, sumSquares: m.sumSquares },
    denominator: { sum: d.sum, sumSquares: d.sumSquares },
    sumOfProducts: num.reduce((s, x, i) => s + x * (den[i] ?? 0), 0),
  };
}

/** Deterministic pseudo-random numbers (mulberry32), so failures reproduce. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function expectUninformative(control: Statistic, treatment: Statistic) {
  for (const difference of ["relative", "absolute"] as const) {
    for (const alternative of ALTERNATIVES) {
      for (const sequentialTuning of [undefined, 5000]) {
        const got = frequentistTest(control, treatment, {
          difference,
          alternative,
          sequentialTuning,
        });
        expect(got, `${difference} ${alternative} ${sequentialTuning}`).toEqual(
          UNINFORMATIVE_FREQUENTIST,
        );
      }
    }
    expect(bayesianTest(control, treatment, { difference })).toEqual(UNINFORMATIVE_BAYESIAN);
    expect(
      bayesianTest(control, treatment, { difference, prior: { mean: 0.1, variance: 0.01 } }),
    ).toEqual(UNINFORMATIVE_BAYESIAN);
  }
}

describe("uninformative results", () => {
  it("n = 0 in one or both arms", () => {
    expectUninformative(mean(0, 0, 0), mean(0, 0, 0));
    expectUninformative(proportion(0, 0), proportion(100, 10));
    expectUninformative(proportion(100, 10), proportion(0, 0));
  });

  it("n = 1 in an arm (no variance can be estimated)", () => {
    expectUninformative(mean(1, 5, 25), mean(50, 100, 400));
    expectUninformative(mean(50, 100, 400), mean(1, 5, 25));
  });

  it("zero variance: no conversions, all conversions, constant values", () => {
    expectUninformative(proportion(100, 0), proportion(100, 0));
    expectUninformative(proportion(100, 100), proportion(120, 120));
    expectUninformative(meanOf([2, 2, 2, 2]), meanOf([3, 3, 3]));
    // One arm without variance is enough (gbstats): Welch's test needs both variances.
    expectUninformative(proportion(100, 0), proportion(100, 7));
    expectUninformative(meanOf([1, 2, 3]), meanOf([4, 4, 4]));
  });

  it("constant values whose sums carry rounding noise are recognised as zero variance", () => {
    // 0.1 + 0.1 + 0.1 ≠ 0.3 in binary: Σx² − (Σx)²/n is ±1e-18, not 0.
    expectUninformative(meanOf([0.1, 0.1, 0.1]), meanOf([0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7]));
  });

  it("zero control mean, relative and absolute (gbstats)", () => {
    expectUninformative(meanOf([-1, 1, -2, 2]), meanOf([1, 2, 3, 4]));
    expectUninformative(
      ratioOf([1, 2, 3], [0, 0, 0]), // the ratio's denominator is 0
      ratioOf([1, 2, 3], [1, 2, 2]),
    );
  });

  it("CUPED with an adjusted or unadjusted control mean of 0", () => {
    expectUninformative(cupedOf([-1, 1, -2, 2], [1, 2, 3, 4]), cupedOf([1, 2, 3, 4], [2, 1, 4, 3]));
  });

  it("non-finite numbers, negative counts and impossible sums", () => {
    const good = mean(100, 250, 900);
    for (const bad of [
      mean(100, NaN, 900),
      mean(100, 250, Infinity),
      mean(-5, 250, 900),
      mean(Infinity, 250, 900),
      mean(100, 250, 100), // Σx² < (Σx)²/n
      proportion(100, 120), // more conversions than units
      proportion(100, -1),
    ]) {
      expectUninformative(bad, good);
      expectUninformative(good, bad);
    }
    // Σxy beyond the Cauchy–Schwarz bound: no real data has this covariance.
    const cuped = cupedOf([1, 2, 3, 4], [2, 1, 4, 3]);
    expectUninformative({ ...cuped, sumOfProducts: 1000 }, cupedOf([2, 3, 4, 5], [1, 2, 3, 4]));
  });

  it("is made of finite numbers and serialises to JSON unchanged", () => {
    const r = frequentistTest(mean(0, 0, 0), mean(0, 0, 0));
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    const b = bayesianTest(mean(0, 0, 0), mean(0, 0, 0));
    expect(JSON.parse(JSON.stringify(b))).toEqual(b);
  });

  it("returns a fresh object each time (callers may mutate it)", () => {
    const a = frequentistTest(mean(0, 0, 0), mean(0, 0, 0));
    a.ci[0] = 42;
    expect(frequentistTest(mean(0, 0, 0), mean(0, 0, 0)).ci).toEqual([0, 0]);
  });
});

describe("identical arms", () => {
  const arm = mean(500, 1250, 4500);
  it("frequentist: no effect, two-sided p 1, one-sided p 1/2, interval around 0", () => {
    const two = frequentistTest(arm, arm);
    expect(two.effect).toBe(0);
    expect(two.pValue).toBe(1);
    expect(two.se).toBeGreaterThan(0);
    expect(two.ci[0]).toBeCloseTo(-two.ci[1], 12);
    expect(frequentistTest(arm, arm, { alternative: "greater" }).pValue).toBeCloseTo(0.5, 12);
    expect(frequentistTest(arm, arm, { alternative: "less" }).pValue).toBeCloseTo(0.5, 12);
  });
  it("sequential: p 1 on every side", () => {
    for (const alternative of ALTERNATIVES) {
      expect(frequentistTest(arm, arm, { alternative, sequentialTuning: 5000 }).pValue).toBe(1);
    }
  });
  it("Bayesian: chance to win 1/2 and equal risks", () => {
    const b = bayesianTest(arm, arm);
    expect(b.effect).toBe(0);
    expect(b.chanceToWin).toBe(0.5);
    expect(b.risk[0]).toBeCloseTo(b.risk[1], 15);
    expect(b.risk[0]).toBeCloseTo(b.sd / Math.sqrt(2 * Math.PI), 15);
  });
});

describe("options", () => {
  const a = mean(100, 250, 900);
  const b = mean(110, 300, 1100);
  it("a bad option throws a RangeError", () => {
    for (const alpha of [0, 1, -0.1, 1.5, NaN]) {
      expect(() => frequentistTest(a, b, { alpha })).toThrow(RangeError);
      expect(() => bayesianTest(a, b, { alpha })).toThrow(RangeError);
    }
    for (const sequentialTuning of [0, -1, NaN, Infinity]) {
      expect(() => frequentistTest(a, b, { sequentialTuning })).toThrow(RangeError);
    }
    expect(() =>
      frequentistTest(a, b, { alternative: "greater", alpha: 0.5, sequentialTuning: 5000 }),
    ).toThrow(RangeError);
    for (const variance of [0, -1, NaN]) {
      expect(() => bayesianTest(a, b, { prior: { mean: 0, variance } })).toThrow(RangeError);
    }
    expect(() => bayesianTest(a, b, { prior: { mean: NaN, variance: 1 } })).toThrow(RangeError);
    expect(() =>
      frequentistTest(a, b, { alternative: "sideways" as unknown as Alternative }),
    ).toThrow(RangeError);
  });

  it("comparing different kinds of statistic throws a TypeError; proportions and means mix", () => {
    const ratio = ratioOf([1, 2, 3], [1, 1, 2]);
    const cuped = cupedOf([1, 2, 3], [1, 1, 2]);
    expect(() => frequentistTest(ratio, a)).toThrow(TypeError);
    expect(() => bayesianTest(a, cuped)).toThrow(TypeError);
    expect(() => frequentistTest(ratio, cuped)).toThrow(TypeError);
    // A 0/1 metric given as a mean: its variance is the sample variance (n − 1), not p(1 − p).
    const mixed = frequentistTest(proportion(100, 20), mean(100, 25, 25));
    expect(mixed.effect).toBeCloseTo(0.25, 12);
    expect(mixed.se).toBeGreaterThan(0);
  });

  it("defaults: alpha 0.05, relative, two-sided, fixed horizon, flat prior", () => {
    expect(frequentistTest(a, b)).toEqual(
      frequentistTest(a, b, { alpha: 0.05, difference: "relative", alternative: "two-sided" }),
    );
    expect(bayesianTest(a, b)).toEqual(bayesianTest(a, b, { alpha: 0.05, difference: "relative" }));
  });
});

describe("properties on random data", () => {
  const random = rng(20260101);
  const randomArm = (): Statistic => {
    const n = 2 + Math.floor(random() * (random() < 0.2 ? 1e7 : 2000));
    switch (Math.floor(random() * 3)) {
      case 0:
        return proportion(n, Math.floor(random() * (n + 1)));
      case 1: {
        const m = (random() - 0.3) * 50;
        const sd = random() * 20;
        return mean(n, m * n, ((sd * sd * (n - 1)) / n) * n + m * m * n);
      }
      default: {
        const m = 1 + random() * 10;
        return mean(n, m * n, (m * m + random() * 30) * n);
      }
    }
  };
  const pairs = Array.from({ length: 200 }, () => [randomArm(), randomArm()] as const);

  it("every number is finite except the open side of a one-sided interval", () => {
    for (const [a, b] of pairs) {
      for (const difference of ["relative", "absolute"] as const) {
        for (const alternative of ALTERNATIVES) {
          for (const sequentialTuning of [undefined, 100, 5000]) {
            const r = frequentistTest(a, b, { difference, alternative, sequentialTuning });
            expect(Number.isFinite(r.effect) && Number.isFinite(r.se)).toBe(true);
            expect(r.pValue >= 0 && r.pValue <= 1).toBe(true);
            expect(r.ci[0] <= r.effect && r.effect <= r.ci[1]).toBe(true);
            if (alternative !== "less") expect(Number.isFinite(r.ci[0])).toBe(true);
            if (alternative !== "greater") expect(Number.isFinite(r.ci[1])).toBe(true);
          }
        }
        const p = bayesianTest(a, b, { difference });
        for (const x of [p.effect, p.sd, p.chanceToWin, ...p.ci, ...p.risk]) {
          expect(Number.isFinite(x)).toBe(true);
        }
        expect(p.chanceToWin >= 0 && p.chanceToWin <= 1).toBe(true);
        expect(p.risk[0] >= 0 && p.risk[1] >= 0).toBe(true);
      }
    }
  });

  it("two-sided: p < alpha exactly when the interval excludes 0 (fixed and sequential)", () => {
    for (const [a, b] of pairs) {
      for (const alpha of [0.01, 0.05, 0.2]) {
        for (const sequentialTuning of [undefined, 5000]) {
          const r = frequentistTest(a, b, { alpha, sequentialTuning });
          if (r.se === 0) continue;
          const excludes = r.ci[0] > 0 || r.ci[1] < 0;
          // Away from the boundary, where rounding could tip either side.
          const margin = Math.min(Math.abs(r.ci[0]), Math.abs(r.ci[1])) / r.se;
          if (margin > 1e-9)
            expect(r.pValue < alpha, `${alpha} ${sequentialTuning}`).toBe(excludes);
        }
      }
    }
  });

  it("one-sided fixed-horizon p-values add up to 1", () => {
    for (const [a, b] of pairs) {
      const greater = frequentistTest(a, b, { alternative: "greater" });
      const less = frequentistTest(a, b, { alternative: "less" });
      if (greater.se === 0) continue;
      expect(greater.pValue + less.pValue).toBeCloseTo(1, 12);
    }
  });

  it("the sequential interval is wider than the fixed-horizon one (n ≥ 30 per arm)", () => {
    for (const [a, b] of pairs) {
      const fixed = frequentistTest(a, b);
      // The confidence sequence is asymptotic (normal): with a handful of units Welch's Student t
      // interval can be the wider one, e.g. n = 4 gives about 3 degrees of freedom.
      if (fixed.se === 0 || a.n < 30 || b.n < 30) continue;
      for (const sequentialTuning of [100, 5000, 1e6]) {
        const seq = frequentistTest(a, b, { sequentialTuning });
        expect(seq.ci[1] - seq.ci[0]).toBeGreaterThan(fixed.ci[1] - fixed.ci[0]);
        // In the far tail the comparison is between Student's t (fixed) and the normal
        // approximation (sequential), whose tails differ: compare where p-values are read.
        if (fixed.pValue > 1e-6) expect(seq.pValue).toBeGreaterThanOrEqual(fixed.pValue);
      }
    }
  });

  it("Bayesian: risk(control) − risk(treatment) = posterior mean; flat prior = normal interval", () => {
    const z = normalQuantile(0.975);
    for (const [a, b] of pairs) {
      const p = bayesianTest(a, b);
      if (p.sd === 0) continue;
      expect(p.risk[0] - p.risk[1]).toBeCloseTo(p.effect, 10);
      const f = frequentistTest(a, b);
      expect(p.effect).toBe(f.effect);
      expect(p.sd / f.se).toBeCloseTo(1, 12);
      expect(p.ci[0]).toBeCloseTo(p.effect - z * p.sd, 10);
      expect(p.ci[1]).toBeCloseTo(p.effect + z * p.sd, 10);
    }
  });

  it("swapping the arms mirrors an absolute effect", () => {
    for (const [a, b] of pairs) {
      const ab = frequentistTest(a, b, { difference: "absolute" });
      const ba = frequentistTest(b, a, { difference: "absolute" });
      if (ab.se === 0) continue;
      expect(ba.effect).toBeCloseTo(-ab.effect, 10);
      expect(ba.pValue).toBeCloseTo(ab.pValue, 10);
      const pab = bayesianTest(a, b, { difference: "absolute" });
      const pba = bayesianTest(b, a, { difference: "absolute" });
      expect(pba.chanceToWin).toBeCloseTo(1 - pab.chanceToWin, 10);
      expect(pba.risk[0]).toBeCloseTo(pab.risk[1], 10);
    }
  });
});

describe("Bayesian prior", () => {
  const a = mean(10, 100, 1002.25);
  const b = mean(10, 105, 1111.5);
  it("a very wide prior is the flat prior; a tight one pins the posterior to it", () => {
    const flat = bayesianTest(a, b);
    const wide = bayesianTest(a, b, { prior: { mean: 0, variance: 1e12 } });
    expect(wide.effect).toBeCloseTo(flat.effect, 9);
    expect(wide.sd).toBeCloseTo(flat.sd, 9);
    const tight = bayesianTest(a, b, { prior: { mean: -0.2, variance: 1e-12 } });
    expect(tight.effect).toBeCloseTo(-0.2, 6);
    expect(tight.chanceToWin).toBeLessThan(1e-9);
  });
  it("the prior is on the scale of the difference asked for", () => {
    const rel = bayesianTest(a, b, { prior: { mean: 0.05, variance: 0.001 } });
    // Control mean 10: the same belief on the absolute scale.
    const abs = bayesianTest(a, b, {
      difference: "absolute",
      prior: { mean: 0.5, variance: 0.1 },
    });
    expect(abs.chanceToWin).toBeCloseTo(rel.chanceToWin, 2);
  });
});

describe("CUPED", () => {
  const random = rng(7);
  const pre = (n: number) => Array.from({ length: n }, () => 10 + 5 * random());
  const preA = pre(400);
  const preB = pre(380);
  const postA = preA.map((x) => 2 * x + 3 * random());
  const postB = preB.map((x) => 2 * x + 1 + 3 * random());

  it("a correlated pre-period shrinks the standard error; the lift is over the unadjusted control mean", () => {
    const plain = frequentistTest(meanOf(postA), meanOf(postB));
    const cuped = frequentistTest(cupedOf(postA, preA), cupedOf(postB, preB));
    expect(cuped.se).toBeLessThan(plain.se / 3);
    const absolute = frequentistTest(cupedOf(postA, preA), cupedOf(postB, preB), {
      difference: "absolute",
    });
    const controlPostMean = postA.reduce((s, x) => s + x, 0) / postA.length;
    expect(cuped.effect * controlPostMean).toBeCloseTo(absolute.effect, 10);
  });

  it("a pre-period without variance turns the adjustment off (θ = 0): same as the plain mean", () => {
    const flat = (n: number) => Array.from({ length: n }, () => 5);
    for (const difference of ["relative", "absolute"] as const) {
      expect(
        frequentistTest(cupedOf(postA, flat(400)), cupedOf(postB, flat(380)), { difference }),
      ).toEqual(frequentistTest(meanOf(postA), meanOf(postB), { difference }));
    }
  });
});

describe("ratio metrics", () => {
  it("a constant denominator c divides the absolute effect by c and keeps the relative one", () => {
    const random = rng(11);
    const numA = Array.from({ length: 300 }, () => random() * 10);
    const numB = Array.from({ length: 320 }, () => random() * 11);
    const c = 4;
    const ratioA = ratioOf(
      numA,
      numA.map(() => c),
    );
    const ratioB = ratioOf(
      numB,
      numB.map(() => c),
    );
    const rel = frequentistTest(ratioA, ratioB);
    const relMean = frequentistTest(meanOf(numA), meanOf(numB));
    expect(rel.effect).toBeCloseTo(relMean.effect, 12);
    expect(rel.se).toBeCloseTo(relMean.se, 12);
    expect(rel.pValue).toBeCloseTo(relMean.pValue, 12);
    const abs = frequentistTest(ratioA, ratioB, { difference: "absolute" });
    const absMean = frequentistTest(meanOf(numA), meanOf(numB), { difference: "absolute" });
    expect(abs.effect).toBeCloseTo(absMean.effect / c, 12);
    expect(abs.se).toBeCloseTo(absMean.se / c, 12);
  });
});

describe("srmPValue", () => {
  it("nothing to test gives 1", () => {
    expect(srmPValue([0, 0], [0.5, 0.5])).toBe(1);
    expect(srmPValue([], [])).toBe(1);
    expect(srmPValue([100], [1])).toBe(1);
    expect(srmPValue([100, 50], [1, 0])).toBe(1);
  });
  it("an exact split gives 1; weights are normalised", () => {
    expect(srmPValue([500, 500], [0.5, 0.5])).toBe(1);
    expect(srmPValue([1000, 1200], [1, 1])).toBe(srmPValue([1000, 1200], [0.5, 0.5]));
    expect(srmPValue([300, 100], [3, 1])).toBe(1);
  });
  it("variations with weight 0 take no part", () => {
    expect(srmPValue([1000, 1200, 37], [0.5, 0.5, 0])).toBe(srmPValue([1000, 1200], [0.5, 0.5]));
  });
  it("bad input throws a RangeError", () => {
    expect(() => srmPValue([1, 2], [1])).toThrow(RangeError);
    expect(() => srmPValue([1, -2], [1, 1])).toThrow(RangeError);
    expect(() => srmPValue([1, NaN], [1, 1])).toThrow(RangeError);
    expect(() => srmPValue([1, 2], [1, Infinity])).toThrow(RangeError);
  });
});

describe("adjustPValues", () => {
  it("keeps the input order and length", () => {
    expect(adjustPValues([], "holm")).toEqual([]);
    expect(adjustPValues([0.3], "bh")).toEqual([0.3]);
    expect(adjustPValues([0.04, 0.01], "holm")).toEqual([0.04, 0.02]);
  });
  it("never lowers a p-value, never exceeds 1, and Holm is at least as strict as BH", () => {
    const random = rng(3);
    for (let k = 0; k < 50; k++) {
      const ps = Array.from({ length: 1 + Math.floor(random() * 20) }, () => random() ** 3);
      const holm = adjustPValues(ps, "holm");
      const bh = adjustPValues(ps, "bh");
      ps.forEach((p, i) => {
        expect(holm[i]).toBeGreaterThanOrEqual(p);
        expect(bh[i]).toBeGreaterThanOrEqual(p);
        expect(holm[i]).toBeLessThanOrEqual(1);
        expect(holm[i]).toBeGreaterThanOrEqual(bh[i] ?? 0);
        // Order is kept: a smaller raw p-value never gets a larger adjusted one.
        ps.forEach((q, j) => {
          if (p < q) {
            expect(holm[i]).toBeLessThanOrEqual(holm[j] ?? 1);
            expect(bh[i]).toBeLessThanOrEqual(bh[j] ?? 1);
          }
        });
      });
    }
  });
  it("bad input throws a RangeError", () => {
    expect(() => adjustPValues([0.1, NaN], "bh")).toThrow(RangeError);
    expect(() => adjustPValues([1.2], "holm")).toThrow(RangeError);
    expect(() => adjustPValues([0.1], "bonferroni" as unknown as "holm")).toThrow(RangeError);
  });
});
