// Server-rendered pages. The product page markup is a public contract: the seeded page
// configurations (packages/server/src/seed/demo-pages.ts) and the browser tests target
// #product-media-main, #product-tax and #product-price (README.md lists every stable path).
import { SHOP_BROWSER_SCRIPT } from "./browser-script";
import { productsForDomain } from "./catalog";
import { escapeHtml as e, jsonForScript } from "./html";
import { SHOPS, UK_DOMAIN, US_DOMAIN, currencySymbol, formatPrice } from "./shops";
import type { Product, Shop } from "./types";

/** What every page needs to know about the request. */
export type PageContext = {
  shop: Shop;
  /** The storefront script's snippet URL for the account. */
  snippetSrc: string;
  /** The port of the Host header ("" for none), to link to the other shop on the same server. */
  port: string;
};

type LayoutOptions = {
  title: string;
  description?: string;
  /** Names the page in `<body data-page>`, for styles and tests. */
  page: string;
  main: string;
  /** Extra body attributes, already escaped. */
  bodyAttributes?: string;
  /** Inline JSON handed to the browser script as #shop-data. */
  shopData?: unknown;
};

function otherShopLink(ctx: PageContext): string {
  const other = ctx.shop.domain === UK_DOMAIN ? SHOPS[US_DOMAIN] : SHOPS[UK_DOMAIN];
  const href = `http://${other.domain}${ctx.port ? `:${ctx.port}` : ""}/`;
  return `<a class="region-switch" id="region-switch" href="${e(href)}">${e(other.region)} shop</a>`;
}

function layout(ctx: PageContext, options: LayoutOptions): string {
  const { shop } = ctx;
  const description =
    options.description ?? "Gentle, fragrance-free skincare for babies and children.";
  const shopData =
    options.shopData === undefined
      ? ""
      : `<script type="application/json" id="shop-data">${jsonForScript(options.shopData)}</script>\n`;
  // The snippet is the first script in <head> and synchronous: the storefront script must hide
  // the page before first paint (storefront-script.md §4 "Document visibility").
  return `<!doctype html>
<html lang="${e(shop.lang)}">
<head>
<meta charset="utf-8">
<script src="${e(ctx.snippetSrc)}"></script>
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(options.title)} · Little Sprouts</title>
<meta name="description" content="${e(description)}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/styles.css">
</head>
<body data-page="${e(options.page)}" data-shop-region="${e(shop.region)}"${options.bodyAttributes ? ` ${options.bodyAttributes}` : ""}>
<div class="announcement-bar" id="announcement-bar">Free shipping on orders over ${e(`${currencySymbol(shop.currency)}${shop.free_shipping_from}`)} · Gentle on little skin</div>
<header class="site-header">
<div class="container">
<a class="logo" href="/"><img src="/favicon.svg" alt="" width="32" height="32">Little Sprouts <span class="region-badge">${e(shop.region)}</span></a>
<nav class="site-nav" aria-label="Main">
<a href="/">Shop</a>
<a href="/contact">Contact</a>
${otherShopLink(ctx)}
<a class="cart-link" id="cart-link" href="/cart">Cart<span class="cart-count" id="cart-count">0</span></a>
</nav>
</div>
</header>
<main id="main">
<div class="container">
${options.main}
</div>
</main>
<footer class="site-footer">
<div class="container">
<span>© Little Sprouts — a Storefit demo shop. Nothing here is for sale.</span>
<span><a href="/contact">Contact us</a></span>
</div>
</footer>
${shopData}<script>${SHOP_BROWSER_SCRIPT}</script>
</body>
</html>
`;
}

function productUrl(product: Product): string {
  return `/products/${encodeURIComponent(product.handle)}`;
}

export function homePage(ctx: PageContext): string {
  const { shop } = ctx;
  const products = productsForDomain(shop.domain);
  const uk = shop.domain === UK_DOMAIN;
  const cards = products
    .map(
      (product) => `<li class="product-card" data-handle="${e(product.handle)}">
<a class="product-card-link" href="${e(productUrl(product))}">
<img class="product-card-image" src="${e(product.images[0] ?? "")}" alt="${e(product.title)}" width="600" height="600" loading="lazy">
<span class="product-card-body"><span class="product-card-title">${e(product.title)}</span><span class="product-card-price">${e(formatPrice(product.price, product.currency))}</span></span>
</a>
</li>`,
    )
    .join("\n");
  return layout(ctx, {
    title: uk ? "Gentle skincare for little ones — UK" : "Gentle skincare for little ones",
    page: "home",
    main: `<section class="hero" id="hero">
<h1 class="hero-title" id="hero-title">Gentle care for little skin</h1>
<p class="hero-subtitle" id="hero-subtitle">${
      uk
        ? "Paediatrician-tested washes, balms and sun cream, made for babies and children. Now shipping across the UK."
        : "Pediatrician-tested washes, balms and sunscreen, made for babies and kids. Fragrance-free, tear-free, worry-free."
    }</p>
<a class="btn hero-cta" id="hero-cta" href="#shop">Shop all</a>
</section>
<section id="shop" aria-labelledby="shop-title">
<h2 id="shop-title">All products</h2>
<ul class="product-grid" id="product-grid">
${cards}
</ul>
</section>`,
  });
}

