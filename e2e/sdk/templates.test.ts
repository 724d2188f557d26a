// Popup and custom-block templates (spec §3 Template, §4, §5, §9) in Chromium: insertion, every
// trigger, visibility, close memory per session and per duration, re-inserts, events.

import { describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import type { Config, ConfigsResponse, Template, TemplateSettings } from "@storefit/contract";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";

const h = useSdkHarness();
const BODY = `<main id="main"><h1 id="title">Shop</h1><button id="open-offer">Offer</button></main><div style="height:5000px"></div>`;

function templateConfig(settings: Partial<TemplateSettings>, extra: Partial<Template> = {}): Config {
  const template: Template = {
    id: "welcome",
    parentElement: "#main",
    nextSibling: "#title",
    html: `<div class="popup"><p>10% off your first order</p><a href="#shop" id="cta">Shop now</a><button class="cf-template-close" id="close">×</button></div>`,
    properties: { template_properties: { root_style: "position:fixed;top:10px;left:10px;background:#fff" }, settings: { config_selected: "on_entry", ...settings } },
    ...extra,
  };
  return {
    config_customer_id: "popup",
    config_id: "cfg_popup",
    variation_id: "var_popup",
    variation: { customfit_meta: { custom_template: template } },
    variation_data_type: "HTML_ELEMENT",
    properties: { custom_template: template },
    experience_behaviour_response: { experience_id: "exp_welcome", behaviour_id: "b", rule_id: "r" },
  };
}

const popup = (page: Page) => page.locator("#cf-template-welcome");
const extReady = (page: Page) => page.waitForFunction(() => typeof window.storefitExt === "function");
/**
 * With the clock paused, only the test moves the script past the revealed page's first frame
 * (requestAnimationFrame and its 100 ms fallback are faked too): time moves in steps of 20 ms
 * until the extension has started, and its own timers start from there.
 */
async function extReadyPaused(o: { page: Page; context: BrowserContext }): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await o.page.evaluate(() => typeof window.storefitExt === "function")) return;
    await o.context.clock.runFor(20);
  }
  throw new Error("the extension did not start");
}
const tplEvents = () => h.fake.to("/v1/cfe/").flatMap((r) => r.body.events).filter((e: { event_type: string }) => e.event_type.startsWith("TEMPLATE"));

