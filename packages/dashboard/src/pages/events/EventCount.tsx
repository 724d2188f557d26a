import type { UseQueryResult } from "@tanstack/react-query";
import type { EventListResponse } from "@storefit/contract";
import { EVENTS_REFETCH_INTERVAL_MS } from "../../api/events";
import { formatEventTime } from "../../format";
import { totalLabel } from "./counts";

/** The number of stored events, refreshed with the newest page (same query, fetched once). */
export function EventCount({ query }: { query: UseQueryResult<EventListResponse> }) {
  const { data, dataUpdatedAt, isError } = query;
  return (
    <section className="stat-card" aria-labelledby="event-count-label">
      <p className="stat-card__label" id="event-count-label">
        <span className={isError ? "live-dot live-dot--off" : "live-dot"} aria-hidden="true" />
        Stored events
      </p>
      {data ? (
        <p className="stat-card__value" data-testid="event-count">
          {totalLabel(data.total, data.total_exact)}
        </p>
      ) : (
        <p className="stat-card__value stat-card__value--pending" aria-label="Loading">
          …
        </p>
      )}
      <p className="stat-card__hint">
        {dataUpdatedAt
          ? `Updated ${formatEventTime(new Date(dataUpdatedAt).toISOString())} · every ${EVENTS_REFETCH_INTERVAL_MS / 1000} s`
          : `Refreshes every ${EVENTS_REFETCH_INTERVAL_MS / 1000} s`}
      </p>
    </section>
  );
}
