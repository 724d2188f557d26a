// The currencies this experience's visitors' recent orders came in (the answer's revenue_currencies,
// docs/results.md "Currencies"). Revenue adds amounts as sent: with one currency the revenue
// figures are labelled with it; with more, the screen warns that they mix currencies. Pure, so it
// is unit-tested (test/results-currencies.test.ts).
import { REVENUE_CURRENCY_WINDOW } from "@storefit/contract";
import type { RevenueCurrency } from "@storefit/contract";
import { formatCount } from "./format";

const CODE = /^[A-Z]{3}$/;

/** "USD"; the service's "other" and null in words. */
export function currencyName(currency: string | null): string {
  if (currency === null) return "no currency";
  return CODE.test(currency) ? currency : "not a currency code";
}

/**
 * The one currency of every order, to label revenue figures with; undefined when there is none
 * to name (no answer, no order, orders without a currency or with another value) or several.
 */
export function singleCurrency(
  currencies: readonly RevenueCurrency[] | undefined,
): string | undefined {
  const only = currencies?.length === 1 ? currencies[0]!.currency : null;
  return only !== null && CODE.test(only) ? only : undefined;
}

/** The warning when orders came in more than one currency (or some without one); null otherwise. */
export function mixedCurrencyWarning(
  currencies: readonly RevenueCurrency[] | undefined,
): string | null {
  if (!currencies || currencies.length < 2) return null;
  const counts = currencies
    .map((c) => `${currencyName(c.currency)}: ${formatCount(c.orders)}`)
    .join(", ");
  const allCodes = currencies.every((c) => c.currency !== null && CODE.test(c.currency));
  return (
    `${allCodes ? `Orders came in ${currencies.length} currencies` : "Orders did not all come in one currency"} ` +
    `(${counts} of this experience's visitors' orders among the shop's last ${formatCount(REVENUE_CURRENCY_WINDOW)} events). ` +
    "Revenue here adds their amounts as they are, without converting: track revenue in one currency " +
    '(docs/results.md "Currencies").'
  );
}

/** The CSV's revenue_currencies cell: "USD:6 GBP:4" ("none", "other" for the others). */
export function currenciesCell(currencies: readonly RevenueCurrency[] | undefined): string {
  return (currencies ?? []).map((c) => `${c.currency ?? "none"}:${c.orders}`).join(" ");
}
