// What the service accepts at its edge, per route family (docs/security.md): body sizes, JSON
// depth and string lengths, the node HTTP server's time-outs and connection cap, and the
// headers every answer carries.

import { MAX_BODY_BYTES } from "@storefit/contract";
import type { JsonLimits } from "./json-limits.js";

const KiB = 1024;

/**
 * Bodies the storefront script sends. 32 levels is far above what the script nests (user →
 * private_fields → properties → a JSON property); 8 KiB per string is above any URL a web
 * server takes (nginx's default header buffers are 8 KiB) and bounds every value a condition or
 * pattern is evaluated on.
 */
export const CLIENT_JSON_LIMITS: JsonLimits = { maxDepth: 32, maxStringLength: 8 * KiB };

/**
 * Bodies of the admin API (signed-in operators and secret keys). Audience conditions nest up to
 * 20 levels (two JSON levels each with `$and: [...]`); configs carry HTML and scripts, whose
 * lengths the schemas and the body size bound.
 */
export const ADMIN_JSON_LIMITS: JsonLimits = { maxDepth: 64, maxStringLength: MAX_BODY_BYTES };

export function jsonLimitsFor(url: string | undefined): JsonLimits {
  return url?.startsWith("/v1/") ? CLIENT_JSON_LIMITS : ADMIN_JSON_LIMITS;
}

/**
 * The largest body per route, in bytes. Events and summaries come in batches (up to 500 and 200
 * items) and keep the 1 MiB of product.md §3; the other client calls carry one visitor and one
 * page, and a browser's beacon or keep-alive fetch cannot send more than 64 KiB anyway. Sign-in
 * is an email and a password.
 */
export function bodyLimitFor(url: string): number {
  if (url === "/v1/cfe/" || url === "/v1/config/request/summary/") return MAX_BODY_BYTES;
  if (url.startsWith("/v1/")) return 64 * KiB;
  if (url === "/api/session") return 16 * KiB;
  return MAX_BODY_BYTES;
}

/** "64 KiB", "1 MiB": for the 413 message. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * KiB && bytes % (1024 * KiB) === 0) return `${bytes / (1024 * KiB)} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}

/** The node HTTP server's limits on slow and idle clients (docs/security.md "Settings"). */
export type ServerLimits = {
  /** The whole request, headers and body, must arrive within this (408 after). */
  requestTimeoutMs: number;
  /** The request's headers must arrive within this (408 after). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; more are closed as they arrive (0: no cap). */
  maxConnections: number;
  /** Requests one connection may carry before it is closed (0: no cap). */
  maxRequestsPerSocket: number;
  /** How often Node checks the request and header time-outs (tests make it small). */
  checkIntervalMs: number;
};

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  // Longer than the 60 s idle time-out of common load balancers, so the balancer closes first and
  // never sends a request on a connection the node is closing (Fastify's default, kept).
  keepAliveTimeoutMs: 72_000,
  maxConnections: 10_000,
  maxRequestsPerSocket: 1000,
  checkIntervalMs: 1000,
};

/**
 * The dashboard's Content-Security-Policy. Scripts and styles only from the service's files: the
 * Vite build emits no inline script or style element, and React (recharts too) sets `style`
 * props through the DOM's style object, which style-src does not govern — only style attributes
 * in parsed HTML and <style> elements need 'unsafe-inline', and the dashboard has none
 * (e2e/dashboard-csp.test.ts visits every screen under this policy). Frames: the visual editor
 * shows any page of the shop, on whatever origin the shop has (http: or https:).
 * frame-ancestors 'self': only the dashboard itself may frame the dashboard.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src http: https:",
  "frame-ancestors 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");
