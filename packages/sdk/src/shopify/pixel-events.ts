// Pure rules of the Shopify web pixel (product.md §2 "Shop platform (Shopify)"): what it keeps
// from the script's ready event, and what Shopify's standard events become. The event shapes are
// Shopify's Web Pixels API: custom events carry the publisher's data as `customData`;
// `checkout_completed` carries `data.checkout` (`totalPrice.amount`, `currencyCode`, `order.id`,
// `token`); `product_viewed` carries `data.productVariant` (`id`, `product.id`).

import { CLIENT_PATHS, SDK_VERSION, eventCustomerId, resolveEventDomain } from "@storefit/contract";
import type { EventsRequest, TrackedEvent, User } from "@storefit/contract";
import { orderInsertId } from "../track/order-id.js";

/** The subset of a Shopify pixel event the pixel reads. */
export type PixelEvent = {
  name?: string;
  timestamp?: string;
  clientId?: string;
  customData?: unknown;
  context?: { document?: { location?: { hostname?: string; pathname?: string } } };
  data?: {
    checkout?: {
      currencyCode?: string;
      totalPrice?: { amount?: number | string; currencyCode?: string };
      order?: { id?: string | number } | null;
      token?: string | null;
    };
    productVariant?: { id?: string | number; product?: { id?: string | number } } | null;
  };
};

/** What the pixel keeps of the last ready event (in the shop's local storage, via `browser`). */
export type PixelState = {
  user: User | null;
  key: string;
  session_id: string;
  api_host: string;
  domain: string;
  subdomains: string[];
};

export const CHECKOUT_EVENT_NAME = "checkout_completed";

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

/** The state from the ready event's `customData` ({ user, key, session_id, settings }), or null. */
export function stateFromReady(data: unknown): PixelState | null {
  const d = obj(data);
  const s = obj(d.settings);
  const user = obj(d.user);
  const key = str(d.key) || str(s.client_key);
  const api_host = str(s.api_host);
  if (!key || !api_host || !str(user.user_customer_id)) return null;
  return {
    user: user as User,
    key,
    session_id: str(d.session_id),
    api_host,
    domain: str(s.domain),
    subdomains: Array.isArray(s.subdomains) ? s.subdomains.filter((x): x is string => typeof x === "string") : [],
  };
}

/** The state as the pixel stored it, or null when it is missing or not a state. */
export function storedState(v: unknown): PixelState | null {
  const d = obj(v);
  if (!str(d.key) || !str(d.api_host) || !(d.user === null || str(obj(d.user).user_customer_id))) return null;
  return {
    user: d.user as User | null,
    key: str(d.key),
    session_id: str(d.session_id),
    api_host: str(d.api_host),
    domain: str(d.domain),
    subdomains: Array.isArray(d.subdomains) ? d.subdomains.filter((x): x is string => typeof x === "string") : [],
  };
}

/** The state an app pixel's own settings give when no ready event was ever seen (no visitor). */
export function stateFromSettings(settings: unknown): PixelState | null {
  const s = obj(settings);
  const key = str(s.client_key);
  const api_host = str(s.api_host);
  return key && api_host ? { user: null, key, session_id: "", api_host, domain: str(s.domain), subdomains: [] } : null;
}

/** `checkout_completed` → the events call with one REVENUE event, or null without an order. */
export function revenueRequest(state: PixelState, e: PixelEvent, now: number): EventsRequest | null {
  const c = e.data?.checkout;
  const orderId = c?.order?.id ?? c?.token;
  const amount = Number(c?.totalPrice?.amount);
  if (orderId === undefined || orderId === null || orderId === "" || !isFinite(amount)) return null;
  const loc = e.context?.document?.location;
  const domain = resolveEventDomain(loc?.hostname ?? "", state.domain, state.subdomains) ?? (state.domain || loc?.hostname || "");
  // Without a ready event this browser never ran storefit.js: the order still counts, under
  // Shopify's client id.
  const user: User = state.user ?? { user_customer_id: `shopify_${e.clientId ?? "unknown"}`, anonymous: true };
  const event: TrackedEvent = {
    event_type: "REVENUE",
    name: CHECKOUT_EVENT_NAME,
    event_customer_id: eventCustomerId(CHECKOUT_EVENT_NAME, domain),
    domain,
    insert_id: orderInsertId("shopify_order", String(orderId), user.user_customer_id),
    event_timestamp: Date.parse(e.timestamp ?? "") || now,
    ...(state.session_id ? { session_id: state.session_id } : {}),
    properties: {
      page_path: loc?.pathname ?? "",
      revenue_amount: amount,
      currency: c?.currencyCode || c?.totalPrice?.currencyCode || "",
      order_id: String(orderId),
    },
  };
  return { user, events: [event], cf_client_sdk_version: SDK_VERSION };
}

/** `product_viewed` → the product and variant ids for the viewed-products list, or null. */
export function viewedProduct(e: PixelEvent): { productId: string; variantId?: string } | null {
  const v = e.data?.productVariant;
  const productId = v?.product?.id;
  if (productId === undefined || productId === null || productId === "") return null;
  return { productId: String(productId), ...(v?.id !== undefined && v.id !== null && v.id !== "" ? { variantId: String(v.id) } : {}) };
}

export const eventsUrl = (s: PixelState): string =>
  `${s.api_host.replace(/\/+$/, "")}${CLIENT_PATHS.events}?cfenc=${encodeURIComponent(s.key)}`;
