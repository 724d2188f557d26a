// Analytics forwarding without a browser (spec §1, §5 "Analytics forwarding", §8): name
// cleaning, what counts as seen and as forwardable behaviour, and the exact call each destination
// makes on a recording stand-in of the vendor's global. The browser tests (e2e/sdk/forward-*)
// run the same destinations against the real client libraries and documented stand-ins.
import { describe, expect, it } from "vitest";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { Config, IntegrationName, StorefitSettings, TrackedEvent } from "@storefit/contract";
import { behaviourOf, cleanName, invoke, seenOf, seenProperties } from "../src/forward/destination.js";
import type { Globals, Seen } from "../src/forward/destination.js";
import { DESTINATIONS } from "../src/forward/destinations.js";

const settings = (over: Partial<StorefitSettings> = {}): StorefitSettings =>
  ({ ...SETTINGS_DEFAULTS, client_key: "ck", api_host: "http://api", domain: "shop.example", ...over }) as StorefitSettings;

const config = (id: string, r: Partial<NonNullable<Config["experience_behaviour_response"]>> | null, variation = "var_1"): Config => ({
  config_customer_id: id,
  config_id: `cfg_${id}`,
  variation_id: variation,
  variation: { innerHTML: "x" },
  variation_data_type: "HTML_ELEMENT",
  ...(r ? { experience_behaviour_response: { experience_id: "exp_1", behaviour_id: "beh_1", ...r } } : {}),
});

const SEEN: Seen = {
  experience_id: "exp_1",
  experience_name: "Free_shipping_test",
  behaviour_id: "beh_1",
  behaviour_name: "Banner_UK",
  variation_id: "var_1",
  audience_name: "UK visitors",
};

/** A window with every vendor's documented global, each recording its calls as [path, ...args]. */
function vendors(): { w: Globals; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const fn = (path: string) => (...args: unknown[]) => void calls.push([path, ...args]);
  const w: Globals = {
    hj: fn("hj"),
    clarity: fn("clarity"),
    analytics: { track: fn("analytics.track") },
    mixpanel: { track: fn("mixpanel.track") },
    amplitude: { track: fn("amplitude.track") },
    heap: { track: fn("heap.track") },
    klaviyo: { push: fn("klaviyo.push") },
    Moengage: { track_event: fn("Moengage.track_event") },
    clevertap: { event: { push: fn("clevertap.event.push") } },
    dataLayer: { push: fn("dataLayer.push") },
    gtag: fn("gtag"),
  };
  return { w, calls };
}

const byName = (name: string) => DESTINATIONS.find(([n]) => n === name)![1];

describe("cleanName (spec §5: spaces to underscores, non-word characters removed)", () => {
  it.each([
    ["Free shipping test", "Free_shipping_test"],
    ["Price message: free shipping!", "Price_message_free_shipping"],
    ["UK  tax-line (VAT)", "UK__taxline_VAT"],
    ["Été promo 2024", "Été_promo_2024"],
    ["", ""],
  ])("%j → %j", (name, clean) => expect(cleanName(name)).toBe(clean));
});

describe("seenOf: the experiences a visitor saw on the page", () => {
  it("takes each experience, behaviour and variation once, with cleaned names, and skips configs without one", () => {
    const seen = seenOf([
      config("a", { experience_name: "Free shipping test", behaviour_name: "Banner UK", audience_name: "UK visitors", ga_measurement_id: "G-1" }),
      config("b", { experience_name: "Free shipping test", behaviour_name: "Banner UK", audience_name: "UK visitors" }),
      config("c", { experience_name: "Free shipping test", behaviour_name: "Banner UK" }, "var_2"),
      config("d", null),
    ]);
    expect(seen).toEqual([
      { ...SEEN, ga_measurement_id: "G-1" },
      { ...SEEN, variation_id: "var_2", audience_name: "" },
    ]);
  });

  it("falls back to the ids when the service sent no names", () => {
    expect(seenOf([config("a", {})])[0]).toMatchObject({ experience_name: "exp_1", behaviour_name: "beh_1" });
  });
});

