// Consent signals (issue 10): Google Consent Mode entries and Shopify's Customer Privacy API.
import { describe, expect, it } from "vitest";
import { consentFromDataLayer, consentFromShopify } from "../src/core/consent.js";

const args = (...a: unknown[]) => (function () {
  // eslint-disable-next-line prefer-rest-params
  return arguments;
})(...(a as []));

describe("consentFromDataLayer", () => {
  const table: [string, unknown, boolean | null][] = [
    ["no data layer", undefined, null],
    ["not an array", { length: "x" }, null],
    ["empty", [], null],
    ["default granted", [args("consent", "default", { analytics_storage: "granted" })], true],
    ["default denied is not an answer yet", [args("consent", "default", { analytics_storage: "denied" })], null],
    ["update denied is an answer", [args("consent", "default", { analytics_storage: "granted" }), args("consent", "update", { analytics_storage: "denied" })], false],
    ["default denied then update granted", [args("consent", "default", { analytics_storage: "denied" }), args("consent", "update", { analytics_storage: "granted" })], true],
    ["ad storage alone says nothing", [args("consent", "update", { ad_storage: "granted" })], null],
    ["plain arrays work too", [["consent", "update", { analytics_storage: "granted" }]], true],
    ["other entries are ignored", [{ event: "gtm.js" }, null, 5, args("config", "G-1")], null],
  ];
  for (const [name, entries, expected] of table) it(name, () => expect(consentFromDataLayer(entries)).toBe(expected));
});

describe("consentFromShopify", () => {
  it("allowed, explicit no, and unknown", () => {
    expect(consentFromShopify({ analyticsProcessingAllowed: () => true })).toBe(true);
    expect(consentFromShopify({ analyticsProcessingAllowed: () => false, currentVisitorConsent: () => ({ analytics: "no" }) })).toBe(false);
    expect(consentFromShopify({ analyticsProcessingAllowed: () => false, currentVisitorConsent: () => ({ analytics: "" }) })).toBe(null);
    expect(consentFromShopify(undefined)).toBe(null);
  });
});