describe("templates", () => {
  it("on_entry: inserted before nextSibling inside parentElement, with root_style, and a TEMPLATE_VIEW", async () => {
    h.fake.configs({ configs: { popup: templateConfig({}) }, user_id: "u" });
    const o = await h.open("/t1", { body: BODY });
    await popup(o.page).waitFor();
    expect(await o.page.evaluate(() => document.getElementById("main")!.firstElementChild!.id)).toBe("cf-template-welcome");
    expect(await popup(o.page).getAttribute("style")).toContain("position:fixed");
    await o.page.click("#cta");
    await o.page.goto("about:blank");
    const evs = await eventually(() => (tplEvents().length === 2 ? tplEvents() : false), 5000, "template events");
    expect(evs.map((e: { event_type: string; properties: Record<string, unknown> }) => [e.event_type, e.properties.template_id])).toEqual([["TEMPLATE_VIEW", "welcome"], ["TEMPLATE_BUTTON_CLICK", "welcome"]]);
    expect(evs[1].properties.button_text).toBe("Shop now");
    const summary = await eventually(() => h.fake.to("/v1/config/request/summary/")[0], 5000, "summary");
    expect(summary.body.summaries[0]).toMatchObject({ config_id: "cfg_popup", is_template_config: true });
  });

  it("a closed popup stays closed for the session (next_session), and shows again in a new session", async () => {
    h.fake.configs({ configs: { popup: templateConfig({ close_settings: { close_config_selected: "next_session" } }) }, user_id: "u" });
    const o = await h.open("/t2", { body: BODY });
    await popup(o.page).waitFor();
    await o.page.click("#close");
    expect(await popup(o.page).count()).toBe(0);
    await o.page.reload();
    await extReady(o.page);
    await o.page.waitForTimeout(300);
    expect(await popup(o.page).count()).toBe(0);
    const tab = await o.context.newPage(); // a new tab: a new session, same visitor
    await tab.goto(h.fake.shopUrl("/t2"));
    await popup(tab).waitFor();
  });

  it("a popup closed for a duration reappears after it", async () => {
    h.fake.configs({ configs: { popup: templateConfig({ close_settings: { close_config_selected: "duration", expiry: 60 } }) }, user_id: "u" });
    const o = await h.open("/t3-0", { body: BODY }, { waitUntil: "commit" });
    await o.context.clock.install();
    h.fake.page("/t3", { body: BODY });
    await o.page.goto(h.fake.shopUrl("/t3"));
    await popup(o.page).waitFor();
    await o.page.click("#close");
    const tab = await o.context.newPage();
    await tab.goto(h.fake.shopUrl("/t3"));
    await extReady(tab);
    await tab.waitForTimeout(200);
    expect(await popup(tab).count()).toBe(0);
    await o.context.clock.fastForward(61_000);
    const later = await o.context.newPage();
    await later.goto(h.fake.shopUrl("/t3"));
    await popup(later).waitFor();
  });

  it("on_click shows when a listed element is clicked", async () => {
    h.fake.configs({ configs: { popup: templateConfig({ config_selected: "on_click", elements: ["#open-offer"] }) }, user_id: "u" });
    const o = await h.open("/t4", { body: BODY });
    await extReady(o.page);
    await o.page.waitForTimeout(200);
    expect(await popup(o.page).count()).toBe(0);
    await o.page.click("#open-offer");
    await popup(o.page).waitFor();
  });

  it("at_exit fires once, only after its delay, when the pointer leaves through the top", async () => {
    h.fake.configs({ configs: { popup: templateConfig({ config_selected: "at_exit", delay: 2 }) }, user_id: "u" });
    const o = await h.open("/t5-0", { body: BODY }, { waitUntil: "commit" });
    await o.context.clock.install();
    // Paused: only runFor moves time, so a slow machine cannot fire the delay early.
    await o.context.clock.pauseAt(Date.now() + 1000);
    h.fake.page("/t5", { body: BODY });
    await o.page.goto(h.fake.shopUrl("/t5"));
    await extReadyPaused(o);
    const leave = () => o.page.evaluate(() => document.dispatchEvent(new MouseEvent("mouseout", { clientY: -5, relatedTarget: null, bubbles: true })));
    await leave();
    expect(await popup(o.page).count()).toBe(0);
    await o.context.clock.runFor(2100);
    await leave();
    await popup(o.page).waitFor();
    await o.page.evaluate(() => document.getElementById("cf-template-welcome")!.remove());
    // A removal by the page re-inserts it; a second exit does not add a second view.
    await leave();
    await o.page.goto("about:blank");
    // This page's views only: a beacon of the test before can arrive late on a busy machine, so
    // waiting for any template event could stop before this page's beacon is in. A batch sent
    // again (beacon after a fetch that did not finish) repeats insert_ids; the service stores
    // those once, so a view is one distinct insert_id.
    const here = () => tplEvents().filter((e: { event_type: string; properties?: { page_path?: string } }) => e.event_type === "TEMPLATE_VIEW" && e.properties?.page_path === "/t5");
    await eventually(() => here().length > 0, 5000, "this page's view");
    await h.fake.quiet(300, 3000);
    expect(new Set(here().map((e: { insert_id: string }) => e.insert_id)).size).toBe(1);
  });

  it("timerbased shows after the first valid timer; a negative delay becomes 1 s", async () => {
    h.fake.configs({ configs: { popup: templateConfig({ config_selected: "timerbased", timeout: "0, ,-4,abc" }) }, user_id: "u" });
    const o = await h.open("/t6-0", { body: BODY }, { waitUntil: "commit" });
    await o.context.clock.install();
    await o.context.clock.pauseAt(Date.now() + 1000);
    h.fake.page("/t6", { body: BODY });
    await o.page.goto(h.fake.shopUrl("/t6"));
    await extReadyPaused(o);
    // "0" would mean at once: right after the extension started, nothing is shown yet.
    expect(await popup(o.page).count()).toBe(0);
    await o.context.clock.runFor(1100);
    await popup(o.page).waitFor();
  });

  it("on_scroll shows at the scroll percentage", async () => {
    h.fake.configs({ configs: { popup: templateConfig({ config_selected: "on_scroll", scroll_percentage: 50 }) }, user_id: "u" });
    const o = await h.open("/t7", { body: BODY });
    await extReady(o.page);
    await o.page.evaluate(() => window.scrollTo(0, 1000));
    await o.page.waitForTimeout(200);
    expect(await popup(o.page).count()).toBe(0);
    await o.page.evaluate(() => window.scrollTo(0, 2400));
    await popup(o.page).waitFor();
  });

  it("visibility: hide_template never shows; desktop_only shows on desktop; mobile_only does not", async () => {
    for (const [visibility, shows] of [["hide_template", false], ["desktop_only", true], ["mobile_only", false]] as const) {
      h.fake.configs({ configs: { popup: templateConfig({ visibility_selected: visibility }) }, user_id: "u" });
      const o = await h.open(`/t8-${visibility}`, { body: BODY });
      await extReady(o.page);
      await o.page.waitForTimeout(200);
      expect(await popup(o.page).count(), visibility).toBe(shows ? 1 : 0);
    }
  });

  it("is re-inserted at most 5 times when the page keeps removing it", async () => {
    h.fake.configs({ configs: { popup: templateConfig({}) }, user_id: "u" });
    const o = await h.open("/t9", { body: BODY });
    await popup(o.page).waitFor();
    const reinserts = await o.page.evaluate(async () => {
      let n = 0;
      for (let i = 0; i < 10; i++) {
        document.getElementById("cf-template-welcome")?.remove();
        await new Promise((r) => setTimeout(r, 30));
        if (document.getElementById("cf-template-welcome")) n++;
      }
      return n;
    });
    expect(reinserts).toBe(5);
  });

  it("is torn down with the page in single-page mode", async () => {
    h.fake.configs((req): ConfigsResponse => ({ configs: req.body.current_page_path === "/spa" ? { popup: templateConfig({}) } : {}, user_id: "u" }));
    const o = await h.open("/spa", { body: BODY, settings: { spa_mode: true } });
    await popup(o.page).waitFor();
    await o.page.evaluate(() => history.pushState({}, "", "/spa/other"));
    await eventually(() => h.fake.to("/v1/users/configs/").length === 2, 5000, "re-init");
    await o.page.waitForFunction(() => !document.getElementById("cf-template-welcome"));
  });
});

