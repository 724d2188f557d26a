// The daily series turned into what the chart draws: per day, each variation's cumulative
// conversion rate for one goal (conversions so far / visitors so far). Cumulative, because a
// single day's rate is mostly noise; the lines settle as the experiment gathers visitors.
import type { DailyPoint } from "@storefit/contract";

/**
 * One chart row: the day, and each variation's cumulative rate in `variationIds` order (null
 * before its first visitor). An array, not a key per variation id: the ids are the operator's,
 * and a row keyed by them lost a variation `__proto__` and let one named `date` replace the day.
 */
export type CumulativeRow = { date: string; rates: (number | null)[] };

export type CumulativeSeries = {
  rows: CumulativeRow[];
  /** Every variation seen in the series, in the order they first appear. */
  variationIds: string[];
  /** The last row's totals per variation, for the chart's text summary. */
  totals: { variationId: string; visitors: number; conversions: number; rate: number | null }[];
};

export function cumulativeSeries(daily: readonly DailyPoint[], goalId: string): CumulativeSeries {
  const days = [...daily].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const variationIds: string[] = [];
  const sums = new Map<string, { visitors: number; conversions: number }>();
  for (const day of days) {
    for (const v of day.variations) {
      if (!sums.has(v.variation_id)) {
        sums.set(v.variation_id, { visitors: 0, conversions: 0 });
        variationIds.push(v.variation_id);
      }
    }
  }
  const rateOf = (s: { visitors: number; conversions: number }) =>
    s.visitors > 0 ? s.conversions / s.visitors : null;

  const rows: CumulativeRow[] = [];
  for (const day of days) {
    for (const v of day.variations) {
      const sum = sums.get(v.variation_id)!;
      sum.visitors += v.visitors;
      // Own properties only: a goal id `toString` must not read Object.prototype's function.
      const conversions = Object.hasOwn(v.conversions, goalId) ? v.conversions[goalId] : undefined;
      sum.conversions += typeof conversions === "number" ? conversions : 0;
    }
    // A variation absent on a day keeps its rate so far: no visitors that day changes nothing.
    rows.push({ date: day.date, rates: variationIds.map((id) => rateOf(sums.get(id)!)) });
  }
  return {
    rows,
    variationIds,
    totals: variationIds.map((variationId) => {
      const sum = sums.get(variationId)!;
      return { variationId, ...sum, rate: rateOf(sum) };
    }),
  };
}
