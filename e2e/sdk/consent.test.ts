// Consent (issue 10): with `consent_required`, nothing is stored and nothing but the config call
// is sent before consent; everything held is sent once consent is given, and dropped when refused.

import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";

const h = useSdkHarness();
const BODY = `<p id="x">x</p>`;
const settings = { consent_required: true, page_update: false };

const stored = (page: Page) =>
  page.evaluate(() => ({
    local: Object.keys(localStorage).filter((k) => k.startsWith("cf_")),
    session: Object.keys(sessionStorage).filter((k) => k.startsWith("cf_")),
    cookies: document.cookie,
  }));
const notConfigs = () => h.fake.requests.filter((r) => r.path !== "/v1/users/configs/");

describe("consent", () => {
  it("stores and sends nothing before consent (the page is still personalized), then everything once granted", async () => {
    h.fake.configs({ configs: { c: { config_customer_id: "c", config_id: "cfg_c", variation_id: "v", variation: { innerHTML: "hello" }, variation_data_type: "HTML_ELEMENT", properties: { element_path: "#x" } } }, user_id: "u" });
    const o = await h.open("/c1", { body: BODY, settings });
    await o.page.waitForFunction(() => document.getElementById("x")?.textContent === "hello");
    await o.page.evaluate(() => window.storefit!.track("before_consent"));
    await o.page.waitForTimeout(1200);
    expect(await stored(o.page)).toEqual({ local: [], session: [], cookies: "" });
    expect(notConfigs()).toEqual([]);

    await o.page.evaluate(() => window.storefit!.setConsent(true));
    await eventually(() => h.fake.to("/v1/cfe/").find((r) => r.body.events[0].event_type === "PAGE"), 5000, "the held PAGE event");
    await eventually(() => h.fake.to("/v1/config/request/summary/")[0], 5000, "the held summary");
    const s = await stored(o.page);
    expect(s.local.length).toBeGreaterThan(0);
    expect(s.cookies).toMatch(/cf_\w+_ucid=/);
    await o.page.goto("about:blank");
    await eventually(() => h.fake.to("/v1/cfe/").flatMap((r) => r.body.events).find((e: { name: string }) => e.name === "before_consent"), 5000, "the TRACK event queued before consent");
  });

  it("drops everything held when consent is refused", async () => {
    const o = await h.open("/c2", { body: BODY, settings });
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    await o.page.evaluate(() => window.storefit!.setConsent(false));
    await o.page.evaluate(() => window.storefit!.track("after_refusal"));
    await o.page.goto("about:blank");
    await new Promise((r) => setTimeout(r, 500));
    expect(notConfigs()).toEqual([]);
  });

  it("reads Google Consent Mode: a default of denied waits, an update to granted sends", async () => {
    const o = await h.open("/c3", {
      body: BODY,
      settings,
      head: "",
    }, { waitUntil: "commit" });
    await o.page.addInitScript(() => {
      const w = window as unknown as { dataLayer: unknown[]; gtag: (...a: unknown[]) => void };
      w.dataLayer = [];
      // gtag pushes its arguments object, as Google's snippet does.
      w.gtag = function () {
        // eslint-disable-next-line prefer-rest-params
        w.dataLayer.push(arguments);
      };
      w.gtag("consent", "default", { analytics_storage: "denied", ad_storage: "denied" });
    });
    h.fake.page("/c3b", { body: BODY, settings });
    await o.page.goto(h.fake.shopUrl("/c3b"));
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    await o.page.waitForTimeout(1200);
    expect(notConfigs()).toEqual([]);
    await o.page.evaluate(() => (window as unknown as { gtag: (...a: unknown[]) => void }).gtag("consent", "update", { analytics_storage: "granted" }));
    await eventually(() => h.fake.to("/v1/cfe/")[0], 5000, "events after the consent update");
  });

  it("reads Shopify's Customer Privacy API and its visitorConsentCollected event", async () => {
    const o = await h.open("/c4", { body: BODY, settings }, { waitUntil: "commit" });
    await o.page.addInitScript(() => {
      let allowed = false;
      (window as unknown as { Shopify: unknown }).Shopify = {
        customerPrivacy: {
          analyticsProcessingAllowed: () => allowed,
          currentVisitorConsent: () => ({ analytics: allowed ? "yes" : "" }),
        },
      };
      (window as unknown as { grant: () => void }).grant = () => {
        allowed = true;
        document.dispatchEvent(new CustomEvent("visitorConsentCollected", { detail: { analyticsAllowed: true } }));
      };
    });
    h.fake.page("/c4b", { body: BODY, settings });
    await o.page.goto(h.fake.shopUrl("/c4b"));
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    await o.page.waitForTimeout(300);
    expect(notConfigs()).toEqual([]);
    await o.page.evaluate(() => (window as unknown as { grant: () => void }).grant());
    await eventually(() => h.fake.to("/v1/cfe/")[0], 5000, "events after Shopify consent");
  });

  it("without consent_required (the default) nothing waits", async () => {
    const o = await h.open("/c5", { body: BODY });
    await eventually(() => h.fake.to("/v1/cfe/")[0], 5000, "the PAGE event");
    expect((await stored(o.page)).local.length).toBeGreaterThan(0);
  });
});

describe("consent and analytics forwarding", () => {
  it("forwards what the visitor saw to the shop's tools only after consent", async () => {
    h.fake.configs({
      configs: {
        c: {
          config_customer_id: "c",
          config_id: "cfg_c",
          variation_id: "var_b",
          variation: { innerHTML: "hello" },
          variation_data_type: "HTML_ELEMENT",
          properties: { element_path: "#x" },
          experience_behaviour_response: { experience_id: "exp_1", behaviour_id: "beh_1", experience_name: "Test", behaviour_name: "B", audience_name: "Everyone" },
        },
      },
      user_id: "u",
    });
    const o = await h.open("/fw", {
      body: BODY,
      settings: { ...settings, integrations: { google_analytics: true } },
      head: `<script>window.dataLayer = [];</script>`,
    });
    await o.page.waitForFunction(() => typeof window.storefitExt === "function");
    await o.page.waitForTimeout(500);
    const impressions = () => o.page.evaluate(() => (window as unknown as { dataLayer: { event?: string }[] }).dataLayer.filter((e) => e.event === "experience_impression").length);
    expect(await impressions()).toBe(0);
    await o.page.evaluate(() => window.storefit!.setConsent(true));
    await o.page.waitForFunction(() => (window as unknown as { dataLayer: { event?: string }[] }).dataLayer.some((e) => e.event === "experience_impression"));
    expect(await impressions()).toBe(1);
  });
});
