// Live events: the newest events the shop's pages send, polled every 2 s, with filters by type,
// domain and page path or name. The unfiltered query feeds the count and the domains; with
// filters, the service filters all stored events (GET /api/events?type=&domain=&q=).
import { useMemo } from "react";
import { useSearchParams } from "react-router";
import { useAccount } from "../../api/account";
import { useEvents } from "../../api/queries";
import { PageHeader } from "../../components/PageHeader";
import { EventCount } from "./EventCount";
import { EventFiltersBar } from "./EventFiltersBar";
import { EventsDataTable } from "./EventsDataTable";
import { EVENTS_WINDOW, type EventFilters, filtersFrom, isFiltered } from "./filters";
import { InstallSnippet } from "./InstallSnippet";
import "./events.css";

export function EventsPage() {
  const query = useEvents(EVENTS_WINDOW);
  const account = useAccount();
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const filtered = isFiltered(filters);
  const matching = useEvents(EVENTS_WINDOW, filters, { enabled: filtered });

  const domains = useMemo(() => {
    const seen = new Set<string>();
    if (account.data) {
      seen.add(account.data.settings.domain);
      for (const d of account.data.settings.subdomains) if (!d.startsWith("*.")) seen.add(d);
    }
    for (const e of query.data?.events ?? []) if (e.domain) seen.add(e.domain);
    return [...seen].sort();
  }, [account.data, query.data]);

  const onFilters = (next: EventFilters) => {
    const p = new URLSearchParams();
    if (next.type) p.set("type", next.type);
    if (next.domain) p.set("domain", next.domain);
    if (next.q) p.set("q", next.q);
    setParams(p, { replace: true });
  };

  return (
    <>
      <title>Live events · Storefit</title>
      <PageHeader title="Live events" description="Events your shop's pages send, newest first, refreshed every 2 seconds." />
      <div className="events-overview">
        <EventCount query={query} />
        <InstallSnippet />
      </div>
      <h2 className="section-title">Latest events</h2>
      <EventFiltersBar filters={filters} domains={domains} onChange={onFilters} />
      <EventsDataTable query={filtered ? matching : query} filtered={filtered} stored={query.data?.total} />
    </>
  );
}
