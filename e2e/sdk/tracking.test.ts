// Tracking (spec §3 Event, §5, §7, §9) in Chromium, asserting on the request bodies the page
// sends: forms, scroll, page updates, revenue, clicks, the devices call, queues and beacons,
// retries that keep their insert_id, and the blacklists.

import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Config } from "@storefit/contract";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";
import type { Captured } from "../fake-provider.js";

const h = useSdkHarness();

type Ev = { event_type: string; event_customer_id: string; name?: string; insert_id: string; properties: Record<string, unknown>; configs?: string[]; last_page_duration?: number; session_id?: string };
const events = (): Ev[] => h.fake.to("/v1/cfe/").flatMap((r: Captured) => r.body?.events ?? []);
const ofType = (type: string) => events().filter((e) => e.event_type === type);
const extLoaded = (page: Page) => page.waitForFunction(() => typeof window.storefitExt === "function");

const FORM = `
  <form id="signup" name="newsletter" action="/thanks" onsubmit="event.preventDefault()">
    <input name="first name" value="Ada">
    <input name="email" type="email" value="ada@example.com">
    <input name="phone" type="tel" value="+44 20 7946 0000">
    <input name="source" type="hidden" value="footer">
    <input name="password" type="password" value="hunter2">
    <input name="card_number" value="4111111111111111">
    <input name="empty" value="">
    <textarea name="message">Hello</textarea>
    <button type="submit">Join</button>
  </form>`;

describe("automatic form capture (spec §5)", () => {
  it("sends a FORM event with text-like fields, the email and phone, never hidden, password or card fields", async () => {
    h.fake.configs({ configs: { c: { config_customer_id: "c", config_id: "cfg_c", variation_id: "v", variation: { innerHTML: "x" }, variation_data_type: "HTML_ELEMENT", properties: { element_path: "#t" } } }, user_id: "u_1" });
    const o = await h.open("/form", { body: `<p id="t">t</p>${FORM}` });
    await extLoaded(o.page);
    await o.page.click("button[type=submit]");
    const form = await eventually(() => ofType("FORM")[0], 5000, "the FORM event");
    expect(form).toMatchObject({
      event_customer_id: "shop.localhost|newsletter",
      configs: ["cfg_c"],
      properties: { form_type: "newsletter", form_action: "/thanks", first_name: "Ada", message: "Hello", email: "ada@example.com", phone: "+44 20 7946 0000", page_path: "/form" },
    });
    for (const k of ["source", "password", "card_number", "empty"]) expect(form.properties[k]).toBeUndefined();
    // The visitor keeps them: the next request carries them as user data.
    h.fake.page("/form2", { body: `<p>next</p>` });
    await o.page.goto(h.fake.shopUrl("/form2"));
    const next = await eventually(() => h.fake.to("/v1/users/configs/")[1], 5000, "the next config call");
    expect(next.body.user).toMatchObject({ form_update_detected: false, properties: { first_name: "Ada", message: "Hello" }, hs_fields: { email: "ada@example.com", phone: "+44 20 7946 0000" } });
  });

  it("accepts an email only when valid and different from the stored one; captures forms added later", async () => {
    const o = await h.open("/form3", { body: `<div id="slot"></div>` });
    await extLoaded(o.page);
    const addForm = (email: string) =>
      o.page.evaluate((value) => {
        document.getElementById("slot")!.innerHTML = `<form name="f" onsubmit="event.preventDefault()"><input name="Email Address" value="${value}"><input name="city" value="Leeds"><button>go</button></form>`;
        document.querySelector("button")!.click();
      }, email);
    await addForm("not-an-email");
    await addForm("ada@example.com");
    await addForm("ADA@example.com");
    const forms = await eventually(() => (ofType("FORM").length === 3 ? ofType("FORM") : false), 5000, "three FORM events");
    expect(forms.map((f) => f.properties.email)).toEqual([undefined, "ada@example.com", undefined]);
    expect(forms.map((f) => f.properties.city)).toEqual(["Leeds", "Leeds", "Leeds"]);
  });
});

