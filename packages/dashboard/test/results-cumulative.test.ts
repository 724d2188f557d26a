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
    expect(series.rows[0]).toEqual({ date: "2026-11-20", a: 0.15, b: 0.2 });
    expect(series.rows[1]).toEqual({ date: "2026-11-21", a: 0.1, b: 0.15 });
    expect(series.totals).toEqual([
      { variationId: "a", visitors: 200, conversions: 20, rate: 0.1 },
      { variationId: "b", visitors: 200, conversions: 30, rate: 0.15 },
    ]);
    // Another goal of the same days.
    expect(cumulativeSeries(daily, "h").rows[1]).toEqual({ date: "2026-11-21", a: 0.25, b: 0.005 });
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
      { date: "2026-11-01", a: 0.1, b: null },
      { date: "2026-11-02", a: 0.2, b: null },
      { date: "2026-11-03", a: 0.2, b: 0.1 },
    ]);
  });

  it("is empty without days", () => {
    expect(cumulativeSeries([], "g")).toEqual({ rows: [], variationIds: [], totals: [] });
  });
});
