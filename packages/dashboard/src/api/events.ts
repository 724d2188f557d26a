// Events (conventions habit 10): a page of events (docs/api.md "Events"), for the live events
// screen and the install check, and a visitor's timeline. Only the newest page is polled: an
// older page stays put while the operator reads it (its cursor pins it; new events land above it).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { EventListResponse, VisitorTimelineResponse } from "@storefit/contract";
import { apiFetch } from "./client";

/** The newest events are polled this often (2 s): fresh enough to watch a test click land. */
export const EVENTS_REFETCH_INTERVAL_MS = 2_000;
export const EVENTS_PAGE_SIZE = 50;

/** GET /api/events filters; empty ones are left out. */
export type EventPageQuery = {
  type?: string;
  domain?: string;
  q?: string;
  visitor?: string;
  experience?: string;
  /** A page's `older` cursor. */
  before?: string;
  /** A page's `newer` cursor. */
  after?: string;
};

const KEYS = ["type", "domain", "q", "visitor", "experience", "before", "after"] as const;

export const eventQueryKeys = {
  page: (limit: number, query: EventPageQuery) => ["events", "page", { limit, ...query }] as const,
  timeline: (visitor: string) => ["events", "timeline", visitor] as const,
};

function clean(query: EventPageQuery): EventPageQuery {
  const out: EventPageQuery = {};
  for (const key of KEYS) {
    const value = query[key]?.trim();
    if (value) out[key] = value;
  }
  return out;
}

export function eventPageUrl(limit: number, query: EventPageQuery): string {
  const params = new URLSearchParams({ limit: String(limit) });
  for (const [key, value] of Object.entries(clean(query))) params.set(key, value);
  return `/api/events?${params.toString()}`;
}

/** A page of events: the newest (polled) without a cursor, else the page the cursor names. */
export function useEventPage(query: EventPageQuery, limit: number = EVENTS_PAGE_SIZE) {
  const q = clean(query);
  const live = q.before === undefined && q.after === undefined;
  return useQuery({
    queryKey: eventQueryKeys.page(limit, q),
    queryFn: ({ signal }) => apiFetch<EventListResponse>(eventPageUrl(limit, q), { signal }),
    refetchInterval: live ? EVENTS_REFETCH_INTERVAL_MS : false,
    // While the next filter or page loads, the previous list stays on screen.
    placeholderData: keepPreviousData,
  });
}

export function timelineUrl(visitor: string): string {
  return `/api/visitors/${encodeURIComponent(visitor)}/timeline`;
}

/** A visitor's timeline, refreshed with the live list. */
export function useVisitorTimeline(visitor: string) {
  return useQuery({
    queryKey: eventQueryKeys.timeline(visitor),
    queryFn: ({ signal }) => apiFetch<VisitorTimelineResponse>(timelineUrl(visitor), { signal }),
    refetchInterval: EVENTS_REFETCH_INTERVAL_MS,
    enabled: visitor !== "",
  });
}
