// The results' date range (docs/results.md "Date range"): `from` and `to` are UTC days, both
// included, read as the browser-clock milliseconds that exposures and events carry.

import { HttpError } from "../http/errors.js";
import type { ResultsRange } from "../store/types.js";

const DAY_MS = 86_400_000;

/** A UTC day's first millisecond; the schema has checked the YYYY-MM-DD shape, this that the day exists. */
function dayStart(day: string, name: "from" | "to"): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  // Date.parse rolls 2026-02-30 over to March; a day that does not exist is refused.
  if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== day) {
    throw new HttpError(400, "invalid_body", `querystring/${name} must be a calendar day (YYYY-MM-DD)`);
  }
  return ms;
}

export type ParsedRange = { from: string | null; to: string | null; ms: ResultsRange };

export function resultsRange(from: string | undefined, to: string | undefined): ParsedRange {
  const ms: ResultsRange = {};
  if (from !== undefined) ms.from_ms = dayStart(from, "from");
  if (to !== undefined) ms.to_ms = dayStart(to, "to") + DAY_MS;
  if (ms.from_ms !== undefined && ms.to_ms !== undefined && ms.from_ms >= ms.to_ms) {
    throw new HttpError(400, "invalid_body", "querystring/from must be on or before querystring/to");
  }
  return { from: from ?? null, to: to ?? null, ms };
}
