// The live events screen's state, kept in the address so a view can be shared or reloaded:
// filters (`?type=&domain=&q=&visitor=&experience=`), the page (`before` / `after`, the cursors
// the service answered) and the visitor whose timeline is open (`timeline`). The service applies
// the filters to every stored event (GET /api/events, docs/api.md "Events").

export type EventFilters = { type: string; domain: string; q: string; visitor: string; experience: string };
export type EventCursor = { before: string; after: string };

export const NO_FILTERS: EventFilters = { type: "", domain: "", q: "", visitor: "", experience: "" };
const FILTER_KEYS = Object.keys(NO_FILTERS) as (keyof EventFilters)[];

export function filtersFrom(params: URLSearchParams): EventFilters {
  const out = { ...NO_FILTERS };
  for (const key of FILTER_KEYS) out[key] = params.get(key) ?? "";
  return out;
}

export function cursorFrom(params: URLSearchParams): EventCursor {
  return { before: params.get("before") ?? "", after: params.get("after") ?? "" };
}

export const isFiltered = (f: EventFilters) => FILTER_KEYS.some((key) => f[key].trim() !== "");

/** The address of a view: new filters start again from the newest page; the open timeline stays. */
export function viewParams(filters: EventFilters, cursor: Partial<EventCursor> = {}, timeline = ""): URLSearchParams {
  const p = new URLSearchParams();
  for (const key of FILTER_KEYS) if (filters[key]) p.set(key, filters[key]);
  if (cursor.before) p.set("before", cursor.before);
  else if (cursor.after) p.set("after", cursor.after);
  if (timeline) p.set("timeline", timeline);
  return p;
}
