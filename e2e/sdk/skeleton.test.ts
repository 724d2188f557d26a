// The storefront script's walking skeleton against a fake provider: the config call exactly as
// spec §7 says, innerHTML and src applied, the page revealed (also on every failure and after
// sdk_timeout_ms), the PAGE event sent, and the document events of product.md §2.

import { describe, expect, it } from "vitest";
import type { Config, ConfigsResponse } from "@storefit/contract";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";

const h = useSdkHarness();

const PRODUCT = `<h1>Soap</h1><span id="price">$10.00</span><img id="hero" src="/a.png" alt="">`;

function config(id: string, elementPath: string, variation: Config["variation"]): Config {
  return {
    config_customer_id: id,
    config_id: `cfg_${id}`,
    variation_id: `var_${id}`,
    variation,
    variation_data_type: "HTML_ELEMENT",
    properties: { element_path: elementPath },
    experience_behaviour_response: { experience_id: "exp_1", behaviour_id: "beh_1", rule_id: "rule_1" },
  };
}

const answer = (...configs: Config[]): ConfigsResponse => ({
  configs: Object.fromEntries(configs.map((c) => [c.config_customer_id, c])),
  user_id: "u_42",
});

describe("walking skeleton of storefit.js", () => {
  it("makes the config call of spec §7, applies innerHTML and src, reveals, and sends the PAGE event", async () => {
    h.fake.configs(answer(config("price", "#price", { innerHTML: "<b>$8.00</b>" }), config("hero", "#hero", { src: "/b.png" })));
    const { page, errors, events, visible } = await open("/products/soap?ref=x");
    await expect.poll(() => page.locator("#price").innerHTML()).toBe("<b>$8.00</b>");
    expect(await page.locator("#hero").getAttribute("src")).toBe("/b.png");
    expect(await visible()).toBe(true);

    const [call] = h.fake.to("/v1/users/configs/");
    expect(call!.method).toBe("POST");
    expect(call!.query.get("cfenc")).toBe("ck_test");
    expect(call!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(call!.body).toMatchObject({
      current_page_path: "/products/soap?ref=x",
      current_domain: "shop.localhost",
      session_id: expect.any(String),
      user: { user_customer_id: expect.any(String), anonymous: true },
    });

    const cfe = await eventually(() => h.fake.to("/v1/cfe/")[0], 5000, "the PAGE event");
    expect(cfe.query.get("cfenc")).toBe("ck_test");
    const [event] = cfe.body.events;
    expect(event).toMatchObject({
      event_type: "PAGE",
      event_customer_id: "shop.localhost|page_view",
      domain: "shop.localhost",
      session_id: call!.body.session_id,
      pageview_seq_number: 1,
      properties: { page_path: "/products/soap" },
    });
    expect(event.insert_id).toEqual(expect.any(String));
    expect(event.config_summary.map((s: { config_id: string }) => s.config_id).sort()).toEqual(["cfg_hero", "cfg_price"]);
    expect(cfe.body.user.user_id).toBe("u_42");
    const summary = await eventually(() => h.fake.to("/v1/config/request/summary/")[0], 5000, "the summaries");
    expect(summary.body.summaries).toHaveLength(2);

    const names = (await events()).map((e) => e.type);
    expect(names).toEqual(expect.arrayContaining(["storefit:revealed", "storefit:applied", "storefit:ready"]));
    const applied = (await events()).find((e) => e.type === "storefit:applied")!;
    expect((applied.detail as string[]).sort()).toEqual(["cfg_hero", "cfg_price"]);
    expect(errors).toEqual([]);
  });

  it("keeps the visitor and counts page views within the session", async () => {
    const { page } = await open("/one");
    await eventually(() => h.fake.to("/v1/cfe/")[0], 5000, "first PAGE event");
    await page.goto(h.fake.shopUrl("/one"));
    const [first, second] = await eventually(() => (h.fake.to("/v1/cfe/").length === 2 ? h.fake.to("/v1/cfe/") : false), 5000, "second PAGE event");
    expect(second!.body.user.user_customer_id).toBe(first!.body.user.user_customer_id);
    expect(second!.body.events[0].pageview_seq_number).toBe(2);
  });

  const failures: [string, () => void, string | null][] = [
    ["answers 500", () => h.fake.answer("/v1/users/configs/", () => ({ status: 500, json: { error: "boom" } })), "CFJSSDK001"],
    ["answers invalid JSON", () => h.fake.answer("/v1/users/configs/", () => ({ text: "{not json" })), null],
    ["drops the connection", () => h.fake.answer("/v1/users/configs/", () => ({ drop: true })), "CFJSSDK004"],
  ];
  for (const [name, arrange, code] of failures) {
    it(`reveals the page and stays quiet when the provider ${name}`, async () => {
      arrange();
      const { page, errors, events, visible } = await open("/p", { body: PRODUCT });
      await page.waitForFunction(() => !document.getElementById("storefit-hide"));
      expect(await visible()).toBe(true);
      expect(await page.locator("#price").innerText()).toBe("$10.00");
      if (code) expect((await events()).find((e) => e.type === "storefit:error")?.detail).toMatchObject({ code });
      expect(errors).toEqual([]);
    });
  }

  it("retries a call that gets no response: 3 attempts, 500 ms apart (spec §8)", async () => {
    h.fake.answer("/v1/users/configs/", () => ({ drop: true }));
    const { page } = await open("/p", { body: PRODUCT });
    await page.waitForFunction(() => !document.getElementById("storefit-hide"));
    const calls = h.fake.to("/v1/users/configs/");
    expect(calls).toHaveLength(3);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(450);
    expect(calls[2]!.at - calls[1]!.at).toBeGreaterThanOrEqual(450);
  });

  it("reveals after sdk_timeout_ms when the provider is slow, and still reports the page", async () => {
    h.fake.answer("/v1/users/configs/", () => ({ delayMs: 2500, json: answer(config("price", "#price", { innerHTML: "late" })) }));
    const { page, events } = await open("/slow", { body: PRODUCT, settings: { sdk_timeout_ms: 600 } }, { waitUntil: "commit" });
    await page.waitForFunction(() => getComputedStyle(document.documentElement).visibility === "visible", null, { timeout: 2000 });
    const revealed = (await events()).find((e) => e.type === "storefit:revealed")!;
    expect(revealed.at).toBeLessThan(2000);
    expect(h.fake.to("/v1/users/configs/")).toHaveLength(1);
    await eventually(() => h.fake.to("/v1/cfe/")[0], 6000, "the PAGE event after the late answer");
  });

  it("stops before any call, and reveals, without a client key or on a domain that is not configured", async () => {
    const a = await open("/nokey", { body: PRODUCT, settings: { client_key: "" } });
    const b = await open("/otherdomain", { body: PRODUCT, settings: { domain: "elsewhere.example" } });
    const c = await open("/nosettings", { body: PRODUCT, settings: null });
    for (const o of [a, b, c]) {
      await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
      expect(await o.visible()).toBe(true);
      expect(o.errors).toEqual([]);
    }
    expect((await a.events()).find((e) => e.type === "storefit:error")?.detail).toMatchObject({ code: "CFINIT006" });
    expect((await b.events()).find((e) => e.type === "storefit:error")?.detail).toMatchObject({ code: "CFINIT005" });
    await new Promise((r) => setTimeout(r, 300));
    expect(h.fake.requests).toEqual([]);
  });
});

function open(path: string, fixture: Parameters<typeof h.open>[1] = { body: PRODUCT }, opts?: Parameters<typeof h.open>[2]) {
  return h.open(path, fixture, opts);
}

describe("the config call's rules (spec §4, §7, §8)", () => {
  it("reports a failed config call to /v1/alerts/ when error reporting is on, but not a 403", async () => {
    h.fake.answer("/v1/users/configs/", () => ({ status: 500, json: { error: { code: "internal" } } }));
    await open("/r1", { body: PRODUCT, settings: { error_reporting: true } });
    const alert = await eventually(() => h.fake.to("/v1/alerts/")[0], 5000, "the alert");
    expect(alert.body).toMatchObject({ code: "CFJSSDK001", status: 500, path: "/v1/users/configs/" });
    expect(alert.query.get("cfenc")).toBe("ck_test");

    h.fake.reset();
    h.fake.answer("/v1/users/configs/", () => ({ status: 403, json: {} }));
    const forbidden = await open("/r2", { body: PRODUCT, settings: { error_reporting: true } });
    await forbidden.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    h.fake.reset();
    h.fake.answer("/v1/users/configs/", () => ({ status: 500, json: {} }));
    const off = await open("/r3", { body: PRODUCT });
    await off.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    await new Promise((r) => setTimeout(r, 300));
    expect(h.fake.to("/v1/alerts/")).toEqual([]);
  });

  it("applies a late answer after the time-out only with personalize_after_timeout", async () => {
    const late = () => ({ delayMs: 1200, json: answer(config("price", "#price", { innerHTML: "late" })) });
    h.fake.answer("/v1/users/configs/", late);
    const on = await open("/late-on", { body: PRODUCT, settings: { sdk_timeout_ms: 300 } }, { waitUntil: "commit" });
    await on.page.waitForFunction(() => document.getElementById("price")?.textContent === "late", null, { timeout: 15_000 });
    // ready ran at the time-out (e2e/sdk/ready.test.ts); the late apply is announced by storefit:applied.
    expect((await on.events()).find((e) => e.type === "storefit:ready")!.detail).toMatchObject({ state: "timed_out", timed_out: true });
    expect((await on.events()).find((e) => e.type === "storefit:applied")!.detail).toEqual(["cfg_price"]);

    const off = await open("/late-off", { body: PRODUCT, settings: { sdk_timeout_ms: 300, personalize_after_timeout: false } }, { waitUntil: "commit" });
    // The answer arrived (its summary step ran) and nothing was applied.
    await off.page.waitForFunction(() => (window as unknown as { __sf: { type: string }[] }).__sf.some((e) => e.type === "storefit:applied"), null, { timeout: 15_000 });
    expect(await off.page.locator("#price").innerText()).toBe("$10.00");
    expect((await off.events()).find((e) => e.type === "storefit:applied")!.detail).toEqual([]);
    expect((await off.events()).find((e) => e.type === "storefit:ready")!.detail).toMatchObject({ timed_out: true });
  });

  it("with intelligent code off, caches the configs per visitor in the session and skips the call", async () => {
    h.fake.configs(answer(config("price", "#price", { innerHTML: "cached" })));
    const o = await open("/c1", { body: PRODUCT, settings: { intelligent_code: false } });
    await o.page.waitForFunction(() => document.getElementById("price")?.textContent === "cached");
    h.fake.page("/c2", { body: PRODUCT, settings: { intelligent_code: false } });
    await o.page.goto(h.fake.shopUrl("/c2"));
    await o.page.waitForFunction(() => document.getElementById("price")?.textContent === "cached");
    expect(h.fake.to("/v1/users/configs/")).toHaveLength(1);
    expect((await o.events()).find((e) => e.type === "storefit:ready")!.detail).toMatchObject({ state: "not_needed" });
  });

  it("waits initial_delay_ms before asking for configs", async () => {
    const o = await open("/delay", { body: PRODUCT, settings: { initial_delay_ms: 700 } });
    const start = await o.page.evaluate(() => performance.timeOrigin);
    const call = await eventually(() => h.fake.to("/v1/users/configs/")[0], 5000, "the delayed call");
    expect(call.at - start).toBeGreaterThanOrEqual(650);
  });
});

describe("redirects keep the page hidden (spec §4, §5)", () => {
  it("a global redirection never reveals the page being left", async () => {
    const redirect: Config = {
      config_customer_id: "go",
      config_id: "cfg_go",
      variation_id: "v",
      variation: { customfit_meta: { global_actions: { redirection: { url: "/landing" } } } },
      variation_data_type: "HTML_ELEMENT",
      properties: {},
    };
    h.fake.configs((req) => (req.body.current_page_path.startsWith("/old") ? answer(redirect) : answer()));
    h.fake.page("/landing", { body: "<p>landing</p>" });
    // A first page outside the redirect (paths starting "/old" redirect) opens the visitor.
    const o = await open("/start", { body: PRODUCT });
    const revealedOn: string[] = [];
    await o.context.exposeBinding("reportReveal", (_src, path: string) => void revealedOn.push(path));
    await o.context.addInitScript(() => document.addEventListener("storefit:revealed", () => (window as unknown as { reportReveal: (p: string) => void }).reportReveal(location.pathname)));
    h.fake.page("/old", { body: PRODUCT });
    // "commit": the script leaves /old before its load event, which would abort a wait for "load".
    await o.page.goto(h.fake.shopUrl("/old"), { waitUntil: "commit" });
    await o.page.waitForURL((u) => u.pathname === "/landing");
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    await eventually(() => revealedOn.length > 0, 5000, "the reveal report of /landing");
    expect(revealedOn).toEqual(["/landing"]);
  });
});

describe("active pages (spec §2, §3, §4)", () => {
  it("with rule pages listed, asks for configs only on rule and configured pages; elsewhere shows the page at once", async () => {
    const settings = {
      rule_pages: [{ domain: "shop.localhost", page_path: "/products/soap" }],
      pages: [{ domain: "shop.localhost", page_path: "/cart", element_path: "#x", page_match: "exact_match", config_id: "cfg_cart" }],
    };
    h.fake.configs(answer(config("price", "#price", { innerHTML: "rule page" })));
    const rule = await open("/products/soap/", { body: PRODUCT, settings });
    await rule.page.waitForFunction(() => document.getElementById("price")?.textContent === "rule page");
    await open("/cart", { body: PRODUCT, settings });
    await eventually(() => h.fake.to("/v1/users/configs/").length === 2, 5000, "calls on the rule page and the configured page");
    const other = await open("/about", { body: PRODUCT, settings });
    await other.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    expect((await other.events()).find((e) => e.type === "storefit:ready")!.detail).toMatchObject({ state: "not_needed" });
    await eventually(() => h.fake.to("/v1/cfe/").find((r) => r.body.events[0].properties.page_path === "/about"), 5000, "the PAGE event of the other page");
    expect(h.fake.to("/v1/users/configs/")).toHaveLength(2);
  });

  it("without rule pages (the deployed configuration) every page asks", async () => {
    await open("/anything", { body: PRODUCT, settings: { rule_pages: [] } });
    await eventually(() => h.fake.to("/v1/users/configs/")[0], 5000, "the config call");
  });

  it("a view of a goal page is marked on the PAGE event", async () => {
    const settings = { goal_pages: [{ domain: "shop.localhost", page_path: "/checkout/thank-you" }] };
    await open("/checkout/thank-you", { body: PRODUCT, settings });
    await open("/checkout", { body: PRODUCT, settings });
    const pages = await eventually(() => (h.fake.to("/v1/cfe/").length === 2 ? h.fake.to("/v1/cfe/").map((r) => r.body.events[0]) : false), 5000, "two PAGE events");
    const byPath = Object.fromEntries(pages.map((e: { properties: { page_path: string; cf_goal_page?: boolean } }) => [e.properties.page_path, e.properties.cf_goal_page]));
    expect(byPath).toEqual({ "/checkout/thank-you": true, "/checkout": undefined });
  });
});
