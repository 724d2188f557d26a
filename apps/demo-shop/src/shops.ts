// The two storefronts and the Host-header routing between them (product.md §4).
import type { Currency, Shop, ShopDomain } from "./types";

export const US_DOMAIN = "littlesprouts.localhost" satisfies ShopDomain;
export const UK_DOMAIN = "littlesprouts-uk.localhost" satisfies ShopDomain;

export const SHOPS: Readonly<Record<ShopDomain, Shop>> = {
  [US_DOMAIN]: {
    domain: US_DOMAIN,
    region: "US",
    currency: "USD",
    lang: "en-US",
    free_shipping_from: 40,
  },
  [UK_DOMAIN]: {
    domain: UK_DOMAIN,
    region: "UK",
    currency: "GBP",
    lang: "en-GB",
    free_shipping_from: 30,
  },
};

const CURRENCY_SYMBOLS: Readonly<Record<Currency, string>> = { USD: "$", GBP: "£" };

export function currencySymbol(currency: Currency): string {
  return CURRENCY_SYMBOLS[currency];
}

/** "$12.00", "£9.50" — the same format the browser-side cart uses. */
export function formatPrice(amount: number, currency: Currency): string {
  return `${CURRENCY_SYMBOLS[currency]}${amount.toFixed(2)}`;
}

/**
 * The hostname of a Host header, lower-cased, without port or trailing dot.
 * Handles bracketed IPv6 literals ("[::1]:4200").
 */
export function hostnameOf(hostHeader: string | undefined): string {
  if (!hostHeader) return "";
  let host = hostHeader.trim().toLowerCase();
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(":");
  if (colon !== -1) host = host.slice(0, colon);
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

/** The port of a Host header, or "" when it names none. */
export function portOf(hostHeader: string | undefined): string {
  if (!hostHeader) return "";
  const match = /:(\d{1,5})$/.exec(hostHeader.trim());
  return match?.[1] ?? "";
}

/** The UK host shows the UK shop; any other host (127.0.0.1, localhost, …) the US shop. */
export function shopForHost(hostHeader: string | undefined): Shop {
  return hostnameOf(hostHeader) === UK_DOMAIN ? SHOPS[UK_DOMAIN] : SHOPS[US_DOMAIN];
}
