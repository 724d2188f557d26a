import { PageHeader } from "../../components/PageHeader";
import { EventCount } from "./EventCount";
import { EventsDataTable } from "./EventsDataTable";
import { InstallSnippet } from "./InstallSnippet";

export function EventsPage() {
  return (
    <>
      <title>Live events · Storefit</title>
      <PageHeader title="Live events" description="Events your shop's pages send, newest first." />
      <div className="events-overview">
        <EventCount />
        <InstallSnippet />
      </div>
      <h2 className="section-title">Latest events</h2>
      <EventsDataTable />
    </>
  );
}
