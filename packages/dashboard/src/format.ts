// Display formats shared by the screens. The browser's locale decides the date format; the
// full ISO time goes into `dateTime`/`title` so nothing is lost.
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: "medium",
  timeStyle: "short",
});
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: "medium" });
const dateTimeSecondsFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: "short",
  timeStyle: "medium",
});

// A day alone, in the same style as the date of `formatDateTime`; days are UTC (as the results
// service's are), so they are formatted in UTC, not moved into the browser's zone.
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });

function parse(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "21 Nov 2025, 14:03" */
export function formatDateTime(iso: string): string {
  const date = parse(iso);
  return date ? dateTimeFormat.format(date) : iso;
}

/** A UTC day "2026-11-28" as "28 Nov 2026" (or "Nov 28, 2026": the browser's locale). */
export function formatDay(day: string): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(day) ? parse(`${day}T00:00:00Z`) : null;
  return date ? dayFormat.format(date) : day;
}

/** "14:03:22" for today, with the date for anything older: a live list is read by the second. */
export function formatEventTime(iso: string, now: Date = new Date()): string {
  const date = parse(iso);
  if (!date) return iso;
  return date.toDateString() === now.toDateString()
    ? timeFormat.format(date)
    : dateTimeSecondsFormat.format(date);
}

// Counts and amounts with the same separators on every screen: "12,345", "1,024.50".
const countFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const amountFormat = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "12,345" */
export function formatCount(n: number): string {
  return countFormat.format(n);
}

/** "1,024.50": a money amount without its currency (the event may not say which). */
export function formatAmount(n: number): string {
  return amountFormat.format(n);
}
