// The date range of the results screen (docs/results.md "Date range"): a preset counted back from
// today, or custom days. Kept in the URL (?range=7d, ?range=custom&from=&to=) so a link shows the
// same numbers; the days are UTC, as the service's days are.
import type { ExperienceResults } from "@storefit/contract";
import { formatDay } from "../../format";

export type RangePreset = "all" | "7d" | "14d" | "30d" | "custom";

export type RangeChoice = { preset: RangePreset; from: string; to: string };

export const ALL_TIME: RangeChoice = { preset: "all", from: "", to: "" };

export const RANGE_OPTIONS: readonly { value: RangePreset; label: string; days?: number }[] = [
  { value: "all", label: "All time" },
  { value: "7d", label: "Last 7 days", days: 7 },
  { value: "14d", label: "Last 14 days", days: 14 },
  { value: "30d", label: "Last 30 days", days: 30 },
  { value: "custom", label: "Custom dates" },
];

const DAY_MS = 86_400_000;
const PRESETS = new Set<string>(RANGE_OPTIONS.map((o) => o.value));

/** A real calendar day as YYYY-MM-DD (2026-02-30 is not one). */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Reads the range from a URL query; anything unknown is all time, a custom day that is not one is left open. */
export function readRange(params: URLSearchParams): RangeChoice {
  const preset = params.get("range") ?? "";
  if (!PRESETS.has(preset) || preset === "all") return ALL_TIME;
  if (preset !== "custom") return { preset: preset as RangePreset, from: "", to: "" };
  const day = (name: string) => {
    const value = params.get(name) ?? "";
    return isDay(value) ? value : "";
  };
  return { preset: "custom", from: day("from"), to: day("to") };
}

/** The query for a range, keeping any other parameters of the URL. */
export function writeRange(params: URLSearchParams, choice: RangeChoice): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete("range");
  next.delete("from");
  next.delete("to");
  if (choice.preset === "all") return next;
  next.set("range", choice.preset);
  if (choice.preset === "custom") {
    if (choice.from) next.set("from", choice.from);
    if (choice.to) next.set("to", choice.to);
  }
  return next;
}

/**
 * The days to ask the service for: "Last 7 days" is today (UTC) and the 6 days before it; custom
 * days as given (in order, if typed the other way round); all time: none.
 */
export function rangeDays(choice: RangeChoice, now: number): { from?: string; to?: string } {
  const days = RANGE_OPTIONS.find((o) => o.value === choice.preset)?.days;
  if (days) return { from: utcDay(now - (days - 1) * DAY_MS), to: utcDay(now) };
  if (choice.preset !== "custom") return {};
  let { from, to } = choice;
  if (from && to && from > to) [from, to] = [to, from];
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

// Days are written as the rest of the screen writes dates (`formatDay`, the date of `formatDateTime`).
const showDay = formatDay;

/** The range an answer covers, in words: "3 Nov 2026 – 9 Nov 2026", "from 3 Nov 2026", "all time". */
export function describeRange(range: ExperienceResults["range"]): string {
  const { from, to } = range;
  if (from && to) return from === to ? showDay(from) : `${showDay(from)} – ${showDay(to)}`;
  if (from) return `from ${showDay(from)}`;
  if (to) return `up to ${showDay(to)}`;
  return "all time";
}
