// The CSV export: every rule, metric and variation of a results answer, one row each, with a
// header row naming every column. Built in the browser from the answer on screen, so the file
// holds exactly the numbers the operator saw (same engine, correction and alpha; intervals from
// −100 % at most, lift.ts). `lift` is the engine's, CUPED-adjusted when `cuped` is true;
// `lift_of_values` is the lift of the `value` column, for checking.
import type { ExperienceResults } from "@storefit/contract";
import { currenciesCell } from "./currency";
import { shownLift, valueLift } from "./lift";

export const CSV_COLUMNS = [
  "experience_id",
  "rule_id",
  "audience",
  "goal_id",
  "goal",
  "metric",
  "variation_id",
  "variation",
  "is_control",
  "visitors",
  "conversions",
  "value",
  "revenue",
  "lift",
  "cuped",
  "lift_of_values",
  "ci_low",
  "ci_high",
  "p_value",
  "adjusted_p_value",
  "chance_to_win",
  "risk_control",
  "risk_treatment",
  "significant",
  "comparison_unavailable",
  "comparison_unavailable_arm",
  "engine",
  "correction",
  "alpha",
  "computed_at",
  "revenue_currencies",
] as const;

type Cell = string | number | boolean | null | undefined;

/**
 * RFC 4180 quoting, and text that a spreadsheet would run as a formula (=, +, −, @, tab, CR at
 * the start: names come from operators and visitors' events) gets a leading apostrophe.
 */
export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly Cell[]): string {
  return cells.map(csvCell).join(",");
}

export function buildResultsCsv(results: ExperienceResults): string {
  const lines = [csvLine(CSV_COLUMNS)];
  for (const rule of results.rules) {
    for (const metric of rule.metrics) {
      for (const v of metric.variations) {
        const c = v.comparison;
        const shown = c ? shownLift(c) : undefined;
        const row: Record<(typeof CSV_COLUMNS)[number], Cell> = {
          experience_id: results.experience_id,
          rule_id: rule.rule_id,
          audience: rule.audience_name,
          goal_id: metric.goal_id,
          goal: metric.goal_name,
          metric: metric.metric,
          variation_id: v.variation_id,
          variation: v.name,
          is_control: v.is_control,
          visitors: v.visitors,
          conversions: v.conversions,
          value: v.value,
          revenue: v.revenue,
          lift: shown?.effect,
          cuped: metric.cuped,
          lift_of_values: v.is_control ? null : valueLift(metric, v),
          ci_low: shown?.ci[0],
          ci_high: shown?.ci[1],
          p_value: c?.p_value,
          adjusted_p_value: c?.adjusted_p_value,
          chance_to_win: c?.chance_to_win,
          risk_control: c?.risk?.[0],
          risk_treatment: c?.risk?.[1],
          significant: c ? c.significant : null,
          // Why a variation has no lift (docs/results.md "Uninformative → null"); empty otherwise.
          comparison_unavailable: v.comparison_unavailable?.reason,
          comparison_unavailable_arm: v.comparison_unavailable?.arm,
          engine: results.engine,
          correction: results.correction,
          alpha: results.alpha,
          computed_at: results.computed_at,
          // Revenue adds amounts as sent: the currencies of the shop's recent orders, "USD:6
          // GBP:4" (docs/results.md "Currencies"); empty for other metrics.
          revenue_currencies:
            metric.goal_kind === "revenue" ? currenciesCell(results.revenue_currencies) : null,
        };
        lines.push(csvLine(CSV_COLUMNS.map((column) => row[column])));
      }
    }
  }
  // CRLF line ends (RFC 4180), and a final one so that tools which count lines agree.
  return lines.join("\r\n") + "\r\n";
}

/** "storefit-results-exp_price_message-sequential-2026-11-22.csv" */
export function csvFileName(results: ExperienceResults): string {
  const day = results.computed_at.slice(0, 10);
  const safe = results.experience_id.replace(/[^A-Za-z0-9_-]/g, "_");
  return `storefit-results-${safe}-${results.engine}${/^\d{4}-\d{2}-\d{2}$/.test(day) ? `-${day}` : ""}.csv`;
}
