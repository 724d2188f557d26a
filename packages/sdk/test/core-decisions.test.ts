// Pure decisions of the script's start (spec §2 URL parameters, §4 modes, §5 builders, §8
// initialization stops), tested as data without a DOM.
import { describe, expect, it } from "vitest";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { StorefitSettings } from "@storefit/contract";
import { gate } from "../src/core/gate.js";
import type { GateInput, GateResult } from "../src/core/gate.js";
import { parseUrlParams, withoutParams } from "../src/core/params.js";
import { propertyValue, tagList, trackQueueSize, validEventName, validName } from "../src/core/builders.js";
import { readSettings, storagePrefix } from "../src/core/settings.js";
import { gaDeviceId } from "../src/core/ua.js";

const DESKTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const NOW = 1_800_000_000_000;
const settings = (over: Partial<StorefitSettings> = {}): StorefitSettings => ({
  ...SETTINGS_DEFAULTS,
  client_key: "ck_x",
  api_host: "https://api.example",
  domain: "shop.example",
  subdomains: ["*.shop.example", "shop-uk.example"],
  ...over,
});
const input = (over: Partial<GateInput> = {}): GateInput => ({
  settings: settings(),
  hostname: "shop.example",
  userAgent: DESKTOP,
  hasInitElement: true,
  alreadyInitialized: false,
  editMode: false,
  previewMode: false,
  outboundParam: false,
  outboundMarkerAt: null,
  now: NOW,
  ...over,
});

