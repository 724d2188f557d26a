// What one client address can hold of a node (docs/security.md "Connections", "Rate limits"):
// open connections per address, checked as each connection is accepted, so one address cannot
// fill maxConnections with idle keep-alive sockets and lock everyone out, while shoppers behind one
// NAT address take over its idle ones; idle connections closed without cutting off an answer
// still being sent; trusted proxies read as Fastify reads them; body bytes per address
// on the client API; and what Node's HTTP parser refuses, answered in the service's error shape.
// Real sockets on loopback: 127.0.0.1 and 127.0.0.2 are two client addresses (Linux answers all
// of 127.0.0.0/8).
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { connect } from "node:net";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLIENT_BODY_LIMIT, trustedProxies } from "../src/http/edge.js";
import { DEMO_CLIENT_KEY, FORM, SHOP_ORIGIN, makeApp, user } from "./helpers.js";
import type { TestApp } from "./helpers.js";
import type { AppOptions } from "../src/app.js";

let t: TestApp | null = null;
const sockets: Socket[] = [];
const dirs: string[] = [];
/** The server's side of each connection, by the client's address and port. */
const serverSide = new Map<string, Socket>();
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await t?.close();
  t = null;
  serverSide.clear();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function listening(options: Partial<AppOptions>): Promise<number> {
  t = await makeApp(options);
  t.app.server.on("connection", (s: Socket) => serverSide.set(`${s.remoteAddress}:${s.remotePort}`, s));
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  return (t.app.server.address() as AddressInfo).port;
}

const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 5));
};

/** The server's side of the connection, once the server has accepted it. */
async function accepted(c: Raw): Promise<Socket> {
  await until(() => serverSide.has(c.key));
  return serverSide.get(c.key)!;
}

/** When the server's side of the connection has closed. */
const serverClosed = async (c: Raw) => {
  const s = await accepted(c);
  if (!s.closed) await new Promise((r) => s.once("close", r));
};

type Raw = { socket: Socket; received: () => string; closed: Promise<void>; key: string };

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
    socket.once("connect", () => resolve({ socket, received: () => data, closed, key: `${localAddress}:${socket.localPort}` }));
    socket.once("error", reject);
  });
}

const HEALTH = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

/** One request on the connection, answered; the connection then stays open, idle (keep-alive). */
async function answeredAndIdle(c: Raw): Promise<void> {
  c.socket.write(HEALTH);
  while (!/\r\n\r\n\{"ok":true\}$/.test(c.received())) await new Promise((r) => setTimeout(r, 5));
}

