// What the service accepts at its edge, per route family (docs/security.md): body sizes, JSON
// depth and string lengths, the node HTTP server's time-outs and connection cap, and the
// headers every answer carries.

import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import { BlockList, isIP } from "node:net";
import type { Socket } from "node:net";
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

/** The names Fastify's trustProxy (proxy-addr) reads as ranges. */
const PROXY_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/** An IPv6 address (as node:net's isIP accepts it, zone id aside) as its eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  let text = address.split("%")[0]!;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const [head = "", tail] = text.split("::");
  if (tail === undefined) return groups(head);
  const [h, t] = [groups(head), groups(tail)];
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d) carries, else null. */
function mappedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (g.slice(0, 5).some((x) => x !== 0) || g[5] !== 0xffff) return null;
  return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join(".");
}

/** The prefix length of a dotted IPv4 netmask (255.0.0.0: 8), or null when its ones are not contiguous. */
function netmaskPrefix(mask: string): number | null {
  const bits = mask.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
  const ones = Math.clz32(~bits);
  return bits === (ones === 0 ? 0 : (0xffffffff << (32 - ones)) >>> 0) ? ones : null;
}

/**
 * Whether a peer address is one of the trusted proxies of Fastify's trustProxy setting (as
 * main.ts passes it: true, or addresses and ranges), read as Fastify's proxy-addr reads them:
 * a.b.c.d or an IPv6 address, alone or with /bits (1 to 32 or 128) or, for IPv4, a dotted netmask
 * (10.0.0.0/255.0.0.0); the names loopback, linklocal, uniquelocal; an IPv4-mapped address as
 * the IPv4 one; an IPv6 zone (fe80::1%eth0) only for peers in that zone. `true` trusts every peer.
 * Throws, naming the entry, for what it does not read: proxy-addr's other IPv4 spellings (127.1,
 * 0x7f.0.0.1), which Fastify accepts, stop the node here rather than being read differently.
 */
export function trustedProxies(trustProxy: boolean | string | string[] | undefined): (address: string) => boolean {
  if (trustProxy === true) return () => true;
  const entries = (typeof trustProxy === "string" ? trustProxy.split(",") : trustProxy || []).map((e) => e.trim()).filter(Boolean);
  if (!entries.length) return () => false;
  const v4 = new BlockList();
  const v6 = new BlockList();
  const zoned = new Map<string, BlockList>();
  for (const entry of entries.flatMap((e) => (Object.hasOwn(PROXY_RANGES, e) ? PROXY_RANGES[e]! : [e]))) {
    const slash = entry.lastIndexOf("/");
    const ip = slash === -1 ? entry : entry.slice(0, slash);
    const range = slash === -1 ? null : entry.slice(slash + 1);
    const family = isIP(ip);
    if (!family) {
      throw new Error(`TRUST_PROXY: "${entry}" is not an address or range the service reads: a.b.c.d or an IPv6 address, alone or with /bits or (IPv4) /a.b.c.d, or loopback, linklocal, uniquelocal`);
    }
    const max = family === 4 ? 32 : 128;
    const bits = range === null ? max : /^\d+$/.test(range) ? parseInt(range, 10) : family === 4 && isIP(range) === 4 ? netmaskPrefix(range) : null;
    if (bits === null || bits <= 0 || bits > max) {
      throw new Error(`TRUST_PROXY: "${entry}" has no valid range: /1 to /${max}${family === 4 ? " or a netmask such as 255.0.0.0" : ""}`);
    }
    if (family === 4) {
      v4.addSubnet(ip, bits, "ipv4");
      continue;
    }
    const [bare = "", zone] = ip.split("%");
    const mapped = mappedIpv4(bare);
    if (mapped !== null) {
      // proxy-addr: alone, the IPv4 address; with a range, its IPv4 part when the range covers
      // ::ffff: (96 bits or more), else nothing; with a zone, nothing (an IPv4 peer has none).
      if (zone !== undefined) continue;
      if (range === null) v4.addAddress(mapped, "ipv4");
      else if (bits >= 96) v4.addSubnet(mapped, bits - 96, "ipv4");
      continue;
    }
    if (zone === undefined) v6.addSubnet(bare, bits, "ipv6");
    else {
      if (!zoned.has(zone)) zoned.set(zone, new BlockList());
      zoned.get(zone)!.addSubnet(bare, bits, "ipv6");
    }
  }
  return (address) => {
    const family = isIP(address);
    if (family === 4) return v4.check(address, "ipv4");
    if (family !== 6) return false;
    const [bare = "", zone] = address.split("%");
    const mapped = mappedIpv4(bare);
    if (mapped !== null) return v4.check(mapped, "ipv4");
    return v6.check(bare, "ipv6") || (zone !== undefined && zoned.get(zone)?.check(bare, "ipv6") === true);
  };
}

/** What IdleConnections knows of one connection. */
type Use = {
  /** Requests read on it whose answers are not yet all handed to the OS. */
  answering: number;
  /** Its bytesRead when its last answer was handed to the OS: a byte more is a request arriving. */
  readWhenIdle: number;
  /** When it went idle, as an order: the longest idle is closed first. */
  idleSince: number;
};