export function productPage(ctx: PageContext, product: Product): string {
  const [main, ...rest] = product.images;
  const thumbs = [main, ...rest]
    .filter((src): src is string => typeof src === "string")
    .map(
      (src, i) =>
        `<button type="button" class="product-thumb" data-src="${e(src)}" aria-label="Show image ${i + 1}" aria-current="${i === 0 ? "true" : "false"}"><img class="product-thumb-image" src="${e(src)}" alt="" width="76" height="76" loading="lazy"></button>`,
    )
    .join("");
  const price = formatPrice(product.price, product.currency);
  return layout(ctx, {
    title: product.title,
    description: product.description,
    page: "product",
    main: `<nav class="breadcrumbs" aria-label="Breadcrumbs"><a href="/">Home</a> / <span>${e(product.title)}</span></nav>
<article class="product" id="product" data-handle="${e(product.handle)}">
<div class="product-gallery"><img class="product-media" id="product-media-main" src="${e(main ?? "")}" alt="${e(product.title)}" width="600" height="600">
<div class="product-thumbs">${thumbs}</div>
</div>
<div class="product-info">
<h1 class="product-title">${e(product.title)}</h1>
<div class="product-price-line"><span class="product-price" id="product-price">${e(price)}</span></div>
<p class="product-tax" id="product-tax">${e(product.tax_note)}</p>
<p class="product-description">${e(product.description)}</p>
<button id="add-to-cart" class="btn add-to-cart" type="button" data-handle="${e(product.handle)}" data-price="${e(product.price.toFixed(2))}" data-currency="${e(product.currency)}">Add to cart</button>
<p class="cart-status" id="cart-status" role="status" aria-live="polite"></p>
<ul class="product-perks">
<li>Dermatologist- and pediatrician-tested</li>
<li>Free from fragrance, parabens and sulfates</li>
<li>Free returns within 30 days</li>
</ul>
</div>
</article>`,
  });
}

/** Products of the shop as the browser cart needs them, keyed by handle. */
function cartShopData(ctx: PageContext): unknown {
  const products: Record<string, { title: string; price: number; url: string; image: string }> = {};
  for (const product of productsForDomain(ctx.shop.domain)) {
    products[product.handle] = {
      title: product.title,
      price: product.price,
      url: productUrl(product),
      image: product.images[0] ?? "",
    };
  }
  return {
    currency: ctx.shop.currency,
    symbol: currencySymbol(ctx.shop.currency),
    products,
  };
}

export function cartPage(ctx: PageContext): string {
  return layout(ctx, {
    title: "Your cart",
    page: "cart",
    shopData: cartShopData(ctx),
    main: `<h1>Your cart</h1>
<section class="panel" id="cart">
<p class="cart-empty" id="cart-empty">Your cart is empty. <a href="/">Find something gentle</a>.</p>
<div id="cart-filled" hidden>
<table class="cart-table">
<thead><tr><th scope="col">Product</th><th scope="col">Price</th><th scope="col">Quantity</th><th scope="col">Total</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
<tbody id="cart-items"></tbody>
</table>
<div class="cart-summary">
<span class="cart-total-line">Subtotal: <span id="cart-total">${e(formatPrice(0, ctx.shop.currency))}</span></span>
<a class="btn" id="cart-checkout" href="/checkout">Check out</a>
</div>
</div>
</section>`,
  });
}

/** Values a re-displayed form keeps, and why it was refused. */
export type FormState = { values: Record<string, string>; error?: string };

function field(
  state: FormState | undefined,
  name: string,
  options: { id: string; label: string; type?: string; autocomplete?: string; required?: boolean },
): string {
  const value = state?.values[name] ?? "";
  return `<label for="${e(options.id)}">${e(options.label)}<input id="${e(options.id)}" name="${e(name)}" type="${e(options.type ?? "text")}"${options.autocomplete ? ` autocomplete="${e(options.autocomplete)}"` : ""}${options.required === false ? "" : " required"} value="${e(value)}"></label>`;
}

function errorNotice(state: FormState | undefined): string {
  return state?.error
    ? `<p class="notice form-error" id="form-error" role="alert">${e(state.error)}</p>`
    : "";
}

