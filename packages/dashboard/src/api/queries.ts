// One hook per query (conventions habit 10). Screens never call apiFetch themselves, so the
// query keys, polling intervals and 401 handling live here only.
import { useQuery } from "@tanstack/react-query";
import type { EventListResponse, ExperienceListResponse, SessionInfo } from "@storefit/contract";
import { apiFetch, isUnauthorized } from "./client";

export const queryKeys = {
  session: ["session"] as const,
  experiences: ["experiences"] as const,
  events: (limit: number) => ["events", { limit }] as const,
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

export function useEvents(limit: number = EVENTS_PAGE_SIZE) {
  return useQuery({
    queryKey: queryKeys.events(limit),
    queryFn: ({ signal }) =>
      apiFetch<EventListResponse>(`/api/events?limit=${encodeURIComponent(limit)}`, { signal }),
    refetchInterval: EVENTS_REFETCH_INTERVAL_MS,
  });
}