/**
 * Which of a server's connections can be closed without cutting anyone off: those idle between
 * keep-alive requests, whose every answer has been handed to the OS (not only ended: Node's
 * closeIdleConnections counts a response done at res.end(), and cut an 8 MiB answer to a slow
 * reader after 3.9 MB), with nothing left to write and no byte received since. A connection that
 * has not sent its first request is never idle here (the headers time-out closes it), nor one in
 * the middle of a request. What it cannot see is a client that sends a request at the moment its
 * connection is closed: the race every keep-alive close has, which clients answer by retrying.
 * Tracked from the server's own events, one per server: the cap per address and the sweep near
 * maxConnections share it.
 */
class IdleConnections {
  /** The idle connections, longest idle first (a Set keeps insertion order). */
  readonly #idle = new Set<Socket>();
  readonly #use = new WeakMap<Socket, Use>();
  #order = 0;

  constructor(server: HttpServer) {
    server.on("connection", (socket: Socket) => {
      this.#use.set(socket, { answering: 0, readWhenIdle: -1, idleSince: 0 });
      socket.once("close", () => this.#idle.delete(socket));
    });
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      const use = this.#use.get(socket);
      if (!use) return;
      use.answering += 1;
      this.#idle.delete(socket);
      // "finish": the answer's last byte was handed to the OS (the write's callback).
      res.once("finish", () => {
        use.answering -= 1;
        if (use.answering > 0 || socket.destroyed) return;
        use.readWhenIdle = socket.bytesRead;
        use.idleSince = ++this.#order;
        this.#idle.add(socket);
      });
    });
  }

  #closable(socket: Socket): boolean {
    return this.#idle.has(socket) && socket.writableLength === 0 && socket.bytesRead === this.#use.get(socket)?.readWhenIdle;
  }

  #close(socket: Socket): void {
    this.#idle.delete(socket);
    socket.destroy();
  }

  /** Closes every idle connection (a walk of those idle now, not of all). */
  closeAll(): void {
    for (const socket of this.#idle) if (this.#closable(socket)) this.#close(socket);
  }

  /** Closes the one of `sockets` idle longest, and answers it (null: all of them are busy). */
  closeLongestIdle(sockets: Iterable<Socket>): Socket | null {
    let oldest: Socket | null = null;
    for (const socket of sockets) {
      if (this.#closable(socket) && (!oldest || this.#use.get(socket)!.idleSince < this.#use.get(oldest)!.idleSince)) oldest = socket;
    }
    if (oldest) this.#close(oldest);
    return oldest;
  }
}

const idleByServer = new WeakMap<HttpServer, IdleConnections>();
function idleConnections(server: HttpServer): IdleConnections {
  let idle = idleByServer.get(server);
  if (!idle) idleByServer.set(server, (idle = new IdleConnections(server)));
  return idle;
}

/**
 * Caps the connections one client address holds open at once, so that one address cannot fill
 * the node's maxConnections and lock every other client out. One more from an address at the cap
 * closes that address's connection idle longest (IdleConnections: answered, nothing left to send)
 * and is served; only when all of its connections are busy (a request in progress or not yet sent)
 * is the new one closed as it arrives, before a byte of it is read. Many shoppers behind one NAT
 * address thus share its connections, and keep-alive sockets they left idle do not refuse the next
 * shopper for the 72 s idle time-out. Counted by the socket's peer (an IPv6 /64 as one); `exempt`
 * peers (trusted proxies, through which every client comes) are not counted. Answers the open
 * count of an address.
 */
export function capConnectionsPerAddress(server: HttpServer, max: number, exempt: (address: string) => boolean): (address: string) => number {
  const idle = idleConnections(server);
  const open = new Map<string, Set<Socket>>();
  server.on("connection", (socket: Socket) => {
    const peer = socket.remoteAddress;
    if (!peer || exempt(peer)) return;
    const key = addressGroup(peer);
    let mine = open.get(key);
    if (mine && mine.size >= max) {
      const closed = idle.closeLongestIdle(mine);
      if (!closed) {
        socket.destroy();
        return;
      }
      mine.delete(closed);
    }
    if (!mine) open.set(key, (mine = new Set()));
    const set = mine;
    set.add(socket);
    socket.once("close", () => {
      set.delete(socket);
      if (!set.size && open.get(key) === set) open.delete(key);
    });
  });
  return (address) => open.get(addressGroup(address))?.size ?? 0;
}

/** Past this share of maxConnections, idle keep-alive connections are closed (closeIdleNearCap). */
export const IDLE_SWEEP_SHARE = 0.9;

/**
 * Near maxConnections, closes the keep-alive connections that sit idle between requests
 * (IdleConnections), on every connection that arrives past IDLE_SWEEP_SHARE of the cap and on
 * every one refused at it: idle sockets from many addresses would otherwise hold the node full for
 * the keep-alive time-out (72 s). A client whose idle connection is closed opens another when it
 * next calls. Each sweep walks only the connections idle at the time, few after the first.
 */
export function closeIdleNearCap(server: HttpServer, maxConnections: number): void {
  const idle = idleConnections(server);
  const threshold = Math.max(1, Math.floor(maxConnections * IDLE_SWEEP_SHARE));
  let open = 0;
  server.on("connection", (socket: Socket) => {
    if (socket.destroyed) return;
    open += 1;
    socket.once("close", () => (open -= 1));
    if (open >= threshold) idle.closeAll();
  });
  server.on("drop", () => idle.closeAll());
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