describe("scroll depth (spec §5: only at ≥ 5 % growth)", () => {
  it("sends SCROLL only when the depth grew by at least 5 percent", async () => {
    const o = await h.open("/scroll", { body: `<div style="height:10000px">tall</div>` });
    await extLoaded(o.page);
    const scrollTo = async (y: number) => {
      await o.page.evaluate((top) => window.scrollTo(0, top), y);
      await o.page.waitForTimeout(400);
    };
    // viewport 800 of 10016: at 0 the depth is 8 %.
    for (const y of [1200, 1400, 1700, 3000, 3100, 9500]) await scrollTo(y);
    // SCROLL events wait in the track queue; leaving the page sends them.
    await o.page.goto("about:blank");
    const depths = await eventually(() => (ofType("SCROLL").length >= 3 ? ofType("SCROLL").map((e) => e.properties.scroll_depth as number) : false), 5000, "the SCROLL events");
    // 1200 → 20 %, 1400 → 22 % (not sent), 1700 → 25 %, 3000 → 38 %, 3100 → 39 % (not sent), 9500 → 100 %.
    expect(depths).toEqual([20, 25, 38, 100]);
  });
});

describe("page updates (spec §9: every 20 s, duration not past 30 minutes)", () => {
  it("sends PAGE_UPDATE every 20 s with the page duration and the configs, only when enabled", async () => {
    const o = await h.open("/pu0", { body: "<p>x</p>" }, { waitUntil: "commit" });
    await o.context.clock.install();
    h.fake.page("/pu", { body: "<p>x</p>", settings: { page_update: true, track_queue_size: 5 } });
    await o.page.goto(h.fake.shopUrl("/pu"));
    await extLoaded(o.page);
    await o.context.clock.runFor(20_000 * 5 + 100);
    await o.page.evaluate(() => 0);
    const updates = await eventually(() => (ofType("PAGE_UPDATE").length >= 5 ? ofType("PAGE_UPDATE") : false), 5000, "five page updates");
    expect(updates[0]!.properties.current_page_duration).toBeGreaterThanOrEqual(20_000);
    expect(updates[0]!.properties.current_page_duration).toBeLessThan(21_000);
    expect(updates[0]!.configs).toEqual([]);
    // Past 30 minutes the duration is no longer added.
    await o.context.clock.runFor(31 * 60_000);
    await o.page.goto("about:blank");
    // 5 + 93 updates in all (every 20 s over 100 s, then 31 minutes).
    await eventually(() => ofType("PAGE_UPDATE").length >= 98, 10_000, "every update");
    const durations = ofType("PAGE_UPDATE").map((e) => e.properties.current_page_duration as number | undefined);
    expect(durations.filter((d) => d !== undefined).every((d) => d! <= 1_800_000)).toBe(true);
    expect(Math.max(...durations.filter((d): d is number => d !== undefined))).toBeGreaterThan(1_700_000);
  });

  it("sends no page updates when page_update is off (the demo account's setting)", async () => {
    const o = await h.open("/pu-off0", { body: "<p>x</p>" }, { waitUntil: "commit" });
    await o.context.clock.install();
    h.fake.page("/pu-off", { body: "<p>x</p>", settings: { page_update: false } });
    await o.page.goto(h.fake.shopUrl("/pu-off"));
    await extLoaded(o.page);
    await o.context.clock.runFor(120_000);
    await o.page.goto("about:blank");
    await eventually(() => ofType("PAGE").length >= 1, 5000, "PAGE");
    expect(ofType("PAGE_UPDATE")).toEqual([]);
  });
});

describe("revenue (spec §3 revenue page rules, product.md §2 page API)", () => {
  it("sends REVENUE for a matching revenue page rule and from storefit.trackRevenue", async () => {
    const o = await h.open("/checkout/thank-you", {
      body: "<p>thanks</p>",
      settings: {
        revenue_pages: [
          { domain: "shop.localhost", path_check_type: "starts_with", pattern_value: "/checkout/thank", revenue_event_customer_id: "shop.localhost|order", revenue_amount: 25 },
          { domain: "", path_check_type: "simple", pattern_value: "/other", revenue_event_customer_id: "x|never", revenue_amount: 1 },
        ],
      },
    });
    await extLoaded(o.page);
    expect(await o.page.evaluate(() => [window.storefit!.trackRevenue(36.5, { order_id: "LS-1", currency: "USD" }), window.storefit!.trackRevenue(-1)])).toEqual([true, false]);
    await o.page.goto("about:blank");
    const revenue = await eventually(() => (ofType("REVENUE").length === 2 ? ofType("REVENUE") : false), 5000, "two REVENUE events");
    expect(revenue.map((e) => [e.event_customer_id, e.properties.revenue_amount])).toEqual(expect.arrayContaining([["shop.localhost|order", 25], ["shop.localhost|revenue", 36.5]]));
    expect(revenue.find((e) => e.properties.order_id)?.properties).toMatchObject({ order_id: "LS-1", currency: "USD" });
  });
});

