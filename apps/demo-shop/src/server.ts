// The demo shop's HTTP server: one node:http server for both storefronts, routed by the
// hostname of the Host header (product.md §4). Pages are rendered on request; nothing is stored.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { findProduct, findProductAnyDomain } from "./catalog";
import { FAVICON_SVG, parseImagePath, productImageSvg } from "./images";
import {
  cartPage,
  checkoutPage,
  contactPage,
  homePage,
  notFoundPage,
  productPage,
  thankYouPage,
} from "./pages";
import type { ConfirmedOrder, PageContext } from "./pages";
import { portOf, shopForHost } from "./shops";
import { STYLES_CSS } from "./styles";
import type { Shop } from "./types";

export const DEFAULT_CLIENT_KEY = "ck_demo_littlesprouts";

export type DemoShopOptions = {
  /** Origin of the Storefit service, e.g. "http://localhost:4100". */
  apiUrl: string;
  /** The account's client key in the snippet URL; default "ck_demo_littlesprouts". */
  clientKey?: string;
};

/** Form bodies are small; anything bigger is refused before it is buffered. */
const MAX_FORM_BODY_BYTES = 32 * 1024;
const MAX_CART_LINES = 50;
const MAX_QUANTITY = 99;
const ORDER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const TOTAL_PATTERN = /^\d{1,7}(?:\.\d{1,2})?$/;
const HANDLE_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The snippet URL of an account: its generated settings, then the script (product.md §2). */
export function snippetUrl(apiUrl: string, clientKey: string): string {
  return `${apiUrl.replace(/\/+$/, "")}/v1/accounts/${encodeURIComponent(clientKey)}/snippet.js`;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    "content-type": contentType,
    "content-length": String(Buffer.byteLength(body)),
    "x-content-type-options": "nosniff",
    ...headers,
  });
  // Node leaves the body out of HEAD answers by itself.
  res.end(body);
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  send(res, status, "text/html; charset=utf-8", html, { "cache-control": "no-store" });
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, "content-length": "0", "cache-control": "no-store" });
  res.end();
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_FORM_BODY_BYTES) throw new HttpError(413, "Form too large");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_FORM_BODY_BYTES) throw new HttpError(413, "Form too large");
    chunks.push(buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function formValues(form: URLSearchParams, names: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of names) values[name] = (form.get(name) ?? "").trim().slice(0, 2000);
  return values;
}

function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

/**
 * The order total from the posted cart, priced from the catalog of this shop: the browser only
 * says what and how many. Lines for unknown handles or other domains are dropped.
 */
export function priceCart(shop: Shop, cartJson: string): { total: number; lines: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(cartJson);
  } catch {
    return { total: 0, lines: 0 };
  }
  if (!Array.isArray(parsed)) return { total: 0, lines: 0 };
  let cents = 0;
  let lines = 0;
  for (const item of parsed.slice(0, MAX_CART_LINES)) {
    if (typeof item !== "object" || item === null) continue;
    const { handle, quantity } = item as { handle?: unknown; quantity?: unknown };
    if (typeof handle !== "string" || typeof quantity !== "number") continue;
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) continue;
    const product = findProduct(shop.domain, handle);
    if (!product) continue;
    cents += Math.round(product.price * 100) * quantity;
    lines++;
  }
  return { total: cents / 100, lines };
}

function newOrderId(): string {
  return `LS-${randomBytes(5).toString("hex").toUpperCase()}`;
}

/** The order named by the thank-you URL, if both parameters are well-formed. */
function confirmedOrder(query: URLSearchParams): ConfirmedOrder | undefined {
  const orderId = query.get("order") ?? "";
  const total = query.get("total") ?? "";
  if (!ORDER_ID_PATTERN.test(orderId) || !TOTAL_PATTERN.test(total)) return undefined;
  return { orderId, total: Math.round(Number(total) * 100) / 100 };
}

async function handleCheckoutPost(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: PageContext,
): Promise<void> {
  const form = await readForm(req);
  const values = formValues(form, ["name", "email", "address", "city", "postcode", "cart"]);
  const refuse = (error: string) => sendHtml(res, 422, checkoutPage(ctx, { values, error }));
  if (!values["name"] || !values["address"] || !values["city"] || !values["postcode"]) {
    return refuse("Please fill in your name and delivery address.");
  }
  if (!looksLikeEmail(values["email"] ?? "")) return refuse("Please enter a valid email address.");
  const { total, lines } = priceCart(ctx.shop, values["cart"] ?? "");
  if (lines === 0) return refuse("Your cart is empty. Add a product before checking out.");
  const query = new URLSearchParams({ order: newOrderId(), total: total.toFixed(2) });
  redirect(res, `/checkout/thank-you?${query.toString()}`);
}

