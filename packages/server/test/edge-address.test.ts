// What one client address can hold of a node (docs/security.md "Connections", "Rate limits"):
// open connections per address, checked as each connection is accepted, so one address cannot
// fill maxConnections with idle keep-alive sockets and lock everyone out; body bytes per address
// on the client API; and what Node's HTTP parser refuses, answered in the service's error shape.
// Real sockets on loopback: 127.0.0.1 and 127.0.0.2 are two client addresses (Linux answers all
// of 127.0.0.0/8).
import { afterEach, describe, expect, it } from "vitest";
import { connect } from "node:net";
import type { AddressInfo, Socket } from "node:net";
import { CLIENT_BODY_LIMIT, trustedProxies } from "../src/http/edge.js";
import { DEMO_CLIENT_KEY, FORM, SHOP_ORIGIN, makeApp, user } from "./helpers.js";
import type { TestApp } from "./helpers.js";
import type { AppOptions } from "../src/app.js";

let t: TestApp | null = null;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await t?.close();
  t = null;
});

async function listening(options: Partial<AppOptions>): Promise<number> {
  t = await makeApp(options);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  return (t.app.server.address() as AddressInfo).port;
}

type Raw = { socket: Socket; received: () => string; closed: Promise<void> };

/** A connection from `localAddress`, with what it received and when the server closed it. */
function rawClient(port: number, localAddress: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress });
    sockets.push(socket);
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (data += chunk));
    socket.on("error", () => {});
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    socket.once("connect", () => resolve({ socket, received: () => data, closed }));
    socket.once("error", reject);
  });
}

const HEALTH = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

/** One request on the connection, answered; the connection then stays open, idle (keep-alive). */
async function answeredAndIdle(c: Raw): Promise<void> {
  c.socket.write(HEALTH);
  while (!/\r\n\r\n\{"ok":true\}$/.test(c.received())) await new Promise((r) => setTimeout(r, 5));
}

/** Whether the server answers a request on this connection, or closes it without a byte. */
async function served(c: Raw): Promise<boolean> {
  c.socket.write(HEALTH);
  const answered = (async () => {
    while (!c.received().includes('{"ok":true}')) await new Promise((r) => setTimeout(r, 5));
    return true;
  })();
  const outcome = await Promise.race([answered, c.closed.then(() => false)]);
  return outcome || c.received().includes('{"ok":true}');
}

describe("connections per client address", () => {
  it("closes one more connection from an address at its cap, as it arrives; another address is served", async () => {
    const port = await listening({ serverLimits: { maxConnectionsPerAddress: 3, maxConnections: 6 } });
    const held = await Promise.all([1, 2, 3].map(() => rawClient(port, "127.0.0.1")));
    for (const c of held) await answeredAndIdle(c);

    const fourth = await rawClient(port, "127.0.0.1");
    expect(await served(fourth)).toBe(false);
    expect(fourth.received()).toBe("");

    // The node's cap is 6: the address's 3 leave room, and the other address is served.
    const other = await Promise.all([1, 2, 3].map(() => rawClient(port, "127.0.0.2")));
    for (const c of other) expect(await served(c)).toBe(true);

    // One of the first address's connections closes: the address may open one again.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await new Promise((r) => setTimeout(r, 50));
    expect(await served(await rawClient(port, "127.0.0.1"))).toBe(true);
  });

  it("one address flooding the node cannot take its last connections from everyone else", async () => {
    const port = await listening({ serverLimits: { maxConnectionsPerAddress: 4, maxConnections: 8 } });
    // Twice the node's cap from one address, each idle after one request (the audit's flood).
    const flood = await Promise.all(Array.from({ length: 16 }, () => rawClient(port, "127.0.0.1")));
    const kept = (await Promise.all(flood.map((c) => served(c)))).filter(Boolean).length;
    expect(kept).toBe(4);
    expect(await served(await rawClient(port, "127.0.0.2"))).toBe(true);
  });

  it("does not cap a trusted proxy's address, through which every client comes", async () => {
    const port = await listening({ trustProxy: ["127.0.0.1"], serverLimits: { maxConnectionsPerAddress: 2, maxConnections: 20 } });
    const viaProxy = await Promise.all(Array.from({ length: 5 }, () => rawClient(port, "127.0.0.1")));
    for (const c of viaProxy) expect(await served(c)).toBe(true);
    const direct = await Promise.all(Array.from({ length: 3 }, () => rawClient(port, "127.0.0.2")));
    expect(await Promise.all(direct.map((c) => served(c)))).toEqual([true, true, false]);
  });

  it("reads trusted proxies as Fastify's trustProxy does: addresses, ranges, loopback and the other names", () => {
    const trusted = trustedProxies(["loopback", "10.0.0.0/8", "2001:db8::1"]);
    expect(["127.0.0.1", "127.5.0.1", "::1", "::ffff:127.0.0.1", "10.9.8.7", "2001:db8::1"].map(trusted)).toEqual([true, true, true, true, true, true]);
    expect(["192.0.2.1", "11.0.0.1", "2001:db8::2"].map(trusted)).toEqual([false, false, false]);
    expect(trustedProxies("uniquelocal, 203.0.113.9")("192.168.1.2")).toBe(true);
    expect(trustedProxies("uniquelocal, 203.0.113.9")("203.0.113.9")).toBe(true);
    expect(trustedProxies(true)("198.51.100.1")).toBe(true);
    expect(trustedProxies(false)("127.0.0.1")).toBe(false);
    expect(() => trustedProxies(["not-an-address"])).toThrow(/not an address/);
  });
});

