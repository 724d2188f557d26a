// The contact-form marketing integration, HubSpot (spec §1, §2 cfuhp_ parameters, §3 User
// hs_fields and hubspotutk, §9 "Contact-platform id check after 3 s"), in Chromium: CRM-sync
// properties travel as hs_fields; HubSpot's tracking cookie is captured at start, or picked up
// 3 s later when HubSpot's own script set it after ours started; a form submission carries it so
// the service can link the submission to the contact.

import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { eventually } from "../browser.js";
import { SHOP_HOST } from "../fake-provider.js";
import { useSdkHarness } from "./sdk-harness.js";

const h = useSdkHarness();

type Ev = { event_type: string; name: string; event_timestamp: number; properties: Record<string, unknown> };
const eventRequests = () => h.fake.to("/v1/cfe/");
const events = (): Ev[] => eventRequests().flatMap((r) => r.body?.events ?? []);
const extLoaded = (page: Page) => page.waitForFunction(() => typeof window.storefitExt === "function");

/** What HubSpot's tracking code does on its first page view: sets the `hubspotutk` cookie. */
const hubspotSetsCookieAfter = (ms: number, value: string) =>
  `<script>setTimeout(function () { document.cookie = "hubspotutk=${value}; path=/"; }, ${ms});</script>`;

const FORM = `<form name="contact" action="/contact" onsubmit="event.preventDefault()"><input name="email" type="email" value="ada@example.com"><button>Send</button></form>`;

describe("CRM-sync properties (spec §2 cfuhp_, §3 hs_fields)", () => {
  it("cfuhp_ parameters and setCrmProperty travel as hs_fields on the config call and on events", async () => {
    const o = await h.open("/crm?cfuhp_company=Acme&cfuhp_plan=pro&utm_source=mail", { body: "<p>x</p>" });
    const configCall = await eventually(() => h.fake.to("/v1/users/configs/")[0], 5000, "the config call");
    expect(configCall.body.user.hs_fields).toEqual({ properties: { company: "Acme", plan: "pro" } });
    // The prefixed parameters did their work and left the address bar (spec §2); the rest stay.
    expect(await o.page.evaluate(() => location.search)).toBe("?utm_source=mail");
    await extLoaded(o.page);
    expect(await o.page.evaluate(() => window.storefit!.setCrmProperty("lead_source", "footer"))).toBe(true);
    await o.page.evaluate(() => window.storefit!.track("contact_opened"));
    await o.page.goto("about:blank");
    const withTrack = await eventually(() => eventRequests().find((r) => r.body.events.some((e: Ev) => e.name === "contact_opened")), 5000, "the TRACK request");
    expect(withTrack.body.user.hs_fields.properties).toEqual({ company: "Acme", plan: "pro", lead_source: "footer" });
  });
});

describe("HubSpot's tracking id, hubspotutk (spec §3, §9)", () => {
  it("a cookie present at start is on the visitor: user.hubspotutk and properties.hubspotutk", async () => {
    const o = await h.open("/utk-start0", { body: "" }, { waitUntil: "commit" });
    await o.context.addCookies([{ name: "hubspotutk", value: "utk-at-start", domain: SHOP_HOST, path: "/" }]);
    h.fake.page("/utk-start", { body: "<p>x</p>" });
    await o.page.goto(h.fake.shopUrl("/utk-start"));
    const call = await eventually(() => h.fake.to("/v1/users/configs/").find((r) => r.body.current_page_path === "/utk-start"), 5000, "the config call");
    expect(call.body.user).toMatchObject({ hubspotutk: "utk-at-start", properties: { hubspotutk: "utk-at-start" } });
  });

  it("a cookie HubSpot sets after the script started is picked up 3 s later and sent as a TRACK event", async () => {
    const o = await h.open("/utk-late", { body: "<p>x</p>", settings: { integrations: { hubspot: true } }, after: hubspotSetsCookieAfter(300, "utk-late") });
    const page = await eventually(() => events().find((e) => e.event_type === "PAGE"), 5000, "the PAGE event");
    expect(page.properties).not.toHaveProperty("hubspotutk");
    expect(h.fake.to("/v1/users/configs/")[0]!.body.user.hubspotutk).toBeUndefined();
    await extLoaded(o.page);
    // The check runs CONTACT_PLATFORM_ID_CHECK_MS after the extension started; its event waits in
    // the track queue, and leaving the page sends it.
    await o.page.waitForTimeout(3300);
    await o.page.goto("about:blank");
    const req = await eventually(() => eventRequests().find((r) => r.body.events.some((e: Ev) => e.name === "cf_contact_platform_id")), 5000, "the contact-platform id event");
    const ev = req.body.events.find((e: Ev) => e.name === "cf_contact_platform_id") as Ev;
    expect(ev).toMatchObject({ event_type: "TRACK", properties: { hubspotutk: "utk-late", page_path: "/utk-late" } });
    expect(ev.event_timestamp - page.event_timestamp).toBeGreaterThanOrEqual(3000);
    // The visitor was updated: the same request's user carries the id.
    expect(req.body.user).toMatchObject({ hubspotutk: "utk-late", properties: { hubspotutk: "utk-late" } });
  });

  it("with the HubSpot integration off, nothing is checked (spec §8: disabled integrations do nothing)", async () => {
    const o = await h.open("/utk-off", { body: "<p>x</p>", settings: { integrations: { hubspot: false } }, after: hubspotSetsCookieAfter(300, "utk-off") });
    await extLoaded(o.page);
    await o.page.evaluate(() => window.storefit!.track("marker"));
    await o.page.waitForTimeout(3300);
    await o.page.goto("about:blank");
    await eventually(() => events().find((e) => e.name === "marker"), 5000, "the queued events");
    expect(events().map((e) => e.name)).not.toContain("cf_contact_platform_id");
  });
});

describe("form submissions linked to the HubSpot contact (spec §1)", () => {
  it("a FORM event on a page with HubSpot carries the hubspotutk, read when the form is sent", async () => {
    // The cookie appears after the script started and the form is sent before the 3 s check.
    const o = await h.open("/utk-form", { body: FORM, settings: { integrations: { hubspot: true } }, after: hubspotSetsCookieAfter(200, "utk-form") });
    await extLoaded(o.page);
    await o.page.waitForFunction(() => document.cookie.includes("hubspotutk="));
    await o.page.click("button");
    const req = await eventually(() => eventRequests().find((r) => r.body.events.some((e: Ev) => e.event_type === "FORM")), 5000, "the FORM request");
    const form = req.body.events.find((e: Ev) => e.event_type === "FORM") as Ev;
    expect(form.properties).toMatchObject({ form_type: "contact", hubspotutk: "utk-form", email: "ada@example.com" });
    expect(req.body.user.hubspotutk).toBe("utk-form");
  });

  it("without the integration the FORM event has no hubspotutk property", async () => {
    const o = await h.open("/utk-form-off", { body: FORM, after: hubspotSetsCookieAfter(0, "utk-x") });
    await extLoaded(o.page);
    await o.page.waitForFunction(() => document.cookie.includes("hubspotutk="));
    await o.page.click("button");
    const form = await eventually(() => events().find((e) => e.event_type === "FORM"), 5000, "the FORM event");
    expect(form.properties).not.toHaveProperty("hubspotutk");
  });
});
