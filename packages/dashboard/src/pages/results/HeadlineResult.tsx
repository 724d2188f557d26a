// The experiences list's "headline result" cell: the primary goal's best variation, its lift and
// how sure we are. Props are kept stable: the list renders <HeadlineResult experienceId={id} />.
import { useExperienceResults } from "../../api/results";
import { formatCount, formatLift, formatChance, formatPStatement } from "./format";
import { pickHeadline } from "./headline";
import "./results.css";

export function HeadlineResult({ experienceId }: { experienceId: string }) {
  const query = useExperienceResults(experienceId);

  if (query.data === undefined) {
    return query.isError ? (
      <span className="headline-result headline-result--error" title={query.error.message}>
        Results unavailable
      </span>
    ) : (
      <span className="headline-result headline-result--loading" aria-busy="true">
        Loading…
      </span>
    );
  }

  const headline = pickHeadline(query.data);
  if (headline.kind === "no_data") {
    return (
      <span className="headline-result headline-result--empty" data-testid="headline-result">
        No data yet
      </span>
    );
  }

  if (headline.kind === "visitors") {
    return (
      <span className="headline-result headline-result--empty" data-testid="headline-result">
        {formatCount(headline.visitors)} visitors · no comparison yet
      </span>
    );
  }

  if (headline.kind === "unavailable") {
    const text = `${headline.variationName} · ${headline.goalName}: ${headline.title}`;
    return (
      <span className="headline-result headline-result--unavailable" data-testid="headline-result" title={`${text}. No comparison can be computed.`}>
        <span className="headline-result__lift">No comparison</span>{" "}
        <span className="headline-result__detail">{text}</span>
      </span>
    );
  }

  const certainty =
    headline.chanceToWin !== undefined
      ? `${formatChance(headline.chanceToWin)} chance to win`
      : headline.pValue !== undefined
        ? formatPStatement(headline.pValue)
        : null;
  const tone = headline.significant ? (headline.effect >= 0 ? "up" : "down") : "neutral";

  return (
    <span
      className={`headline-result headline-result--${tone}`}
      data-testid="headline-result"
      title={`${headline.goalName}: ${headline.variationName} ${formatLift(headline.effect)}${headline.cuped ? " CUPED-adjusted" : ""}${
        headline.significant ? " (significant)" : " (not significant)"
      }${headline.also ? `; ${headline.also.variationName}: ${headline.also.title}` : ""}`}
    >
      <span className="headline-result__lift">{formatLift(headline.effect)}</span>{" "}
      <span className="headline-result__detail">
        {headline.variationName} · {headline.goalName}
        {headline.cuped ? " · CUPED-adjusted" : ""}
        {certainty ? ` · ${certainty}` : ""}
        {headline.significant ? "" : " · not significant"}
        {headline.also ? ` · ${headline.also.variationName}: ${headline.also.title}` : ""}
      </span>
    </span>
  );
}
