// The results screen of one experience (issue #7 part 3; product.md §3 "Results"):
// Page → (state) → per rule: SRM check, a table per metric, the daily chart; CSV export. A date
// range narrows every number; a running experience with few visitors says why.
import { useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import type { ExperienceDetail, ExperienceResults } from "@storefit/contract";
import { useVersionedExperience } from "../../api/experiences";
import { useExperienceResults } from "../../api/results";
import { PageHeader } from "../../components/PageHeader";
import { EmptyState, ErrorState, LoadingState } from "../../components/StatusMessage";
import { formatDateTime } from "../../format";
import { paths } from "../../paths";
import { StatusBadge } from "../experiences/StatusBadge";
import { DateRangeControl } from "./DateRangeControl";
import { ExportCsvButton } from "./ExportCsvButton";
import { ExposureTable } from "./ExposureTable";
import { FewVisitorsNotice } from "./FewVisitorsNotice";
import { formatCount } from "./format";
import { readResultsChoice, writeResultsChoice } from "./options";
import type { ResultsChoice } from "./options";
import { describeRange, rangeDays, readRange, writeRange } from "./range";
import type { RangeChoice } from "./range";
import { ResultsControls } from "./ResultsControls";
import { RuleResultsSection } from "./RuleResultsSection";
import { statusNoticeText } from "./status-notice";
import "./results.css";

export function ResultsPage() {
  const { experienceId = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const urlChoice = readResultsChoice(params);
  // The screen's own copy of the choice: react-router applies URL changes in a transition, and a
  // controlled radio reading the URL alone would flick back to the old engine until it commits.
  const [choice, setChoice] = useState(urlChoice);
  const urlRange = readRange(params);
  const [range, setRange] = useState(urlRange);
  const urlKey = `${urlChoice.engine}/${urlChoice.correction}/${urlRange.preset}/${urlRange.from}/${urlRange.to}`;
  const [seenUrlKey, setSeenUrlKey] = useState(urlKey);
  if (urlKey !== seenUrlKey) {
    // The URL changed from outside (back, forward, a pasted link): follow it.
    setSeenUrlKey(urlKey);
    setChoice(urlChoice);
    setRange(urlRange);
  }
  const experience = useVersionedExperience(experienceId);
  const detail = experience.data?.experience;
  // Presets count back from today: the days are fixed per render, and the query key changes at midnight (UTC).
  const days = rangeDays(range, Date.now());
  const results = useExperienceResults(experienceId, { ...choice, ...days });

  const onChoice = (next: ResultsChoice) => {
    setChoice(next);
    setParams(writeResultsChoice(params, next), { replace: true });
  };
  const onRange = (next: RangeChoice) => {
    setRange(next);
    setParams(writeRange(params, next), { replace: true });
  };
  const name = detail?.name;

  return (
    <>
      <title>{`${name ? `${name} · ` : ""}Results · Storefit`}</title>
      <PageHeader
        title={name ?? "Results"}
        description={
          <span className="results-subtitle">
            {detail ? <StatusBadge status={detail.status} /> : null}
            <span>Results</span>
            <Link to={paths.experience(experienceId)}>Edit experience</Link>
          </span>
        }
        actions={
          results.data && results.data.total_visitors > 0 ? (
            <ExportCsvButton results={results.data} />
          ) : null
        }
      />
      {experience.isError ? (
        <p className="notice notice--warning" role="alert">
          Could not load the experience&apos;s details: {experience.error.message}
        </p>
      ) : null}
      <ResultsControls choice={choice} onChange={onChoice}>
        <DateRangeControl range={range} onChange={onRange} />
      </ResultsControls>
      <ResultsBody
        query={results}
        experience={detail}
        stale={results.isPlaceholderData}
      />
    </>
  );
}

/** The answer on screen, or why there is none (exported for its test). */
export function ResultsBody({
  query,
  experience,
  stale,
}: {
  query: ReturnType<typeof useExperienceResults>;
  experience: ExperienceDetail | undefined;
  stale: boolean;
}) {
  const { data } = query;
  if (data === undefined) {
    return query.isError ? (
      <ErrorState
        title="Could not load the results"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    ) : (
      <LoadingState label="Computing results…" />
    );
  }
  if (data.total_visitors === 0) {
    const ranged = data.range.from !== null || data.range.to !== null;
    return (
      <EmptyState
        title={ranged ? "No visitors were first shown this experience in this date range" : "No visitors yet"}
      >
        {data.diagnostics ? (
          <FewVisitorsNotice
            diagnostics={data.diagnostics}
            rangeFrom={data.range.from}
            rangeTo={data.range.to}
            totalVisitors={data.total_visitors}
          />
        ) : experience && experience.status !== "running" ? (
          "Results appear once this experience is running and shown to shoppers."
        ) : (
          "Results appear once the storefront script has shown this experience to shoppers."
        )}
      </EmptyState>
    );
  }
  const statusNotice = experience ? statusNoticeText(experience.status) : null;
  return (
    <div className="results-body" aria-busy={stale} data-stale={stale || undefined}>
      {statusNotice ? (
        <p className="notice" data-testid="status-notice">
          {statusNotice}
        </p>
      ) : null}
      {query.isError ? (
        <p className="notice notice--warning" role="alert">
          Showing the last results loaded: {query.error.message}
        </p>
      ) : null}
      {data.diagnostics ? (
        <FewVisitorsNotice
          diagnostics={data.diagnostics}
          rangeFrom={data.range.from}
          rangeTo={data.range.to}
          totalVisitors={data.total_visitors}
        />
      ) : null}
      <ResultsSummary results={data} />
      <ExposureTable variations={data.variations} rules={experience?.rules} ruleResults={data.rules} />
      {data.rules.length === 0 ? (
        <p className="notice" data-testid="no-metrics">
          {experience && experience.goals.length === 0
            ? "This experience has no goals: add one in the editor to measure conversions."
            : "Goal metrics are not available for this experience yet."}
        </p>
      ) : (
        data.rules.map((rule) => (
          <RuleResultsSection
            key={rule.rule_id}
            rule={rule}
            definition={experience?.rules.find((r) => r.id === rule.rule_id)}
            results={data}
          />
        ))
      )}
    </div>
  );
}

function ResultsSummary({ results }: { results: ExperienceResults }) {
  return (
    <p className="results-summary" data-testid="results-summary">
      <strong>{formatCount(results.total_visitors)}</strong> visitors exposed ·{" "}
      <span data-testid="results-range">{describeRange(results.range)}</span> · computed{" "}
      <time dateTime={results.computed_at}>{formatDateTime(results.computed_at)}</time> · alpha{" "}
      {results.alpha}
    </p>
  );
}
