// Analytics forwarding (spec §1, §5 "Analytics forwarding", §8) in Chromium for the tools without
// an npm client: Hotjar, Microsoft Clarity, Heap, Klaviyo, MoEngage, CleverTap and Google
// Analytics 4 (GTM's data layer or gtag). Each stand-in is the vendor's documented install
// snippet minus the network: the queue the snippet creates and the real library later drains,
// called exactly as the vendor documents. The tests read those queues.

import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Config, IntegrationName } from "@storefit/contract";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";

const h = useSdkHarness();

const SHOWN: Config = {
  config_customer_id: "ship",
  config_id: "cfg_ship",
  variation_id: "var_banner",
  variation: { innerHTML: "Free shipping today" },
  variation_data_type: "HTML_ELEMENT",
  properties: { element_path: "#t" },
  experience_behaviour_response: {
    experience_id: "exp_ship",
    experience_name: "Free shipping test",
    behaviour_id: "beh_banner",
    behaviour_name: "Banner (UK)",
    rule_id: "rule_uk",
    audience_name: "UK visitors",
    ga_measurement_id: "G-SHIP",
  },
};
const SEEN_PROPS = {
  experiment_id: "exp_ship",
  experiment_name: "Free_shipping_test",
  variation_id: "var_banner",
  behaviour_id: "beh_banner",
  behaviour_name: "Banner_UK",
  audience_name: "UK visitors",
};

// The vendors' install snippets, reduced to the part that runs before their library arrives.
const HOTJAR = `window.hj=window.hj||function(){(hj.q=hj.q||[]).push(arguments)};`;
const CLARITY = `window.clarity=window.clarity||function(){(clarity.q=clarity.q||[]).push(arguments)};`;
const HEAP = `window.heap=window.heap||[];(function(){var n=function(e){return function(){heap.push([e].concat(Array.prototype.slice.call(arguments,0)))}};for(var p=["addEventProperties","addUserProperties","clearEventProperties","identify","resetIdentity","removeEventProperty","setEventProperties","track","unsetEventProperty"],o=0;o<p.length;o++)heap[p[o]]=n(p[o])})();`;
const KLAVIYO = `window._klOnsite=window._klOnsite||[];window.klaviyo=new Proxy({},{get:function(t,k){return k==="push"?function(){var q=window._klOnsite;q.push.apply(q,arguments)}:function(){var a=[k].concat(Array.prototype.slice.call(arguments));window._klOnsite.push(a)}}});`;
const LEARNQ = `var _learnq=_learnq||[];`;
const MOENGAGE = `window.moengage_q=window.moengage_q||[];window.Moengage={};["track_event","add_user_attribute","add_unique_user_id"].forEach(function(f){Moengage[f]=function(){moengage_q.push({f:f,a:Array.prototype.slice.call(arguments)})}});`;
const CLEVERTAP = `var clevertap={event:[],profile:[],account:[],onUserLogin:[],notifications:[],privacy:[]};`;
const GTM = `window.dataLayer=window.dataLayer||[];`;
const GTAG = `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}`;
const ALL_TOOLS = [HOTJAR, CLARITY, HEAP, KLAVIYO, MOENGAGE, CLEVERTAP, GTM].join("");

const ALL_ON: Partial<Record<IntegrationName, boolean>> = {
  google_analytics: true, hotjar: true, clarity: true, heap: true, klaviyo: true, moengage: true, clevertap: true,
};

const extLoaded = (page: Page) => page.waitForFunction(() => typeof window.storefitExt === "function");

/** Every stand-in queue, as plain JSON (Arguments objects become arrays). */
const queues = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as Record<string, unknown> & { hj?: { q?: unknown[] }; clarity?: { q?: unknown[] }; clevertap?: { event: unknown[] } };
    const plain = (list: unknown) => (Array.isArray(list) ? list.map((x) => (typeof x === "object" && x && "length" in x && !Array.isArray(x) ? Array.from(x as ArrayLike<unknown>) : x)) : list ?? null);
    return JSON.parse(
      JSON.stringify({
        hj: plain(w.hj?.q),
        clarity: plain(w.clarity?.q),
        heap: plain(Array.isArray(w.heap) ? w.heap : null),
        klaviyo: plain(w._klOnsite),
        learnq: plain(w._learnq),
        moengage: plain(w.moengage_q),
        clevertap: plain(w.clevertap?.event),
        dataLayer: plain(w.dataLayer),
      }),
    ) as Record<string, unknown[] | null>;
  });

async function open(path: string, opts: { integrations?: Partial<Record<IntegrationName, boolean>>; head?: string; body?: string; settings?: Record<string, unknown>; after?: string; query?: string; waitUntil?: "load" | "commit"; configs?: Config[] } = {}) {
  h.fake.configs({ configs: Object.fromEntries([SHOWN, ...(opts.configs ?? [])].map((c) => [c.config_customer_id, c])), user_id: "u_fwd" });
  const o = await h.open(path + (opts.query ?? ""), {
    body: opts.body ?? `<p id="t">t</p>`,
    head: `<script>${opts.head ?? ALL_TOOLS}</script>`,
    settings: { integrations: opts.integrations ?? ALL_ON, ...opts.settings },
    ...(opts.after ? { after: opts.after } : {}),
  }, { waitUntil: opts.waitUntil ?? "load" });
  await extLoaded(o.page);
  return o;
}

