import type { UseQueryResult } from "@tanstack/react-query";
import type { EventListResponse } from "@storefit/contract";
import { Link } from "react-router";
import { DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/StatusMessage";
import { paths } from "../../paths";
import { EventsTable } from "./EventsTable";
import { EVENTS_WINDOW } from "./filters";

/**
 * `query`: the filtered list when `filtered` (the service filters every stored event), else the
 * newest events; `stored`: how many events are stored in all (the unfiltered query's total).
 */
export function EventsDataTable({ query, filtered, stored }: { query: UseQueryResult<EventListResponse>; filtered: boolean; stored: number | undefined }) {
  return (
    <DataTable
      query={query}
      noun="events"
      isEmpty={(data) => !filtered && data.events.length === 0}
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
        const shown = data.events;
        return (
          <>
            <p className="events-shown" role="status" data-testid="events-shown">
              {filtered
                ? `${data.total} of the latest ${Math.max(stored ?? 0, data.total)} events match the filters${data.total > shown.length ? `; the newest ${shown.length} are listed` : ""}.`
                : `The latest ${shown.length} of ${data.total} events${data.total > EVENTS_WINDOW ? ` (filters search them all)` : ""}.`}
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