describe("clicks (spec §3 click_count)", () => {
  it("a track_click action sends CLICK events with the session's click count", async () => {
    const config: Config = {
      config_customer_id: "buy",
      config_id: "cfg_buy",
      variation_id: "v1",
      variation: { customfit_meta: { onclick_action: { action_type: "track_click", action_txt: { goal_name: "buy_button" } } } },
      variation_data_type: "HTML_ELEMENT",
      properties: { element_path: "#buy" },
    };
    h.fake.configs({ configs: { buy: config }, user_id: "u_1" });
    const o = await h.open("/click", { body: `<button id="buy">Buy</button>` });
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    await o.page.click("#buy");
    await o.page.click("#buy");
    await o.page.goto("about:blank");
    const clicks = await eventually(() => (ofType("CLICK").length === 2 ? ofType("CLICK") : false), 5000, "two CLICK events");
    expect(clicks.map((c) => [c.event_customer_id, c.properties.click_count])).toEqual([
      ["shop.localhost|buy_button", 1],
      ["shop.localhost|buy_button", 2],
    ]);
  });
});

describe("delivery (spec §7, §9)", () => {
  it("queues TRACK events up to 5 and sends the rest with a beacon when the tab closes", async () => {
    const o = await h.open("/q", { body: "<p>x</p>" });
    await eventually(() => ofType("PAGE")[0], 5000, "PAGE");
    await o.page.evaluate(() => ["a", "b", "c"].forEach((n) => window.storefit!.track(n)));
    await o.page.waitForTimeout(300);
    expect(ofType("TRACK")).toEqual([]);
    await o.page.close({ runBeforeUnload: true });
    const tracked = await eventually(() => (ofType("TRACK").length === 3 ? ofType("TRACK") : false), 5000, "the beacon");
    expect(tracked.map((e) => e.name)).toEqual(["a", "b", "c"]);
    const beacon = h.fake.to("/v1/cfe/").find((r) => r.body.events[0].event_type === "TRACK")!;
    expect(beacon.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(beacon.query.get("cfenc")).toBe("ck_test");
  });

  it("a retry after a dropped connection carries the same insert_ids", async () => {
    // Chromium itself re-sends once on a reset connection, so the first two attempts are dropped
    // to make the script's own retry (500 ms later, spec §8) the one that gets through.
    h.fake.answer("/v1/cfe/", (_req, attempt) => (attempt <= 2 ? { drop: true } : { json: { accepted: 1 } }));
    await h.open("/retry", { body: "<p>x</p>" });
    const sent = await eventually(() => (h.fake.to("/v1/cfe/").length >= 3 ? h.fake.to("/v1/cfe/") : false), 5000, "the retry");
    const ids = sent.map((r) => r.body.events.map((e: Ev) => e.insert_id).join());
    expect(new Set(ids).size).toBe(1);
    expect(sent.at(-1)!.at - sent[0]!.at).toBeGreaterThanOrEqual(450);
  });

  it("registers the device once, and keeps its id in local storage", async () => {
    h.fake.configs({ configs: {}, user_id: "u_dev" });
    const o = await h.open("/dev", { body: "<p>x</p>" });
    const call = await eventually(() => h.fake.requests.find((r) => r.path.startsWith("/v1/users/u_dev/devices/")), 5000, "the devices call");
    expect(call.path).toBe("/v1/users/u_dev/devices/");
    expect(call.body).toMatchObject({ anonymous: true, add_devices: [{ device_type: "WEB", user_id: "u_dev", device_customer_id: expect.any(String) }] });
    h.fake.page("/dev2", { body: "<p>x</p>" });
    await o.page.goto(h.fake.shopUrl("/dev2"));
    await extLoaded(o.page);
    await o.page.waitForTimeout(300);
    expect(h.fake.requests.filter((r) => r.path.includes("/devices/"))).toHaveLength(1);
  });

  it("PAGE events carry last_page_duration and cf_merged_page_path", async () => {
    const settings = { event_merge: [{ domain: "", path_check_type: "starts_with", pattern_value: "/products/", final_path: "/products/*" }] };
    const o = await h.open("/products/a", { body: "<p>a</p>", settings });
    await eventually(() => ofType("PAGE")[0], 5000, "first PAGE");
    await o.page.waitForTimeout(300);
    h.fake.page("/products/b", { body: "<p>b</p>", settings });
    await o.page.goto(h.fake.shopUrl("/products/b"));
    const [first, second] = await eventually(() => (ofType("PAGE").length === 2 ? ofType("PAGE") : false), 5000, "second PAGE");
    expect(first!.last_page_duration).toBeUndefined();
    expect(second!.last_page_duration).toBeGreaterThanOrEqual(300);
    expect(second!.properties.cf_merged_page_path).toBe("/products/*");
  });

  it("tracks a config-call failure as an error-report event", async () => {
    h.fake.answer("/v1/users/configs/", () => ({ status: 502, json: {} }));
    const o = await h.open("/err", { body: "<p>x</p>" });
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    await o.page.goto("about:blank");
    const report = await eventually(() => events().find((e) => e.name === "cf_error_report"), 5000, "the error report event");
    expect(report).toMatchObject({ event_type: "TRACK", properties: { code: "CFJSSDK001", status: 502 } });
  });
});

describe("blacklists (spec §6)", () => {
  it("a blacklisted page or referrer sends no events, but is still personalized", async () => {
    h.fake.configs({ configs: { c: { config_customer_id: "c", config_id: "cfg_c", variation_id: "v", variation: { innerHTML: "changed" }, variation_data_type: "HTML_ELEMENT", properties: { element_path: "#t" } } }, user_id: "u_1" });
    const o = await h.open("/account/orders", { body: `<p id="t">t</p>`, settings: { page_blacklist: ["^/account"] } });
    await o.page.waitForFunction(() => document.getElementById("t")?.textContent === "changed");
    await o.page.evaluate(() => window.storefit!.track("x"));
    await o.page.goto("about:blank");
    const r = await h.open("/from-ref0", { body: "<p>x</p>" }, { waitUntil: "commit" });
    h.fake.page("/from-ref", { body: "<p>x</p>", settings: { referrer_blacklist: ["internal\\.tools"] } });
    await r.page.goto(h.fake.shopUrl("/from-ref"), { referer: "https://internal.tools/dashboard" });
    await r.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    await r.page.goto("about:blank");
    await new Promise((res) => setTimeout(res, 300));
    expect(events().filter((e) => ["/account/orders", "/from-ref"].includes(e.properties.page_path as string))).toEqual([]);
  });
});

describe("viewed products (spec §3, §9)", () => {
  it("keeps the 10 most recent, most recent first, counting repeat views", async () => {
    const o = await h.open("/vp", { body: "<p>x</p>" });
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    const list = await o.page.evaluate(() => {
      for (let i = 1; i <= 12; i++) window.storefit!.viewProduct(`p${i}`, "v1");
      window.storefit!.viewProduct("p5", "v1");
      const key = Object.keys(localStorage).find((k) => k.endsWith("_vp"))!;
      return JSON.parse(localStorage.getItem(key)!) as { product_id: string; viewed_count: number; variant_id: string; time_stamp: number }[];
    });
    expect(list.map((p) => p.product_id)).toEqual(["p5", "p12", "p11", "p10", "p9", "p8", "p7", "p6", "p4", "p3"]);
    expect(list[0]).toMatchObject({ variant_id: "v1", viewed_count: 2, time_stamp: expect.any(Number) });
    expect(list[1]!.viewed_count).toBe(1);
  });
});
