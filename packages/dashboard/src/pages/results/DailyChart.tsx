// The daily series of one rule as a line chart: each variation's cumulative conversion rate for
// the goal the operator picks. The figure has a text summary (the latest rates) for screen
// readers and anyone who would rather read numbers than lines.
import { useId, useState } from "react";
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { RuleResults } from "@storefit/contract";
import { formatDay } from "../../format";
import { rateAxis } from "./chart-scale";
import { cumulativeSeries } from "./cumulative";
import type { CumulativeRow } from "./cumulative";
import { formatCount, formatPercent, formatPercentPrecise } from "./format";

/** Distinct in hue and lightness for the common color-vision deficiencies (Okabe-Ito). */
const SERIES_COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"];

export function DailyChart({
  rule,
  variationName,
}: {
  rule: RuleResults;
  variationName: (variationId: string) => string;
}) {
  const goals = uniqueGoals(rule);
  const [goalId, setGoalId] = useState(goals[0]?.id ?? "");
  const selectId = useId();
  const titleId = useId();
  const goal = goals.find((g) => g.id === goalId) ?? goals[0];

  if (!goal) return null;
  if (rule.daily.length === 0) {
    return <p className="muted">No daily data yet.</p>;
  }
  const series = cumulativeSeries(rule.daily, goal.id);
  const axis = rateAxis(series.rows.flatMap((row) => row.rates));
  const summary = series.totals
    .map(
      (t) =>
        `${variationName(t.variationId)} ${t.rate === null ? "no visitors" : formatPercentPrecise(t.rate)} (${formatCount(t.conversions)} of ${formatCount(t.visitors)})`,
    )
    .join("; ");

  return (
    <figure className="daily-chart" aria-labelledby={titleId} data-testid="results-chart">
      <div className="daily-chart__header">
        <h4 className="daily-chart__title" id={titleId}>
          Cumulative conversion rate per day: {goal.name}
        </h4>
        {goals.length > 1 ? (
          <label className="daily-chart__goal" htmlFor={selectId}>
            <span>Goal</span>
            <select
              id={selectId}
              className="field__input"
              value={goal.id}
              onChange={(e) => setGoalId(e.target.value)}
            >
              {goals.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      <div className="daily-chart__plot">
        <ResponsiveContainer width="100%" height={260}>
          <LineChart
            data={series.rows}
            margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
            accessibilityLayer
            title={`Cumulative conversion rate per variation for ${goal.name}`}
          >
            <CartesianGrid stroke="#e3e6ef" strokeDasharray="3 3" />
            <XAxis
              dataKey="date"
              tick={{ fontSize: 12 }}
              minTickGap={16}
              tickFormatter={(day: string) => formatDay(day)}
            />
            <YAxis
              domain={axis.domain}
              ticks={axis.ticks}
              allowDataOverflow
              tick={{ fontSize: 12 }}
              width={56}
              tickFormatter={(value: number) => formatPercent(value)}
            />
            <Tooltip
              labelFormatter={(day) => (typeof day === "string" ? formatDay(day) : String(day))}
              formatter={(value) =>
                typeof value === "number" ? formatPercentPrecise(value) : String(value ?? "—")
              }
            />
            <Legend />
            {series.variationIds.map((id, i) => (
              <Line
                key={id}
                type="linear"
                dataKey={(row: CumulativeRow) => row.rates[i]}
                name={variationName(id)}
                stroke={SERIES_COLORS[i % SERIES_COLORS.length]}
                strokeWidth={2}
                dot={series.rows.length <= 31}
                connectNulls
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="daily-chart__summary" data-testid="chart-summary">
        Latest cumulative rate: {summary}.
      </figcaption>
    </figure>
  );
}

/** The goals of a rule's metrics, once each (a revenue goal has two metrics). */
function uniqueGoals(rule: RuleResults): { id: string; name: string }[] {
  const seen = new Map<string, string>();
  for (const m of rule.metrics) if (!seen.has(m.goal_id)) seen.set(m.goal_id, m.goal_name);
  return [...seen].map(([id, name]) => ({ id, name }));
}
