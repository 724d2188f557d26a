// What both backends store beside an event's JSON, in columns of its own (migration 9 on
// SQLite): results and the events list read these, never the JSON, so no stored event can fail
// their queries (docs/security.md).

import { matchPagePath } from "@storefit/contract";
import type { GoalDefinition, GoalKind, TrackedEvent } from "@storefit/contract";

/** An event's name (results, the events list's search): its `name`, else what follows the first "|" of event_customer_id (spec §5 `domain|name`). */
export function eventName(e: Pick<TrackedEvent, "name" | "event_customer_id">): string {
  if (typeof e.name === "string") return e.name;
  const id = String(e.event_customer_id);
  return id.slice(id.indexOf("|") + 1);
}

/** SQLite's reading of text as REAL (CAST): optional blanks, then the longest decimal number at the start. */
const LEADING_NUMBER = /^[ \t\n\v\f\r]*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/;

/**
 * The largest amount one REVENUE event counts for (docs/results.md "Revenue"); above it, the
 * amount counts 0, as an invalid one. A trillion is beyond any real order in any currency (at
 * ~1,000,000 Iranian rials or ~26,000 dong to the dollar, about $1M or $38M), so only test
 * orders, unit errors and hostile values reach it. It also keeps every sum finite: with at most
 * 2^63 stored events (their seq is a 64-bit integer), a sum of amounts is at most 2^63 × 1e12 ≈
 * 9.2e30 and a sum of squares or products at most its square, ≈ 8.5e61, far below float8's
 * 1.8e308 (one visitor's two events of 1e308 made the sums overflow: PostgreSQL answered 500,
 * SQLite a null revenue).
 */
export const MAX_REVENUE_AMOUNT = 1e12;

/**
 * What a stored amount counts for: itself when > 0 and at most MAX_REVENUE_AMOUNT, else 0 (also
 * NaN, infinities and null, which no insert stores but a row written another way may hold).
 * Every reader applies it: the fold (results/incremental.ts) and, as countedAmountSql, both
 * backends' full recompute.
 */
export const countedAmount = (n: number | null): number => (n !== null && n > 0 && n <= MAX_REVENUE_AMOUNT ? n : 0);

/**
 * countedAmount in SQL, for a REAL / float8 column (both backends): NaN compares above every
 * number in PostgreSQL and is NULL in SQLite, so it counts 0 too.
 */
export const countedAmountSql = (column: string): string =>
  `CASE WHEN ${column} > 0 AND ${column} <= ${MAX_REVENUE_AMOUNT.toExponential()} THEN ${column} ELSE 0 END`;

/**
 * A REVENUE event's amount as stored in its column (docs/results.md): properties.revenue_amount
 * when it is a finite number > 0, or text that starts with one (read as SQLite's CAST reads it,
 * as the results did before the column: migration 9's backfill uses CAST itself); anything else
 * 0. The column keeps an amount above MAX_REVENUE_AMOUNT as sent, as rows stored before the limit
 * have it: the limit is a rule of counting, applied by every reader (countedAmount), so that old
 * and new rows count alike and the limit can change without rewriting a row.
 */
export function revenueAmount(value: unknown): number {
  let n = 0;
  if (typeof value === "number") n = value;
  else if (typeof value === "string") n = Number(LEADING_NUMBER.exec(value)?.[1] ?? 0);
  return n > 0 && Number.isFinite(n) ? n : 0;
}

/** The revenue_amount column of an event. */
export const eventRevenue = (e: TrackedEvent): number => (e.event_type === "REVENUE" ? revenueAmount(e.properties?.revenue_amount) : 0);

/** The page_path column of an event. */
export const eventPagePath = (e: TrackedEvent): string | null => {
  const p = e.properties?.page_path;
  return typeof p === "string" ? p : null;
};

/** The event type each goal kind counts (spec §3 "Event"). */
export const GOAL_EVENT_TYPES: Record<GoalKind, string> = {
  page_view: "PAGE",
  click: "CLICK",
  form_submit: "FORM",
  track: "TRACK",
  revenue: "REVENUE",
};

/** Event types whose events have a name a goal can ask for. */
export const NAMED_TYPES = ["CLICK", "FORM", "TRACK"];

/** The last millisecond of year 9999: a browser clock beyond it (or before 1970) has no day. */
export const MAX_DATE_MS = 253_402_300_799_999;

/** A stored event's JSON; a row that no longer parses is shown by its columns (the events list never fails on one row). */
export function parseStoredEvent(r: Record<string, unknown>): TrackedEvent {
  try {
    return (typeof r.event_json === "string" ? JSON.parse(r.event_json) : r.event_json) as TrackedEvent;
  } catch {
    return { event_type: r.event_type as string, event_customer_id: r.event_customer_id as string, insert_id: r.insert_id as string, event_timestamp: Number(r.event_timestamp) };
  }
}

/**
 * Text lowered as both backends lower stored text for the events search (SQLite's lower(),
 * PostgreSQL's ascii_lower()): A–Z only. Lowering the search text further (É → é) would make a
 * search typed exactly as stored find nothing.
 */
export const asciiLower = (text: string): string => text.replace(/[A-Z]+/g, (s) => s.toLowerCase());

/**
 * What the events that may hit one of these goals have (both backends' candidate filters): a
 * page goal's paths among the account's `pagePaths` (null: no page goal), the event names per
 * type (`"any"`: every name), and whether a revenue goal takes every REVENUE event.
 */
export function goalCandidates(
  goals: readonly GoalDefinition[],
  pagePaths: readonly string[],
): { paths: Set<string> | null; namesByType: Map<string, Set<string> | "any">; revenue: boolean } {
  let paths: Set<string> | null = null;
  const namesByType = new Map<string, Set<string> | "any">();
  for (const g of goals) {
    const type = GOAL_EVENT_TYPES[g.kind];
    if (g.kind === "page_view") {
      const page = g.page ?? { page_path: "", page_match: "exact_match" as const };
      paths ??= new Set();
      for (const p of pagePaths) if (matchPagePath(page.page_match, page.page_path, p)) paths.add(p);
    } else if (g.kind !== "revenue") {
      const names = namesByType.get(type);
      if (!g.event_name) namesByType.set(type, "any");
      else if (names !== "any") namesByType.set(type, (names ?? new Set()).add(g.event_name));
    }
  }
  return { paths, namesByType, revenue: goals.some((g) => g.kind === "revenue") };
}
