import type { UseQueryResult } from "@tanstack/react-query";
import type { EventListResponse } from "@storefit/contract";
import { Link } from "react-router";
import { DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/StatusMessage";
import { paths } from "../../paths";
import { searchedText, shownText } from "./counts";
import { EventsTable } from "./EventsTable";

type Props = {
  query: UseQueryResult<EventListResponse>;
  filtered: boolean;
  /** How the page was reached: none (the newest page), or the cursor that holds it in place. */
  cursor: "none" | "before" | "after";
  onVisitor: (userId: string) => void;
  onPage: (cursor: { before?: string; after?: string }) => void;
};

export function EventsDataTable({ query, filtered, cursor, onVisitor, onPage }: Props) {
  const paged = cursor !== "none";
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
          {data.searched !== null && !query.isPlaceholderData ? (
            <p className="events-searched" data-testid="events-searched">
              {searchedText(data.searched, cursor)}
            </p>
          ) : null}
          {data.events.length === 0 ? (
            <EmptyState title={data.searched !== null ? "No matches in the events searched" : filtered ? "No events match these filters" : "No events on this page"}>
              <p>
                {data.searched !== null
                  ? `${cursor === "after" ? "Newer" : "Older"} events searches further.`
                  : filtered
                    ? "Change or clear the filters; new events appear as they arrive."
                    : "Go back to the newest events."}
              </p>
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
