// One hook per query (conventions habit 10). Screens never call apiFetch themselves, so the
// query keys, polling intervals and 401 handling live here only.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { EventListResponse, ExperienceListResponse, SessionInfo } from "@storefit/contract";
import { apiFetch, isUnauthorized } from "./client";

export const queryKeys = {
  session: ["session"] as const,
  experiences: ["experiences"] as const,
  events: (limit: number, filters: EventQueryFilters = {}) => ["events", { limit, ...filters }] as const,
};

/** The live events screen polls this often (2 s): fresh enough to watch a test click land. */
export const EVENTS_REFETCH_INTERVAL_MS = 2_000;
export const EVENTS_PAGE_SIZE = 50;

/** The signed-in operator, or `null` when there is no session (the service answers 401). */
export function useSession() {
  return useQuery({
    queryKey: queryKeys.session,
    queryFn: async ({ signal }): Promise<SessionInfo | null> => {
      try {
        return await apiFetch<SessionInfo>("/api/session", { signal });
      } catch (error) {
        if (isUnauthorized(error)) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

export function useExperiences() {
  return useQuery({
    queryKey: queryKeys.experiences,
    queryFn: ({ signal }) => apiFetch<ExperienceListResponse>("/api/experiences", { signal }),
  });
}

/** GET /api/events filters (docs/api.md "Events"); empty ones are left out. */
export type EventQueryFilters = { type?: string; domain?: string; q?: string };

export function eventsUrl(limit: number, filters: EventQueryFilters = {}): string {
  const params = new URLSearchParams({ limit: String(limit) });
  for (const key of ["type", "domain", "q"] as const) {
    const value = filters[key]?.trim();
    if (value) params.set(key, value);
  }
  return `/api/events?${params.toString()}`;
}

/**
 * The newest events, filtered by the service when `filters` are given (the service scans every
 * stored event, not only a window of the newest). `enabled: false` stops the query and its polling.
 */
export function useEvents(limit: number = EVENTS_PAGE_SIZE, filters: EventQueryFilters = {}, options: { enabled?: boolean } = {}) {
  const clean: EventQueryFilters = {};
  for (const key of ["type", "domain", "q"] as const) {
    const value = filters[key]?.trim();
    if (value) clean[key] = value;
  }
  return useQuery({
    queryKey: queryKeys.events(limit, clean),
    queryFn: ({ signal }) => apiFetch<EventListResponse>(eventsUrl(limit, clean), { signal }),
    refetchInterval: EVENTS_REFETCH_INTERVAL_MS,
    // While a new filter loads, the previous list stays on screen (typing in the search box).
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}
