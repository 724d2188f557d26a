// What both backends share for EventNameStore.recentRevenueCurrencies (docs/results.md
// "Currencies"). Each reads the currency from the stored JSON's raw text (the JSON text of
// `properties.currency`, escapes as sent), never decoding it: a code is exactly `"` + three ASCII
// letters + `"`, so both backends classify a value from the same characters (PostgreSQL would
// refuse to decode the escape \u0000 in a json column and fail the read; SQLite would decode it).

import type { RevenueCurrency } from "@storefit/contract";

/** The label of a value that is there but is not three ASCII letters. */
export const OTHER_CURRENCY = "other";

/** The most orders first, then codes alphabetically, "other", and none (null) last: the same order on both backends. */
export function sortRevenueCurrencies(rows: readonly RevenueCurrency[]): RevenueCurrency[] {
  const rank = (c: string | null) => (c === null ? 2 : c === OTHER_CURRENCY ? 1 : 0);
  return [...rows].sort(
    (a, b) =>
      b.orders - a.orders ||
      rank(a.currency) - rank(b.currency) ||
      ((a.currency ?? "") < (b.currency ?? "") ? -1 : (a.currency ?? "") > (b.currency ?? "") ? 1 : 0),
  );
}
