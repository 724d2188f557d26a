// Event types of spec §3 "Event". Anything else a caller sends becomes TRACK.

export const EVENT_TYPES = [
  "PAGE",
  "TRACK",
  "SCREEN",
  "CLICK",
  "PAGE_UPDATE",
  "FORM",
  "TEMPLATE_VIEW",
  "TEMPLATE_BUTTON_CLICK",
  "REVENUE",
  "SCROLL",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** spec §3: "An unknown type becomes TRACK." */
export function normalizeEventType(type: unknown): EventType {
  return typeof type === "string" && (EVENT_TYPES as readonly string[]).includes(type)
    ? (type as EventType)
    : "TRACK";
}

/** spec §3: `configs` travel only on PAGE_UPDATE and FORM events. */
export function eventCarriesConfigs(type: EventType): boolean {
  return type === "PAGE_UPDATE" || type === "FORM";
}
