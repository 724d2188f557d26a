// What the service accepts at its edge, per route family (docs/security.md): body sizes, JSON
// depth and string lengths, the node HTTP server's time-outs and connection cap, and the
// headers every answer carries.

import type { Server as HttpServer } from "node:http";
import { BlockList, isIP } from "node:net";
import type { Server, Socket } from "node:net";
import { API_ERROR_CODES, MAX_BODY_BYTES } from "@storefit/contract";
import type { ApiErrorCode } from "@storefit/contract";
import type { JsonLimits } from "./json-limits.js";
import { addressGroup } from "./rate-limit.js";

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

/** The largest body of the client API (/v1/): the storefront script's calls. */
export const CLIENT_BODY_LIMIT = 64 * KiB;

/**
 * The largest body per route, in bytes. The storefront script sends every call as a keep-alive
 * fetch or a beacon (sdk track/transport.ts), and browsers send neither with more than 64 KiB: no
 * client API body, event batches included, can be larger. A 1 MiB batch of 500 events held the
 * event loop 60–80 ms on SQLite on an idle machine (docs/benchmarks.md "Load and faults"). Sign-in
 * is an email and a password.
 */
export function bodyLimitFor(url: string): number {
  if (url.startsWith("/v1/")) return CLIENT_BODY_LIMIT;
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
  /**
   * Connections one client address (an IPv6 /64) may hold open at once; more from it are closed
   * as they arrive (0: no cap). Trusted proxies are not capped (docs/security.md "Connections").
   */
  maxConnectionsPerAddress: number;
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
  // A browser opens at most 6 connections to one host; 256 is dozens of shoppers behind one NAT,
  // and 40 addresses are needed to fill maxConnections.
  maxConnectionsPerAddress: 256,
  maxRequestsPerSocket: 1000,
  checkIntervalMs: 1000,
};

/**
 * Whether a peer address is one of the trusted proxies of Fastify's trustProxy setting (as
 * main.ts passes it: true, or addresses, CIDR ranges and proxy-addr's names loopback, linklocal,
 * uniquelocal). `true` trusts every peer as a proxy.
 */
export function trustedProxies(trustProxy: boolean | string | string[] | undefined): (address: string) => boolean {
  if (trustProxy === true) return () => true;
  const entries = (typeof trustProxy === "string" ? trustProxy.split(",") : trustProxy || []).map((e) => e.trim()).filter(Boolean);
  if (!entries.length) return () => false;
  const list = new BlockList();
  const named: Record<string, string[]> = {
    loopback: ["127.0.0.0/8", "::1/128"],
    linklocal: ["169.254.0.0/16", "fe80::/10"],
    uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
  };
  for (const entry of entries.flatMap((e) => named[e] ?? [e])) {
    const [ip = "", bits] = entry.split("/");
    const family = isIP(ip) === 6 ? "ipv6" : "ipv4";
    if (!isIP(ip)) throw new Error(`trustProxy: "${entry}" is not an address, a CIDR range or loopback, linklocal, uniquelocal`);
    if (bits === undefined) list.addAddress(ip, family);
    else list.addSubnet(ip, Number(bits), family);
  }
  return (address) => {
    const v4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1];
    return v4 ? list.check(v4, "ipv4") : list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
  };
}

/**
 * Caps the connections one client address holds open at once: one more from an address at the
 * cap is closed as it arrives, before a byte of it is read, so that one address cannot fill the
 * node's maxConnections with idle keep-alive sockets and lock every other client out until they
 * time out. Counted by the socket's peer (an IPv6 /64 as one); `exempt` peers (trusted proxies,
 * through which every client comes) are not counted. Answers the open count of an address.
 */
export function capConnectionsPerAddress(server: Server, max: number, exempt: (address: string) => boolean): (address: string) => number {
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const peer = socket.remoteAddress;
    if (!peer || exempt(peer)) return;
    const key = addressGroup(peer);
    const count = open.get(key) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once("close", () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
  return (address) => open.get(addressGroup(address)) ?? 0;
}

/** Past this share of maxConnections, idle keep-alive connections are closed (closeIdleNearCap). */
export const IDLE_SWEEP_SHARE = 0.9;

/**
 * Near maxConnections, closes the keep-alive connections that sit idle between requests, on every
 * connection that arrives past IDLE_SWEEP_SHARE of the cap and on every one refused at it: idle
 * sockets from many addresses would otherwise hold the node full for the keep-alive time-out
 * (72 s). A client whose idle connection is closed opens another when it next calls; connections
 * that have not sent a request yet or are in the middle of one are left alone (Node's
 * closeIdleConnections). Each sweep walks only the connections idle at the time, few after the
 * first.
 */
export function closeIdleNearCap(server: HttpServer, maxConnections: number): void {
  const threshold = Math.max(1, Math.floor(maxConnections * IDLE_SWEEP_SHARE));
  let open = 0;
  server.on("connection", (socket: Socket) => {
    if (socket.destroyed) return;
    open += 1;
    socket.once("close", () => (open -= 1));
    if (open >= threshold) server.closeIdleConnections();
  });
  server.on("drop", () => server.closeIdleConnections());
}

/**
 * Answers what Node's HTTP parser refuses before a request exists (a malformed request line,
 * Content-Length with Transfer-Encoding, headers over Node's 16 KiB, a request or its headers
 * too slow) in the service's error shape, then closes the connection, as Node does.
 */
export function clientErrorAnswer(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset or closed connection has nobody left to answer.
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const [status, reason, code]: [number, string, ApiErrorCode] =
    err.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "Request Timeout", "request_timeout"]
      : err.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", "headers_too_large"]
        : [400, "Bad Request", "bad_request"];
  const body = JSON.stringify({ error: { code, message: API_ERROR_CODES[code] } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

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
