// Developer-facing builders (spec §5 "Validation rules"): what a shop's code may pass to the page
// API. Pure: each returns the value to store, or `undefined` when it is refused (the caller logs).

import { TRACK_QUEUE_SIZE_MIN } from "@storefit/contract";
import type { PropertyValue } from "@storefit/contract";

const isNum = (v: unknown): v is number => typeof v === "number" && isFinite(v);
const isDate = (v: unknown): v is Date => v instanceof Date && !isNaN(v.getTime());
const isGeo = (v: unknown): v is { lat: number; lon: number } =>
  !!v &&
  typeof v === "object" &&
  Object.keys(v).length === 2 &&
  isNum((v as { lat?: unknown }).lat) &&
  isNum((v as { lon?: unknown }).lon);

/** A scalar of spec §5: number (not boolean, not date, finite), string, boolean, date, geo point. */
function scalar(v: unknown): PropertyValue | undefined {
  if (isNum(v) || typeof v === "string" || typeof v === "boolean") return v;
  if (isDate(v)) return v.toISOString();
  if (isGeo(v)) return { lat: v.lat, lon: v.lon };
  return undefined;
}

const kind = (v: unknown) => (isDate(v) ? "date" : typeof v);

/**
 * A property value: a scalar; a list whose elements are all scalars of one kind ("typed list");
 * or a JSON object, which must be truthy (spec §5). Anything else is refused.
 */
export function propertyValue(v: unknown): PropertyValue | undefined {
  if (Array.isArray(v)) {
    const out = v.map(scalar);
    if (out.some((x) => x === undefined)) return undefined;
    if (v.length && !v.every((x) => kind(x) === kind(v[0]))) return undefined;
    return out as PropertyValue;
  }
  const s = scalar(v);
  if (s !== undefined) return s;
  if (v && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    try {
      return JSON.parse(JSON.stringify(v)) as PropertyValue;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** spec §5: "Names must be strings." Empty names are refused too. */
export const validName = (name: unknown): name is string => typeof name === "string" && name.trim() !== "";

/** spec §5: "An event needs a non-empty name." */
export const validEventName = validName;

/** spec §5: "Track queue size is forced to at least 5." */
export const trackQueueSize = (n: unknown): number =>
  Math.max(TRACK_QUEUE_SIZE_MIN, isNum(n) ? Math.floor(n) : TRACK_QUEUE_SIZE_MIN);

/** Tags: strings, trimmed, non-empty; a comma-separated string is accepted. */
export function tagList(tags: unknown): string[] | undefined {
  const list = typeof tags === "string" ? tags.split(",") : Array.isArray(tags) ? tags : undefined;
  if (!list || !list.every((t) => typeof t === "string")) return undefined;
  return (list as string[]).map((t) => t.trim()).filter(Boolean);
}
