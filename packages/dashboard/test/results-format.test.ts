import { describe, expect, it } from "vitest";
import {
  formatChance,
  formatCount,
  formatInterval,
  formatLift,
  formatMetricValue,
  formatPStatement,
  formatPValue,
  formatPercent,
} from "../src/pages/results/format";
import { liftBarGeometry, liftHalfWidth, MAX_HALF_WIDTH, MIN_HALF_WIDTH } from "../src/pages/results/lift-scale";
import { readResultsChoice, writeResultsChoice } from "../src/pages/results/options";
import { pickHeadline } from "../src/pages/results/headline";
import { conversionMetric, resultsAnswer } from "./results-fixtures";

describe("results formats", () => {
  it("formats counts, percents, lifts with their sign, and intervals", () => {
    expect(formatCount(12345)).toBe("12,345");
    expect(formatPercent(0.1234)).toBe("12.3%");
    expect(formatLift(0.052)).toBe("+5.2%");
    expect(formatLift(-0.01)).toBe("\u22121.0%");
    expect(formatLift(0.00001)).toBe("0.0%");
    expect(formatInterval([-0.012, 0.08])).toBe("[\u22121.2%, +8.0%]");
    expect(formatLift(Number.POSITIVE_INFINITY)).toBe("—");
  });

  it("shows rates as percents and revenue metrics as money", () => {
    expect(formatMetricValue("conversion_rate", 0.0523)).toBe("5.23%");
    expect(formatMetricValue("revenue_per_visitor", 2.5)).toBe("2.50");
    expect(formatMetricValue("average_order_value", 1234.567)).toBe("1,234.57");
  });

  it("gives p-values three decimals, and < 0.001 below", () => {
    expect(formatPValue(0.04567)).toBe("0.046");
    expect(formatPValue(0.0004)).toBe("< 0.001");
    expect(formatPValue(1)).toBe("1.000");
    expect(formatPValue(Number.NaN)).toBe("—");
    expect(formatPStatement(0.04567)).toBe("p = 0.046");
    expect(formatChance(0.97)).toBe("97.0%");
    expect(formatChance(0.99995)).toBe("> 99.9%");
    expect(formatChance(0.00002)).toBe("< 0.1%");
    expect(formatPStatement(0.00001)).toBe("p < 0.001");
  });
});

describe("lift bar scale", () => {
  it("shares one symmetric scale, from the widest interval, within bounds", () => {
    expect(liftHalfWidth([null, { effect: 0.1, ci: [-0.3, 0.5], significant: false }])).toBe(0.5);
    expect(liftHalfWidth([{ effect: 0.001, ci: [0, 0.002], significant: false }])).toBe(MIN_HALF_WIDTH);
    expect(liftHalfWidth([{ effect: 1, ci: [-Infinity, 40], significant: false }])).toBe(MAX_HALF_WIDTH);
  });

  it("places zero in the middle and clips what runs past the scale", () => {
    const g = liftBarGeometry({ effect: 0.25, ci: [0, 0.5], significant: true }, 0.5);
    expect(g).toEqual({ low: 0.5, high: 1, effect: 0.75, clippedLow: false, clippedHigh: false, tone: "positive" });
    const wide = liftBarGeometry({ effect: -0.5, ci: [-2, 0.1], significant: false }, 1);
    expect(wide).toMatchObject({ low: 0, clippedLow: true, clippedHigh: false, effect: 0.25, tone: "neutral" });
    expect(liftBarGeometry({ effect: -0.2, ci: [-0.3, -0.1], significant: true }, 0.5).tone).toBe("negative");
  });
});

describe("engine and correction in the URL", () => {
  it("defaults to sequential with Holm, and ignores unknown values", () => {
    expect(readResultsChoice(new URLSearchParams(""))).toEqual({ engine: "sequential", correction: "holm" });
    expect(readResultsChoice(new URLSearchParams("engine=bayesian&correction=bh"))).toEqual({
      engine: "bayesian",
      correction: "bh",
    });
    expect(readResultsChoice(new URLSearchParams("engine=magic&correction=x"))).toEqual({
      engine: "sequential",
      correction: "holm",
    });
  });

  it("writes the choice and keeps other parameters", () => {
    const next = writeResultsChoice(new URLSearchParams("tab=2&engine=bayesian"), {
      engine: "frequentist",
      correction: "none",
    });
    expect(next.toString()).toBe("tab=2&engine=frequentist&correction=none");
  });
});

describe("headline result", () => {
  it("says there is no data without visitors, and counts visitors without a comparison", () => {
    expect(pickHeadline(resultsAnswer({ total_visitors: 0 }))).toEqual({ kind: "no_data" });
    expect(pickHeadline(resultsAnswer({ rules: [] }))).toEqual({ kind: "visitors", visitors: 2010 });
    const single = resultsAnswer();
    for (const m of single.rules[0]!.metrics) m.variations = m.variations.filter((v) => v.is_control);
    expect(pickHeadline(single)).toEqual({ kind: "visitors", visitors: 2010 });
  });

  it("picks the primary goal's best treatment in the rule with the most visitors", () => {
    const answer = resultsAnswer();
    const small = structuredClone(answer.rules[0]!);
    small.rule_id = "rule_small";
    small.srm.observed = [10, 10];
    small.metrics = [
      conversionMetric({
        goal_name: "Small rule goal",
        variations: [
          { ...conversionMetric().variations[1]!, comparison: { effect: 3, ci: [1, 5], significant: true } },
        ],
      }),
    ];
    answer.rules.unshift(small);
    const metric = answer.rules[1]!.metrics[0]!;
    metric.variations.push({
      variation_id: "var_c",
      name: "Worse",
      is_control: false,
      visitors: 1000,
      conversions: 90,
      value: 0.09,
      comparison: { effect: -0.1, ci: [-0.3, 0.1], p_value: 0.3, adjusted_p_value: 0.6, significant: false },
    });
    expect(pickHeadline(answer)).toEqual({
      kind: "lift",
      goalName: "Add to cart",
      variationName: "Free shipping",
      effect: 0.485,
      significant: true,
      engine: "sequential",
      pValue: 0.0012,
    });
  });

  it("says when the headline's lift is CUPED-adjusted, as the Results screen does", () => {
    const answer = resultsAnswer();
    expect(pickHeadline(answer)).not.toHaveProperty("cuped");
    answer.rules[0]!.metrics[0]!.cuped = true;
    expect(pickHeadline(answer)).toMatchObject({ kind: "lift", cuped: true });
  });

  it("reports the chance to win under the Bayesian engine", () => {
    const answer = resultsAnswer({ engine: "bayesian" });
    answer.rules[0]!.metrics[0]!.variations[1]!.comparison = {
      effect: 0.4,
      ci: [0.1, 0.7],
      chance_to_win: 0.97,
      risk: [0.05, 0.001],
      significant: true,
    };
    expect(pickHeadline(answer)).toMatchObject({ kind: "lift", chanceToWin: 0.97, engine: "bayesian" });
    expect(pickHeadline(answer)).not.toHaveProperty("pValue");
  });
});