/** Sends the start of a request and waits until the server has read it: the connection is busy. */
async function partRequest(c: Raw): Promise<void> {
  const server = await accepted(c);
  const before = server.bytesRead;
  c.socket.write("GET /healthz HTTP/1.1\r\n");
  await until(() => server.bytesRead > before);
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
  it("closes one more connection from an address whose connections are all busy, as it arrives; another address is served", async () => {
    const port = await listening({ serverLimits: { maxConnectionsPerAddress: 3, maxConnections: 6 } });
    // Busy: one has not sent a request yet, one is in the middle of one, one was answered and
    // has started its next.
    const held = await Promise.all([1, 2, 3].map(() => rawClient(port, "127.0.0.1")));
    await partRequest(held[1]!);
    await answeredAndIdle(held[2]!);
    await partRequest(held[2]!);

    const fourth = await rawClient(port, "127.0.0.1");
    expect(await served(fourth)).toBe(false);
    expect(fourth.received()).toBe("");
    expect(held.map((c) => c.socket.destroyed)).toEqual([false, false, false]);

    // The node's cap is 6: the address's 3 leave room, and the other address is served.
    const other = await Promise.all([1, 2, 3].map(() => rawClient(port, "127.0.0.2")));
    for (const c of other) expect(await served(c)).toBe(true);

    // One of the first address's connections closes: the address may open one again.
    const closing = serverClosed(held[0]!);
    held[0]!.socket.destroy();
    await closing;
    expect(await served(await rawClient(port, "127.0.0.1"))).toBe(true);
  });

  it("at its cap, an address's longest idle connection is closed for its new one (shoppers behind one NAT)", async () => {
    const port = await listening({ serverLimits: { maxConnectionsPerAddress: 3, maxConnections: 100 } });
    const held: Raw[] = [];
    for (let i = 0; i < 3; i++) {
      held.push(await rawClient(port, "127.0.0.1"));
      await answeredAndIdle(held[i]!);
    }
    // Another shopper behind the same address: served, on the connection idle longest.
    const fourth = await rawClient(port, "127.0.0.1");
    expect(await served(fourth)).toBe(true);
    await held[0]!.closed;
    expect(held[0]!.received()).toMatch(/^HTTP\/1\.1 200 [^]*\{"ok":true\}$/);
    // Only that one: the others still carry requests.
    expect(await served(held[1]!)).toBe(true);
    expect(await served(held[2]!)).toBe(true);

    // All three busy (each in the middle of its next request): one more is refused, unread.
    for (const c of [held[1]!, held[2]!, fourth]) await partRequest(c);
    const fifth = await rawClient(port, "127.0.0.1");
    expect(await served(fifth)).toBe(false);
    expect(fifth.received()).toBe("");
    // The busy ones finish their requests and are answered.
    held[1]!.socket.write("Host: 127.0.0.1\r\n\r\n");
    await until(() => (held[1]!.received().match(/\{"ok":true\}/g) ?? []).length === 3);
  });

  it("one address flooding the node cannot take its last connections from everyone else", async () => {
    const port = await listening({ serverLimits: { maxConnectionsPerAddress: 4, maxConnections: 8 } });
    // Twice the node's cap from one address, each idle after one request (the audit's flood).
    const flood: Raw[] = [];
    for (let i = 0; i < 16; i++) {
      const c = await rawClient(port, "127.0.0.1");
      await served(c);
      flood.push(c);
    }
    // Each new one took the place of one idle: the address never held more than its 4.
    await until(() => flood.filter((c) => !c.socket.destroyed).length <= 4);
    expect(await served(await rawClient(port, "127.0.0.2"))).toBe(true);
  });

  it("does not cap a trusted proxy's address, through which every client comes", async () => {
    const port = await listening({ trustProxy: ["127.0.0.1"], serverLimits: { maxConnectionsPerAddress: 2, maxConnections: 20 } });
    const viaProxy = await Promise.all(Array.from({ length: 5 }, () => rawClient(port, "127.0.0.1")));
    for (const c of viaProxy) expect(await served(c)).toBe(true);
    // Another address is capped: two connections that have not sent a request yet hold its 2.
    const direct = await Promise.all(Array.from({ length: 2 }, () => rawClient(port, "127.0.0.2")));
    expect(await served(await rawClient(port, "127.0.0.2"))).toBe(false);
    expect(await Promise.all(direct.map((c) => served(c)))).toEqual([true, true]);
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

  it("trusts exactly the peers Fastify's proxy-addr trusts, netmasks and IPv4-mapped ranges included", () => {
    // The proxy-addr Fastify itself loads, so that the connection cap exempts the proxies whose
    // X-Forwarded-For the rate limits read, and no others.
    const proxyAddr = createRequire(createRequire(import.meta.url).resolve("fastify"))("@fastify/proxy-addr") as {
      compile: (entries: string[]) => (address: string, hop: number) => boolean;
    };
    const entries = [
      "10.0.0.0/8", "10.0.0.0/255.0.0.0", "10.1.2.3/255.255.0.0", "172.16.0.0/255.240.0.0", "10.0.0.0/08", "0.0.0.0/1",
      "192.168.1.1", "192.168.1.1/32", "::1", "2001:db8::/32", "2001:db8::1/128", "::/1", "fe80::/10", "fe80::1%eth0",
      "::ffff:10.0.0.1", "::ffff:10.0.0.0/104", "::ffff:0:0/96", "::ffff:10.0.0.0/64", "0:0:0:0:0:ffff:a00:0/120",
      "loopback", "linklocal", "uniquelocal",
    ];
    const peers = [
      "10.1.2.3", "::ffff:10.1.2.3", "10.0.0.1", "::ffff:10.0.0.1", "11.0.0.1", "127.0.0.1", "::ffff:127.0.0.1", "::1",
      "2001:db8::5", "2001:db9::5", "fe80::1", "fe80::1%eth0", "fe80::1%eth1", "172.20.0.1", "172.32.0.1", "192.168.1.1",
      "169.254.3.4", "200.1.1.1", "::ffff:200.1.1.1", "8000::1", "fc00::1", "0.0.0.0", "not-an-address",
    ];
    for (const list of [...entries.map((e) => [e]), entries]) {
      const ours = trustedProxies(list);
      const fastify = proxyAddr.compile(list);
      expect(peers.map((p) => `${p} ${ours(p)}`), list.join(",")).toEqual(peers.map((p) => `${p} ${fastify(p, 0)}`));
    }
    // What proxy-addr refuses, refused here too (Fastify stops first, at its own start).
    for (const bad of ["10.0.0.0/0", "10.0.0.0/33", "10.0.0.0/255.0.255.0", "10.0.0.0/0.0.0.0", "2001:db8::/ffff::", "2001:db8::/129", "10.0.0.0/x"]) {
      expect(() => proxyAddr.compile([bad]), bad).toThrow();
      expect(() => trustedProxies([bad]), bad).toThrow(/TRUST_PROXY: .* has no valid range/);
    }
    // proxy-addr's other IPv4 spellings stop the node with a message, rather than being read otherwise.
    for (const odd of ["127.1", "0x7f.0.0.1"]) {
      expect(() => proxyAddr.compile([odd])).not.toThrow();
      expect(() => trustedProxies([odd])).toThrow(`TRUST_PROXY: "${odd}" is not an address or range the service reads`);
    }
  });

  it("starts with a trusted proxy's range given as a netmask, and does not cap that proxy", async () => {
    const port = await listening({ trustProxy: ["127.0.0.0/255.0.0.0"], serverLimits: { maxConnectionsPerAddress: 2, maxConnections: 20 } });
    const viaProxy = await Promise.all(Array.from({ length: 4 }, () => rawClient(port, "127.0.0.1")));
    for (const c of viaProxy) await partRequest(c);
    for (const c of viaProxy) {
      c.socket.write("Host: 127.0.0.1\r\n\r\n");
      await until(() => c.received().includes('{"ok":true}'));
    }
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

  /** A 16 MiB file of the dashboard, more than the sockets' buffers of both ends hold. */
  const BIG = 16 * 1024 * 1024;
  function dashboardWithBigFile(): string {
    const dir = mkdtempSync(join(tmpdir(), "storefit-edge-"));
    dirs.push(dir);
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "index.html"), "<!doctype html>");
    writeFileSync(join(dir, "assets", "big.js"), Buffer.alloc(BIG, 97));
    return dir;
  }

  /** Asks for the big file, reads its first bytes and stops reading: answered, not yet all sent. */
  async function slowReader(port: number, localAddress: string): Promise<{ c: Raw; body: () => Promise<number> }> {
    const c = await rawClient(port, localAddress);
    c.socket.write("GET /assets/big.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await until(() => c.received().length > 0);
    c.socket.pause();
    const server = await accepted(c);
    // The answer was ended (one write of the whole file) and part of it still waits in the node.
    await until(() => server.writableLength > 0);
    return {
      c,
      /** Reads on until the answer is complete or the connection closes; the body's length. */
      body: async () => {
        const bodyLength = () => c.received().length - c.received().indexOf("\r\n\r\n") - 4;
        c.socket.resume();
        await Promise.race([until(() => bodyLength() >= BIG), c.closed]);
        expect(c.received()).toMatch(/^HTTP\/1\.1 200 [^]*content-length: 16777216\r\n/i);
        return bodyLength();
      },
    };
  }

  it("near maxConnections, leaves a connection whose answer is still being sent to a slow reader", async () => {
    const port = await listening({ dashboardDir: dashboardWithBigFile(), serverLimits: { maxConnections: 10, maxConnectionsPerAddress: 0 } });
    const reader = await slowReader(port, "127.0.0.3");
    const idle: Raw[] = [];
    for (let i = 0; i < 15; i++) {
      const c = await rawClient(port, `127.0.0.${10 + i}`);
      expect(await served(c), `client ${i}`).toBe(true);
      idle.push(c);
    }
    // The sweeps ran (15 would not have fit in 10), and the slow reader gets the whole file.
    expect(idle.filter((c) => c.socket.destroyed).length).toBeGreaterThanOrEqual(6);
    expect(await reader.body()).toBe(BIG);
  });

  it("at an address's cap, closes its idle connection, not the one still sending an answer", async () => {
    const port = await listening({ dashboardDir: dashboardWithBigFile(), serverLimits: { maxConnections: 100, maxConnectionsPerAddress: 2 } });
    const reader = await slowReader(port, "127.0.0.1");
    const idle = await rawClient(port, "127.0.0.1");
    await answeredAndIdle(idle);
    const third = await rawClient(port, "127.0.0.1");
    expect(await served(third)).toBe(true);
    await idle.closed;
    // Now the slow reader and the third: both busy, a fourth is refused.
    await partRequest(third);
    expect(await served(await rawClient(port, "127.0.0.1"))).toBe(false);
    expect(await reader.body()).toBe(BIG);
  });
});
