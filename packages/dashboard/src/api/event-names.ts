// The event names the account received recently, by type (GET /api/events/names, docs/api.md
// "Event names"): what a click, form or custom-event goal can be named so that it counts.
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "./client";

/** The event types whose events carry a name a goal matches. */
export type NamedEventType = "CLICK" | "FORM" | "TRACK";

export type EventNames = {
  type: NamedEventType;
  /** The most recently received first, with their events among the `window` newest. */
  names: { name: string; events: number }[];
  window: number;
  /** true: every event of the account was looked at. */
  complete: boolean;
};

export const eventNameKeys = {
  names: (type: NamedEventType) => ["events", "names", type] as const,
};

/** The names of `type`; nothing is asked while `type` is null (a goal kind without a name). */
export function useEventNames(type: NamedEventType | null) {
  return useQuery({
    queryKey: eventNameKeys.names(type ?? "TRACK"),
    queryFn: ({ signal }) => apiFetch<EventNames>(`/api/events/names?type=${type}`, { signal }),
    enabled: type !== null,
    // A minute: names change as rarely as the shop's code; a goal row opened again reuses them.
    staleTime: 60_000,
  });
}
