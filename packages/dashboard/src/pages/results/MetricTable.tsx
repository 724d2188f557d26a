// One metric of one rule: a row per variation with its counts, value, lift bar and the engine's
// measure of certainty (chance to win, or the p-value — adjusted when a correction applies).
import type { HTMLAttributes } from "react";
import type {
  MetricResult,
  ResultsCorrection,
  ResultsEngine,
  VariationMetric,
} from "@storefit/contract";
import { Table } from "../../components/Table";
import type { Column } from "../../components/Table";
import {
  METRIC_LABELS,
  formatCount,
  formatMetricValue,
  formatChance,
  formatLift,
  formatPValue,
  formatPercentPrecise,
} from "./format";
import { LiftBar } from "./LiftBar";
import { shownLift, valueLift } from "./lift";
import { liftHalfWidth } from "./lift-scale";
import { CORRECTION_LABELS } from "./options";
import { barIntervalLabel, liftColumnHeader } from "./significance";
import { unavailableText } from "./unavailable";

export function variationLabel(v: { variation_id: string; name: string | null }): string {
  return v.name ?? `Removed variation (${v.variation_id})`;
}

/**
 * The lift cell of a variation without a comparison: why (the service's reason, in words), the
 * lift of the values shown when there is one to give (0 of 200 against 20 of 200: −100.0%), with
 * no interval, and what it means.
 */
function Unavailable({
  metric,
  variation,
  valuesLabel,
}: {
  metric: MetricResult;
  variation: VariationMetric;
  valuesLabel: string;
}) {
  const text = unavailableText(metric, variation);
  if (!text) return <span className="muted">No comparison</span>;
  const reason = variation.comparison_unavailable!.reason;
  const lift = reason === "too_few_visitors" ? NaN : valueLift(metric, variation);
  return (
    <span className="lift-unavailable" data-testid="lift-unavailable" data-reason={reason}>
      <span className="lift-unavailable__title">{text.title}</span>
      {Number.isFinite(lift) ? (
        <span className="lift__unadjusted" data-testid="value-lift">
          {valuesLabel}: {formatLift(lift)}, no interval
        </span>
      ) : null}
      <span className="lift-unavailable__detail">{text.detail}</span>
    </span>
  );
}

function certaintyHeader(engine: ResultsEngine, correction: ResultsCorrection): string {
  if (engine === "bayesian") return "Chance to win";
  return correction === "none" ? "p-value" : `p-value (${CORRECTION_LABELS[correction]}-adjusted)`;
}

export function MetricTable({
  metric,
  engine,
  correction,
  alpha,
}: {
  metric: MetricResult;
  engine: ResultsEngine;
  correction: ResultsCorrection;
  alpha: number;
}) {
  // The scale fits what is drawn: intervals from −100 % at most (lift.ts).
  const halfWidth = liftHalfWidth(
    metric.variations.map((v) => (v.comparison ? { ...v.comparison, ...shownLift(v.comparison) } : null)),
  );
  // With a correction the intervals are still uncorrected (significance.ts): the header says so.
  const interval = barIntervalLabel(engine, correction, alpha);
  const isAov = metric.metric === "average_order_value";
  const quantity = METRIC_LABELS[metric.metric].toLowerCase();
  const valueLiftLabel = metric.metric === "conversion_rate" ? "Rates shown" : "Values shown";

  const columns: Column<VariationMetric>[] = [
    {
      key: "variation",
      header: "Variation",
      cell: (v) => (
        <span className="variation-name">
          {variationLabel(v)}
          {/* The control is usually named "Control"; say it only when its name does not. */}
          {v.is_control && !/^control$/i.test(v.name ?? "") ? (
            <span className="tag">Control</span>
          ) : null}
        </span>
      ),
    },
    {
      key: "visitors",
      header: "Visitors",
      className: "numeric",
      cell: (v) => <span data-testid="visitors">{formatCount(v.visitors)}</span>,
    },
    {
      key: "conversions",
      // Orders for average order value; for revenue per visitor, visitors who bought at all.
      header: isAov ? "Orders" : metric.goal_kind === "revenue" ? "Buyers" : "Conversions",
      className: "numeric",
      cell: (v) => <span data-testid="conversions">{formatCount(v.conversions)}</span>,
    },
    {
      key: "value",
      header: METRIC_LABELS[metric.metric],
      className: "numeric",
      cell: (v) => <span data-testid="value">{formatMetricValue(metric.metric, v.value)}</span>,
    },
    {
      key: "lift",
      header: liftColumnHeader(engine, correction, alpha, metric.cuped),
      className: "lift-column",
      cell: (v) =>
        v.is_control ? (
          <span className="muted">Baseline</span>
        ) : v.comparison ? (
          <LiftBar
            comparison={v.comparison}
            halfWidth={halfWidth}
            intervalLabel={interval}
            quantity={quantity}
            // CUPED's lift is not the rates' own: give theirs too (docs/results.md "CUPED").
            valueLift={
              metric.cuped ? { label: valueLiftLabel, lift: valueLift(metric, v) } : undefined
            }
          />
        ) : (
          <Unavailable metric={metric} variation={v} valuesLabel={valueLiftLabel} />
        ),
    },
    {
      key: "certainty",
      header: certaintyHeader(engine, correction),
      className: "numeric",
      cell: (v) => {
        const c = v.comparison;
        if (v.is_control || !c) return <span className="muted">—</span>;
        const text =
          engine === "bayesian"
            ? c.chance_to_win !== undefined
              ? formatChance(c.chance_to_win)
              : "—"
            : formatPValue(
                (correction !== "none" ? c.adjusted_p_value : undefined) ?? c.p_value ?? NaN,
              );
        // Bayesian: the expected loss (relative) if this variation is chosen and is worse.
        const risk = engine === "bayesian" && c.risk ? c.risk[1] : undefined;
        return (
          <span
            className={`certainty${c.significant ? " certainty--significant" : ""}`}
            data-testid="certainty"
          >
            {text}
            {risk !== undefined ? (
              <span className="certainty__risk" data-testid="risk">
                Expected loss {formatPercentPrecise(risk)}
              </span>
            ) : null}
            {c.significant ? <span className="certainty__flag">Significant</span> : null}
          </span>
        );
      },
    },
  ];

  return (
    <Table
      caption={`${metric.goal_name}: ${METRIC_LABELS[metric.metric]} per variation`}
      columns={columns}
      rows={metric.variations}
      rowKey={(v) => v.variation_id}
      rowProps={(v) =>
        ({
        "data-testid": "variation-row",
        "data-variation-id": v.variation_id,
      }) as HTMLAttributes<HTMLTableRowElement>}
    />
  );
}
