import type { StoredEventView } from "@storefit/contract";
import { type Column, Table } from "../../components/Table";
import { formatEventTime } from "../../format";

const columns: readonly Column<StoredEventView>[] = [
  { key: "type", header: "Type", cell: (e) => <span className="event-type">{e.event_type}</span> },
  { key: "name", header: "Name", cell: (e) => <span className="mono">{e.event_customer_id}</span> },
  { key: "domain", header: "Domain", cell: (e) => e.domain },
  {
    key: "page",
    header: "Page path",
    cell: (e) =>
      e.page_path === null ? (
        <span className="muted">—</span>
      ) : (
        <span className="mono">{e.page_path}</span>
      ),
  },
  {
    key: "user",
    header: "User",
    cell: (e) => (
      <span className="mono truncate" title={e.user_id}>
        {e.user_id}
      </span>
    ),
  },
  {
    key: "time",
    header: "Time",
    cell: (e) => (
      <time dateTime={e.received_at} title={`Received ${e.received_at}`}>
        {formatEventTime(e.received_at)}
      </time>
    ),
  },
];

export function EventsTable({ events }: { events: readonly StoredEventView[] }) {
  return (
    <Table
      caption="Latest events"
      columns={columns}
      rows={events}
      rowKey={(e) => e.insert_id}
      rowProps={() => ({ "data-testid": "event-row" })}
    />
  );
}