describe("behaviourOf: tracked behaviour worth forwarding", () => {
  const ev = (event_type: string, name: string, properties: Record<string, string | number> = {}): TrackedEvent => ({
    event_type,
    name,
    event_customer_id: `shop.example|${name}`,
    insert_id: "i",
    event_timestamp: 1,
    properties: { page_path: "/p", cf_merged_page_path: "/m", ...properties },
  });

  it("forwards TRACK, CLICK and REVENUE with their properties, minus the script's cf_* ones", () => {
    expect(behaviourOf(ev("REVENUE", "order", { revenue_amount: 12.5 }))).toEqual({
      type: "REVENUE",
      name: "order",
      properties: { storefit_event_type: "REVENUE", page_path: "/p", revenue_amount: 12.5 },
    });
    expect(behaviourOf(ev("CLICK", "cta", { click_count: 2 }))?.properties).toEqual({ storefit_event_type: "CLICK", page_path: "/p", click_count: 2 });
    expect(behaviourOf(ev("TRACK", "add_to_cart"))?.name).toBe("add_to_cart");
  });

  it("forwards a FORM's type and action, never what the visitor typed", () => {
    const form = behaviourOf(ev("FORM", "newsletter", { form_type: "newsletter", form_action: "/thanks", email: "ada@example.com", phone: "+44", first_name: "Ada", hubspotutk: "abc" }));
    expect(form?.properties).toEqual({ storefit_event_type: "FORM", form_type: "newsletter", form_action: "/thanks", page_path: "/p" });
  });

  it("leaves out page views, scrolls, updates, template events and the script's own diagnostics", () => {
    for (const type of ["PAGE", "SCROLL", "PAGE_UPDATE", "TEMPLATE_VIEW", "TEMPLATE_BUTTON_CLICK", "SCREEN"]) expect(behaviourOf(ev(type, "x"))).toBeNull();
    expect(behaviourOf(ev("TRACK", "cf_error_report"))).toBeNull();
    expect(behaviourOf(ev("TRACK", ""))).toBeNull();
  });
});

describe("invoke: the guarded call into a vendor's object (spec §8)", () => {
  it("calls with the vendor's object as `this` and reports an absent or non-function path as false", () => {
    const obj = { n: 0, track(this: { n: number }) { this.n++; } };
    expect(invoke({ mixpanel: obj }, "mixpanel.track", "x")).toBe(true);
    expect(obj.n).toBe(1);
    expect(invoke({}, "mixpanel.track")).toBe(false);
    expect(invoke({ mixpanel: null }, "mixpanel.track")).toBe(false);
    expect(invoke({ mixpanel: { track: "no" } }, "mixpanel.track")).toBe(false);
    expect(invoke({ hj: 1 }, "hj")).toBe(false);
  });
});

describe("destinations: one per integration but HubSpot", () => {
  it("covers every integration name of the settings except the contact-form one", () => {
    const names: IntegrationName[] = ["google_analytics", "hotjar", "clarity", "segment", "mixpanel", "amplitude", "heap", "klaviyo", "moengage", "clevertap"];
    expect(DESTINATIONS.map(([n]) => n).sort()).toEqual([...names].sort());
  });

  it("does nothing and reports false when the vendor's object is absent (spec §8)", () => {
    for (const [name, d] of DESTINATIONS) {
      const s = settings({ ga_setup: { mode: name === "google_analytics" ? "gtm" : "gtag", data_variable: "dataLayer" } });
      expect(d.seen(SEEN, {}, s), name).toBe(false);
      expect(() => d.event({ type: "TRACK", name: "x", properties: {} }, {}, s)).not.toThrow();
    }
  });
});

