// Shapes of the Little Sprouts catalog and its two shop domains (product.md §4).

/** The main (US) domain first, then the UK subdomain — the same order as the seeded account. */
export type ShopDomain = "littlesprouts.localhost" | "littlesprouts-uk.localhost";

export type Currency = "USD" | "GBP";

export type Product = {
  /** URL handle: the product page is `/products/{handle}`. Unique across both domains. */
  handle: string;
  title: string;
  description: string;
  /** In major units of `currency` (12.5 means $12.50). */
  price: number;
  currency: Currency;
  domain: ShopDomain;
  /** Image URLs served by the shop itself, `/images/{handle}-{n}.svg`, n from 1. */
  images: string[];
  /** The line under the price, `#product-tax` on the product page. */
  tax_note: string;
};

/** What differs between the two storefronts. */
export type Shop = {
  domain: ShopDomain;
  /** Shown in the header next to the logo. */
  region: string;
  currency: Currency;
  /** `lang` of the html element. */
  lang: string;
  /** Orders at or above this subtotal ship free (announcement bar). */
  free_shipping_from: number;
};
