// The sample-ratio check over split cohorts (results/srm.ts, docs/results.md): with one split it
// is Pearson's chi-square; with several, each cohort is expected by its own split.
import { describe, expect, it } from "vitest";
import { srmPValue } from "@storefit/stats";
import { chiSquareSurvival, srmTest } from "../src/results/srm.js";

describe("chiSquareSurvival", () => {
  it("gives the textbook 5 % points", () => {
    expect(chiSquareSurvival(3.841458820694124, 1)).toBeCloseTo(0.05, 10);
    expect(chiSquareSurvival(5.991464547107979, 2)).toBeCloseTo(0.05, 10);
    expect(chiSquareSurvival(11.070497693516351, 5)).toBeCloseTo(0.05, 10);
    expect(chiSquareSurvival(0, 3)).toBe(1);
    expect(chiSquareSurvival(Infinity, 1)).toBe(0);
  });
});

describe("srmTest", () => {
  it("one split: Pearson's chi-square against it", () => {
    const r = srmTest(3, [{ observed: [1000, 1100, 2050], probabilities: [0.25, 0.25, 0.5] }]);
    expect(r.p_value).toBeCloseTo(srmPValue([1000, 1100, 2050], [1, 1, 2]), 10);
    expect(r.expected).toEqual([1037.5, 1037.5, 2075]);
  });

  it("several splits: on target in each is p 1; the probabilities are normalised over the rule's variations", () => {
    const r = srmTest(3, [
      { observed: [100, 100, 0], probabilities: [0.25, 0.25, 0] }, // before v3 was added (traffic 50 %)
      { observed: [100, 100, 200], probabilities: [0.25, 0.25, 0.5] },
      { observed: [300, 100, 400], probabilities: [0.3, 0.1, 0.4] },
    ]);
    expect(r.p_value).toBeCloseTo(1, 12);
    expect(r.observed).toEqual([500, 300, 600]);
    expect(r.expected.map((x) => Math.round(x * 1e9) / 1e9)).toEqual([500, 300, 600]);
  });

  it("several splits: a deviation is tested with the variance of the cohorts it comes from", () => {
    // Two arms: χ² = D² / Σ n_c q_c (1 − q_c) on 1 df.
    const r = srmTest(2, [
      { observed: [480, 520], probabilities: [0.5, 0.5] },
      { observed: [880, 120], probabilities: [0.9, 0.1] },
    ]);
    const d = 480 - 500 + (880 - 900);
    expect(r.p_value).toBeCloseTo(chiSquareSurvival((d * d) / (1000 * 0.25 + 1000 * 0.09), 1), 12);
  });

  it("a visitor in a variation their split gives no chance is a mismatch (p 0); no visitors is p 1", () => {
    expect(srmTest(2, [{ observed: [10, 1], probabilities: [1, 0] }]).p_value).toBe(0);
    expect(srmTest(2, [{ observed: [0, 0], probabilities: [0.5, 0.5] }]).p_value).toBe(1);
    expect(srmTest(1, [{ observed: [7], probabilities: [1] }]).p_value).toBe(1);
  });

  it("disjoint splits (variations swapped between cohorts) keep the degrees of freedom they have", () => {
    const r = srmTest(4, [
      { observed: [50, 50, 0, 0], probabilities: [0.5, 0.5, 0, 0] },
      { observed: [0, 0, 70, 30], probabilities: [0, 0, 0.5, 0.5] },
    ]);
    // Each cohort: Pearson on 1 df; together 2 df.
    const x = 0 + (20 * 20) / 50 + (20 * 20) / 50;
    expect(r.p_value).toBeCloseTo(chiSquareSurvival(x, 2), 12);
  });
});
