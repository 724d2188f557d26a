// What the live events list calls an event: "Page view", "Click: Add to cart", "Revenue: 24.00",
// instead of the stored `domain|name` and the type code (spec §3 "Event"). The raw values stay
// in each row's details.
import type { StoredEventView } from "@storefit/contract";
import { formatAmount } from "../../format";

/** spec §3 "Event": the types the script sends (an unknown type becomes TRACK), as the screen names them. */
export const EVENT_TYPE_LABELS = {
  PAGE: "Page view",
  PAGE_UPDATE: "Page update",
  CLICK: "Click",
  FORM: "Form submit",
  TRACK: "Custom event",
  REVENUE: "Revenue",
  SCROLL: "Scroll",
  SCREEN: "Screen view",
  TEMPLATE_VIEW: "Popup shown",
  TEMPLATE_BUTTON_CLICK: "Popup button click",
} as const satisfies Record<string, string>;

export const EVENT_TYPES = Object.keys(EVENT_TYPE_LABELS) as (keyof typeof EVENT_TYPE_LABELS)[];

export function eventTypeLabel(type: string): string {
  return (EVENT_TYPE_LABELS as Record<string, string>)[type] ?? type;
}

/**
 * A name as code writes it, as words: "Add_To_Cart", "add-to-cart" and "addToCart" read
 * "Add to cart". A name with spaces was written for people already and is kept.
 */
export function humanizeName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "" || /\s/.test(trimmed)) return trimmed;
  const words = trimmed
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[_\-.]+|\s+/)
    .filter(Boolean)
    .map((w) => (/^[A-Z0-9]+$/.test(w) && w.length > 1 ? w : w.toLowerCase()));
  if (words.length === 0) return trimmed;
  const first = words[0]!;
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return words.join(" ");
}

/** Names the script gives when the page gave none: nothing worth showing after the type. */
const DEFAULT_NAMES = new Set(["page_view", "form_submit", "form", "revenue", "scroll", "page_update"]);

function named(prefix: string, name: string): string {
  return DEFAULT_NAMES.has(name) || name.trim() === "" ? prefix : `${prefix}: ${humanizeName(name)}`;
}

/**
 * Which popup, as the operator knows it: "Welcome popup (Variation B)", the experience alone when
 * the variation is not known, null when the service found no experience holding its config.
 */
export function popupName(x: StoredEventView["template_experience"]): string | null {
  const experience = x?.experience_name.trim();
  if (!x || !experience) return null;
  const variation = x.variation_name?.trim();
  return variation ? `${experience} (${variation})` : experience;
}

/**
 * The event as one line for people: "Click: Add to cart", "Revenue: 24.00 GBP", "Scroll: 75 %",
 * "Popup shown: Welcome popup (Variation B)".
 */
export function eventLabel(e: Pick<StoredEventView, "event_type" | "name" | "properties" | "template_experience">): string {
  const p = e.properties;
  switch (e.event_type) {
    case "PAGE":
      return "Page view";
    case "PAGE_UPDATE":
      return "Page update";
    case "CLICK":
      return named("Click", e.name);
    case "FORM":
      return named("Form submit", e.name);
    case "SCREEN":
      return named("Screen view", e.name);
    case "SCROLL":
      return typeof p.scroll_depth === "number" ? `Scroll: ${p.scroll_depth} %` : "Scroll";
    case "REVENUE": {
      const amount = typeof p.revenue_amount === "number" ? p.revenue_amount : Number(p.revenue_amount);
      if (!Number.isFinite(amount)) return named("Revenue", e.name);
      const currency = typeof p.currency === "string" && /^[A-Za-z]{3}$/.test(p.currency) ? ` ${p.currency.toUpperCase()}` : "";
      return `Revenue: ${formatAmount(amount)}${currency}`;
    }
    case "TEMPLATE_VIEW": {
      const popup = popupName(e.template_experience);
      return popup ? `Popup shown: ${popup}` : "Popup shown";
    }
    case "TEMPLATE_BUTTON_CLICK": {
      const popup = popupName(e.template_experience);
      if (typeof p.button_text === "string" && p.button_text) return popup ? `Popup button: ${p.button_text} — ${popup}` : `Popup button: ${p.button_text}`;
      return popup ? `Popup button click: ${popup}` : "Popup button click";
    }
    default:
      return humanizeName(e.name) || eventTypeLabel(e.event_type);
  }
}

/** A browser clock's milliseconds as ISO text; a clock out of range shows as its number. */
export function isoOf(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}
