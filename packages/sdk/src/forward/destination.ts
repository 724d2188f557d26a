// What every analytics destination shares (spec §1, §5 "Analytics forwarding", §8): the two
// things forwarded — the experience and behaviour a visitor saw, and the behaviour the script
// tracked — and the guarded way to call a third-party object. Pure: the page's globals come in as
// an argument, so each destination is testable without a browser and this file never reads
// `window` itself. A destination is one small file (forward/<name>.ts) plus its line in
// forward/destinations.ts.

import type { Config, Properties, PropertyValue, StorefitSettings, TrackedEvent } from "@storefit/contract";

/** The page's globals, where the analytics tools put their objects (`window.hj`, `window.dataLayer` …). */
export type Globals = Record<string, unknown>;

/** One experience a visitor saw on this page (spec §3 experience_behaviour_response). */
export type Seen = {
  experience_id: string;
  /** spec §5: spaces to underscores, non-word characters removed. */
  experience_name: string;
  behaviour_id: string;
  /** spec §5: cleaned like the experience name. */
  behaviour_name: string;
  variation_id: string;
  audience_name: string;
  ga_measurement_id?: string;
};

/** One tracked event forwarded to the tools (TRACK, CLICK, FORM, REVENUE). */
export type Behaviour = { type: string; name: string; properties: Properties };

export type Destination = {
  /** Forwards what the visitor saw; returns false when the tool's object is absent (spec §8). */
  seen: (x: Seen, w: Globals, s: StorefitSettings) => boolean;
  /** Forwards a tracked event; does nothing when the tool's object is absent (spec §8). */
  event: (e: Behaviour, w: Globals, s: StorefitSettings) => void;
};

/**
 * spec §5: "Experience and behaviour names have spaces changed to underscores and non-word
 * characters removed." Letters of every script count as word characters (a shop's names are
 * often not English); everything else but digits and underscores goes.
 */
export const cleanName = (name: string): string => name.replace(/\s/g, "_").replace(/[^\p{L}\p{N}_]/gu, "");

/**
 * Calls `w.a.b(...args)` for the path "a.b" with `this` bound to `w.a`, as the vendors' snippets
 * expect. Returns false, calling nothing, when any part is missing or not a function (spec §8:
 * an absent third-party object does nothing). The caller guards against throwing tools.
 */
export function invoke(w: Globals, path: string, ...args: unknown[]): boolean {
  let self: unknown = w;
  let fn: unknown = w;
  for (const key of path.split(".")) {
    self = fn;
    fn = fn !== null && (typeof fn === "object" || typeof fn === "function") ? (fn as Record<string, unknown>)[key] : undefined;
  }
  if (typeof fn !== "function") return false;
  (fn as (...a: unknown[]) => unknown).apply(self, args);
  return true;
}

/** The experiences seen on this page, once per experience, behaviour and variation. */
export function seenOf(configs: readonly Config[]): Seen[] {
  const out: Seen[] = [];
  const keys = new Set<string>();
  for (const c of configs) {
    const r = c.experience_behaviour_response;
    if (!r?.experience_id) continue;
    const key = `${r.experience_id} ${r.behaviour_id} ${c.variation_id}`;
    if (keys.has(key)) continue;
    keys.add(key);
    out.push({
      experience_id: r.experience_id,
      experience_name: cleanName(r.experience_name || r.experience_id),
      behaviour_id: r.behaviour_id,
      behaviour_name: cleanName(r.behaviour_name || r.behaviour_id || ""),
      variation_id: c.variation_id,
      audience_name: r.audience_name ?? "",
      ...(r.ga_measurement_id ? { ga_measurement_id: r.ga_measurement_id } : {}),
    });
  }
  return out;
}

/** The properties every tool with event properties gets for what a visitor saw. */
export const seenProperties = (x: Seen): Properties => ({
  experiment_id: x.experience_id,
  experiment_name: x.experience_name,
  variation_id: x.variation_id,
  behaviour_id: x.behaviour_id,
  behaviour_name: x.behaviour_name,
  audience_name: x.audience_name,
});

/**
 * The event name tools with properties get for what a visitor saw: "Experiment Viewed", the name
 * of the customer-data platforms' A/B-testing spec, so the tools downstream recognise it.
 */
export const SEEN_EVENT = "Experiment Viewed";

/** Name-only tools (Hotjar events, Clarity tags) get the experience and behaviour in the name. */
export const seenLabel = (x: Seen): string => `storefit_${x.experience_name}_${x.behaviour_name}`;

const FORWARDED_TYPES = ["TRACK", "CLICK", "FORM", "REVENUE"];
// A FORM event carries what the visitor typed (names, email, phone): only what describes the form
// leaves for third-party tools, never the values (Google Analytics forbids personal data too).
const FORM_KEYS = ["form_type", "form_action", "page_path"];

/**
 * The tracked behaviour worth forwarding, or null: TRACK, CLICK, FORM and REVENUE events, not the
 * script's own diagnostics (names starting with `cf_`, spec §8 error reports) nor its internal
 * `cf_*` properties.
 */
export function behaviourOf(e: TrackedEvent): Behaviour | null {
  const name = e.name ?? "";
  if (!FORWARDED_TYPES.includes(e.event_type) || !name || name.startsWith("cf_")) return null;
  const properties: Properties = { storefit_event_type: e.event_type };
  for (const [k, v] of Object.entries(e.properties ?? {}) as [string, PropertyValue][]) {
    if (e.event_type === "FORM" ? FORM_KEYS.includes(k) : !k.startsWith("cf_")) properties[k] = v;
  }
  return { type: e.event_type, name, properties };
}
