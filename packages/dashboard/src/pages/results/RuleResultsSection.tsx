// The results of one rule (its audience): the sample-ratio check, a table per metric, the chart.
import { Fragment, Suspense, lazy } from "react";
import type {
  ExperienceResults,
  MetricResult,
  RuleDefinition,
  RuleResults,
} from "@storefit/contract";
import { LoadingState } from "../../components/StatusMessage";
import { mixedCurrencyWarning, singleCurrency } from "./currency";
import { METRIC_LABELS, formatMetricValue } from "./format";
import { cupedNote } from "./lift";
import { MetricTable, variationLabel } from "./MetricTable";
import { SrmWarning } from "./SrmWarning";
import { ruleSignificanceSentence } from "./significance";
import { srmOkText } from "./srm-text";

// recharts is most of the chart's weight: loaded with the first chart, not with the app.
const DailyChart = lazy(() => import("./DailyChart").then((m) => ({ default: m.DailyChart })));

function controlValueText(metric: MetricResult): string {
  const control = metric.variations.find((v) => v.is_control);
  return control ? formatMetricValue(metric.metric, control.value) : "—";
}

export function RuleResultsSection({
  rule,
  definition,
  results,
}: {
  rule: RuleResults;
  /** The rule as the experience defines it now; absent when it was removed since. */
  definition: RuleDefinition | undefined;
  results: ExperienceResults;
}) {
  const names = new Map<string, string>();
  for (const v of definition?.behaviour.variations ?? []) names.set(v.id, v.name);
  for (const m of rule.metrics) for (const v of m.variations) names.set(v.variation_id, variationLabel(v));
  const variationName = (id: string) => names.get(id) ?? id;
  // srm.observed follows the rule's variations; take their names from the first metric, or the
  // definition when there is no metric.
  const srmNames =
    rule.metrics[0]?.variations.map(variationLabel) ??
    definition?.behaviour.variations.map((v) => v.name) ??
    [];
  const headingId = `rule-${rule.rule_id}`;
  const significance = ruleSignificanceSentence(rule, results.engine, results.correction, results.alpha);
  // Revenue adds amounts as sent (docs/results.md "Currencies"): name the one currency beside
  // each revenue metric's title, or warn above the first revenue metric that several are mixed.
  const currency = singleCurrency(results.revenue_currencies);
  const currencyWarning = mixedCurrencyWarning(results.revenue_currencies);
  const firstRevenue = rule.metrics.find((m) => m.goal_kind === "revenue");

  return (
    <section className="rule-results" aria-labelledby={headingId} data-testid="rule-results">
      <h2 className="rule-results__title" id={headingId}>
        Audience: {rule.audience_name}
      </h2>
      {rule.srm.mismatch ? (
        <SrmWarning srm={rule.srm} variationNames={srmNames} />
      ) : (
        <p className="srm-ok" data-testid="srm-ok">
          {srmOkText(rule.srm.p_value)}
        </p>
      )}
      {rule.metrics.length === 0 ? (
        <p className="notice" data-testid="no-metrics">
          No goals to measure: add a goal to this experience in its editor to see conversions.
        </p>
      ) : (
        rule.metrics.map((metric) => (
          <Fragment key={`${metric.goal_id}:${metric.metric}`}>
            {metric === firstRevenue && currencyWarning ? (
              <p className="notice notice--warning" data-testid="currency-warning">
                {currencyWarning}
              </p>
            ) : null}
            <section
              className="metric-results"
              data-testid="metric-results"
              data-goal-id={metric.goal_id}
              data-metric={metric.metric}
            >
              <h3 className="metric-results__title">
                {metric.goal_name}
                <span className="metric-results__kind"> · {METRIC_LABELS[metric.metric]}</span>
                {metric.cuped ? (
                  <span
                    className="tag"
                    data-testid="cuped-tag"
                    title="CUPED: the lift, its interval and significance are adjusted with each visitor's behaviour before the experience, which narrows the interval. The counts, rates and amounts shown are not adjusted."
                  >
                    CUPED
                  </span>
                ) : null}
                {metric.goal_kind === "revenue" && currency ? (
                  <span
                    className="tag"
                    data-testid="revenue-currency"
                    title={`Amounts in ${currency}: every recent order of the shop came in it (docs/results.md "Currencies").`}
                  >
                    {currency}
                  </span>
                ) : null}
              </h3>
              <div className="table-frame">
                <MetricTable
                  metric={metric}
                  engine={results.engine}
                  correction={results.correction}
                  alpha={results.alpha}
                />
              </div>
              {metric.cuped ? (
                <p className="metric-results__note muted" data-testid="cuped-note">
                  {cupedNote(metric, controlValueText(metric))}
                </p>
              ) : null}
            </section>
          </Fragment>
        ))
      )}
      {significance ? (
        <p className="significance-note muted" data-testid="significance-note">
          {significance}
        </p>
      ) : null}
      {rule.metrics.length > 0 ? (
        <Suspense fallback={<LoadingState label="Loading the chart…" />}>
          <DailyChart rule={rule} variationName={variationName} />
        </Suspense>
      ) : null}
    </section>
  );
}
