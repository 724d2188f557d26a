// The Live events screen's counting lines (docs/dashboard-account.md "Live events"). The service
// looks at 50,000 events at most per request (docs/api.md "Events", "Bounded search"): a filtered
// total may be a lower bound (`total_exact` false) and a page may stop before it is full
// (`searched`). The words say so rather than show a lower bound as a count.
import type { EventListResponse } from "@storefit/contract";
import { formatCount } from "../../format";

/** A total as read: "1,204", or "10,000+" when it is at least that many. */
export function totalLabel(total: number, exact: boolean): string {
  return exact ? formatCount(total) : `${formatCount(total)}+`;
}

const listed = (n: number) => `${formatCount(n)} ${n === 1 ? "is" : "are"} listed`;

/** The line above the table: how many events are stored or match, and how many are listed. */
export function shownText(data: Pick<EventListResponse, "total" | "total_exact" | "events">, filtered: boolean, paged: boolean): string {
  const shown = data.events.length;
  const total = totalLabel(data.total, data.total_exact);
  const one = data.total === 1 && data.total_exact;
  if (filtered) {
    const head =
      data.total === 0 && !data.total_exact
        ? "None of the newest events counted match the filters"
        : `${total} ${one ? "event matches" : "events match"} the filters`;
    if (shown === 0) return `${head}.`;
    if (paged) return `${head}; ${listed(shown)} on this page.`;
    return data.total > shown || !data.total_exact ? `${head}; the newest ${listed(shown)}.` : `${head}.`;
  }
  if (paged) return `${formatCount(shown)} of ${total} ${one ? "event" : "events"} are listed on this page.`;
  return data.total > shown ? `The newest ${formatCount(shown)} of ${total} events.` : `All ${total} ${one ? "event" : "events"}.`;
}

/**
 * Said when the page's search stopped before filling it: how many events it looked at and which
 * button goes on. `cursor`: how the page was reached (none: the newest page). null: not cut.
 */
export function searchedText(searched: number | null, cursor: "none" | "before" | "after"): string | null {
  if (searched === null) return null;
  const n = formatCount(searched);
  if (cursor === "after") return `Searched ${n} newer events — Newer events keeps searching.`;
  return `Searched the ${cursor === "none" ? "newest" : "next"} ${n} events — Older events keeps searching.`;
}