export function checkoutPage(ctx: PageContext, state?: FormState): string {
  const uk = ctx.shop.domain === UK_DOMAIN;
  return layout(ctx, {
    title: "Checkout",
    page: "checkout",
    shopData: cartShopData(ctx),
    main: `<h1>Checkout</h1>
<div class="checkout">
<section class="panel">
${errorNotice(state)}<p class="notice" id="checkout-empty" hidden>Your cart is empty. <a href="/">Add a product</a> before checking out.</p>
<form id="checkout-form" class="form checkout-form" method="post" action="/checkout">
${field(state, "name", { id: "checkout-name", label: "Full name", autocomplete: "name" })}
${field(state, "email", { id: "checkout-email", label: "Email", type: "email", autocomplete: "email" })}
${field(state, "address", { id: "checkout-address", label: "Address", autocomplete: "street-address" })}
<div class="form-row">
${field(state, "city", { id: "checkout-city", label: uk ? "Town or city" : "City", autocomplete: "address-level2" })}
${field(state, "postcode", { id: "checkout-postcode", label: uk ? "Postcode" : "ZIP code", autocomplete: "postal-code" })}
</div>
<input type="hidden" name="cart" id="checkout-cart" value="${e(state?.values["cart"] ?? "")}">
<button class="btn" id="place-order" type="submit">Place order</button>
</form>
</section>
<aside class="panel" aria-labelledby="summary-title">
<h2 id="summary-title">Order summary</h2>
<ul class="order-lines" id="checkout-lines"></ul>
<p class="cart-total-line">Total: <span id="checkout-total">${e(formatPrice(0, ctx.shop.currency))}</span></p>
<p class="checkout-note">${uk ? "Tax included (20% VAT)." : "Tax included."} Free shipping over ${e(`${currencySymbol(ctx.shop.currency)}${ctx.shop.free_shipping_from}`)}.</p>
</aside>
</div>`,
  });
}

/** A confirmed order as the thank-you page shows it; undefined when the URL names no valid order. */
export type ConfirmedOrder = { orderId: string; total: number };

export function thankYouPage(ctx: PageContext, order: ConfirmedOrder | undefined): string {
  if (!order) {
    return layout(ctx, {
      title: "Order not found",
      page: "thank-you",
      main: `<section class="panel">
<h1>We couldn't find that order</h1>
<p>The confirmation link is incomplete. <a href="/">Back to the shop</a>.</p>
</section>`,
    });
  }
  const currency = ctx.shop.currency;
  const revenue = ["trackRevenue", order.total, { order_id: order.orderId, currency }] as const;
  return layout(ctx, {
    title: "Thank you for your order",
    page: "thank-you",
    bodyAttributes: `data-clear-cart="true"`,
    main: `<section class="panel order-confirmation" id="order-confirmation">
<p class="notice notice-success">Thank you! Your order is confirmed.</p>
<h1>Order <span id="order-id">${e(order.orderId)}</span></h1>
<p>Total paid: <strong id="order-total">${e(formatPrice(order.total, currency))}</strong></p>
<p>We've emailed your receipt. Your parcel leaves our workshop within two working days.</p>
<a class="btn" href="/">Keep shopping</a>
</section>
<!-- STOREFIT REVENUE HOOK: records this order as revenue. The storefront script runs queued
     calls once it is ready (and at once afterwards), so this works before or after it loads. -->
<script id="storefit-revenue-hook">
window.storefitQueue = window.storefitQueue || [];
window.storefitQueue.push(${jsonForScript(revenue)});
</script>`,
  });
}

export function contactPage(ctx: PageContext, state?: FormState & { sent?: boolean }): string {
  const message = state?.values["message"] ?? "";
  return layout(ctx, {
    title: "Contact us",
    page: "contact",
    main: `<h1>Contact us</h1>
<section class="panel">
${state?.sent ? `<p class="notice notice-success" id="contact-sent" role="status">Thanks! We'll get back to you within one working day.</p>\n` : ""}${errorNotice(state)}<p>Questions about an ingredient, an order or your little one's skin? Write to us.</p>
<form id="contact-form" class="form contact-form" method="post" action="/contact">
${field(state, "name", { id: "contact-name", label: "Your name", autocomplete: "name" })}
${field(state, "email", { id: "contact-email", label: "Email", type: "email", autocomplete: "email" })}
${field(state, "phone", { id: "contact-phone", label: "Phone (optional)", type: "tel", autocomplete: "tel", required: false })}
<label for="contact-message">Message<textarea id="contact-message" name="message" required>${e(message)}</textarea></label>
<input type="hidden" id="contact-source" name="form_source" value="contact-page">
<button class="btn" id="contact-submit" type="submit">Send message</button>
</form>
</section>`,
  });
}

export function notFoundPage(ctx: PageContext, elsewhere?: Product): string {
  const hint = elsewhere
    ? `<p>${e(elsewhere.title)} is sold in our <a href="${e(
        `http://${elsewhere.domain}${ctx.port ? `:${ctx.port}` : ""}${productUrl(elsewhere)}`,
      )}">${e(SHOPS[elsewhere.domain].region)} shop</a>.</p>`
    : "";
  return layout(ctx, {
    title: "Page not found",
    page: "not-found",
    main: `<section class="panel not-found">
<h1>Page not found</h1>
<p>We couldn't find that page in the ${e(ctx.shop.region)} shop.</p>
${hint}<a class="btn" href="/">Back to the shop</a>
</section>`,
  });
}
