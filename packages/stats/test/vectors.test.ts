// Runs the golden vectors of test/vectors.json: every expected number comes from a published
// source named in the vector (gbstats' tests and fixtures, GrowthBook's front-end tests, papers).
import { describe, expect, it } from "vitest";
import {
  adjustPValues,
  bayesianTest,
  frequentistTest,
  srmPValue,
  type BayesianOptions,
  type Cuped,
  type FrequentistOptions,
  type PValueAdjustment,
  type Statistic,
} from "../src/index.js";
import { posterior } from "../src/bayesian.js";
import {
  fixedHorizon,
  sequentialInterval,
  sequentialPValue,
  sequentialRho,
} from "../src/frequentist.js";
import {
  effectMoments,
  momentsFromArms,
  plainArm,
  pooledTheta,
  sampleCovariance,
  sampleVariance,
  type EffectMoments,
} from "../src/moments.js";
import vectorsJson from "./vectors.json" with { type: "json" };

/** A number as the JSON writes it: "Infinity"/"-Infinity" for infinite ends, null = not given. */
type Num = number | string | null;
type Expected = Record<string, Num | Num[]>;
type PairVector<O> = {
  name: string;
  source: string;
  control: Statistic;
  treatment: Statistic;
  options: O;
  decimals: number;
  expected: Expected;
};
type Vectors = {
  frequentist: PairVector<FrequentistOptions>[];
  bayesian: PairVector<BayesianOptions>[];
  sequentialOneSidedPValues: {
    cases: {
      name: string;
      source: string;
      difference: "relative" | "absolute";
      alternative: "greater" | "less";
      bisectionPValue: number;
    }[];
    control: Statistic;
    treatment: Statistic;
    alpha: number;
    sequentialTuning: number;
  };
  deltaMethodRatio: {
    control: Statistic;
    treatment: Statistic;
    frequentist: { source: string; decimals: number; expected: Expected }[];
    bayesian: { source: string; decimals: number; expected: Expected }[];
  };
  statistics: {
    cases: {
      name: string;
      source: string;
      function: "sampleVariance" | "sampleCovariance" | "pooledTheta";
      args: unknown[];
      decimals: number;
      expected: number;
    }[];
  };
  uninformative: { name: string; source: string; control: Statistic; treatment: Statistic }[];
  srm: {
    name: string;
    source: string;
    observed: number[];
    weights: number[];
    decimals: number;
    expected: number;
  }[];
  adjust: {
    name: string;
    source: string;
    method: PValueAdjustment;
    pValues: number[];
    decimals: number;
    expected: number[];
  }[];
  adjustDecisions: {
    name: string;
    source: string;
    method: PValueAdjustment;
    pValues: number[];
    level: number;
    rejected: number;
  }[];
};

const vectors = vectorsJson as unknown as Vectors;

function toNumber(x: Num): number | null {
  if (x === null) return null;
  if (x === "Infinity") return Infinity;
  if (x === "-Infinity") return -Infinity;
  if (typeof x === "string") throw new Error(`bad number in vectors.json: ${x}`);
  return x;
}

/** Asserts every field given in `expected` (null entries are not given by the source). */
function expectMatches(actual: object, expected: Expected, decimals: number) {
  const fields = actual as Record<string, number | number[]>;
  for (const [key, want] of Object.entries(expected)) {
    const got = fields[key];
    const wants = Array.isArray(want) ? want : [want];
    const gots = Array.isArray(got) ? got : [got];
    expect(gots.length, key).toBe(wants.length);
    wants.forEach((w, i) => {
      const target = toNumber(w);
      if (target === null) return;
      const value = gots[i];
      const label = Array.isArray(want) ? `${key}[${i}]` : key;
      if (!Number.isFinite(target)) expect(value, label).toBe(target);
      else expect(value, label).toBeCloseTo(target, decimals);
    });
  }
}

describe("frequentist golden vectors", () => {
  for (const v of vectors.frequentist) {
    it(`${v.name} — ${v.source}`, () => {
      expectMatches(frequentistTest(v.control, v.treatment, v.options), v.expected, v.decimals);
    });
  }
});

