// The demo account's page configurations (storefront-script.md §2 "Configured pages"): one per
// product page of the Little Sprouts demo shop, each with an element target — the price span, the
// tax line or the gallery's main media image (product.md §4).
//
// The handles duplicate apps/demo-shop/src/catalog.ts on purpose: the server may import only
// @storefit/contract and @storefit/stats (ARCHITECTURE.md, import rules). The demo shop's test
// (apps/demo-shop/test/catalog.test.ts) fails when the two lists drift apart.

export const DEMO_DOMAIN = "littlesprouts.localhost";
export const DEMO_SUBDOMAINS: string[] = ["littlesprouts-uk.localhost"];

/** The demo shop's port under `npm start` (scripts/start.mjs: DEMO_SHOP_PORT). */
export const DEMO_SHOP_PORT = 4200;

/**
 * Where the demo shop serves its two domains (settings.site_origins): over http on loopback, on
 * the shop's port. Page matching stays by host name; these are the addresses the dashboard opens.
 */
export function demoSiteOrigins(port: number | string = DEMO_SHOP_PORT): string[] {
  return [DEMO_DOMAIN, ...DEMO_SUBDOMAINS].map((domain) => `http://${domain}:${port}`);
}

/** True for an address of the demo shop on some port (one a seed wrote, not the operator). */
export const isDemoSiteOrigin = (origin: string): boolean =>
  /^http:\/\/littlesprouts(?:-uk)?\.localhost(?::\d+)?$/.test(origin);

export type DemoElementHint = "price" | "tax" | "media";

/** A page configuration of the account settings (storefront-script.md §3). */
export type DemoPageConfig = {
  domain: string;
  page_path: string;
  element_path: string;
  element_hint: DemoElementHint;
  page_match: "exact_match";
  config_id: string;
  /** The price span's text on that page ("$12.00"), for seeded variations that rewrite it. */
  price_text: string;
};

/** CSS paths of the demo shop's product page (apps/demo-shop/README.md). */
export const DEMO_ELEMENT_PATHS: Readonly<Record<DemoElementHint, string>> = {
  price: "#product-price",
  tax: "#product-tax",
  media: "#product-media-main",
};

const UK_DOMAIN = "littlesprouts-uk.localhost";

/** Per product page, main domain first, in the shop's catalog order. */
const DEMO_PRODUCTS: readonly (readonly [
  domain: string,
  handle: string,
  price_text: string,
  hint: DemoElementHint,
])[] = [
  [DEMO_DOMAIN, "gentle-baby-wash", "$12.00", "price"],
  [DEMO_DOMAIN, "tear-free-shampoo-and-body-wash", "$14.00", "price"],
  [DEMO_DOMAIN, "kids-mineral-sunscreen-spf50", "$18.00", "media"],
  [DEMO_DOMAIN, "kids-sunscreen-stick-spf30", "$12.50", "price"],
  [DEMO_DOMAIN, "zinc-diaper-rash-cream", "$11.00", "tax"],
  [DEMO_DOMAIN, "calendula-baby-lotion", "$13.50", "price"],
  [DEMO_DOMAIN, "oatmeal-eczema-cream", "$16.00", "media"],
  [DEMO_DOMAIN, "sweet-almond-baby-massage-oil", "$15.00", "price"],
  [DEMO_DOMAIN, "kids-detangling-spray", "$10.00", "price"],
  [DEMO_DOMAIN, "lavender-sleepy-bubble-bath", "$12.00", "tax"],
  [DEMO_DOMAIN, "cradle-cap-foam-shampoo", "$13.00", "price"],
  [DEMO_DOMAIN, "all-purpose-nourishing-balm", "$9.50", "price"],
  [DEMO_DOMAIN, "strawberry-kids-lip-balm", "$4.50", "price"],
  [DEMO_DOMAIN, "fragrance-free-body-lotion", "$14.50", "tax"],
  [DEMO_DOMAIN, "kids-curl-cream", "$13.00", "price"],
  [DEMO_DOMAIN, "foaming-hand-soap-for-kids", "$8.00", "price"],
  [DEMO_DOMAIN, "kids-after-sun-aloe-gel", "$11.50", "media"],
  [DEMO_DOMAIN, "itch-relief-bug-bite-balm", "$9.00", "price"],
  [DEMO_DOMAIN, "sensitive-water-wipes", "$10.50", "price"],
  [DEMO_DOMAIN, "chamomile-bedtime-lotion", "$13.00", "price"],
  [DEMO_DOMAIN, "cold-weather-cheek-balm", "$10.00", "tax"],
  [DEMO_DOMAIN, "gentle-kids-face-wash", "$11.00", "price"],
  [DEMO_DOMAIN, "newborn-essentials-gift-set", "$42.00", "media"],
  [DEMO_DOMAIN, "rainbow-bath-fizzies", "$9.00", "price"],
  [DEMO_DOMAIN, "kids-hand-sanitizer-spray", "$6.00", "price"],
  [UK_DOMAIN, "calendula-nappy-balm", "£9.50", "tax"],
  [UK_DOMAIN, "kids-sun-cream-spf50", "£14.00", "media"],
  [UK_DOMAIN, "colloidal-oatmeal-bath-milk", "£11.00", "price"],
  [UK_DOMAIN, "baby-top-to-toe-wash", "£8.50", "price"],
  [UK_DOMAIN, "sensitive-cheek-balm", "£7.50", "tax"],
];

export const DEMO_PAGES: DemoPageConfig[] = DEMO_PRODUCTS.map(
  ([domain, handle, price_text, hint]) => ({
    domain,
    page_path: `/products/${handle}`,
    element_path: DEMO_ELEMENT_PATHS[hint],
    element_hint: hint,
    page_match: "exact_match",
    config_id: `cfg_page_${handle}`,
    price_text,
  }),
);
