// Pure rules of popup and custom-block templates (spec §3 Template, §5 "Timers and scrolling",
// §9): which delays count, whether a template may show on this device, and close memory.

import type { Config, Template } from "@storefit/contract";

/**
 * spec §5: in delayed-time lists only non-empty numeric entries other than 0 count as timers;
 * negative delays become 1 second. Accepts a number or a comma-separated list; seconds → ms.
 */
export function delaysMs(value: unknown): number[] {
  const parts = typeof value === "number" ? [String(value)] : typeof value === "string" ? value.split(",") : [];
  const out: number[] = [];
  for (const p of parts) {
    const t = p.trim();
    const n = Number(t);
    if (!t || !isFinite(n) || n === 0) continue;
    out.push((n < 0 ? 1 : n) * 1000);
  }
  return out;
}

/** spec §3 visibility_selected. */
export function visibleOn(visibility: string | undefined, device: "mobile" | "desktop"): boolean {
  if (visibility === "hide_template") return false;
  if (visibility === "desktop_only") return device === "desktop";
  if (visibility === "mobile_only") return device === "mobile";
  return true;
}

/**
 * spec §4 "Popups are close-remembered per session or per duration": `sessionClosed` is the
 * session flag, `closedUntil` the stored expiry (ms since epoch).
 */
export function suppressed(sessionClosed: boolean, closedUntil: number | null, now: number): boolean {
  return sessionClosed || (closedUntil !== null && now < closedUntil);
}

/** The template a config carries, in either place Appendix A allows. */
export function templateOf(c: Config): Template | null {
  const v = c.variation as { customfit_meta?: { custom_template?: Template } } | null;
  const t = (c.properties || {}).custom_template ?? (v && typeof v === "object" ? (v.customfit_meta || {}).custom_template : undefined);
  return t && typeof t === "object" && t.id ? t : null;
}
