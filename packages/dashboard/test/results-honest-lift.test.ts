// The results screen says only true things (found by an operator's exploratory test):
// - with CUPED the lift is the adjusted one, so the column says so, the lift of the rates shown is
//   given beside it, and a line says what the adjusted lift is relative to;
// - a lift of a non-negative quantity cannot be below −100 %: intervals start there, with a note;
// - a paused or archived experience's results say that its numbers can still move;
// - one date format on the screen.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Comparison, MetricResult } from "@storefit/contract";
import { formatDateTime, formatDay } from "../src/format";
import { buildResultsCsv, CSV_COLUMNS } from "../src/pages/results/csv";
import { cupedNote, shownLift, valueLift } from "../src/pages/results/lift";
import { liftHalfWidth } from "../src/pages/results/lift-scale";
import { MetricTable } from "../src/pages/results/MetricTable";
import { describeRange } from "../src/pages/results/range";
import { RuleResultsSection } from "../src/pages/results/RuleResultsSection";
import { statusNoticeText } from "../src/pages/results/status-notice";
import { conversionMetric, resultsAnswer } from "./results-fixtures";

/** The operator's case: control 1 of 8 (12.50 %), B 2 of 6 (33.33 %), a CUPED lift of +173.3 %. */
function cupedMetric(comparison: Partial<Comparison> = {}): MetricResult {
  const metric = conversionMetric({ cuped: true });
  metric.variations[0] = { ...metric.variations[0]!, visitors: 8, conversions: 1, value: 1 / 8 };
  metric.variations[1] = {
    ...metric.variations[1]!,
    name: "Variation B",
    visitors: 6,
    conversions: 2,
    value: 2 / 6,
    comparison: { effect: 1.733, ci: [-15.526, 18.992], p_value: 0.6, significant: false, ...comparison },
  };
  return metric;
}

const render = (metric: MetricResult, engine: "sequential" | "bayesian" = "sequential", correction: "holm" | "none" = "holm") =>
  renderToStaticMarkup(createElement(MetricTable, { metric, engine, correction, alpha: 0.05 }));
const headers = (html: string) => [...html.matchAll(/<th[^>]*scope="col"[^>]*>(.*?)<\/th>/g)].map((m) => m[1]);
const byTestId = (html: string, id: string) =>
  new RegExp(`<[^>]*data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
const attrOf = (html: string, id: string, attr: string) =>
  new RegExp(`<[^>]*data-testid="${id}"[^>]*${attr}="([^"]*)"`).exec(html)?.[1] ??
  new RegExp(`<[^>]*${attr}="([^"]*)"[^>]*data-testid="${id}"`).exec(html)?.[1];