describe("what each destination sends for an experience seen and a tracked event", () => {
  const b = { type: "TRACK", name: "Add to cart!", properties: { storefit_event_type: "TRACK", sku: "A1" } };
  const props = seenProperties(SEEN);
  const cases: [string, unknown[][], unknown[][]][] = [
    ["hotjar", [["hj", "event", "storefit_Free_shipping_test_Banner_UK"]], [["hj", "event", "Add_to_cart"]]],
    ["clarity", [["clarity", "set", "storefit_Free_shipping_test", "Banner_UK"]], [["clarity", "event", "Add_to_cart"]]],
    ["segment", [["analytics.track", "Experiment Viewed", props]], [["analytics.track", "Add to cart!", b.properties]]],
    [
      "mixpanel",
      [["mixpanel.track", "$experiment_started", { "Experiment name": "Free_shipping_test", "Variant name": "var_1", ...props }]],
      [["mixpanel.track", "Add to cart!", b.properties]],
    ],
    ["amplitude", [["amplitude.track", "Experiment Viewed", props]], [["amplitude.track", "Add to cart!", b.properties]]],
    ["heap", [["heap.track", "Experiment Viewed", props]], [["heap.track", "Add to cart!", b.properties]]],
    ["klaviyo", [["klaviyo.push", ["track", "Experiment Viewed", props]]], [["klaviyo.push", ["track", "Add to cart!", b.properties]]]],
    ["moengage", [["Moengage.track_event", "Experiment Viewed", props]], [["Moengage.track_event", "Add to cart!", b.properties]]],
    ["clevertap", [["clevertap.event.push", "Experiment Viewed", props]], [["clevertap.event.push", "Add to cart!", b.properties]]],
  ];
  it.each(cases)("%s", (name, seenCalls, eventCalls) => {
    const { w, calls } = vendors();
    expect(byName(name).seen(SEEN, w, settings())).toBe(true);
    expect(calls).toEqual(seenCalls);
    calls.length = 0;
    byName(name).event(b, w, settings());
    expect(calls).toEqual(eventCalls);
  });

  it("klaviyo falls back to the legacy _learnq queue", () => {
    const _learnq: unknown[] = [];
    expect(byName("klaviyo").seen(SEEN, { _learnq }, settings())).toBe(true);
    expect(_learnq).toEqual([["track", "Experiment Viewed", props]]);
  });

  it("props carry the ids, cleaned names and audience", () => {
    expect(props).toEqual({
      experiment_id: "exp_1",
      experiment_name: "Free_shipping_test",
      variation_id: "var_1",
      behaviour_id: "beh_1",
      behaviour_name: "Banner_UK",
      audience_name: "UK visitors",
    });
  });
});

describe("Google Analytics 4 (spec §5: only when the audience name is non-empty)", () => {
  const ga = byName("google_analytics");
  const impression = { exp_variant_string: "SF-exp_1-var_1", experience_name: "Free_shipping_test", behaviour_name: "Banner_UK" };

  it("pushes experience_impression to the data layer in GTM mode, under the configured variable", () => {
    const { w, calls } = vendors();
    const shopLayer: unknown[] = [];
    w.shopLayer = shopLayer;
    expect(ga.seen(SEEN, w, settings())).toBe(true);
    expect(calls).toEqual([["dataLayer.push", { event: "experience_impression", ...impression }]]);
    expect(ga.seen(SEEN, w, settings({ ga_setup: { mode: "gtm", data_variable: "shopLayer" } }))).toBe(true);
    expect(shopLayer).toEqual([{ event: "experience_impression", ...impression }]);
  });

  it("calls gtag in gtag mode, sent to the experience's measurement id when it has one", () => {
    const { w, calls } = vendors();
    const s = settings({ ga_setup: { mode: "gtag", data_variable: "dataLayer" } });
    ga.seen({ ...SEEN, ga_measurement_id: "G-ABC" }, w, s);
    ga.seen(SEEN, w, s);
    expect(calls).toEqual([
      ["gtag", "event", "experience_impression", { ...impression, send_to: "G-ABC" }],
      ["gtag", "event", "experience_impression", impression],
    ]);
  });

  it("sends nothing for an experience without an audience name (and does not ask to retry)", () => {
    const { w, calls } = vendors();
    expect(ga.seen({ ...SEEN, audience_name: "" }, w, settings())).toBe(true);
    expect(calls).toEqual([]);
  });

  it("forwards tracked behaviour with a cleaned event name", () => {
    const { w, calls } = vendors();
    ga.event({ type: "REVENUE", name: "order placed", properties: { storefit_event_type: "REVENUE", revenue_amount: 9 } }, w, settings());
    ga.event({ type: "CLICK", name: "cta", properties: { storefit_event_type: "CLICK" } }, w, settings({ ga_setup: { mode: "gtag", data_variable: "dataLayer" } }));
    expect(calls).toEqual([
      ["dataLayer.push", { event: "order_placed", storefit_event_type: "REVENUE", revenue_amount: 9 }],
      ["gtag", "event", "cta", { storefit_event_type: "CLICK" }],
    ]);
  });
});