describe("one-sided sequential p-values", () => {
  const s = vectors.sequentialOneSidedPValues;
  // gbstats' procedure (SequentialOneSidedTreatmentLesserTTest.compute_p_value): bisect alpha over
  // [1e-5, 0.4999] with ρ fixed, stop once the interval end is within 1e-6 of 0, return the
  // midpoint of the last bracket.
  function gbstatsBisection(m: EffectMoments, rho: number, alternative: "greater" | "less") {
    const lesser = alternative === "less";
    const end = (a: number) => sequentialInterval(m, a, rho, alternative)[lesser ? 1 : 0];
    let min = 1e-5;
    let max = 0.4999;
    if (lesser ? end(min) < 0 : end(min) > 0) return min;
    if (lesser ? end(max) > 0 : end(max) < 0) return max;
    let a = 0.5 * (min + max);
    for (let i = 0; i < 100; i++) {
      const diff = end(a);
      if (lesser ? diff > 0 : diff < 0) min = a;
      else max = a;
      a = 0.5 * (min + max);
      if (Math.abs(diff) < 1e-6) break;
    }
    return a;
  }

  for (const c of s.cases) {
    it(`${c.name} — ${c.source}`, () => {
      const m = effectMoments(s.control, s.treatment, c.difference);
      expect(m).not.toBeNull();
      if (!m) return;
      const rho = sequentialRho(s.alpha, s.sequentialTuning, false);
      // gbstats' number, reproduced from this package's confidence sequence.
      expect(gbstatsBisection(m, rho, c.alternative)).toBeCloseTo(c.bisectionPValue, 12);

      // The exported p-value is the exact root: at α = p the interval end is 0 (or p is 1).
      const { pValue } = frequentistTest(s.control, s.treatment, {
        alpha: s.alpha,
        difference: c.difference,
        alternative: c.alternative,
        sequentialTuning: s.sequentialTuning,
      });
      expect(pValue).toBe(sequentialPValue(m, rho, c.alternative));
      if (c.bisectionPValue === 0.4999) {
        // gbstats stops at the top of its search range; the root lies above it.
        expect(pValue).toBeGreaterThan(0.4999);
      } else {
        const end = sequentialInterval(m, pValue, rho, c.alternative)[
          c.alternative === "less" ? 1 : 0
        ];
        expect(Math.abs(end)).toBeLessThan(1e-12);
        // Bisection with a 1e-6 tolerance on the interval end lands within 2e-4 of the root here.
        expect(Math.abs(pValue - c.bisectionPValue)).toBeLessThan(2e-4);
      }
    });
  }
});

describe("Bayesian golden vectors", () => {
  for (const v of vectors.bayesian) {
    it(`${v.name} — ${v.source}`, () => {
      expectMatches(bayesianTest(v.control, v.treatment, v.options), v.expected, v.decimals);
    });
  }
});

describe("delta-method ratio formulas on gbstats' ratio data", () => {
  const r = vectors.deltaMethodRatio;
  const moments = () => {
    if (r.control.kind === "cuped" || r.treatment.kind === "cuped") throw new Error("ratio only");
    const m = momentsFromArms(plainArm(r.control), plainArm(r.treatment), "relative");
    if (!m) throw new Error("expected moments");
    return m;
  };
  for (const v of r.frequentist) {
    it(`frequentist — ${v.source}`, () => {
      expectMatches(fixedHorizon(moments(), 0.05, "two-sided"), v.expected, v.decimals);
    });
  }
  for (const v of r.bayesian) {
    it(`Bayesian — ${v.source}`, () => {
      expectMatches(posterior(moments(), 0.05, undefined), v.expected, v.decimals);
    });
  }
});

describe("per-arm statistics", () => {
  for (const c of vectors.statistics.cases) {
    it(`${c.name} — ${c.source}`, () => {
      let got: number;
      if (c.function === "pooledTheta") {
        got = pooledTheta(c.args[0] as Cuped, c.args[1] as Cuped);
      } else if (c.function === "sampleVariance") {
        const [sum, sumSquares, n] = c.args as [number, number, number];
        got = sampleVariance(sum, sumSquares, n);
      } else {
        const [sumX, sumY, sumOfProducts, n] = c.args as [number, number, number, number];
        got = sampleCovariance(sumX, sumY, sumOfProducts, n);
      }
      expect(got).toBeCloseTo(c.expected, c.decimals);
    });
  }
});

describe("uninformative results from gbstats' edge cases", () => {
  for (const v of vectors.uninformative) {
    it(`${v.name} — ${v.source}`, () => {
      for (const alternative of ["two-sided", "greater", "less"] as const) {
        for (const sequentialTuning of [undefined, 5000]) {
          expect(
            frequentistTest(v.control, v.treatment, { alternative, sequentialTuning }),
          ).toEqual({ effect: 0, ci: [0, 0], se: 0, pValue: 1 });
        }
      }
      expect(bayesianTest(v.control, v.treatment)).toEqual({
        effect: 0,
        ci: [0, 0],
        sd: 0,
        chanceToWin: 0.5,
        risk: [0, 0],
      });
    });
  }
});

describe("sample-ratio mismatch golden vectors", () => {
  for (const v of vectors.srm) {
    it(`${v.name} — ${v.source}`, () => {
      expect(srmPValue(v.observed, v.weights)).toBeCloseTo(v.expected, v.decimals);
    });
  }
});

describe("multiple-comparison golden vectors", () => {
  for (const v of vectors.adjust) {
    it(`${v.name} — ${v.source}`, () => {
      const got = adjustPValues(v.pValues, v.method);
      expect(got).toHaveLength(v.expected.length);
      v.expected.forEach((e, i) => expect(got[i], `[${i}]`).toBeCloseTo(e, v.decimals));
    });
  }
  for (const v of vectors.adjustDecisions) {
    it(`${v.name} — ${v.source}`, () => {
      const adjusted = adjustPValues(v.pValues, v.method);
      const rejected = adjusted.filter((p) => p <= v.level).length;
      expect(rejected).toBe(v.rejected);
      // The rejected ones are the smallest p-values (here given in ascending order).
      adjusted.forEach((p, i) => expect(p <= v.level, `[${i}]`).toBe(i < v.rejected));
    });
  }
});