describe("body bytes per client address", () => {
  const q = `?cfenc=${DEMO_CLIENT_KEY}`;
  /** An event batch of about `bytes` bytes. */
  const batchOf = (bytes: number, tag: string) => {
    const events = Array.from({ length: Math.floor(bytes / 1000) }, (_, i) => ({
      event_type: "TRACK",
      name: "x",
      event_customer_id: "a|x",
      insert_id: `${tag}-${i}`,
      event_timestamp: 1,
      properties: { pad: "z".repeat(870) },
    }));
    return JSON.stringify({ user: user("v-bytes"), events });
  };

  it("answers 429 with Retry-After once an address has sent its budget of bytes; other addresses and loopback go on", async () => {
    let now = 1_000_000;
    t = await makeApp({ clock: () => now, rateLimits: { clientIpBytes: { burst: 130_000, perSecond: 20_000 } } });
    const app = t.app;
    const post = (remoteAddress: string, payload: string) =>
      app.inject({ method: "POST", url: `/v1/cfe/${q}`, remoteAddress, headers: { "content-type": FORM, origin: SHOP_ORIGIN }, payload });

    const first = batchOf(60_000, "a");
    expect(first.length).toBeLessThan(CLIENT_BODY_LIMIT);
    expect((await post("203.0.113.9", first)).statusCode).toBe(200);
    expect((await post("203.0.113.9", batchOf(60_000, "b"))).statusCode).toBe(200);
    const over = await post("203.0.113.9", batchOf(60_000, "c"));
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ error: { code: "rate_limited", message: expect.stringMatching(/^Too many requests; retry after \d+ s$/) } });
    // ~50,000 bytes short at 20,000 a second.
    expect(over.headers["retry-after"]).toBe("3");
    // The shop's page can read the answer (CORS), so the script sees a 429, not a network error.
    expect(over.headers["access-control-allow-origin"]).toBe(SHOP_ORIGIN);
    // Nothing of a refused batch was stored.
    expect(t.store.listEvents(t.account.id, 1000).filter((e) => e.insert_id.startsWith("c-"))).toEqual([]);

    // Small calls still fit in what is left; other addresses have their own budget; loopback none.
    expect((await post("203.0.113.9", batchOf(3_000, "d"))).statusCode).toBe(200);
    expect((await post("198.51.100.7", batchOf(60_000, "e"))).statusCode).toBe(200);
    for (const tag of ["f", "g", "h"]) expect((await post("127.0.0.1", batchOf(60_000, tag))).statusCode).toBe(200);

    now += 3_000;
    expect((await post("203.0.113.9", batchOf(60_000, "c"))).statusCode).toBe(200);
  });

  it("refuses a budget whose burst cannot hold the largest client body", async () => {
    await expect(makeApp({ rateLimits: { clientIpBytes: { burst: CLIENT_BODY_LIMIT - 1, perSecond: 1_000_000 } } })).rejects.toThrow(/largest client body/);
  });
});

describe("what Node's HTTP parser refuses", () => {
  /** Sends raw bytes and answers the status and JSON body the server wrote before closing. */
  async function rawAnswer(port: number, bytes: string): Promise<{ status: number; body: unknown; headers: string }> {
    const c = await rawClient(port, "127.0.0.1");
    c.socket.write(bytes);
    await c.closed;
    const [head = "", body = ""] = c.received().split("\r\n\r\n");
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: JSON.parse(body), headers: head.toLowerCase() };
  }

  it("answers a malformed request, a conflicting length and too large headers in the service's error shape", async () => {
    const port = await listening({});
    const malformed = await rawAnswer(port, "GARBAGE\r\n\r\n");
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: { code: "bad_request", message: "The request is not valid HTTP" } });
    expect(malformed.headers).toContain("content-type: application/json; charset=utf-8");

    const smuggled = await rawAnswer(port, `POST /v1/cfe/?cfenc=${DEMO_CLIENT_KEY} HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`);
    expect(smuggled.status).toBe(400);
    expect(smuggled.body).toEqual({ error: { code: "bad_request", message: "The request is not valid HTTP" } });

    const longQuery = await rawAnswer(port, `GET /healthz?q=${"x".repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`);
    expect(longQuery.status).toBe(431);
    expect(longQuery.body).toEqual({ error: { code: "headers_too_large", message: "The request's headers are too large" } });
  });

  it("answers a request whose headers never finish with 408 in the service's error shape", async () => {
    const port = await listening({ serverLimits: { headersTimeoutMs: 200, requestTimeoutMs: 400, checkIntervalMs: 50 } });
    const slow = await rawAnswer(port, "GET /healthz HTTP/1.1\r\nHost: a\r\n");
    expect(slow.status).toBe(408);
    expect(slow.body).toEqual({ error: { code: "request_timeout", message: "The request did not arrive in time" } });
  });
});

describe("idle keep-alive connections near the node's cap", () => {
  it("closes idle keep-alive connections once the node nears maxConnections, so new clients are served", async () => {
    // No per-address cap: idle sockets from many addresses, as one address could not hold them.
    const port = await listening({ serverLimits: { maxConnections: 10, maxConnectionsPerAddress: 0 } });
    // A connection in the middle of its request is not idle: it stays, and is answered.
    const slow = await rawClient(port, "127.0.0.3");
    slow.socket.write("GET /healthz HTTP/1.1\r\n");
    const idle: Raw[] = [];
    for (let i = 0; i < 15; i++) {
      const c = await rawClient(port, `127.0.0.${10 + i}`);
      expect(await served(c), `client ${i}`).toBe(true);
      idle.push(c);
    }
    slow.socket.write("Host: 127.0.0.1\r\n\r\n");
    expect(await served(slow)).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    // The server closed the idle ones as the node filled: 15 would not have fit in 10.
    expect(idle.filter((c) => c.socket.destroyed).length).toBeGreaterThanOrEqual(6);
  });
});
