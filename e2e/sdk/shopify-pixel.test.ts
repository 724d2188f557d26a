// The Shopify integration (product.md §2 "Shop platform (Shopify)", spec §1) in Chromium: the
// storefront script publishes its ready event through `Shopify.analytics.publish`, and the web
// pixel bundle (dist/shopify-pixel.js) runs where Shopify runs pixels — a web worker sandbox —
// against a stand-in of the Web Pixels API that follows Shopify's documentation:
// `register(({ analytics, browser, init, settings }) => …)`, `analytics.subscribe(name, cb)`,
// custom events delivered with `customData`, `browser.localStorage` as asynchronous calls run in
// the top frame, and the documented payloads of `checkout_completed` (`data.checkout.totalPrice`,
// `currencyCode`, `order.id`) and `product_viewed` (`data.productVariant`).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { buildApp } from "../../packages/server/src/app.js";
import { openSqliteStore } from "../../packages/server/src/store/sqlite/index.js";
import { seedDemo } from "../../packages/server/src/seed/demo.js";
import { storagePrefix } from "../../packages/sdk/src/core/settings.js";
import { eventually } from "../browser.js";
import type { Captured } from "../fake-provider.js";
import { useSdkHarness } from "./sdk-harness.js";

const h = useSdkHarness();

/** Shopify's pixel sandbox, reduced to its documented API, as a web worker. */
const WORKER = (mode: "register" | "custom") => `
  // Events that arrive before the pixel has started wait for it, as Shopify's pixel manager does.
  var subscribers = {}, pending = {}, seq = 0, started = false, early = [];
  function topFrame(method, args) {
    return new Promise(function (resolve) { var id = ++seq; pending[id] = resolve; postMessage({ storage: method, args: args, id: id }); });
  }
  var api = {
    analytics: { subscribe: function (name, cb) { (subscribers[name] = subscribers[name] || []).push(cb); return Promise.resolve(); } },
    browser: {
      localStorage: {
        getItem: function (k) { return topFrame("getItem", [k]); },
        setItem: function (k, v) { return topFrame("setItem", [k, v]); },
        removeItem: function (k) { return topFrame("removeItem", [k]); },
      },
    },
    init: { context: {}, data: {} },
    settings: {},
  };
  onmessage = function (m) {
    var d = m.data;
    if (d.reply) { var r = pending[d.id]; delete pending[d.id]; if (r) r(d.value); return; }
    if (started) deliver(d.event); else early.push(d.event);
  };
  function start() { started = true; early.splice(0).forEach(deliver); }
  function deliver(e) {
    [e.name, e.type === "custom" ? "all_custom_events" : "all_standard_events", "all_events"].forEach(function (n) {
      (subscribers[n] || []).forEach(function (cb) { cb(e); });
    });
  }
  ${
    mode === "register"
      ? `self.register = function (pixel) { pixel(api); }; importScripts(PIXEL_URL); start();`
      : `fetch(PIXEL_URL).then(function (r) { return r.text(); }).then(function (code) { new Function("analytics", "browser", "init", code)(api.analytics, api.browser, api.init); start(); postMessage({ started: true }); });`
  }
`;

/** The page side: the worker, the top frame's storage for it, and `Shopify.analytics.publish`. */
const STANDIN = (mode: "register" | "custom" = "register") => `<script>
  (function () {
    var src = ${JSON.stringify(WORKER(mode))}.replace(/PIXEL_URL/g, JSON.stringify(location.origin + "/sdk/shopify-pixel.js"));
    var worker = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
    window.__pixelStarted = ${mode === "register" ? "true" : "false"};
    worker.onmessage = function (m) {
      var d = m.data;
      if (d.started) window.__pixelStarted = true;
      if (!d.storage) return;
      var v = localStorage[d.storage].apply(localStorage, d.args);
      worker.postMessage({ reply: true, id: d.id, value: v === undefined ? null : v });
    };
    var n = 0;
    window.__published = [];
    window.__shopifyEmit = function (name, type, extra) {
      worker.postMessage({ event: Object.assign({
        id: "sh-" + (++n), name: name, type: type, timestamp: new Date().toISOString(), clientId: "shopify-client-1", seq: n,
        context: { document: { location: { href: location.href, hostname: location.hostname, pathname: location.pathname } } },
      }, extra) });
    };
    window.Shopify = { analytics: { publish: function (name, data) {
      window.__published.push({ name: name, data: JSON.parse(JSON.stringify(data)) });
      window.__shopifyEmit(name, "custom", { customData: data });
    } } };
  })();
</script>`;

type W = Window & { __published: { name: string; data: Record<string, unknown> }[]; __shopifyEmit: (name: string, type: string, extra: unknown) => void; __pixelStarted: boolean };

