// POST /api/page-check (issue #16): the service fetches a page of the account's shop and says why
// the visual editor may not start there: no answer, an error status, a header refusing frames,
// no snippet or another account's. Nothing off the account's domains is fetched.
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frameRefusal } from "../src/routes/admin-page-check.js";
import { DEMO_CLIENT_KEY, call, makeApp, signIn } from "./helpers.js";
import type { TestApp } from "./helpers.js";

let t: TestApp;
let shop: Server;
let port: number;
let owner: Awaited<ReturnType<typeof signIn>>;
const DASHBOARD = "http://localhost:4100";

const PAGES: Record<string, { status?: number; headers?: Record<string, string>; body: string }> = {
  "/ok": { body: `<html><head><script src="http://localhost:4100/v1/accounts/${DEMO_CLIENT_KEY}/snippet.js"></script></head></html>` },
  "/other": { body: `<html><head><script src="http://localhost:4100/v1/accounts/ck_someone_else/snippet.js"></script></head></html>` },
  "/bare": { body: "<html><head><title>No snippet</title></head></html>" },
  "/xfo": { headers: { "x-frame-options": "SAMEORIGIN" }, body: "<html></html>" },
  "/csp": { headers: { "content-security-policy": "default-src 'self'; frame-ancestors 'self' https://admin.example" }, body: "<html></html>" },
  "/missing": { status: 404, body: "not found" },
};

beforeAll(async () => {
  // The test shop listens on loopback, like the demo shop (`npm start` sets this).
  process.env.PAGE_CHECK_PRIVATE_ADDRESSES = "loopback";
  t = await makeApp();
  shop = createServer((req, res) => {
    const page = PAGES[req.url ?? ""] ?? PAGES["/missing"]!;
    res.writeHead(page.status ?? 200, { "content-type": "text/html", ...page.headers });
    res.end(page.body);
  });
  await new Promise<void>((r) => shop.listen(0, "127.0.0.1", r));
  port = (shop.address() as AddressInfo).port;
  owner = await signIn(t.app);
}, 30_000);
afterAll(async () => {
  delete process.env.PAGE_CHECK_PRIVATE_ADDRESSES;
  await new Promise<void>((r) => shop.close(() => r()));
  await t.close();
});

function check(url: string) {
  return call(t.app, owner, "POST", "/api/page-check", { url }, { origin: DASHBOARD });
}

describe("POST /api/page-check", () => {
  it("tells each cause apart on a page of the shop (a .localhost host is loopback)", async () => {
    const at = (path: string) => `http://littlesprouts.localhost:${port}${path}`;
    const seen = async (path: string) => (await check(at(path))).json() as Record<string, unknown>;
    expect(await seen("/ok")).toEqual({ url: at("/ok"), reachable: true, status: 200, error: null, frame_refused_by: null, snippet: "this_account" });
    expect(await seen("/other")).toMatchObject({ reachable: true, snippet: "other_account" });
    expect(await seen("/bare")).toMatchObject({ reachable: true, snippet: "missing" });
    expect(await seen("/xfo")).toMatchObject({ frame_refused_by: "X-Frame-Options: SAMEORIGIN" });
    expect(await seen("/csp")).toMatchObject({ frame_refused_by: "Content-Security-Policy: frame-ancestors 'self' https://admin.example" });
    expect(await seen("/missing")).toMatchObject({ reachable: true, status: 404, snippet: null });
  }, 30_000);

  it("a port where nothing listens: not reachable, with the reason", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const free = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const res = await check(`http://littlesprouts.localhost:${free}/products/x`);
    expect(res.json()).toMatchObject({ reachable: false, status: null, error: "nothing answers at that address and port" });
  });

  it("fetches nothing off the account's domains, and refuses what is no web address (400)", async () => {
    for (const url of ["http://127.0.0.1:4100/", "https://example.com/", "file:///etc/passwd", "not a url"]) {
      const res = await check(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: "invalid_body" } });
    }
    expect((await call(t.app, null, "POST", "/api/page-check", { url: "http://littlesprouts.localhost/" })).statusCode).toBe(401);
  }, 30_000);
});

describe("frameRefusal", () => {
  it("lets the dashboard frame a page that names it, any origin, or its scheme", () => {
    expect(frameRefusal({ "content-security-policy": "frame-ancestors http://localhost:4100" }, DASHBOARD)).toBeNull();
    expect(frameRefusal({ "content-security-policy": "frame-ancestors *" }, DASHBOARD)).toBeNull();
    expect(frameRefusal({ "content-security-policy": "frame-ancestors http:" }, DASHBOARD)).toBeNull();
    expect(frameRefusal({ "content-security-policy": "frame-ancestors 'none'" }, DASHBOARD)).toBe("Content-Security-Policy: frame-ancestors 'none'");
    expect(frameRefusal({ "x-frame-options": "DENY" }, DASHBOARD)).toBe("X-Frame-Options: DENY");
    expect(frameRefusal({}, DASHBOARD)).toBeNull();
  });
});
