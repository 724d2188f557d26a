// The shop over real HTTP on loopback, one storefront per Host header (product.md §4).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PAGES } from "../../../packages/server/src/seed/demo-pages";
import { productsForDomain } from "../src/catalog";
import { escapeHtml, jsonForScript } from "../src/html";
import { hostnameOf, shopForHost } from "../src/shops";
import {
  UK_HOST,
  US_HOST,
  headOf,
  linkedProductHandles,
  scriptTags,
  startShop,
  tagWithId,
} from "./http";
import type { RunningShop } from "./http";

const API_URL = "http://api.test:4100";
const SNIPPET_TAG = `<script src="${API_URL}/v1/accounts/ck_demo_littlesprouts/snippet.js">`;

let shop: RunningShop;
let us: string;
let uk: string;

beforeAll(async () => {
  shop = await startShop({ apiUrl: API_URL });
  us = `${US_HOST}:${shop.port}`;
  uk = `${UK_HOST}:${shop.port}`;
});
afterAll(() => shop.close());

describe("routing by Host", () => {
  it("lists the US products on the main domain's home page, and no UK ones", async () => {
    const res = await shop.get("/", us);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    const handles = linkedProductHandles(res.body);
    expect(new Set(handles)).toEqual(new Set(productsForDomain(US_HOST).map((p) => p.handle)));
    expect(res.body).toContain('<html lang="en-US">');
    expect(res.body).toContain("$18.00");
    expect(res.body).not.toContain("£");
  });

  it("lists only the UK products, in pounds, on the UK domain", async () => {
    const res = await shop.get("/", uk);
    expect(res.status).toBe(200);
    const handles = linkedProductHandles(res.body);
    expect(new Set(handles)).toEqual(new Set(productsForDomain(UK_HOST).map((p) => p.handle)));
    expect(handles).toContain("calendula-nappy-balm");
    expect(handles).not.toContain("gentle-baby-wash");
    expect(res.body).toContain("£9.50");
    expect(res.body).toContain('<html lang="en-GB">');
  });

  it("ignores the port and letter case, and serves the US shop to any other host", async () => {
    expect(hostnameOf("LittleSprouts-UK.localhost:4200")).toBe(UK_HOST);
    expect(hostnameOf("[::1]:4200")).toBe("[::1]");
    expect(shopForHost("littlesprouts-uk.localhost.").region).toBe("UK");
    expect(shopForHost(undefined).region).toBe("US");
    const ukNoPort = await shop.get("/", UK_HOST.toUpperCase());
    expect(linkedProductHandles(ukNoPort.body)).toHaveLength(5);
    const loopback = await shop.get("/", `127.0.0.1:${shop.port}`);
    expect(linkedProductHandles(loopback.body)).toHaveLength(25);
  });

  it("links each shop to the other on the same port", async () => {
    const res = await shop.get("/", us);
    expect(tagWithId(res.body, "region-switch")).toContain(
      `href="http://${UK_HOST}:${shop.port}/"`,
    );
  });
});

