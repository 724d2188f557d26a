// The daily series turned into what the chart draws: per day, each variation's cumulative
// conversion rate for one goal (conversions so far / visitors so far). Cumulative, because a
// single day's rate is mostly noise; the lines settle as the experiment gathers visitors.
import type { DailyPoint } from "@storefit/contract";

/** One chart row: the day, and per variation id its cumulative rate (null before its first visitor). */
export type CumulativeRow = { date: string } & { [variationId: string]: number | null | string };

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
      sum.conversions += v.conversions[goalId] ?? 0;
    }
    const row: CumulativeRow = { date: day.date };
    // A variation absent on a day keeps its rate so far: no visitors that day changes nothing.
    for (const id of variationIds) row[id] = rateOf(sums.get(id)!);
    rows.push(row);
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
