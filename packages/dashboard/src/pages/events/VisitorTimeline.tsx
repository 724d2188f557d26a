// One visitor's story in order: page views, clicks, revenue and the experiences they were shown
// (with the variation), from GET /api/visitors/{visitor}/timeline. Opened from a row's visitor.
import { useEffect, useRef } from "react";
import type { VisitorTimelineItem } from "@storefit/contract";
import { useVisitorTimeline } from "../../api/events";
import { ErrorState, LoadingState } from "../../components/StatusMessage";
import { formatCount, formatDateTime, formatEventTime } from "../../format";
import { eventLabel, isoOf } from "./labels";

function ItemLine({ item }: { item: VisitorTimelineItem }) {
  if (item.kind === "event") {
    const e = item.event;
    return (
      <>
        <span className="timeline__label">{eventLabel(e)}</span>
        {e.page_path !== null ? <span className="timeline__where mono">{e.page_path}</span> : null}
        <span className="timeline__where muted">{e.domain}</span>
      </>
    );
  }
  return (
    <>
      <span className="timeline__label">
        Saw {item.experience_name ? `“${item.experience_name}”` : "a deleted experience"}:{" "}
        {item.variation_name ?? <span title={`Variation id ${item.variation_id}`}>a deleted variation</span>}
      </span>
      {item.forced ? <span className="timeline__where muted">preview or forced, not in the results</span> : null}
    </>
  );
}

export function VisitorTimeline({ visitor, onClose, onFilter }: { visitor: string; onClose: () => void; onFilter: (userId: string) => void }) {
  const query = useVisitorTimeline(visitor);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Opened by a click in the list: bring it into view and move the focus to it.
  useEffect(() => {
    headingRef.current?.focus();
    headingRef.current?.scrollIntoView({ block: "nearest" });
  }, [visitor]);

  const data = query.data;
  const shown = data?.items.flatMap((i) => (i.kind === "exposure" ? [i] : [])) ?? [];
  const exposures = shown.length;
  const experiences = new Set(shown.map((i) => i.experience_id ?? `deleted ${i.variation_id}`)).size;
  return (
    <section className="panel timeline" aria-labelledby="visitor-timeline-title" data-testid="visitor-timeline">
      <div className="panel__header">
        <div>
          <h2 className="panel__title" id="visitor-timeline-title" tabIndex={-1} ref={headingRef}>
            Visitor timeline
          </h2>
          <p className="panel__description">
            <span className="mono">{data?.visitor.user_id ?? visitor}</span>
            {data?.visitor.user_customer_id ? (
              <>
                {" "}
                · customer id <span className="mono">{data.visitor.user_customer_id}</span>
              </>
            ) : null}
            {data?.visitor.first_seen ? <> · first seen {formatDateTime(data.visitor.first_seen)}</> : null}
          </p>
        </div>
        <div className="timeline__actions">
          <button type="button" className="button button--secondary button--small" onClick={() => onFilter(data?.visitor.user_id ?? visitor)}>
            Only this visitor's events
          </button>
          <button type="button" className="button button--secondary button--small" onClick={onClose}>
            Close timeline
          </button>
        </div>
      </div>
      {data === undefined ? (
        query.isError ? (
          <ErrorState title="Could not load this visitor" error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <LoadingState label="Loading the timeline…" />
        )
      ) : (
        <>
          <p className="events-shown" role="status">
            {formatCount(data.items.length - exposures)} {data.items.length - exposures === 1 ? "event" : "events"} and{" "}
            {formatCount(exposures)} {exposures === 1 ? "view" : "views"} of {formatCount(experiences)} {experiences === 1 ? "experience" : "experiences"}, oldest first
            {data.truncated ? "; older ones are left out" : ""}.
          </p>
          <ol className="timeline__list" aria-label="Timeline, oldest first">
            {data.items.map((item, i) => (
              <li key={item.kind === "event" ? item.event.insert_id : `x${i}`} className={`timeline__item timeline__item--${item.kind}`} data-testid="timeline-item">
                <time className="timeline__time" dateTime={isoOf(item.at)}>
                  {formatEventTime(isoOf(item.at))}
                </time>
                <ItemLine item={item} />
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
