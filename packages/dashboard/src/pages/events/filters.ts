// Filters of the live events list, kept in the address (`?type=&domain=&q=`) so a filtered view
// can be shared or reloaded. The service applies them to every stored event (GET /api/events
// ?type=&domain=&q=, docs/api.md "Events"), not only to the newest the screen polls.
import type { StoredEventView } from "@storefit/contract";

/** How many of the newest events the screen loads and filters (the service answers up to 500). */
export const EVENTS_WINDOW = 500;

/** spec §3 "Event": the types the script sends (an unknown type becomes TRACK). */
export const EVENT_TYPES = ["PAGE", "PAGE_UPDATE", "CLICK", "FORM", "TRACK", "SCREEN", "SCROLL", "REVENUE", "TEMPLATE_VIEW", "TEMPLATE_BUTTON_CLICK"] as const;

export type EventFilters = { type: string; domain: string; q: string };

export function filtersFrom(params: URLSearchParams): EventFilters {
  return { type: params.get("type") ?? "", domain: params.get("domain") ?? "", q: params.get("q") ?? "" };
}

/** The event's name: the part of `domain|name` after the domain (spec §5). */
export function eventName(e: StoredEventView): string {
  const bar = e.event_customer_id.indexOf("|");
  return bar === -1 ? e.event_customer_id : e.event_customer_id.slice(bar + 1);
}

export const isFiltered = (f: EventFilters) => f.type !== "" || f.domain !== "" || f.q.trim() !== "";
