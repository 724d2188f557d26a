// The audience builder's attribute list and the "would this visitor match" tester, against the
// service's own attribute derivation (conditions.ts attributesOf) and evaluator: every visitor
// attribute of spec §3 can be chosen in the builder, and every value the tester's form takes
// reaches the attribute a condition reads.
import { describe, expect, it } from "vitest";
import { attributesOf, evalCondition } from "../../server/src/decide/conditions.js";
import { ATTRIBUTES, kindOf } from "../src/pages/audiences/conditionModel.js";
import { JSON_FIELDS, TESTER_DEFAULTS, type TesterValues, parseObject, visitorOf } from "../src/pages/audiences/testerVisitor.js";

/** spec §3 "User", its derived properties and the page context attributesOf adds, by wire name. */
const SPEC_ATTRIBUTES = [
  // User fields.
  "user_customer_id", "user_id", "device_id", "anonymous", "tags", "sdk_generated_user_customer_id", "latest_session_id",
  "form_update_detected", "hubspotutk", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "utm_adgroup",
  "fbclid", "gclid",
  // Derived properties.
  "cf_timezone", "cf_browser_name", "cf_browser_version", "cf_browser_preferred_languages", "cf_browser_primary_language",
  "cf_os_name", "cf_os_version", "cf_device_model", "cf_device_type", "cf_device_vendor", "cf_cpu_architecture", "cf_ua",
  "cf_screen_height", "cf_screen_width", "referrer", "referrer_url", "cf_current_page_url", "cf_last_page_url",
  "is_first_time_visitor", "ga_device_id",
  "session_utm_source", "session_utm_medium", "session_utm_campaign", "session_utm_term", "session_utm_content",
  "session_utm_adgroup", "session_fbclid", "session_gclid",
  // The decision's context.
  "url", "path", "domain", "now",
];

const form = (values: Partial<TesterValues>): TesterValues => ({ ...TESTER_DEFAULTS, ...values });

/** The attributes the service derives from the tester's visitor (as POST /api/audiences/evaluate does). */
function attributesOfForm(values: TesterValues): Record<string, unknown> {
  const json = Object.fromEntries(
    JSON_FIELDS.map(([name, label, example]) => {
      const parsed = parseObject(values[name], label, example);
      if (typeof parsed === "string") throw new Error(parsed);
      return [name, parsed];
    }),
  ) as Parameters<typeof visitorOf>[1];
  const { user, url } = visitorOf(values, json);
  return attributesOf(user, url === undefined ? {} : { url });
}

describe("audience builder attributes", () => {
  it("offers every visitor attribute of spec §3 that the service evaluates, each once", () => {
    const keys = ATTRIBUTES.map((a) => a.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual([...SPEC_ATTRIBUTES].sort());
  });

  it("gives numbers, lists, booleans and versions their kind, so the comparisons fit", () => {
    expect(kindOf("cf_timezone")).toBe("number");
    expect(kindOf("cf_screen_height")).toBe("number");
    expect(kindOf("now")).toBe("number");
    expect(kindOf("cf_browser_preferred_languages")).toBe("list");
    expect(kindOf("cf_os_version")).toBe("version");
    expect(kindOf("form_update_detected")).toBe("boolean");
    expect(kindOf("utm_adgroup")).toBe("text");
  });
});

describe("audience tester visitor", () => {
  it("sends every campaign parameter as the User field a condition reads", () => {
    const attributes = attributesOfForm(
      form({ utmSource: "google", utmMedium: "cpc", utmCampaign: "spring", utmTerm: " oat cream ", utmContent: "banner-a", utmAdgroup: "eczema", gclid: "g-1", fbclid: "f-1" }),
    );
    expect(attributes).toMatchObject({
      utm_source: "google",
      utm_medium: "cpc",
      utm_campaign: "spring",
      utm_term: "oat cream",
      utm_content: "banner-a",
      utm_adgroup: "eczema",
      gclid: "g-1",
      fbclid: "f-1",
    });
    expect(evalCondition(attributes, { utm_adgroup: "eczema", gclid: { $exists: true }, fbclid: "f-1", utm_term: "oat cream" })).toBe(true);
    const none = attributesOfForm(form({}));
    for (const key of ["utm_term", "utm_content", "utm_adgroup", "gclid", "fbclid"]) expect(none, key).not.toHaveProperty(key);
    expect(evalCondition(none, { gclid: { $exists: true } })).toBe(false);
  });

  it("sends private and session fields, with their tags, where private.* and session.* read them", () => {
    const attributes = attributesOfForm(
      form({ privateFields: '{ "tier": "gold", "tags": ["vip"] }', sessionFields: '{ "cart_value": 40, "tags": ["promo", "sale"] }' }),
    );
    expect(attributes.private).toEqual({ tier: "gold", tags: ["vip"] });
    expect(attributes.session).toEqual({ cart_value: 40, tags: ["promo", "sale"] });
    expect(evalCondition(attributes, { "private.tier": "gold", "private.tags": "vip", "session.cart_value": { $gte: 30 }, "session.tags": { $all: ["sale"] } })).toBe(true);
    // A private field is not a public property, nor the other way round.
    expect(evalCondition(attributes, { tier: "gold" })).toBe(false);
    expect(evalCondition(attributesOfForm(form({ properties: '{ "tier": "gold" }' })), { "private.tier": "gold" })).toBe(false);
    expect(evalCondition(attributesOfForm(form({})), { "private.tier": { $exists: true } })).toBe(false);
  });

  it("keeps what it sent before: device, browser, first visit, page, tags and other properties", () => {
    const attributes = attributesOfForm(
      form({ device: "mobile", os: "iOS", url: "https://shop.example/products/oat?x=1", tags: "new, vip", properties: '{ "session_utm_campaign": "autumn" }' }),
    );
    expect(attributes).toMatchObject({
      cf_device_type: "mobile",
      cf_browser_name: "Chrome",
      cf_browser_version: "131",
      cf_os_name: "iOS",
      is_first_time_visitor: true,
      tags: ["new", "vip"],
      session_utm_campaign: "autumn",
      path: "/products/oat",
      domain: "shop.example",
    });
  });

  it("names the field whose JSON is not an object", () => {
    expect(parseObject("[1]", "Private fields", "{}")).toBe("Private fields must be a JSON object, such as {}.");
    expect(parseObject("{ tier: gold }", "Session fields", "{}")).toContain("Session fields must be a JSON object");
    expect(parseObject(" ", "Private fields", "{}")).toEqual({});
  });
});