describe("what the visitor saw, forwarded by kind (spec §1, §5)", () => {
  it("reaches every enabled tool once, with cleaned experience and behaviour names", async () => {
    const o = await open("/seen");
    const q = await eventually(async () => {
      const got = await queues(o.page);
      return got.clevertap?.length ? got : false;
    }, 5000, "the forwarded experience");
    expect(q.hj).toEqual([["event", "storefit_Free_shipping_test_Banner_UK"]]);
    expect(q.clarity).toEqual([["set", "storefit_Free_shipping_test", "Banner_UK"]]);
    expect(q.heap).toEqual([["track", "Experiment Viewed", SEEN_PROPS]]);
    expect(q.klaviyo).toEqual([["track", "Experiment Viewed", SEEN_PROPS]]);
    expect(q.moengage).toEqual([{ f: "track_event", a: ["Experiment Viewed", SEEN_PROPS] }]);
    expect(q.clevertap).toEqual(["Experiment Viewed", SEEN_PROPS]);
    // GA4: the documented event for third-party experiment tools (GTM mode, default variable).
    expect(q.dataLayer).toEqual([
      { event: "experience_impression", exp_variant_string: "SF-exp_ship-var_banner", experience_name: "Free_shipping_test", behaviour_name: "Banner_UK" },
    ]);
    expect(o.errors).toEqual([]);
  });

  it("Klaviyo's legacy _learnq queue is used on installs without the klaviyo object", async () => {
    const o = await open("/learnq", { head: LEARNQ, integrations: { klaviyo: true } });
    const q = await eventually(async () => (await queues(o.page)).learnq?.length ? (await queues(o.page)).learnq : false, 5000, "_learnq");
    expect(q).toEqual([["track", "Experiment Viewed", SEEN_PROPS]]);
  });

  it("GA4 through gtag goes to the experience's measurement id; through GTM to the configured data variable", async () => {
    const o = await open("/gtag", { head: GTAG, integrations: { google_analytics: true }, settings: { ga_setup: { mode: "gtag", data_variable: "dataLayer" } } });
    const layer = await eventually(async () => ((await queues(o.page)).dataLayer?.length ? (await queues(o.page)).dataLayer : false), 5000, "gtag");
    expect(layer).toEqual([["event", "experience_impression", { exp_variant_string: "SF-exp_ship-var_banner", experience_name: "Free_shipping_test", behaviour_name: "Banner_UK", send_to: "G-SHIP" }]]);

    const p = await open("/gtm-custom", { head: `window.shopLayer=[];`, integrations: { google_analytics: true }, settings: { ga_setup: { mode: "gtm", data_variable: "shopLayer" } } });
    expect(await eventually(() => p.page.evaluate(() => (window as unknown as { shopLayer: { event: string }[] }).shopLayer[0]?.event), 5000, "shopLayer")).toBe("experience_impression");
  });

  it("sends no web-analytics event for an experience without an audience name; the other tools still get it", async () => {
    h.fake.configs({ configs: { ship: { ...SHOWN, experience_behaviour_response: { ...SHOWN.experience_behaviour_response!, audience_name: "" } } }, user_id: "u" });
    const o = await h.open("/no-audience", { body: `<p id="t">t</p>`, head: `<script>${GTM + HOTJAR}</script>`, settings: { integrations: { google_analytics: true, hotjar: true } } });
    await extLoaded(o.page);
    await eventually(async () => (await queues(o.page)).hj?.length || false, 5000, "hotjar");
    expect((await queues(o.page)).dataLayer).toEqual([]);
  });

  it("a tool that arrives before the page has loaded still gets it (tried again at load)", async () => {
    // A slow image holds the load event until after storefit-ext.js has run; the page's own load
    // handler (like a tag manager's) defines Hotjar then.
    h.fake.answer("/v1/slow-image/", () => ({ delayMs: 1500, status: 404 }));
    const o = await open("/late-tool", {
      head: `addEventListener("load", function () { ${HOTJAR} });`,
      integrations: { hotjar: true },
      body: `<p id="t">t</p><img src="${h.fake.apiUrl}/v1/slow-image/">`,
      waitUntil: "commit",
    });
    expect(await o.page.evaluate(() => document.readyState)).not.toBe("complete");
    expect(await o.page.evaluate(() => typeof (window as unknown as { hj?: unknown }).hj)).toBe("undefined");
    const hj = await eventually(async () => (await queues(o.page)).hj ?? false, 5000, "hotjar at load");
    expect(hj).toEqual([["event", "storefit_Free_shipping_test_Banner_UK"]]);
  });
});