const extLoaded = (page: Page) => page.waitForFunction(() => typeof window.storefitExt === "function");
const pixelState = (page: Page) => page.evaluate(() => localStorage.getItem("storefit_pixel"));
const emit = (page: Page, name: string, data: unknown) => page.evaluate(([n, d]) => (window as unknown as W).__shopifyEmit(n as string, "standard", { data: d }), [name, data] as const);

const CHECKOUT = {
  checkout: {
    token: "tok_1001",
    currencyCode: "GBP",
    totalPrice: { amount: 42.5, currencyCode: "GBP" },
    subtotalPrice: { amount: 38, currencyCode: "GBP" },
    order: { id: "gid://shopify/OrderIdentity/1001" },
    lineItems: [{ id: "li_1", quantity: 2, title: "Calendula lotion", variant: { id: "v_1", price: { amount: 19, currencyCode: "GBP" }, product: { id: "p_1" } } }],
  },
};
const VIEW = (productId: string, variantId: string) => ({
  productVariant: { id: variantId, price: { amount: 19, currencyCode: "GBP" }, title: "200 ml", product: { id: productId, title: "Calendula lotion", url: "/products/lotion", vendor: "Little Sprouts" } },
});

/** A storefront page with the integration on; returns the visitor's ids as the script sent them. */
async function storefront(path: string, mode: "register" | "custom" = "register") {
  const o = await h.open(path, { body: "<p>product</p>", settings: { shop_platform_integration: true }, head: STANDIN(mode) });
  await extLoaded(o.page);
  const config = await eventually(() => h.fake.to("/v1/users/configs/").find((r) => r.body.current_page_path === path), 5000, "the config call");
  return { ...o, customerId: config.body.user.user_customer_id as string, sessionId: config.body.session_id as string };
}

describe("the ready event through Shopify's analytics (product.md §2)", () => {
  it("is published as storefit:ready with { user, key, session_id, settings }, and the pixel keeps it", async () => {
    const o = await storefront("/products/lotion");
    const published = await eventually(() => o.page.evaluate(() => (window as unknown as W).__published[0]), 5000, "the publish call");
    expect(published.name).toBe("storefit:ready");
    expect(published.data).toMatchObject({
      key: "ck_test",
      session_id: o.sessionId,
      user: { user_customer_id: o.customerId, user_id: "u_fake" },
      settings: { client_key: "ck_test", api_host: h.fake.apiUrl, domain: "shop.localhost", shop_platform_integration: true },
    });
    const kept = JSON.parse(await eventually(() => pixelState(o.page).then((v) => v ?? false), 5000, "the pixel's state"));
    expect(kept).toMatchObject({ key: "ck_test", session_id: o.sessionId, api_host: h.fake.apiUrl, domain: "shop.localhost", user: { user_customer_id: o.customerId } });
  });

  it("is not published with the integration off", async () => {
    const o = await h.open("/products/off", { body: "<p>x</p>", settings: { shop_platform_integration: false }, head: STANDIN() });
    await extLoaded(o.page);
    await o.page.waitForTimeout(300);
    expect(await o.page.evaluate(() => (window as unknown as W).__published)).toEqual([]);
  });
});

describe("product_viewed → the viewed-products list (spec §3, §9)", () => {
  it("feeds the same list in the shop's local storage that storefit.viewProduct keeps", async () => {
    const o = await storefront("/products/lotion-views");
    await eventually(() => pixelState(o.page).then((v) => v ?? false), 5000, "the pixel's state");
    await emit(o.page, "product_viewed", VIEW("p_1", "v_1"));
    await emit(o.page, "product_viewed", VIEW("p_1", "v_1"));
    await emit(o.page, "product_viewed", VIEW("p_2", "v_9"));
    const key = storagePrefix("ck_test") + "vp";
    type Vp = { product_id: string; variant_id?: string; viewed_count: number };
    const list = await eventually(async () => {
      const got = JSON.parse((await o.page.evaluate((k) => localStorage.getItem(k), key)) ?? "[]") as Vp[];
      return got.length === 2 && got[1]!.viewed_count === 2 ? got : false;
    }, 5000, "the viewed-products list");
    expect(list.map(({ product_id, variant_id, viewed_count }) => [product_id, variant_id, viewed_count])).toEqual([["p_2", "v_9", 1], ["p_1", "v_1", 2]]);
    // The page API adds to the same list.
    await o.page.evaluate(() => window.storefit!.viewProduct("p_3"));
    const after = JSON.parse((await o.page.evaluate((k) => localStorage.getItem(k), key))!) as Vp[];
    expect(after.map((p) => p.product_id)).toEqual(["p_3", "p_2", "p_1"]);
  });
});

