// The Shopify web pixel's pure rules (product.md §2 "Shop platform (Shopify)"): the state kept
// from the ready event, checkout_completed → REVENUE with an order-derived insert_id, and
// product_viewed → the viewed product. Event payloads follow Shopify's Web Pixels API. The
// browser test (e2e/sdk/shopify-pixel.test.ts) runs the built bundle in a web worker.
import { describe, expect, it } from "vitest";
import { SDK_VERSION } from "@storefit/contract";
import { eventsUrl, revenueRequest, stateFromReady, stateFromSettings, storedState, viewedProduct } from "../src/shopify/pixel-events.js";
import type { PixelEvent, PixelState } from "../src/shopify/pixel-events.js";

const user = { user_customer_id: "c_1", user_id: "u_1", anonymous: true };
const ready = { user, key: "ck_shop", session_id: "s_1", settings: { client_key: "ck_shop", api_host: "https://api.example/", domain: "shop.example", subdomains: ["*.shop.example"], pages: [] } };
const state = stateFromReady(ready)!;

const checkout = (over: Partial<NonNullable<NonNullable<PixelEvent["data"]>["checkout"]>> = {}): PixelEvent => ({
  name: "checkout_completed",
  timestamp: "2026-11-20T10:00:00.000Z",
  clientId: "shopify-client-1",
  context: { document: { location: { hostname: "uk.shop.example", pathname: "/checkouts/cn/abc/thank-you" } } },
  data: { checkout: { currencyCode: "GBP", totalPrice: { amount: 42.5, currencyCode: "GBP" }, order: { id: "gid://shopify/OrderIdentity/1001" }, token: "tok_1", ...over } },
});

describe("stateFromReady: what the pixel keeps of `storefit:ready`'s customData", () => {
  it("keeps the visitor, key, session and the account's API host and domains", () => {
    expect(state).toEqual<PixelState>({ user, key: "ck_shop", session_id: "s_1", api_host: "https://api.example/", domain: "shop.example", subdomains: ["*.shop.example"] });
  });

  it("refuses payloads without a key, an API host or a visitor", () => {
    expect(stateFromReady(null)).toBeNull();
    expect(stateFromReady({ ...ready, key: "", settings: { ...ready.settings, client_key: "" } })).toBeNull();
    expect(stateFromReady({ ...ready, settings: { ...ready.settings, api_host: "" } })).toBeNull();
    expect(stateFromReady({ ...ready, user: {} })).toBeNull();
  });

  it("what the pixel stores reads back as the same state (checkout pages have only the stored one)", () => {
    expect(storedState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    const bare = stateFromSettings({ client_key: "ck", api_host: "https://api" })!;
    expect(storedState(JSON.parse(JSON.stringify(bare)))).toEqual(bare);
    expect(storedState(null)).toBeNull();
    expect(storedState({ ...state, api_host: "" })).toBeNull();
    expect(storedState({ ...state, user: {} })).toBeNull();
    // A ready payload is not a stored state.
    expect(storedState(ready)).toBeNull();
  });

  it("an app pixel's settings give a state without a visitor", () => {
    expect(stateFromSettings({ client_key: "ck", api_host: "https://api" })).toMatchObject({ key: "ck", api_host: "https://api", user: null });
    expect(stateFromSettings({})).toBeNull();
  });
});

describe("revenueRequest: checkout_completed → one REVENUE event", () => {
  it("carries the order value, currency and id, for the same visitor and session, on the event domain", () => {
    expect(revenueRequest(state, checkout(), 5)).toEqual({
      user,
      cf_client_sdk_version: SDK_VERSION,
      events: [
        {
          event_type: "REVENUE",
          name: "checkout_completed",
          event_customer_id: "uk.shop.example|checkout_completed",
          domain: "uk.shop.example",
          insert_id: "shopify_order_gid://shopify/OrderIdentity/1001_c_1",
          event_timestamp: Date.parse("2026-11-20T10:00:00.000Z"),
          session_id: "s_1",
          properties: { page_path: "/checkouts/cn/abc/thank-you", revenue_amount: 42.5, currency: "GBP", order_id: "gid://shopify/OrderIdentity/1001" },
        },
      ],
    });
  });

  it("derives the insert_id from the order: the same order twice gives the same id, another order another", () => {
    const a = revenueRequest(state, checkout(), 1)!.events[0]!.insert_id;
    expect(revenueRequest(state, checkout(), 2)!.events[0]!.insert_id).toBe(a);
    expect(revenueRequest(state, checkout({ order: { id: "gid://shopify/OrderIdentity/1002" } }), 1)!.events[0]!.insert_id).not.toBe(a);
    expect(revenueRequest(state, checkout({ order: { id: "x".repeat(300) } }), 1)!.events[0]!.insert_id).toBe(`shopify_order_${"x".repeat(64)}_c_1`);
  });

  it("puts the visitor in the insert_id: an order's id alone, sequential and guessable, could be stored first by anyone with the public key", () => {
    const mine = revenueRequest(state, checkout(), 1)!.events[0]!.insert_id;
    const another = revenueRequest(stateFromReady({ ...ready, user: { ...user, user_customer_id: "c_2" } })!, checkout(), 1)!.events[0]!.insert_id;
    expect(mine).toContain("c_1");
    expect(another).not.toBe(mine);
    expect(revenueRequest(stateFromSettings(ready.settings)!, { ...checkout(), clientId: "shopify-client-9" }, 1)!.events[0]!.insert_id).toBe("shopify_order_gid://shopify/OrderIdentity/1001_shopify_shopify-client-9");
  });

  it("reads amounts sent as text, falls back to the checkout token and the main domain", () => {
    const r = revenueRequest(state, { ...checkout({ totalPrice: { amount: "19.90" }, order: null, currencyCode: "EUR" }), context: { document: { location: { hostname: "checkout.shopify.com", pathname: "/" } } } }, 1)!;
    expect(r.events[0]).toMatchObject({ insert_id: "shopify_order_tok_1_c_1", domain: "shop.example", properties: { revenue_amount: 19.9, currency: "EUR", order_id: "tok_1" } });
  });

  it("sends nothing without an order or an amount", () => {
    expect(revenueRequest(state, checkout({ order: null, token: null }), 1)).toBeNull();
    expect(revenueRequest(state, checkout({ totalPrice: { amount: "n/a" } }), 1)).toBeNull();
    expect(revenueRequest(state, { name: "checkout_completed" }, 1)).toBeNull();
  });

  it("without a visitor (app settings only) counts the order under Shopify's client id", () => {
    expect(revenueRequest(stateFromSettings({ client_key: "ck", api_host: "https://api", domain: "shop.example" })!, checkout(), 1)!.user).toEqual({
      user_customer_id: "shopify_shopify-client-1",
      anonymous: true,
    });
  });

  it("posts to the events path with the key as cfenc", () => {
    expect(eventsUrl(state)).toBe("https://api.example/v1/cfe/?cfenc=ck_shop");
  });
});

describe("viewedProduct: product_viewed → the product and variant", () => {
  it("takes productVariant.product.id and productVariant.id", () => {
    expect(viewedProduct({ data: { productVariant: { id: "45737128657113", product: { id: "8950526378201" } } } })).toEqual({ productId: "8950526378201", variantId: "45737128657113" });
    expect(viewedProduct({ data: { productVariant: { product: { id: 7 } } } })).toEqual({ productId: "7" });
    expect(viewedProduct({ data: {} })).toBeNull();
  });
});
