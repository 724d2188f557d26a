// The addresses the dashboard makes for the shop (issue #16): a domain opens at the origin the
// account lists for it (port included), and preview links carry the operator's preview token.
import { describe, expect, it } from "vitest";
import { shopOrigin, shopPageUrl } from "../src/shop-address";
import { defaultPreviewPage, previewUrl } from "../src/pages/experience-editor/preview";

const demo = {
  domain: "littlesprouts.localhost",
  subdomains: ["littlesprouts-uk.localhost"],
  site_origins: ["http://littlesprouts.localhost:4200", "http://littlesprouts-uk.localhost:4200/"],
};

describe("shop addresses", () => {
  it("opens a listed domain at its origin, port included, and others over https (http for .localhost)", () => {
    expect(shopOrigin("littlesprouts.localhost", demo)).toBe("http://littlesprouts.localhost:4200");
    expect(shopOrigin("LittleSprouts-UK.localhost", demo)).toBe("http://littlesprouts-uk.localhost:4200");
    expect(shopPageUrl("littlesprouts.localhost", "/products/a", demo)).toBe("http://littlesprouts.localhost:4200/products/a");
    expect(shopPageUrl("shop.example.com", "cart", demo)).toBe("https://shop.example.com/cart");
    expect(shopOrigin("other.localhost", undefined)).toBe("http://other.localhost");
  });

  it("starts the preview on the experience's page at the shop's address", () => {
    const pages = [{ domain: "littlesprouts.localhost", page_path: "/products/gentle-baby-wash", page_match: "exact_match" as const }];
    expect(defaultPreviewPage(pages, demo.domain, [], demo)).toBe("http://littlesprouts.localhost:4200/products/gentle-baby-wash");
    expect(defaultPreviewPage([], demo.domain, [], demo)).toBe("http://littlesprouts.localhost:4200/");
  });

  it("puts the preview token into the link, next to the preview flag", () => {
    const url = new URL(previewUrl("http://littlesprouts.localhost:4200/products/a?x=1", "exp_1", "var_2", "tok.en")!);
    expect(url.origin).toBe("http://littlesprouts.localhost:4200");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      x: "1",
      customfit_preview: "1",
      customfit_desired_experiences: "exp_1:var_2",
      cf_preview_token: "tok.en",
    });
  });
});
