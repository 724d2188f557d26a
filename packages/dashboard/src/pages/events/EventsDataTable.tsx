import type { UseQueryResult } from "@tanstack/react-query";
import type { EventListResponse } from "@storefit/contract";
import { Link } from "react-router";
import { DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/StatusMessage";
import { paths } from "../../paths";
import { EventsTable } from "./EventsTable";
import { EVENTS_WINDOW, type EventFilters, applyFilters, isFiltered } from "./filters";

export function EventsDataTable({ query, filters }: { query: UseQueryResult<EventListResponse>; filters: EventFilters }) {
  return (
    <DataTable
      query={query}
      noun="events"
      isEmpty={(data) => data.events.length === 0}
      empty={
        <EmptyState title="No events yet">
          <p>
            Add the <Link to={paths.install}>install snippet</Link> to your shop and open one of its pages: events show up here
            within seconds.
          </p>
        </EmptyState>
      }
    >
      {(data) => {
        const shown = applyFilters(data.events, filters);
        const filtered = isFiltered(filters);
        return (
          <>
            <p className="events-shown" role="status" data-testid="events-shown">
              {filtered
                ? `${shown.length} of the latest ${data.events.length} events match the filters.`
                : `The latest ${data.events.length} of ${data.total} events${data.total > EVENTS_WINDOW ? ` (filters look at the latest ${EVENTS_WINDOW})` : ""}.`}
            </p>
            {shown.length === 0 ? (
              <EmptyState title="No events match these filters">
                <p>Change or clear the filters; new events appear as they arrive.</p>
              </EmptyState>
            ) : (
              <EventsTable events={shown} />
            )}
          </>
        );
      }}
    </DataTable>
  );
}