describe("the lift column with CUPED", () => {
  it("is headed as CUPED-adjusted, and gives the lift of the rates shown beside it", () => {
    const html = render(cupedMetric());
    expect(headers(html)).toContain("CUPED-adjusted lift (95% CI, uncorrected)");
    expect(byTestId(html, "lift-value")).toBe("+173.3%");
    // 33.33 % / 12.50 % − 1: what a reader computes from the rates in the table.
    expect(byTestId(html, "value-lift")).toBe("Rates shown: +166.7%");
    expect(valueLift(cupedMetric(), cupedMetric().variations[1]!)).toBeCloseTo(2 / 6 / (1 / 8) - 1, 12);
  });

  it("is a plain lift without CUPED: no second lift, the header says nothing of an adjustment", () => {
    const html = render(conversionMetric(), "sequential", "none");
    expect(headers(html)).toContain("Lift (95% CI)");
    expect(html).not.toContain('data-testid="value-lift"');
    expect(html).not.toMatch(/CUPED|adjusted lift/);
  });

  it("says under the table what the adjusted lift is relative to, and why it cannot be recomputed", () => {
    const answer = resultsAnswer();
    const rule = { ...answer.rules[0]!, metrics: [cupedMetric(), conversionMetric()] };
    const html = renderToStaticMarkup(createElement(RuleResultsSection, { rule, definition: undefined, results: answer }));
    const notes = [...html.matchAll(/data-testid="cuped-note"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain("divided by the control&#x27;s conversion rate shown (12.50%)");
    expect(notes[0]).toContain("cannot be recomputed");
    expect(cupedNote({ ...cupedMetric(), metric: "revenue_per_visitor" }, "2.50")).toContain(
      "control's revenue per visitor shown (2.50)",
    );
    expect(attrOf(html, "cuped-tag", "title")).toContain("The counts, rates and amounts shown are not adjusted");
  });

  it("writes the CUPED flag and the lift of the values into the CSV", () => {
    const answer = resultsAnswer();
    answer.rules[0]!.metrics = [cupedMetric({ ci: [0.1, 3] })];
    const [header, , treatment] = buildResultsCsv(answer).split("\r\n").map((l) => l.split(","));
    expect(header).toEqual([...CSV_COLUMNS]);
    const cell = (name: string) => treatment![CSV_COLUMNS.indexOf(name as (typeof CSV_COLUMNS)[number])];
    expect(cell("lift")).toBe("1.733");
    expect(cell("cuped")).toBe("true");
    expect(Number(cell("lift_of_values"))).toBeCloseTo(2 / 6 / (1 / 8) - 1, 12);
  });
});

describe("lift intervals never below −100 %", () => {
  it("start at −100 %, flagged, with the computed end kept for the note", () => {
    expect(shownLift({ effect: 1.733, ci: [-15.526, 18.992], significant: false })).toEqual({
      effect: 1.733,
      ci: [-1, 18.992],
      clamped: true,
      rawLow: -15.526,
    });
    const inside = { effect: -0.2, ci: [-0.9, 0.5] as [number, number], significant: false };
    expect(shownLift(inside)).toEqual({ effect: -0.2, ci: [-0.9, 0.5], clamped: false, rawLow: -0.9 });
    // A CUPED estimate can itself fall below −100 %: shown at −100 % too.
    expect(shownLift({ effect: -1.2, ci: [-2, -0.4], significant: true })).toMatchObject({ effect: -1, ci: [-1, -0.4], clamped: true });
  });

  it("are written and drawn from −100 %, with the reason on hover and in the bar's name", () => {
    for (const engine of ["sequential", "bayesian"] as const) {
      const html = render(cupedMetric(engine === "bayesian" ? { ci: [-1.587, 5.1] } : {}), engine);
      const interval = byTestId(html, "lift-interval");
      expect(interval).toBe(engine === "bayesian" ? "[\u2212100.0%, +510.0%]" : "[\u2212100.0%, +1,899.2%]");
      expect(attrOf(html, "lift-interval", "data-clamped")).toBe("true");
      const note = attrOf(html, "lift-interval", "title")!;
      expect(note).toContain(engine === "bayesian" ? "starts at \u2212158.7%" : "starts at \u22121,552.6%");
      expect(note).toContain("a conversion rate cannot fall by more than 100%");
      expect(attrOf(html, "lift-bar", "aria-label")).toMatch(/from \u2212100\.0% to \+/);
      // Nowhere in the visible text is a lift below −100 % (the note in the title names the computed end).
      expect(html.replace(/<[^>]*>/g, " ")).not.toMatch(/\u2212(10[0-9]\.[1-9]|1[1-9][0-9]|[2-9][0-9]{2}|\d,\d{3})/);
    }
    // The shared scale fits what is drawn: the clamped end does not widen it.
    expect(liftHalfWidth([{ effect: 0.1, ci: [-1, 0.5], significant: false }])).toBe(1);
  });

  it("are not flagged when they stay above −100 %", () => {
    const html = render(conversionMetric());
    expect(html).not.toContain("data-clamped");
    expect(byTestId(html, "lift-interval")).toBe("[+20.0%, +77.0%]");
  });

  it("start at −100 % in the CSV too, as on screen", () => {
    const answer = resultsAnswer();
    answer.rules[0]!.metrics = [cupedMetric()];
    const treatment = buildResultsCsv(answer).split("\r\n")[2]!.split(",");
    expect(treatment[CSV_COLUMNS.indexOf("ci_low")]).toBe("-1");
    expect(treatment[CSV_COLUMNS.indexOf("ci_high")]).toBe("18.992");
  });
});

describe("a paused or archived experience's results", () => {
  it("say that shoppers no longer see it and that earlier visitors' conversions still count", () => {
    for (const status of ["paused", "archived"] as const) {
      expect(statusNoticeText(status)).toBe(
        `This experience is ${status}: shoppers no longer see it. Conversions of visitors who saw it before still count, so these numbers can still change.`,
      );
    }
    expect(statusNoticeText("running")).toBeNull();
    expect(statusNoticeText("draft")).toBeNull();
  });
});

describe("dates on the results screen", () => {
  it("days are written as the date of the computed time is", () => {
    // The summary line puts both side by side: "Nov 22, 2026 – Nov 28, 2026 · computed Nov 28, 2026, 8:00 AM".
    expect(formatDateTime("2026-11-28T08:00:00.000Z").startsWith(formatDay("2026-11-28"))).toBe(true);
    expect(describeRange({ from: "2026-11-22", to: "2026-11-28" })).toBe(`${formatDay("2026-11-22")} – ${formatDay("2026-11-28")}`);
    // A UTC day stays that day whatever the browser's zone.
    expect(formatDay("2026-11-28")).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" }).format(Date.UTC(2026, 10, 28)),
    );
    expect(formatDay("not a day")).toBe("not a day");
  });
});
