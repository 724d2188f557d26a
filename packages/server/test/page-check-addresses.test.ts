// The page check fetches only public addresses unless the install allows more
// (PAGE_CHECK_PRIVATE_ADDRESSES): an owner chooses the account's domain, and a security audit
// used the check to probe the service's own host (its API on loopback answered; port 22 "nothing
// answers") through the demo's `*.localhost` domain and a domain set to 127.0.0.1.
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { LookupAddress } from "node:dns";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedLookup, privateAddressesFromEnv, refusedAddress } from "../src/routes/admin-page-check.js";
import { call, makeApp, signIn } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

const NOT_PUBLIC = [
  "127.0.0.1", "127.8.9.10", "0.0.0.0", "10.1.2.3", "100.64.0.1", "169.254.169.254", "172.16.0.1", "172.31.255.255", "192.168.1.1",
  "224.0.0.1", "255.255.255.255", "::", "::1", "fc00::1", "fd12:3456::1", "fe80::1", "ff02::1",
  "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:a9fe:a9fe", "64:ff9b::10.0.0.1", "2002:7f00:1::",
];
const PUBLIC = ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:5db8:d822"];

describe("refusedAddress", () => {
  it("refuses loopback, private, link-local, multicast and reserved addresses, also inside IPv6; passes public ones", () => {
    for (const a of NOT_PUBLIC) expect(refusedAddress(a, "none"), a).toMatch(/is not public/);
    for (const a of PUBLIC) expect(refusedAddress(a, "none"), a).toBeNull();
  });

  it("'loopback' opens loopback only; 'all' opens every range", () => {
    for (const a of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) expect(refusedAddress(a, "loopback"), a).toBeNull();
    for (const a of ["10.1.2.3", "169.254.169.254", "192.168.1.1", "fe80::1"]) expect(refusedAddress(a, "loopback"), a).toMatch(/is not public/);
    for (const a of NOT_PUBLIC) expect(refusedAddress(a, "all"), a).toBeNull();
  });

  it("reads PAGE_CHECK_PRIVATE_ADDRESSES: loopback, all, anything else none", () => {
    expect(privateAddressesFromEnv("loopback")).toBe("loopback");
    expect(privateAddressesFromEnv("all")).toBe("all");
    for (const v of [undefined, "", "1", "yes", "LOOPBACK"]) expect(privateAddressesFromEnv(v)).toBe("none");
  });
});

describe("the page check's lookup", () => {
  const lookup = (host: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; addresses: LookupAddress[] | string }>((resolve) =>
      guardedLookup("none")(host, { all }, (error, addresses) => resolve({ error, addresses: addresses as LookupAddress[] | string })),
    );

  it("checks what the resolver answers (here an address the resolver echoes) and what .localhost means", async () => {
    for (const all of [true, false]) {
      expect((await lookup("10.1.2.3", all)).error?.message).toMatch(/10\.1\.2\.3.*is not public/);
      expect((await lookup("shop.localhost", all)).error?.message).toMatch(/127\.0\.0\.1.*is not public/);
      expect((await lookup("93.184.216.34", all)).error).toBeNull();
    }
    expect((await lookup("93.184.216.34", true)).addresses).toEqual([{ address: "93.184.216.34", family: 4 }]);
  });
});

describe("POST /api/page-check without PAGE_CHECK_PRIVATE_ADDRESSES", () => {
  let t: TestApp;
  let owner: Auth;
  let host: Server;
  let port: number;
  let requests = 0;

  beforeAll(async () => {
    delete process.env.PAGE_CHECK_PRIVATE_ADDRESSES;
    t = await makeApp();
    owner = await signIn(t.app);
    // A service on the test machine's loopback, standing for the service's own API or any port.
    host = createServer((_req, res) => {
      requests++;
      res.writeHead(200, { "content-type": "text/html" }).end("<html></html>");
    });
    await new Promise<void>((r) => host.listen(0, "127.0.0.1", r));
    port = (host.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    await new Promise<void>((r) => host.close(() => r()));
    await t.close();
  });

  const check = async (url: string) => {
    const res = await call(t.app, owner, "POST", "/api/page-check", { url }, { origin: "http://localhost:4100" });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { reachable: boolean; error: string | null; status: number | null };
  };

  it("fetches nothing on loopback through the demo's *.localhost domain: a listening port and a closed one answer alike", async () => {
    const open = await check(`http://littlesprouts.localhost:${port}/`);
    const closed = await check("http://littlesprouts.localhost:9/");
    for (const answer of [open, closed]) {
      expect(answer).toMatchObject({ reachable: false, status: null, error: expect.stringMatching(/127\.0\.0\.1\) is not public/) });
    }
    expect(requests).toBe(0);
  });

  it("fetches nothing when an owner makes the account's domain a loopback, metadata or private address", async () => {
    for (const [domain, url] of [
      ["127.0.0.1", `http://127.0.0.1:${port}/`],
      ["localhost", `http://localhost:${port}/`],
      ["169.254.169.254", "http://169.254.169.254/latest/meta-data/"],
      ["10.0.0.5", "http://10.0.0.5:8080/"],
    ]) {
      const saved = await call(t.app, owner, "PATCH", "/api/account", { settings: { domain } });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(await check(url!), domain).toMatchObject({ reachable: false, error: expect.stringMatching(/is not public/) });
    }
    expect(requests).toBe(0);
  }, 30_000);
});