describe("gate: initialization stops and modes (spec §4, §6, §8)", () => {
  const DAY = 86_400_000;
  const table: [string, Partial<GateInput>, GateResult][] = [
    ["runs normally on the main domain", {}, { mode: "normal", setOutboundMarker: false }],
    ["runs on a wildcard subdomain", { hostname: "eu.shop.example" }, { mode: "normal", setOutboundMarker: false }],
    ["runs on a listed other domain", { hostname: "shop-uk.example" }, { mode: "normal", setOutboundMarker: false }],
    ["no settings at all", { settings: null }, { stop: "CFINIT006" }],
    ["missing client key", { settings: settings({ client_key: "" }) }, { stop: "CFINIT006" }],
    ["disabled account", { settings: settings({ account_enabled: false }) }, { stop: "CFINIT010" }],
    ["skip flag", { settings: settings({ skip: true }) }, { stop: "CFINIT011" }],
    ["subscription expired", { settings: settings({ subscription_expired: true }) }, { stop: "CFINIT001" }],
    ["SDK powered off", { settings: settings({ sdk_powered_off: true }) }, { stop: "CFINIT002" }],
    ["a bot stops silently", { userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1)" }, { stop: "CFINIT003", silent: true }],
    ["headless Chrome is a bot", { userAgent: DESKTOP.replace("Chrome/", "HeadlessChrome/") }, { stop: "CFINIT003", silent: true }],
    ["missing init element", { hasInitElement: false }, { stop: "CFINIT004" }],
    ["a domain that is not configured", { hostname: "evil.example" }, { stop: "CFINIT005" }],
    ["the bare parent of a wildcard only is not configured", { settings: settings({ domain: "other.example" }), hostname: "shop.example" }, { stop: "CFINIT005" }],
    ["multiple initialization", { alreadyInitialized: true }, { stop: "CFINIT007" }],
    ["edit mode", { editMode: true }, { stop: "CFINIT008" }],
    ["preview mode", { previewMode: true }, { mode: "preview", setOutboundMarker: false }],
    ["outbound-only without a marker", { settings: settings({ outbound_only: true }) }, { stop: "CFINIT009" }],
    ["outbound-only with the long-URL parameter sets the marker", { settings: settings({ outbound_only: true }), outboundParam: true }, { mode: "normal", setOutboundMarker: true }],
    ["outbound-only with a 6-day-old marker", { settings: settings({ outbound_only: true }), outboundMarkerAt: NOW - 6 * DAY }, { mode: "normal", setOutboundMarker: false }],
    ["outbound-only with a marker past 604800 s", { settings: settings({ outbound_only: true }), outboundMarkerAt: NOW - 7 * DAY - 1 }, { stop: "CFINIT009" }],
    ["outbound-only with a marker from the future", { settings: settings({ outbound_only: true }), outboundMarkerAt: NOW + DAY }, { stop: "CFINIT009" }],
    ["the key is checked before the account switches", { settings: settings({ client_key: "", skip: true }) }, { stop: "CFINIT006" }],
    ["a disabled account stops even a bot's visit before bot detection", { settings: settings({ account_enabled: false }), userAgent: "Googlebot" }, { stop: "CFINIT010" }],
  ];
  for (const [name, over, expected] of table) it(name, () => expect(gate(input(over))).toEqual(expected));
});

describe("URL parameters (spec §2)", () => {
  it("reads campaign, identity, mode and experience selection", () => {
    const p = parseUrlParams(
      "?utm_source=news&utm_medium=email&utm_campaign=spring&utm_term=soap&utm_content=a&utm_adgroup=g1&fbclid=FB&gclid=GC&email=a%40b.co&cfid=c1&cfsid=s1&cf_redirected=1&customfit_preview=1&customfit_desired_experiences=e1,e2&customfit_preferred_experiences=e3",
    );
    expect(p.campaign).toEqual({ utm_source: "news", utm_medium: "email", utm_campaign: "spring", utm_term: "soap", utm_content: "a", utm_adgroup: "g1", fbclid: "FB", gclid: "GC" });
    expect(p).toMatchObject({ email: "a@b.co", cfid: "c1", cfsid: "s1", redirected: true, preview: true, edit: false, desired: ["e1", "e2"], preferred: ["e3"], strip: [] });
  });

  it("reads the prefixed parameters and lists them for removal", () => {
    const p = parseUrlParams("?cfup_plan=gold&cfupp_score=9&cfuhp_company=Acme&cfusp_cart=3&cfut=a,b&cfupt=vip&cfust=promo&keep=1");
    expect(p.userProps).toEqual({ plan: "gold" });
    expect(p.privateProps).toEqual({ score: "9" });
    expect(p.crmProps).toEqual({ company: "Acme" });
    expect(p.sessionProps).toEqual({ cart: "3" });
    expect(p.tags).toEqual({ public: ["a", "b"], private: ["vip"], session: ["promo"] });
    expect(p.strip.sort()).toEqual(["cfuhp_company", "cfup_plan", "cfupp_score", "cfusp_cart", "cfust", "cfupt", "cfut"].sort());
  });

  it("cfup_user_customer_id sets the customer id, not a property", () => {
    const p = parseUrlParams("?cfup_user_customer_id=cust-9");
    expect(p.customerId).toBe("cust-9");
    expect(p.userProps).toEqual({});
    expect(p.strip).toEqual(["cfup_user_customer_id"]);
  });

  it("does not mistake cfupp_ for cfup_ nor take a bare prefix", () => {
    const p = parseUrlParams("?cfupp_x=1&cfup_=2");
    expect(p.privateProps).toEqual({ x: "1" });
    expect(p.userProps).toEqual({});
    expect(p.strip).toEqual(["cfupp_x"]);
  });

  it("edit mode, preview on and off, outbound links", () => {
    expect(parseUrlParams("?utm_customfit_edit=1").edit).toBe(true);
    expect(parseUrlParams("?utm_customfit_edit").edit).toBe(true);
    expect(parseUrlParams("").preview).toBe(null);
    expect(parseUrlParams("?customfit_preview=0").preview).toBe(false);
    expect(parseUrlParams("?customfit_preview=false").preview).toBe(false);
    expect(parseUrlParams("?cf_long_url=abc").outbound).toBe(true);
    expect(parseUrlParams("?cf_tiny_id=t1").outbound).toBe(true);
    expect(parseUrlParams("?cf_tiny_id=").outbound).toBe(false);
  });

  it("removes only the named parameters from a query string", () => {
    expect(withoutParams("?a=1&cfup_x=2&b=3", ["cfup_x"])).toBe("?a=1&b=3");
    expect(withoutParams("?cfut=a", ["cfut"])).toBe("");
  });
});

describe("builders (spec §5)", () => {
  const accepted: [string, unknown, unknown][] = [
    ["a number", 3.5, 3.5],
    ["zero", 0, 0],
    ["a string", "gold", "gold"],
    ["an empty string", "", ""],
    ["a boolean", false, false],
    ["a date, as ISO text", new Date(Date.UTC(2026, 0, 2)), "2026-01-02T00:00:00.000Z"],
    ["a geo point", { lat: 52.5, lon: 13.4 }, { lat: 52.5, lon: 13.4 }],
    ["a list of numbers", [1, 2], [1, 2]],
    ["a list of strings", ["a"], ["a"]],
    ["a list of dates", [new Date(0)], ["1970-01-01T00:00:00.000Z"]],
    ["an empty list", [], []],
    ["a JSON object", { a: { b: [1] } }, { a: { b: [1] } }],
    ["a geo-like object with a string, as plain JSON", { lat: "1", lon: 2 }, { lat: "1", lon: 2 }],
  ];
  for (const [name, value, out] of accepted) it(`accepts ${name}`, () => expect(propertyValue(value)).toEqual(out));
  const refused: [string, unknown][] = [
    ["NaN", NaN],
    ["Infinity", Infinity],
    ["an invalid date", new Date("nope")],
    ["a mixed list", [1, "a"]],
    ["a list with an object", [{ a: 1 }]],
    ["null (a JSON property must be truthy)", null],
    ["undefined", undefined],
    ["a function", () => 1],
    ["a class instance", new Map()],
  ];
  for (const [name, value] of refused) it(`refuses ${name}`, () => expect(propertyValue(value)).toBeUndefined());

  it("names must be non-empty strings; event names non-empty", () => {
    expect(validName("plan")).toBe(true);
    expect(validName("")).toBe(false);
    expect(validName("  ")).toBe(false);
    expect(validName(5)).toBe(false);
    expect(validEventName("signup")).toBe(true);
    expect(validEventName("")).toBe(false);
  });

  it("forces the track queue size to at least 5", () => {
    expect(trackQueueSize(1)).toBe(5);
    expect(trackQueueSize(12)).toBe(12);
    expect(trackQueueSize("9")).toBe(5);
    expect(trackQueueSize(undefined)).toBe(5);
  });

  it("tags: arrays of strings or a comma-separated string", () => {
    expect(tagList(["a", " b ", ""])).toEqual(["a", "b"]);
    expect(tagList("x, y")).toEqual(["x", "y"]);
    expect(tagList([1])).toBeUndefined();
    expect(tagList({})).toBeUndefined();
  });
});

describe("settings and storage (spec §9)", () => {
  it("applies the defaults of spec §9 and keeps what the page set", () => {
    const s = readSettings({ client_key: "ck", api_host: "h", domain: "d", sdk_timeout_ms: 100 })!;
    expect(s).toMatchObject({ sdk_timeout_ms: 100, page_update: true, account_enabled: true, personalize_after_timeout: true, environment: "prod", event_merge: [], track_queue_size: 5, element_timeout_ms: 3000, reapply_timer_ms: 2000, initial_delay_ms: 0 });
    expect(s.integrations).toEqual({});
    expect(s.ga_setup).toEqual({ mode: "gtm", data_variable: "dataLayer" });
    expect(readSettings(undefined)).toBeNull();
    expect(readSettings("x")).toBeNull();
  });

  it("prefixes storage keys with cf_ and a hash of the client key", () => {
    expect(storagePrefix("ck_a")).toMatch(/^cf_[0-9a-z]+_$/);
    expect(storagePrefix("ck_a")).toBe(storagePrefix("ck_a"));
    expect(storagePrefix("ck_a")).not.toBe(storagePrefix("ck_b"));
  });

  it("reads the GA device id from the _ga cookie", () => {
    expect(gaDeviceId("GA1.1.123456789.1690000000")).toBe("123456789.1690000000");
    expect(gaDeviceId("GA1.2.1.2")).toBe("1.2");
    expect(gaDeviceId("junk")).toBeUndefined();
    expect(gaDeviceId(null)).toBeUndefined();
  });
});
