// Live events: the shop's events a page at a time (the newest page polled every 2 s, older pages
// by the cursors the service answers), named for people, filtered by type, domain, text, visitor
// and experience, with one visitor's timeline on demand. Everything the operator chose is in the
// address (filters.ts). The unfiltered newest page feeds the count and the domains.
import { useMemo } from "react";
import { useSearchParams } from "react-router";
import { useAccount } from "../../api/account";
import { useEventPage } from "../../api/events";
import { useExperiences } from "../../api/experiences";
import { PageHeader } from "../../components/PageHeader";
import { EventCount } from "./EventCount";
import { EventFiltersBar } from "./EventFiltersBar";
import { EventsDataTable } from "./EventsDataTable";
import { cursorFrom, type EventFilters, filtersFrom, isFiltered, NO_FILTERS, viewParams } from "./filters";
import { InstallSnippet } from "./InstallSnippet";
import { VisitorTimeline } from "./VisitorTimeline";
import "./events.css";

export function EventsPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const cursor = cursorFrom(params);
  const timeline = params.get("timeline") ?? "";
  const filtered = isFiltered(filters);
  const reached = cursor.before !== "" ? "before" : cursor.after !== "" ? "after" : "none";

  const newest = useEventPage({});
  const page = useEventPage({ ...filters, ...cursor });
  const account = useAccount();
  const experiences = useExperiences();

  const domains = useMemo(() => {
    const seen = new Set<string>();
    if (account.data) {
      seen.add(account.data.settings.domain);
      for (const d of account.data.settings.subdomains) if (!d.startsWith("*.")) seen.add(d);
    }
    for (const e of newest.data?.events ?? []) if (e.domain) seen.add(e.domain);
    return [...seen].sort();
  }, [account.data, newest.data]);

  // Typing in a filter replaces the address; a page or a timeline is a step Back returns from.
  const go = (next: EventFilters, nextCursor: { before?: string; after?: string } = {}, nextTimeline = timeline, replace = true) =>
    setParams(viewParams(next, nextCursor, nextTimeline), { replace });

  return (
    <>
      <title>Live events · Storefit</title>
      <PageHeader title="Live events" description="Events your shop's pages send, newest first, refreshed every 2 seconds." />
      <div className="events-overview">
        <EventCount query={newest} />
        <InstallSnippet />
      </div>
      {timeline ? (
        <VisitorTimeline
          visitor={timeline}
          onClose={() => go(filters, cursor, "", false)}
          onFilter={(userId) => go({ ...NO_FILTERS, visitor: userId }, {}, timeline, false)}
        />
      ) : null}
      <h2 className="section-title">Events</h2>
      <EventFiltersBar filters={filters} domains={domains} experiences={experiences.data?.experiences ?? []} onChange={(next) => go(next)} />
      <EventsDataTable
        query={page}
        filtered={filtered}
        cursor={reached}
        onVisitor={(userId) => go(filters, cursor, userId, false)}
        onPage={(next) => go(filters, next, timeline, false)}
      />
    </>
  );
}