describe("checkout_completed → REVENUE (product.md §2)", () => {
  it("on a checkout page without storefit.js, is one REVENUE event for the same visitor and session; a repeat keeps its insert_id and is stored once", async () => {
    const shop = await storefront("/products/lotion-buy");
    await eventually(() => pixelState(shop.page).then((v) => v ?? false), 5000, "the pixel's state");
    // Checkout is closed to page scripts: storefit.js does not run there (no settings), the pixel does.
    h.fake.page("/checkouts/cn/abc/thank-you", { settings: null, body: "<p>Thank you</p>", head: STANDIN() });
    await shop.page.goto(h.fake.shopUrl("/checkouts/cn/abc/thank-you"));
    expect(await shop.page.evaluate(() => typeof window.storefitExt)).toBe("undefined");
    await emit(shop.page, "checkout_completed", CHECKOUT);
    await emit(shop.page, "checkout_completed", CHECKOUT);
    const isRevenue = (r: Captured) => r.body?.events?.some((e: { event_type: string }) => e.event_type === "REVENUE");
    const sent = await eventually(() => (h.fake.to("/v1/cfe/").filter(isRevenue).length >= 2 ? h.fake.to("/v1/cfe/").filter(isRevenue) : false), 5000, "two REVENUE requests");
    for (const r of sent) {
      expect(r.query.get("cfenc")).toBe("ck_test");
      expect(r.headers["content-type"]).toBe("application/x-www-form-urlencoded");
      expect(r.body.user).toMatchObject({ user_customer_id: shop.customerId, user_id: "u_fake" });
      expect(r.body.events).toEqual([
        expect.objectContaining({
          event_type: "REVENUE",
          name: "checkout_completed",
          event_customer_id: "shop.localhost|checkout_completed",
          insert_id: `shopify_order_gid://shopify/OrderIdentity/1001_${shop.customerId}`,
          session_id: shop.sessionId,
          properties: { page_path: "/checkouts/cn/abc/thank-you", revenue_amount: 42.5, currency: "GBP", order_id: "gid://shopify/OrderIdentity/1001" },
        }),
      ]);
    }

    // The service stores the repeat once: the same bodies, posted to the real service on SQLite.
    const dir = mkdtempSync(join(tmpdir(), "storefit-pixel-"));
    const store = openSqliteStore(join(dir, "s.sqlite"));
    try {
      store.migrate();
      await seedDemo(store, { email: "owner@pixel.example", password: "pixel-password-123" });
      const app = await buildApp({ store });
      const account = store.getAccountByClientKey("ck_demo_littlesprouts")!;
      const answers = [];
      for (const r of sent) {
        const res = await app.inject({ method: "POST", url: "/v1/cfe/?cfenc=ck_demo_littlesprouts", headers: { "content-type": "application/x-www-form-urlencoded" }, payload: r.raw });
        answers.push(res.json());
      }
      expect(answers).toEqual([{ accepted: 1, duplicates: 0 }, { accepted: 0, duplicates: 1 }]);
      expect(store.listEvents(account.id, 100).filter((e) => e.insert_id === `shopify_order_gid://shopify/OrderIdentity/1001_${shop.customerId}`)).toHaveLength(1);
      await app.close();
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("another order is another event", async () => {
    const shop = await storefront("/products/lotion-two");
    await eventually(() => pixelState(shop.page).then((v) => v ?? false), 5000, "the pixel's state");
    await emit(shop.page, "checkout_completed", CHECKOUT);
    await emit(shop.page, "checkout_completed", { checkout: { ...CHECKOUT.checkout, order: { id: "gid://shopify/OrderIdentity/1002" }, totalPrice: { amount: "10.00", currencyCode: "GBP" } } });
    const ids = await eventually(() => {
      const got = h.fake.to("/v1/cfe/").flatMap((r) => r.body.events).filter((e: { event_type: string }) => e.event_type === "REVENUE");
      return got.length >= 2 ? got.map((e: { insert_id: string; properties: { revenue_amount: number } }) => [e.insert_id, e.properties.revenue_amount]) : false;
    }, 5000, "two orders");
    expect(ids.sort()).toEqual([[`shopify_order_gid://shopify/OrderIdentity/1001_${shop.customerId}`, 42.5], [`shopify_order_gid://shopify/OrderIdentity/1002_${shop.customerId}`, 10]]);
  });
});

describe("the bundle as a custom pixel (pasted in Shopify's Customer events)", () => {
  it("runs with analytics, browser and init in scope and no register", async () => {
    const o = await storefront("/products/custom-pixel", "custom");
    await o.page.waitForFunction(() => (window as unknown as W).__pixelStarted);
    const kept = JSON.parse(await eventually(() => pixelState(o.page).then((v) => v ?? false), 5000, "the pixel's state"));
    expect(kept.user.user_customer_id).toBe(o.customerId);
    await emit(o.page, "checkout_completed", CHECKOUT);
    const rev = await eventually(() => h.fake.to("/v1/cfe/").flatMap((r) => r.body.events).find((e: { event_type: string }) => e.event_type === "REVENUE"), 5000, "REVENUE");
    expect(rev.insert_id).toBe(`shopify_order_gid://shopify/OrderIdentity/1001_${o.customerId}`);
  });
});