describe("tracked behaviour, forwarded as it happens (spec §1)", () => {
  it("TRACK, CLICK, FORM (type and action only) and REVENUE reach the tools; page views do not", async () => {
    const buy: Config = {
      config_customer_id: "buy",
      config_id: "cfg_buy",
      variation_id: "var_buy",
      variation: { customfit_meta: { onclick_action: { action_type: "track_click", action_txt: { goal_name: "buy_button" } } } },
      variation_data_type: "HTML_ELEMENT",
      properties: { element_path: "#buy" },
    };
    const o = await open("/behaviour", {
      integrations: { heap: true, hotjar: true, clevertap: true },
      configs: [buy],
      body: `<p id="t">t</p><button id="buy">Buy</button><form name="newsletter" action="/thanks" onsubmit="event.preventDefault()"><input name="email" value="ada@example.com"><input name="first name" value="Ada"><button>go</button></form>`,
    });
    await o.page.evaluate(() => {
      window.storefit!.track("Add to cart", { sku: "A1" });
      window.storefit!.trackRevenue(36.5, { name: "order", currency: "USD" });
    });
    await o.page.click("#buy");
    await o.page.click("form button");
    const q = await eventually(async () => {
      const got = await queues(o.page);
      return (got.heap?.length ?? 0) >= 5 ? got : false;
    }, 5000, "forwarded behaviour");
    expect(q.heap!.slice(1)).toEqual([
      ["track", "Add to cart", { storefit_event_type: "TRACK", page_path: "/behaviour", sku: "A1" }],
      ["track", "order", { storefit_event_type: "REVENUE", page_path: "/behaviour", name: "order", currency: "USD", revenue_amount: 36.5 }],
      ["track", "buy_button", expect.objectContaining({ storefit_event_type: "CLICK", page_path: "/behaviour", click_count: 1, config_id: "cfg_buy" })],
      ["track", "newsletter", { storefit_event_type: "FORM", page_path: "/behaviour", form_type: "newsletter", form_action: "/thanks" }],
    ]);
    expect(q.hj!.slice(1)).toEqual([["event", "Add_to_cart"], ["event", "order"], ["event", "buy_button"], ["event", "newsletter"]]);
    expect(q.clevertap!.slice(2)).toEqual([
      "Add to cart", expect.objectContaining({ sku: "A1" }),
      "order", expect.objectContaining({ revenue_amount: 36.5 }),
      "buy_button", expect.objectContaining({ click_count: 1 }),
      "newsletter", expect.objectContaining({ form_type: "newsletter" }),
    ]);
    // What the visitor typed went to Storefit only.
    expect(JSON.stringify(q)).not.toContain("ada@example.com");
  });

  it("an event tracked before storefit-ext.js arrived (a thank-you page's inline trackRevenue) is forwarded too", async () => {
    const o = await open("/early", {
      integrations: { heap: true },
      after: `<script>window.storefit.trackRevenue(12, { name: "early_order" });</script>`,
    });
    const heap = await eventually(async () => {
      const got = (await queues(o.page)).heap ?? [];
      return got.length >= 2 ? got : false;
    }, 5000, "heap");
    expect(heap).toContainEqual(["track", "early_order", expect.objectContaining({ revenue_amount: 12, storefit_event_type: "REVENUE" })]);
  });
});

describe("disabled or absent tools do nothing (spec §8)", () => {
  it("a disabled integration leaves its tool alone, even when the tool is on the page", async () => {
    const o = await open("/disabled", { integrations: { hotjar: true } });
    await eventually(async () => (await queues(o.page)).hj?.length || false, 5000, "hotjar");
    await o.page.evaluate(() => window.storefit!.track("Add to cart"));
    await o.page.waitForTimeout(200);
    const q = await queues(o.page);
    for (const k of ["clarity", "heap", "klaviyo", "moengage", "clevertap", "dataLayer"]) expect(q[k]?.length ?? 0, k).toBe(0);
  });

  it("absent tools and a tool that throws break neither the page, the other tools, nor Storefit's own events", async () => {
    const o = await open("/absent", {
      integrations: { ...ALL_ON, segment: true, mixpanel: true, amplitude: true },
      head: `window.hj=function(){throw new Error("hotjar broke")};${HEAP}`,
    });
    await o.page.evaluate(() => window.storefit!.track("Add to cart"));
    const heap = await eventually(async () => {
      const got = (await queues(o.page)).heap ?? [];
      return got.length >= 2 ? got : false;
    }, 5000, "heap");
    expect(heap.map((c) => (c as unknown[])[1])).toEqual(["Experiment Viewed", "Add to cart"]);
    expect(o.errors).toEqual([]);
    await o.page.goto("about:blank");
    const sent = await eventually(() => h.fake.to("/v1/cfe/").flatMap((r) => r.body.events).find((e: { name: string }) => e.name === "Add to cart"), 5000, "Storefit's TRACK event");
    expect(sent).toBeTruthy();
  });

  it("preview mode forwards nothing (spec §4: no tracking)", async () => {
    const o = await open("/preview", { query: "?customfit_preview=1" });
    await o.page.evaluate(() => window.storefit!.track("Add to cart"));
    await o.page.waitForTimeout(300);
    const q = await queues(o.page);
    for (const [k, v] of Object.entries(q)) expect(v?.length ?? 0, k).toBe(0);
  });
});
