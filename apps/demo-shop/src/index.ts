// Public surface of @storefit/demo-shop: the server factory, the catalog and its types.
export { createDemoShop, DEFAULT_CLIENT_KEY, snippetUrl } from "./server";
export type { DemoShopOptions } from "./server";
export { CATALOG, findProduct, productsForDomain } from "./catalog";
export { SHOPS, UK_DOMAIN, US_DOMAIN, formatPrice, shopForHost } from "./shops";
export type { Currency, Product, Shop, ShopDomain } from "./types";
