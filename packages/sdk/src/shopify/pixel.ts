// The Shopify web pixel, dist/shopify-pixel.js (product.md §2 "Shop platform (Shopify)"). Page
// scripts cannot see checkout any more; a web pixel runs there too, in Shopify's sandbox. Started
// by the script's ready event (`storefit:ready`, published by forward/shopify.ts), it remembers
// the visitor, session and account, and reports what only it can see:
// - `checkout_completed` → a REVENUE event for that visitor and session (order value, currency,
//   order id), its insert_id derived from the order id so a repeated event is stored once;
// - `product_viewed` → the viewed-products list in the shop's local storage (spec §3, §9), the
//   same list `storefit.viewProduct` keeps.
// It runs as Shopify calls it: `register(({ analytics, browser, init, settings }) => …)` for an
// app pixel, or pasted as a custom pixel, where `analytics`, `browser` and `init` are in scope.
// It also exposes `storefitPixel(api)` for an app extension that registers it itself. The
// sandbox is a web worker: no `window`, so this bundle uses only `fetch`, `setTimeout` and the
// pixel API (never env/globals.ts), and storage goes through `browser.localStorage`, which
// Shopify runs in the top frame.

import { CALL_MAX_ATTEMPTS, CALL_RETRY_DELAY_MS, DOCUMENT_EVENTS } from "@storefit/contract";
import type { EventsRequest } from "@storefit/contract";
import { storagePrefix } from "../core/settings.js";
import { PIXEL_STATE_KEY, STORAGE_KEYS } from "../core/storage-keys.js";
import { addViewedProduct } from "../track/measures.js";
import type { ViewedProduct } from "../track/measures.js";
import type { PixelEvent, PixelState } from "./pixel-events.js";
import { eventsUrl, revenueRequest, stateFromReady, stateFromSettings, storedState, viewedProduct } from "./pixel-events.js";

export type PixelApi = {
  analytics: { subscribe: (name: string, callback: (e: PixelEvent) => void) => unknown };
  browser: {
    localStorage: { getItem: (key: string) => Promise<string | null>; setItem: (key: string, value: string) => Promise<unknown> };
  };
  init?: unknown;
  settings?: unknown;
};

const parse = <T>(text: string | null | undefined): T | null => {
  try {
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
};

/** POST with the transport's rules (spec §7, §8): JSON text as a form body, 3 attempts 500 ms apart. */
async function send(url: string, body: EventsRequest): Promise<void> {
  for (let attempt = 1; attempt <= CALL_MAX_ATTEMPTS; attempt++) {
    try {
      await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: JSON.stringify(body),
        credentials: "omit",
        keepalive: true,
      });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, CALL_RETRY_DELAY_MS));
    }
  }
}

export function startPixel(api: PixelApi): void {
  const storage = api.browser.localStorage;
  let state: PixelState | null = null;
  let waiting: ((s: PixelState) => void)[] = [];
  // Storage work runs one step at a time: two product views must not read the list at once.
  let chain: Promise<unknown> = Promise.resolve();
  const queue = (fn: () => Promise<unknown>) => (chain = chain.then(fn).catch(() => undefined));

  const known = queue(async () => {
    const stored = storedState(parse(await storage.getItem(PIXEL_STATE_KEY))) ?? stateFromSettings(api.settings);
    // Read after the await: a ready event that arrived meanwhile is newer and wins.
    state ??= stored;
  });
  /** Runs `fn` with the state now, or once the first ready event brings one. */
  const withState = (fn: (s: PixelState) => void) =>
    void known.then(() => {
      if (state) fn(state);
      else waiting.push(fn);
    });

  api.analytics.subscribe(DOCUMENT_EVENTS.ready, (e) => {
    const s = stateFromReady(e.customData);
    if (!s) return;
    state = s;
    void queue(() => storage.setItem(PIXEL_STATE_KEY, JSON.stringify(s)));
    const run = waiting;
    waiting = [];
    for (const fn of run) fn(s);
  });

  api.analytics.subscribe("checkout_completed", (e) =>
    withState((s) => {
      const body = revenueRequest(s, e, Date.now());
      if (body) void send(eventsUrl(s), body);
    }),
  );

  api.analytics.subscribe("product_viewed", (e) =>
    withState((s) => {
      const p = viewedProduct(e);
      if (!p) return;
      const key = storagePrefix(s.key) + STORAGE_KEYS.viewedProducts;
      void queue(async () => {
        const list = parse<ViewedProduct[]>(await storage.getItem(key));
        await storage.setItem(key, JSON.stringify(addViewedProduct(Array.isArray(list) ? list : [], p.productId, p.variantId, Date.now())));
      });
    }),
  );
}

// How Shopify runs the bundle (see the file comment). These names are free identifiers on purpose:
// `typeof` finds them whether they are sandbox globals or the custom-pixel wrapper's parameters.
declare const register: ((start: (api: PixelApi) => void) => void) | undefined;
declare const analytics: PixelApi["analytics"] | undefined;
declare const browser: PixelApi["browser"] | undefined;
declare const init: unknown;

try {
  (self as unknown as { storefitPixel?: typeof startPixel }).storefitPixel = startPixel;
  if (typeof register === "function") register(startPixel);
  else if (typeof analytics !== "undefined" && typeof browser !== "undefined" && analytics && browser) {
    startPixel({ analytics, browser, init: typeof init === "undefined" ? undefined : init });
  }
} catch {
  // A pixel never breaks the page or checkout it runs beside.
}