describe("product page", () => {
  it("has the gallery, title, price span, tax line and add-to-cart button with stable ids", async () => {
    const res = await shop.get("/products/kids-mineral-sunscreen-spf50", us);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatch(
      /<div class="product-gallery"><img class="product-media" id="product-media-main" src="\/images\/kids-mineral-sunscreen-spf50-1\.svg"/,
    );
    const gallery =
      /<div class="product-gallery">([\s\S]*?)<\/div>\s*<\/div>/.exec(body)?.[1] ?? "";
    expect(gallery.match(/class="product-thumb"/g)).toHaveLength(3);
    expect(body).toContain('<h1 class="product-title">Kids Mineral Sunscreen SPF 50</h1>');
    expect(body).toContain('<span class="product-price" id="product-price">$18.00</span>');
    expect(body).toContain(
      '<p class="product-tax" id="product-tax">Tax included. Shipping calculated at checkout.</p>',
    );
    expect(tagWithId(body, "add-to-cart")).toMatch(
      /^<button id="add-to-cart" class="btn add-to-cart"/,
    );
    expect(tagWithId(body, "add-to-cart")).toContain('data-handle="kids-mineral-sunscreen-spf50"');
    // Each target is unique on the page, by id and by class, so either CSS path finds one element.
    for (const marker of [
      'id="product-price"',
      'id="product-tax"',
      'id="product-media-main"',
      'class="product-price"',
      'class="product-tax"',
      'class="product-media"',
      'class="product-gallery"',
      'class="product-title"',
    ]) {
      expect(body.split(marker).length - 1, marker).toBe(1);
    }
  });

  it("loads the Storefit snippet synchronously as the first script in <head>", async () => {
    const res = await shop.get("/products/gentle-baby-wash", us);
    const head = headOf(res.body);
    const first = scriptTags(head)[0];
    expect(first).toBe(SNIPPET_TAG);
    expect(first).not.toMatch(/\b(async|defer)\b/);
    // Nothing that could run before it: it is the first element after the charset.
    expect(head.trimStart()).toMatch(/^<meta charset="utf-8">\s*<script src=/);
  });

  it("uses the client key and API URL it is given", async () => {
    const other = await startShop({ apiUrl: "https://api.example/", clientKey: "ck_other" });
    try {
      const res = await other.get("/products/gentle-baby-wash");
      expect(scriptTags(headOf(res.body))[0]).toBe(
        '<script src="https://api.example/v1/accounts/ck_other/snippet.js">',
      );
    } finally {
      await other.close();
    }
  });

  it("shows UK products on the UK domain with a pound price", async () => {
    const res = await shop.get("/products/calendula-nappy-balm", uk);
    expect(res.status).toBe(200);
    expect(res.body).toContain('<span class="product-price" id="product-price">£9.50</span>');
    expect(tagWithId(res.body, "product-tax")).toBeDefined();
  });

  it("answers 404 for a UK-only product on the US host, and the other way round", async () => {
    const ukOnUs = await shop.get("/products/calendula-nappy-balm", us);
    expect(ukOnUs.status).toBe(404);
    expect(ukOnUs.body).not.toContain('id="product-price"');
    expect(ukOnUs.body).toContain(
      `href="http://${UK_HOST}:${shop.port}/products/calendula-nappy-balm"`,
    );
    expect(scriptTags(headOf(ukOnUs.body))[0]).toBe(SNIPPET_TAG);
    expect((await shop.get("/products/gentle-baby-wash", uk)).status).toBe(404);
    expect((await shop.get("/products/no-such-thing", us)).status).toBe(404);
    expect((await shop.get("/products/%3Cscript%3E", us)).status).toBe(404);
    expect((await shop.get("/nowhere", us)).status).toBe(404);
  });

  it("serves the same page with a trailing slash or a query string", async () => {
    const res = await shop.get("/products/gentle-baby-wash/?utm_source=test", us);
    expect(res.status).toBe(200);
    expect(res.body).toContain('id="product-price">$12.00<');
  });

  it("has the element every seeded page configuration targets", async () => {
    for (const page of DEMO_PAGES) {
      const res = await shop.get(page.page_path, `${page.domain}:${shop.port}`);
      expect(res.status, page.page_path).toBe(200);
      const id = page.element_path.replace(/^#/, "");
      expect(tagWithId(res.body, id), `${page.page_path} ${page.element_path}`).toBeDefined();
      expect(res.body).toContain(`id="product-price">${page.price_text}</span>`);
    }
  });
});

describe("every HTML page", () => {
  it("starts <head> with the snippet", async () => {
    const paths = [
      "/",
      "/cart",
      "/checkout",
      "/contact",
      "/contact?sent=1",
      "/checkout/thank-you?order=LS-1&total=10.00",
      "/missing",
    ];
    for (const path of paths) {
      for (const host of [us, uk]) {
        const res = await shop.get(path, host);
        expect(res.headers["content-type"], path).toBe("text/html; charset=utf-8");
        expect(scriptTags(headOf(res.body))[0], `${host}${path}`).toBe(SNIPPET_TAG);
      }
    }
  });
});

describe("images and styles", () => {
  it("serves product images as SVG drawn with the product name", async () => {
    const res = await shop.get("/images/gentle-baby-wash-2.svg", us);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
    expect(res.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(res.body).toContain(">Gentle Baby Wash<");
    expect(res.body.trimEnd().endsWith("</svg>")).toBe(true);
  });

  it("escapes the product name inside the SVG", async () => {
    const res = await shop.get("/images/tear-free-shampoo-and-body-wash-1.svg", us);
    expect(res.body).toContain("Shampoo &amp; Body");
    expect(res.body).not.toContain("Shampoo & Body");
  });

  it("serves every catalog image on both hosts, and 404 for images that do not exist", async () => {
    for (const product of [...productsForDomain(US_HOST), ...productsForDomain(UK_HOST)]) {
      for (const src of product.images) {
        const res = await shop.get(src, uk);
        expect(res.status, src).toBe(200);
        expect(res.body.startsWith("<svg"), src).toBe(true);
      }
    }
    expect((await shop.get("/images/gentle-baby-wash-4.svg", us)).status).toBe(404);
    expect((await shop.get("/images/gentle-baby-wash-0.svg", us)).status).toBe(404);
    expect((await shop.get("/images/unknown-1.svg", us)).status).toBe(404);
  });

  it("serves the stylesheet and favicon", async () => {
    const css = await shop.get("/styles.css", us);
    expect(css.status).toBe(200);
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(css.body).toContain(".product-gallery");
    expect(css.body).toContain("@media (max-width: 720px)");
    const icon = await shop.get("/favicon.svg", us);
    expect(icon.headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
  });
});

describe("cart and checkout", () => {
  it("renders the cart from localStorage in the browser, with the shop's products as data", async () => {
    const res = await shop.get("/cart", uk);
    expect(res.status).toBe(200);
    const data = /<script type="application\/json" id="shop-data">([\s\S]*?)<\/script>/.exec(
      res.body,
    );
    const parsed = JSON.parse(data?.[1] ?? "null") as {
      currency: string;
      symbol: string;
      products: Record<string, { price: number }>;
    };
    expect(parsed.currency).toBe("GBP");
    expect(parsed.symbol).toBe("£");
    expect(Object.keys(parsed.products)).toEqual(productsForDomain(UK_HOST).map((p) => p.handle));
    expect(res.body).toContain('id="cart-items"');
    expect(res.body).toContain("localStorage");
  });

  it("prices the posted cart from the catalog and redirects to the thank-you page", async () => {
    const cart = JSON.stringify([
      { handle: "gentle-baby-wash", quantity: 2 }, // $12.00 × 2
      { handle: "kids-sunscreen-stick-spf30", quantity: 1 }, // $12.50
      { handle: "calendula-nappy-balm", quantity: 5 }, // UK only: dropped
      { handle: "kids-detangling-spray", quantity: 1000 }, // invalid quantity: dropped
    ]);
    const form = new URLSearchParams({
      name: "Ada Parent",
      email: "ada@example.com",
      address: "1 Main St",
      city: "Springfield",
      postcode: "12345",
      cart,
    });
    const res = await shop.send("POST", "/checkout", us, form.toString());
    expect(res.status).toBe(303);
    const location = new URL(res.headers["location"] ?? "", "http://x");
    expect(location.pathname).toBe("/checkout/thank-you");
    expect(location.searchParams.get("total")).toBe("36.50");
    expect(location.searchParams.get("order")).toMatch(/^LS-[0-9A-F]{10}$/);
    // No personal data in the confirmation URL.
    expect(res.headers["location"]).not.toContain("ada");
  });

  it("refuses a checkout with an empty cart or no email, keeping what was typed", async () => {
    const base = {
      name: "Ada <b>",
      email: "ada@example.com",
      address: "1 Main St",
      city: "X",
      postcode: "1",
    };
    const empty = await shop.send(
      "POST",
      "/checkout",
      us,
      new URLSearchParams({ ...base, cart: "[]" }).toString(),
    );
    expect(empty.status).toBe(422);
    expect(empty.body).toContain("Your cart is empty");
    expect(empty.body).toContain('value="Ada &lt;b&gt;"');
    const noEmail = await shop.send(
      "POST",
      "/checkout",
      us,
      new URLSearchParams({
        ...base,
        email: "nope",
        cart: '[{"handle":"gentle-baby-wash","quantity":1}]',
      }).toString(),
    );
    expect(noEmail.status).toBe(422);
    expect(noEmail.body).toContain("valid email");
  });

  it("pushes the order's revenue onto storefitQueue on the thank-you page", async () => {
    const res = await shop.get("/checkout/thank-you?order=LS-ABC123&total=36.50", us);
    expect(res.status).toBe(200);
    expect(res.body).toContain("STOREFIT REVENUE HOOK");
    expect(res.body).toContain("window.storefitQueue = window.storefitQueue || [];");
    expect(res.body).toContain(
      'window.storefitQueue.push(["trackRevenue",36.5,{"order_id":"LS-ABC123","currency":"USD"}]);',
    );
    expect(res.body).toContain('<span id="order-id">LS-ABC123</span>');
    expect(res.body).toContain("$36.50");
    expect(res.body).toContain('data-clear-cart="true"');
  });

  it("reports revenue in pounds on the UK shop", async () => {
    const res = await shop.get("/checkout/thank-you?order=LS-UK1&total=9.5", uk);
    expect(res.body).toContain(
      'window.storefitQueue.push(["trackRevenue",9.5,{"order_id":"LS-UK1","currency":"GBP"}]);',
    );
  });

  it("records nothing for a malformed confirmation URL", async () => {
    for (const query of [
      "",
      "?order=LS-1",
      "?total=10",
      "?order=%3C/script%3E&total=10",
      "?order=LS-1&total=1e9",
      "?order=LS-1&total=-5",
    ]) {
      const res = await shop.get(`/checkout/thank-you${query}`, us);
      expect(res.status).toBe(200);
      expect(res.body, query).not.toContain("trackRevenue");
      expect(res.body).not.toContain("</script>&");
    }
  });

  it("has a checkout form that posts the cart", async () => {
    const res = await shop.get("/checkout", us);
    expect(tagWithId(res.body, "checkout-form")).toContain('method="post" action="/checkout"');
    expect(tagWithId(res.body, "checkout-cart")).toContain('type="hidden" name="cart"');
    expect(tagWithId(res.body, "checkout-email")).toContain('type="email"');
  });
});

describe("contact form", () => {
  it("has name, email, phone and message fields and a hidden input", async () => {
    const res = await shop.get("/contact", us);
    expect(tagWithId(res.body, "contact-form")).toContain('method="post" action="/contact"');
    expect(tagWithId(res.body, "contact-name")).toContain('name="name"');
    expect(tagWithId(res.body, "contact-email")).toContain('name="email" type="email"');
    expect(tagWithId(res.body, "contact-phone")).toContain('name="phone" type="tel"');
    expect(tagWithId(res.body, "contact-message")).toMatch(/^<textarea[^>]*name="message"/);
    expect(tagWithId(res.body, "contact-source")).toContain('type="hidden"');
  });

  it("accepts a message and confirms it after a redirect", async () => {
    const form = new URLSearchParams({
      name: "Ada",
      email: "ada@example.com",
      phone: "+1 555 0100",
      message: "Is the balm safe from birth?",
      form_source: "contact-page",
    });
    const res = await shop.send("POST", "/contact", us, form.toString());
    expect(res.status).toBe(303);
    expect(res.headers["location"]).toBe("/contact?sent=1");
    const after = await shop.get("/contact?sent=1", us);
    expect(after.body).toContain('id="contact-sent"');
  });

  it("re-displays an incomplete message with the fields escaped", async () => {
    const form = new URLSearchParams({ name: '"><script>x()</script>', email: "", message: "" });
    const res = await shop.send("POST", "/contact", us, form.toString());
    expect(res.status).toBe(422);
    expect(res.body).toContain('value="&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"');
    expect(res.body).not.toContain("<script>x()");
  });

  it("refuses oversized bodies and other methods", async () => {
    const big = `message=${"a".repeat(40 * 1024)}`;
    expect((await shop.send("POST", "/contact", us, big)).status).toBe(413);
    expect((await shop.send("POST", "/", us, "")).status).toBe(405);
    const del = await shop.send("DELETE", "/contact", us);
    expect(del.status).toBe(405);
    expect(del.headers["allow"]).toBe("GET, HEAD, POST");
    const head = await shop.send("HEAD", "/", us);
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });
});

describe("escaping", () => {
  it("escapes text for HTML and JSON for inline scripts", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;",
    );
    const json = jsonForScript({ s: "</script><!--\u2028" });
    expect(json).not.toContain("</script>");
    expect(json).not.toContain("<!--");
    expect(JSON.parse(json)).toEqual({ s: "</script><!--\u2028" });
  });
});