// spec §3 Template: the display rules govern ALL of a template config's markup, also when the
// provider puts the template's HTML in the variation's innerHTML or edit_elem_action instead of
// custom_template.html.
describe("templates whose HTML is in the config's element changes", () => {
  const MOBILE_UA =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
  const SLOT_BODY = `<main id="main"><h1 id="title">Shop</h1><div id="slot">Free returns</div></main><div style="height:5000px"></div>`;
  const OFFER = `<div class="offer"><p>20% off today</p><a href="#shop" id="offer-cta">Shop now</a><button data-storefit-close id="offer-close">×</button></div>`;

  function markupConfig(settings: Partial<TemplateSettings>, where: "innerHTML" | "edit_elem_action"): Config {
    // No custom_template.html: the HTML is in the element changes.
    const template: Template = { id: "offer", parentElement: "body", properties: { settings: { config_selected: "on_entry", ...settings } } };
    const meta = { custom_template: template, ...(where === "edit_elem_action" ? { edit_elem_action: { action_type: "append_html" as const, action_txt: OFFER } } : {}) };
    return {
      config_customer_id: "offer",
      config_id: "cfg_offer",
      variation_id: "var_offer",
      variation: { ...(where === "innerHTML" ? { innerHTML: OFFER } : {}), customfit_meta: meta },
      variation_data_type: "HTML_ELEMENT",
      properties: { element_path: "#slot", custom_template: template },
      experience_behaviour_response: { experience_id: "exp_offer", behaviour_id: "b", rule_id: "r" },
    };
  }

  const offerShown = (page: Page) => page.locator(".offer").count();
  // Only this page's events: a page closed by the test before may still be sending its last ones.
  const tplEventsOn = (path: string) => tplEvents().filter((e: { properties: { page_path?: string } }) => e.properties.page_path === path);
  const slotText = (page: Page) => page.locator("#slot").innerText();
  /** The extension has started and set up the templates: anything it would show on entry is shown by now. */
  const settled = async (page: Page) => {
    await extReady(page);
    await page.waitForFunction(() => !document.getElementById("storefit-hide"));
    await page.waitForTimeout(300);
  };

  for (const where of ["innerHTML", "edit_elem_action"] as const)
    it(`desktop_only: a mobile visitor sees nothing of it, a desktop visitor sees it: ${where}`, { timeout: 120_000 }, async () => {
      h.fake.configs({ configs: { offer: markupConfig({ visibility_selected: "desktop_only" }, where) }, user_id: "u" });
      const mobile = await h.open(`/m-${where}`, { body: SLOT_BODY }, { userAgent: MOBILE_UA });
      await settled(mobile.page);
      expect(await offerShown(mobile.page), where).toBe(0);
      expect(await slotText(mobile.page), where).toBe("Free returns");
      expect(await mobile.page.locator("[data-storefit]").count(), where).toBe(0);
      expect(mobile.errors).toEqual([]);
      // Not shown: no view is reported (events queued on the page are sent when it is left).
      await mobile.page.goto("about:blank");

      const desktop = await h.open(`/d-${where}`, { body: SLOT_BODY });
      await desktop.page.locator(".offer").waitFor();
      expect(await desktop.page.locator("#slot").innerText(), where).toContain("20% off today");
      await desktop.page.goto("about:blank");
      await eventually(() => tplEventsOn(`/d-${where}`).some((e: { event_type: string }) => e.event_type === "TEMPLATE_VIEW"), 5000, "the view on desktop");
      await h.fake.quiet(300, 3000);
      expect(tplEventsOn(`/m-${where}`), where).toEqual([]);
    });

  it("mobile_only and hide_template keep innerHTML markup off a desktop page", { timeout: 150_000 }, async () => {
    for (const visibility of ["mobile_only", "hide_template"] as const) {
      h.fake.configs({ configs: { offer: markupConfig({ visibility_selected: visibility }, "innerHTML") }, user_id: "u" });
      const o = await h.open(`/v-${visibility}`, { body: SLOT_BODY });
      await settled(o.page);
      expect(await offerShown(o.page), visibility).toBe(0);
      expect(await slotText(o.page), visibility).toBe("Free returns");
    }
  });

  it("timerbased: nothing of it before the timer, the markup after", async () => {
    h.fake.configs({ configs: { offer: markupConfig({ config_selected: "timerbased", timeout: 3 }, "innerHTML") }, user_id: "u" });
    const o = await h.open("/timer-0", { body: SLOT_BODY }, { waitUntil: "commit" });
    await o.context.clock.install();
    // Paused: only runFor moves time, so a slow machine cannot fire the timer early.
    await o.context.clock.pauseAt(Date.now() + 1000);
    h.fake.page("/timer", { body: SLOT_BODY });
    await o.page.goto(h.fake.shopUrl("/timer"));
    await extReadyPaused(o);
    await o.context.clock.runFor(2000);
    expect(await offerShown(o.page)).toBe(0);
    expect(await slotText(o.page)).toBe("Free returns");
    await o.context.clock.runFor(1100);
    await o.page.locator(".offer").waitFor();
  });

  for (const where of ["innerHTML", "edit_elem_action"] as const)
    it(`once closed, the markup is undone and stays closed for the session (next_session): ${where}`, { timeout: 120_000 }, async () => {
      h.fake.configs({ configs: { offer: markupConfig({ close_settings: { close_config_selected: "next_session" } }, where) }, user_id: "u" });
      const o = await h.open(`/close-${where}`, { body: SLOT_BODY });
      await o.page.locator(".offer").waitFor();
      await o.page.click("#offer-cta");
      await o.page.click("#offer-close");
      await o.page.waitForFunction(() => !document.querySelector(".offer"));
      expect(await slotText(o.page), where).toBe("Free returns");
      await o.page.reload();
      await settled(o.page);
      expect(await offerShown(o.page), where).toBe(0);
      expect(await slotText(o.page), where).toBe("Free returns");
      await o.page.goto("about:blank");
      const evs = await eventually(() => (tplEventsOn(`/close-${where}`).length >= 2 ? tplEventsOn(`/close-${where}`) : false), 5000, "template events");
      expect(evs.map((e: { event_type: string; properties: { button_text?: string } }) => [e.event_type, e.properties.button_text]), where).toEqual([["TEMPLATE_VIEW", undefined], ["TEMPLATE_BUTTON_CLICK", "Shop now"]]);
    });
});
