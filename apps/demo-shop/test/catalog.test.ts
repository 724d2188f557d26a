// The catalog, and the seeded page configurations of the service that target the shop's pages
// (storefront-script.md §2 "Configured pages": one config per product page, each with an
// element target). The server keeps its own copy of the handles; this test keeps them in step.
import { describe, expect, it } from "vitest";
import {
  DEMO_DOMAIN,
  DEMO_ELEMENT_PATHS,
  DEMO_PAGES,
  DEMO_SUBDOMAINS,
} from "../../../packages/server/src/seed/demo-pages";
import { CATALOG, findProduct, productsForDomain } from "../src/catalog";
import { SHOPS, UK_DOMAIN, US_DOMAIN, formatPrice } from "../src/shops";
import type { ShopDomain } from "../src/types";

const isShopDomain = (domain: string): domain is ShopDomain =>
  domain === US_DOMAIN || domain === UK_DOMAIN;

describe("catalog", () => {
  it("has about 30 products, most on the main domain and a few on the UK one", () => {
    expect(productsForDomain(US_DOMAIN)).toHaveLength(25);
    expect(productsForDomain(UK_DOMAIN)).toHaveLength(5);
    expect(CATALOG).toHaveLength(30);
  });

  it("gives every product a unique URL-safe handle", () => {
    const handles = CATALOG.map((p) => p.handle);
    expect(new Set(handles).size).toBe(handles.length);
    for (const handle of handles) expect(handle).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it("prices each product in its shop's currency, with whole cents", () => {
    for (const product of CATALOG) {
      expect(product.currency).toBe(SHOPS[product.domain].currency);
      expect(product.price).toBeGreaterThan(0);
      expect(Math.round(product.price * 100) / 100).toBe(product.price);
      expect(product.title.length).toBeGreaterThan(3);
      expect(product.description.length).toBeGreaterThan(20);
      expect(product.tax_note).toMatch(/^Tax included/);
    }
    expect(formatPrice(12, "USD")).toBe("$12.00");
    expect(formatPrice(9.5, "GBP")).toBe("£9.50");
  });

  it("gives every product 2–3 images served by the shop as /images/{handle}-{n}.svg", () => {
    for (const product of CATALOG) {
      expect(product.images.length).toBeGreaterThanOrEqual(2);
      expect(product.images.length).toBeLessThanOrEqual(3);
      product.images.forEach((src, i) =>
        expect(src).toBe(`/images/${product.handle}-${i + 1}.svg`),
      );
    }
  });
});

describe("seeded page configurations (packages/server/src/seed/demo-pages.ts)", () => {
  it("name the shop's domains", () => {
    expect(DEMO_DOMAIN).toBe(US_DOMAIN);
    expect(DEMO_SUBDOMAINS).toEqual([UK_DOMAIN]);
  });

  it("list only product pages the shop serves on that domain", () => {
    for (const page of DEMO_PAGES) {
      expect(isShopDomain(page.domain), page.domain).toBe(true);
      const handle = /^\/products\/([a-z0-9-]+)$/.exec(page.page_path)?.[1];
      expect(handle, page.page_path).toBeDefined();
      const product =
        handle && isShopDomain(page.domain) ? findProduct(page.domain, handle) : undefined;
      expect(product, `${page.domain}${page.page_path}`).toBeDefined();
      expect(page.page_match).toBe("exact_match");
      expect(page.config_id).toBe(`cfg_page_${handle}`);
      if (product) expect(page.price_text).toBe(formatPrice(product.price, product.currency));
    }
  });

  it("give every product exactly one page configuration, each with its own config id", () => {
    for (const product of CATALOG) {
      const pages = DEMO_PAGES.filter(
        (p) => p.domain === product.domain && p.page_path === `/products/${product.handle}`,
      );
      expect(pages, product.handle).toHaveLength(1);
    }
    expect(DEMO_PAGES).toHaveLength(CATALOG.length);
    expect(new Set(DEMO_PAGES.map((p) => p.config_id)).size).toBe(DEMO_PAGES.length);
  });

  it("target the price span mostly, and some tax lines and gallery images", () => {
    const count = (hint: string) => DEMO_PAGES.filter((p) => p.element_hint === hint).length;
    expect(count("price") + count("tax") + count("media")).toBe(DEMO_PAGES.length);
    expect(count("price")).toBeGreaterThan(DEMO_PAGES.length / 2);
    expect(count("tax")).toBeGreaterThan(0);
    expect(count("media")).toBeGreaterThan(0);
    expect(DEMO_ELEMENT_PATHS).toEqual({
      price: "#product-price",
      tax: "#product-tax",
      media: "#product-media-main",
    });
    for (const page of DEMO_PAGES) {
      expect(page.element_path).toBe(DEMO_ELEMENT_PATHS[page.element_hint]);
    }
    // Both domains carry each kind of target somewhere, so experiments can use either shop.
    const ukHints = new Set(
      DEMO_PAGES.filter((p) => p.domain === UK_DOMAIN).map((p) => p.element_hint),
    );
    expect(ukHints.size).toBe(3);
  });
});
