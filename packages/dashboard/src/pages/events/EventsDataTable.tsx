import type { UseQueryResult } from "@tanstack/react-query";
import type { EventListResponse } from "@storefit/contract";
import { Link } from "react-router";
import { DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/StatusMessage";
import { formatCount } from "../../format";
import { paths } from "../../paths";
import { EventsTable } from "./EventsTable";

type Props = {
  query: UseQueryResult<EventListResponse>;
  filtered: boolean;
  /** On an older (or newer) page than the newest: the cursor holds it in place. */
  paged: boolean;
  onVisitor: (userId: string) => void;
  onPage: (cursor: { before?: string; after?: string }) => void;
};

function shownText(data: EventListResponse, filtered: boolean, paged: boolean): string {
  const shown = data.events.length;
  const total = formatCount(data.total);
  const noun = data.total === 1 ? "event" : "events";
  if (filtered) {
    const head = `${total} ${noun} ${data.total === 1 ? "matches" : "match"} the filters`;
    if (paged) return `${head}; ${formatCount(shown)} of them are listed on this page.`;
    return data.total > shown ? `${head}; the newest ${formatCount(shown)} are listed.` : `${head}.`;
  }
  if (paged) return `${formatCount(shown)} of ${total} ${noun} are listed on this page.`;
  return data.total > shown ? `The newest ${formatCount(shown)} of ${total} events.` : `All ${total} ${noun}.`;
}

export function EventsDataTable({ query, filtered, paged, onVisitor, onPage }: Props) {
  return (
    <DataTable
      query={query}
      noun="events"
      isEmpty={(data) => !filtered && !paged && data.events.length === 0}
      empty={
        <EmptyState title="No events yet">
          <p>
            Add the <Link to={paths.install}>install snippet</Link> to your shop and open one of its pages: events show up here
            within seconds.
          </p>
        </EmptyState>
      }
    >
      {(data) => (
        <>
          {/* The previous list stays while the next page or filter loads: say so, not what it will be. */}
          <p className="events-shown" role="status" data-testid="events-shown" aria-busy={query.isPlaceholderData}>
            {query.isPlaceholderData ? "Loading…" : shownText(data, filtered, paged)}
          </p>
          {data.events.length === 0 ? (
            <EmptyState title={filtered ? "No events match these filters" : "No events on this page"}>
              <p>{filtered ? "Change or clear the filters; new events appear as they arrive." : "Go back to the newest events."}</p>
            </EmptyState>
          ) : (
            <EventsTable events={data.events} onVisitor={onVisitor} />
          )}
          <nav className="events-pager" aria-label="Pages of events">
            <button type="button" className="button button--secondary button--small" disabled={!paged} onClick={() => onPage({})}>
              Newest events
            </button>
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={data.newer === null}
              onClick={() => data.newer !== null && onPage({ after: String(data.newer) })}
            >
              Newer events
            </button>
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={data.older === null}
              onClick={() => data.older !== null && onPage({ before: String(data.older) })}
            >
              Older events
            </button>
            {paged ? <span className="muted events-pager__note">This page is not refreshed; new events arrive on the newest page.</span> : null}
          </nav>
        </>
      )}
    </DataTable>
  );
}
