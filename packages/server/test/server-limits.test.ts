// Connection hygiene (issue #17 finding 6): a client that never finishes its request headers or
// body is answered 408 and closed within the configured time; idle keep-alive connections are
// closed; connections over the cap are closed as they arrive. Real sockets on loopback, with
// small limits so the test takes a second or two.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "node:net";
import type { Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { DEMO_CLIENT_KEY, makeApp } from "./helpers.js";
import type { TestApp } from "./helpers.js";

const LIMITS = { headersTimeoutMs: 400, requestTimeoutMs: 800, keepAliveTimeoutMs: 300, maxConnections: 5, maxRequestsPerSocket: 3, checkIntervalMs: 50 };

let t: TestApp;
let port: number;
const open: Socket[] = [];

beforeAll(async () => {
  t = await makeApp({ serverLimits: LIMITS });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const s of open) s.destroy();
  await t.close();
});

/** A raw connection, with everything it received and when it was closed. */
function rawClient(): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    open.push(socket);
    let data = "";
    const started = Date.now();
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (data += chunk));
    const closed = new Promise<number>((r) => socket.once("close", () => r(Date.now() - started)));
    socket.once("error", () => {});
    socket.once("connect", () => resolve({ socket, received: () => data, closed }));
    socket.once("error", reject);
  });
}

const connections = () => new Promise<number>((r) => t.app.server.getConnections((_e, n) => r(n)));

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((r) => setImmediate(r));
}

/** Closed by the server within `ms`, or the test fails (the socket is then closed by us). */
async function closedWithin(client: { socket: Socket; closed: Promise<number> }, ms: number): Promise<number> {
  const timer = new Promise<"open">((r) => setTimeout(() => r("open"), ms));
  const outcome = await Promise.race([client.closed, timer]);
  if (outcome === "open") client.socket.destroy();
  expect(outcome, `still open after ${ms} ms`).not.toBe("open");
  return outcome as number;
}

describe("slow and idle clients", () => {
  it("closes a connection whose request headers never finish (408)", async () => {
    const c = await rawClient();
    c.socket.write(`POST /v1/cfe/?cfenc=${DEMO_CLIENT_KEY} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n`);
    const after = await closedWithin(c, 3_000);
    expect(after).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 50);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it("closes a connection whose body never finishes (408)", async () => {
    const c = await rawClient();
    c.socket.write(`POST /v1/cfe/?cfenc=${DEMO_CLIENT_KEY} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n{"user":`);
    // Trickling a byte now and then does not keep it open past the request time-out.
    const trickle = setInterval(() => c.socket.write(" "), 100);
    try {
      const after = await closedWithin(c, 3_000);
      expect(after).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 50);
    } finally {
      clearInterval(trickle);
    }
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it("closes a connection that sends nothing at all", async () => {
    const c = await rawClient();
    await closedWithin(c, 3_000);
  });

  it("closes an idle keep-alive connection, and one that carried its share of requests", async () => {
    const c = await rawClient();
    c.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const idle = await closedWithin(c, 3_000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(idle).toBeGreaterThanOrEqual(LIMITS.keepAliveTimeoutMs - 50);

    const busy = await rawClient();
    busy.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".repeat(LIMITS.maxRequestsPerSocket + 2));
    await closedWithin(busy, 3_000);
    expect(busy.received().match(/HTTP\/1\.1 200/g)).toHaveLength(LIMITS.maxRequestsPerSocket);
  });

  it("closes connections over the cap as they arrive, and answers again once they are gone", async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnections }, () => rawClient()));
    // Each held connection is half-way through its headers, so none is idle or finished.
    for (const c of held) c.socket.write("GET /healthz HTTP/1.1\r\n");
    await until(async () => (await connections()) === LIMITS.maxConnections);
    const extra = await rawClient();
    extra.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await closedWithin(extra, 2_000);
    expect(extra.received()).toBe("");
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});
