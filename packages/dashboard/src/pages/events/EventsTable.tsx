import type { StoredEventView } from "@storefit/contract";
import { type Column, Table } from "../../components/Table";
import { formatEventTime } from "../../format";
import { eventLabel, eventTypeLabel, isoOf } from "./labels";

/** The end of a visitor id the list shows: enough to tell visitors apart at a glance. */
export function shortVisitor(userId: string): string {
  return userId.length > 12 ? `…${userId.slice(-8)}` : userId;
}

/** The stored values behind a row's label, for whoever needs the exact name or ids. */
function EventDetails({ e }: { e: StoredEventView }) {
  const properties = Object.entries(e.properties);
  return (
    <details className="event-details">
      <summary>Details</summary>
      <dl className="event-details__list">
        <dt>Type</dt>
        <dd className="mono">{e.event_type}</dd>
        <dt>Stored name</dt>
        <dd className="mono">{e.event_customer_id}</dd>
        <dt>Visitor</dt>
        <dd className="mono">{e.user_id}</dd>
        {e.session_id ? (
          <>
            <dt>Session</dt>
            <dd className="mono">{e.session_id}</dd>
          </>
        ) : null}
        <dt>Event id</dt>
        <dd className="mono">{e.insert_id}</dd>
        <dt>Sent at</dt>
        <dd>{isoOf(e.event_timestamp)}</dd>
        {properties.map(([key, value]) => (
          <div key={key} className="event-details__property">
            <dt className="mono">{key}</dt>
            <dd className="mono">{String(value)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

export function EventsTable({ events, onVisitor }: { events: readonly StoredEventView[]; onVisitor: (userId: string) => void }) {
  const columns: readonly Column<StoredEventView>[] = [
    {
      key: "event",
      header: "Event",
      cell: (e) => (
        <span className="event-label" title={eventTypeLabel(e.event_type)} data-testid="event-label">
          {eventLabel(e)}
        </span>
      ),
    },
    { key: "domain", header: "Domain", cell: (e) => <span className="muted">{e.domain}</span> },
    {
      key: "page",
      header: "Page",
      cell: (e) => (e.page_path === null ? <span className="muted">—</span> : <span className="mono">{e.page_path}</span>),
    },
    {
      key: "visitor",
      header: "Visitor",
      cell: (e) => (
        <button
          type="button"
          className="link-button mono"
          onClick={() => onVisitor(e.user_id)}
          aria-label={`Timeline of visitor ${e.user_id}`}
          title="Show this visitor's timeline"
        >
          {shortVisitor(e.user_id)}
        </button>
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
    { key: "details", header: "Details", cell: (e) => <EventDetails e={e} /> },
  ];
  return <Table caption="Events" columns={columns} rows={events} rowKey={(e) => e.insert_id} rowProps={() => ({ "data-testid": "event-row" })} />;
}
