import { describe, expect, it } from "vitest";
import type { DailyPoint } from "@storefit/contract";
import { cumulativeSeries } from "../src/pages/results/cumulative";

const day = (date: string, variations: [string, number, Record<string, number>][]): DailyPoint => ({
  date,
  variations: variations.map(([variation_id, visitors, conversions]) => ({ variation_id, visitors, conversions })),
});

describe("cumulative series", () => {
  it("accumulates visitors and conversions of one goal, in date order", () => {
    const daily = [
      day("2026-11-21", [
        ["a", 100, { g: 5, h: 50 }],
        ["b", 100, { g: 10 }],
      ]),
      day("2026-11-20", [
        ["a", 100, { g: 15 }],
        ["b", 100, { g: 20, h: 1 }],
      ]),
    ];
    const series = cumulativeSeries(daily, "g");
    expect(series.rows.map((r) => r.date)).toEqual(["2026-11-20", "2026-11-21"]);
    expect(series.rows[0]).toEqual({ date: "2026-11-20", rates: [0.15, 0.2] });
    expect(series.rows[1]).toEqual({ date: "2026-11-21", rates: [0.1, 0.15] });
    expect(series.totals).toEqual([
      { variationId: "a", visitors: 200, conversions: 20, rate: 0.1 },
      { variationId: "b", visitors: 200, conversions: 30, rate: 0.15 },
    ]);
    // Another goal of the same days.
    expect(cumulativeSeries(daily, "h").rows[1]).toEqual({ date: "2026-11-21", rates: [0.25, 0.005] });
  });

  it("keeps a variation's rate on days it has no row, and null before its first visitor", () => {
    const series = cumulativeSeries(
      [
        day("2026-11-01", [["a", 10, { g: 1 }]]),
        day("2026-11-02", [
          ["a", 10, { g: 3 }],
          ["b", 0, {}],
        ]),
        day("2026-11-03", [["b", 20, { g: 2 }]]),
      ],
      "g",
    );
    expect(series.variationIds).toEqual(["a", "b"]);
    expect(series.rows).toEqual([
      { date: "2026-11-01", rates: [0.1, null] },
      { date: "2026-11-02", rates: [0.2, null] },
      { date: "2026-11-03", rates: [0.2, 0.1] },
    ]);
  });

  it("variation ids __proto__, toString and date and a goal id __proto__ each keep their numbers", () => {
    // What the service answers: JSON, so `conversions` has an own "__proto__" key.
    const daily = JSON.parse(
      JSON.stringify([
        { date: "2026-11-01", variations: [{ variation_id: "__proto__", visitors: 10, conversions: JSON.parse('{"__proto__":2}') as Record<string, number> }, { variation_id: "toString", visitors: 10, conversions: JSON.parse('{"__proto__":1}') as Record<string, number> }, { variation_id: "date", visitors: 20, conversions: JSON.parse('{"__proto__":5}') as Record<string, number> }] },
      ]),
    ) as DailyPoint[];
    const series = cumulativeSeries(daily, "__proto__");
    expect(series.variationIds).toEqual(["__proto__", "toString", "date"]);
    expect(series.rows).toEqual([{ date: "2026-11-01", rates: [0.2, 0.1, 0.25] }]);
    expect(series.totals.map((t) => t.conversions)).toEqual([2, 1, 5]);
    // A goal no day names counts nothing, even one named like an inherited member.
    expect(cumulativeSeries(daily, "toString").rows).toEqual([{ date: "2026-11-01", rates: [0, 0, 0] }]);
  });

  it("is empty without days", () => {
    expect(cumulativeSeries([], "g")).toEqual({ rows: [], variationIds: [], totals: [] });
  });
});