async function handleContactPost(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: PageContext,
): Promise<void> {
  const form = await readForm(req);
  const values = formValues(form, ["name", "email", "phone", "message"]);
  if (!values["name"] || !values["message"] || !looksLikeEmail(values["email"] ?? "")) {
    sendHtml(
      res,
      422,
      contactPage(ctx, {
        values,
        error: "Please give your name, a valid email address and a message.",
      }),
    );
    return;
  }
  // A demo: the message goes nowhere. The storefront script has already seen the form submit.
  redirect(res, "/contact?sent=1");
}

/** Path without trailing slashes ("/" stays "/"), so "/products/x/" is "/products/x". */
function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed;
}

async function route(req: IncomingMessage, res: ServerResponse, snippetSrc: string): Promise<void> {
  const url = new URL(req.url ?? "/", "http://shop.invalid");
  const path = normalizePath(url.pathname);
  const method = req.method ?? "GET";
  const ctx: PageContext = {
    shop: shopForHost(req.headers.host),
    snippetSrc,
    port: portOf(req.headers.host),
  };

  if (method === "POST") {
    if (path === "/checkout") return handleCheckoutPost(req, res, ctx);
    if (path === "/contact") return handleContactPost(req, res, ctx);
    send(res, 405, "text/plain; charset=utf-8", "Method not allowed\n", { allow: "GET, HEAD" });
    return;
  }
  if (method !== "GET" && method !== "HEAD") {
    const allow = path === "/checkout" || path === "/contact" ? "GET, HEAD, POST" : "GET, HEAD";
    send(res, 405, "text/plain; charset=utf-8", "Method not allowed\n", { allow });
    return;
  }

  if (path === "/") return sendHtml(res, 200, homePage(ctx));
  if (path.startsWith("/products/")) {
    const handle = path.slice("/products/".length);
    const product = HANDLE_PATTERN.test(handle) ? findProduct(ctx.shop.domain, handle) : undefined;
    if (product) return sendHtml(res, 200, productPage(ctx, product));
    const elsewhere = HANDLE_PATTERN.test(handle) ? findProductAnyDomain(handle) : undefined;
    return sendHtml(res, 404, notFoundPage(ctx, elsewhere));
  }
  if (path === "/cart") return sendHtml(res, 200, cartPage(ctx));
  if (path === "/checkout") return sendHtml(res, 200, checkoutPage(ctx));
  if (path === "/checkout/thank-you") {
    return sendHtml(res, 200, thankYouPage(ctx, confirmedOrder(url.searchParams)));
  }
  if (path === "/contact") {
    return sendHtml(
      res,
      200,
      contactPage(ctx, { values: {}, sent: url.searchParams.get("sent") === "1" }),
    );
  }
  if (path === "/styles.css") {
    return send(res, 200, "text/css; charset=utf-8", STYLES_CSS, {
      "cache-control": "public, max-age=300",
    });
  }
  if (path === "/favicon.svg") {
    return send(res, 200, "image/svg+xml; charset=utf-8", FAVICON_SVG, {
      "cache-control": "public, max-age=86400",
    });
  }
  if (path.startsWith("/images/")) {
    const image = parseImagePath(path);
    const product = image ? findProductAnyDomain(image.handle) : undefined;
    if (image && product && image.index >= 1 && image.index <= product.images.length) {
      return send(res, 200, "image/svg+xml; charset=utf-8", productImageSvg(product, image.index), {
        "cache-control": "public, max-age=3600",
      });
    }
    return send(res, 404, "text/plain; charset=utf-8", "Image not found\n");
  }
  return sendHtml(res, 404, notFoundPage(ctx));
}

/**
 * The Little Sprouts shop, not yet listening: the caller calls `.listen(port, "127.0.0.1")`.
 * The UK host (littlesprouts-uk.localhost) shows the UK shop, any other host the US shop.
 */
export function createDemoShop(options: DemoShopOptions): Server {
  const snippetSrc = snippetUrl(options.apiUrl, options.clientKey ?? DEFAULT_CLIENT_KEY);
  return createServer((req, res) => {
    route(req, res, snippetSrc).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (status === 500) console.error("demo-shop: request failed", error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      send(
        res,
        status,
        "text/plain; charset=utf-8",
        status === 500 ? "Internal error\n" : `${(error as Error).message}\n`,
        {
          connection: "close",
        },
      );
    });
  });
}
