import { useEvents } from "../../api/queries";
import { DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/StatusMessage";
import { EventsTable } from "./EventsTable";

export function EventsDataTable() {
  const query = useEvents();
  return (
    <DataTable
      query={query}
      noun="events"
      isEmpty={(data) => data.events.length === 0}
      empty={
        <EmptyState title="No events yet">
          Add the install snippet to your shop and open one of its pages: events show up here within
          seconds.
        </EmptyState>
      }
    >
      {(data) => <EventsTable events={data.events} />}
    </DataTable>
  );
}
