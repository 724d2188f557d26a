// Issue #17, fair limits: a per-address bucket in front of the client key's, X-Forwarded-For only
// with the trustProxy setting, sign-in limited per (email, address) and per address, password
// hashes bounded in number, and the dashboard's files served without waiting behind them.
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { addressKey } from "../src/http/rate-limit.js";
import { HASH_CONCURRENCY, hashingStats } from "../src/auth/password.js";
import { DEMO_CLIENT_KEY, FORM, OWNER, SHOP_ORIGIN, makeApp, user } from "./helpers.js";
import type { TestApp } from "./helpers.js";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A config call as a shop page makes it, from `address` (the socket's peer), with extra headers. */
function configCall(app: TestApp, address: string, visitor: string, headers: Record<string, string> = {}) {
  return app.app.inject({
    method: "POST",
    url: `/v1/users/configs/?cfenc=${DEMO_CLIENT_KEY}`,
    remoteAddress: address,
    headers: { "content-type": FORM, origin: SHOP_ORIGIN, ...headers },
    payload: JSON.stringify({ user: user(visitor), current_page_path: "/", current_domain: "littlesprouts.localhost" }),
  });
}

const signIn = (app: TestApp, address: string, email: string, password: string) =>
  app.app.inject({ method: "POST", url: "/api/session", remoteAddress: address, payload: { email, password } });

/** Buckets that do not refill during a test (the tests' clock is fixed anyway). */
const NO_REFILL = { perSecond: 0.0001 };

describe("client API: per-address bucket before the key's", () => {
  it("one address runs out of its own bucket; the shop's other visitors keep being answered", async () => {
    t = await makeApp({ rateLimits: { clientKey: { burst: 20, ...NO_REFILL }, clientIp: { burst: 5, ...NO_REFILL } } });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await configCall(t, "203.0.113.9", `hostile-${i}`)).statusCode);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    // The hostile sender took 5 of the key's 20 tokens, not all of them.
    for (let i = 0; i < 5; i++) expect((await configCall(t, `198.51.100.${i + 1}`, `real-${i}`)).statusCode).toBe(200);
  }, 60_000);

  it("without trustProxy X-Forwarded-For is ignored; with it, each forwarded client has its own bucket", async () => {
    const limits = { clientKey: { burst: 1000, ...NO_REFILL }, clientIp: { burst: 2, ...NO_REFILL } };
    t = await makeApp({ rateLimits: limits });
    const forged = [];
    for (let i = 0; i < 4; i++) forged.push((await configCall(t, "203.0.113.9", `v-${i}`, { "x-forwarded-for": `192.0.2.${i}` })).statusCode);
    expect(forged).toEqual([200, 200, 429, 429]);
    await t.close();

    t = await makeApp({ rateLimits: limits, trustProxy: true });
    const viaProxy = [];
    for (let i = 0; i < 4; i++) viaProxy.push((await configCall(t, "10.0.0.2", `v-${i}`, { "x-forwarded-for": `192.0.2.${i}` })).statusCode);
    expect(viaProxy).toEqual([200, 200, 200, 200]);
    const same = [];
    for (let i = 0; i < 3; i++) same.push((await configCall(t, "10.0.0.2", `w-${i}`, { "x-forwarded-for": "192.0.2.77, 10.0.0.3" })).statusCode);
    expect(same).toEqual([200, 200, 429]);
  }, 60_000);

  it("addresses: IPv6 by its /64, IPv4-mapped as IPv4, loopback not limited per address", async () => {
    expect(addressKey("2001:db8:0:1:aa::1")).toBe(addressKey("2001:db8:0:1:ffff:1:2:3"));
    expect(addressKey("2001:db8:0:1::1")).not.toBe(addressKey("2001:db8:0:2::1"));
    expect(addressKey("2001:db8::1:2:3:4:5")).toBe("2001:db8:0:1::/64");
    expect(addressKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect([addressKey("127.0.0.1"), addressKey("::1"), addressKey("::ffff:127.0.0.1"), addressKey(undefined)]).toEqual([null, null, null, null]);
    t = await makeApp({ rateLimits: { clientIp: { burst: 1, ...NO_REFILL } } });
    for (let i = 0; i < 3; i++) expect((await configCall(t, "127.0.0.1", `local-${i}`)).statusCode).toBe(200);
  }, 60_000);
});

describe("sign-in limits", () => {
  it("an attacker's 10 wrong guesses lock out their address, not the owner signing in from another", async () => {
    t = await makeApp();
    for (let i = 0; i < 10; i++) expect((await signIn(t, "203.0.113.66", OWNER.email, `guess-${i}`)).statusCode).toBe(401);
    const locked = await signIn(t, "203.0.113.66", OWNER.email, OWNER.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers["retry-after"]).toBeDefined();
    expect((await signIn(t, "198.51.100.20", OWNER.email, OWNER.password)).statusCode).toBe(200);
  }, 60_000);

  it("one address is capped whatever emails it tries", async () => {
    t = await makeApp({ rateLimits: { signInIp: { burst: 4, ...NO_REFILL } } });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn(t, "203.0.113.67", `fresh-${i}@attacker.example`, "x")).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    expect((await signIn(t, "198.51.100.21", OWNER.email, OWNER.password)).statusCode).toBe(200);
  }, 60_000);
});

describe("password hashing under a sign-in flood", () => {
  it("never runs more than the cap at once, answers the overflow 503, and the dashboard's files are answered meanwhile", async () => {
    const dir = mkdtempSync(join(tmpdir(), "storefit-dash-"));
    try {
      mkdirSync(join(dir, "assets"));
      writeFileSync(join(dir, "index.html"), "<!doctype html><title>Storefit</title><script src=/assets/app.js></script>");
      const bundle = "console.log(1);\n".repeat(20_000);
      writeFileSync(join(dir, "assets", "app.js"), bundle);
      // No per-address or per-email limit: many addresses, as a distributed flood would be.
      t = await makeApp({ dashboardDir: dir, rateLimits: { signIn: false, signInIp: false } });
      const file = () => t!.app.inject({ method: "GET", url: "/assets/app.js" });
      const first = await file();
      expect(first.statusCode).toBe(200);
      expect(first.body).toBe(bundle);
      expect(first.headers["content-type"]).toMatch(/javascript/);
      expect((await t.app.inject({ method: "GET", url: "/some/dashboard/route" })).body).toMatch(/<title>Storefit/);

      const flood = Array.from({ length: 40 }, (_, i) => signIn(t!, `198.18.${i >> 8}.${i & 255}`, `fresh-${i}@flood.example`, "x"));
      // Once the flood has reached scrypt, ask for the bundle while every hash slot is busy.
      while (hashingStats().active < HASH_CONCURRENCY) await new Promise((resolve) => setImmediate(resolve));
      const during = await file();
      const stats = hashingStats();
      const statuses = (await Promise.all(flood)).map((r) => r.statusCode);

      // That it does not wait for the thread pool is the next test's (without timing anything).
      expect(during.statusCode).toBe(200);
      expect(during.body).toBe(bundle);
      expect(stats.active).toBe(HASH_CONCURRENCY);
      expect(hashingStats().peak).toBeLessThanOrEqual(HASH_CONCURRENCY);
      expect(new Set(statuses)).toEqual(new Set([401, 503]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("the dashboard's files are answered while every thread of libuv's pool is held", async () => {
    // Opening a FIFO for reading blocks its pool thread until a writer opens it: more opens than
    // the pool has threads hold all of them, as scrypt would without the hashing cap. A file
    // read through the pool would wait here until the end; one served from memory does not.
    const dir = mkdtempSync(join(tmpdir(), "storefit-dash-"));
    const fifo = join(dir, "held");
    execFileSync("mkfifo", [fifo]);
    const held: Promise<unknown>[] = [];
    try {
      mkdirSync(join(dir, "assets"));
      writeFileSync(join(dir, "index.html"), "<!doctype html><title>Storefit</title>");
      writeFileSync(join(dir, "assets", "app.js"), "console.log(1);");
      t = await makeApp({ dashboardDir: dir });
      for (let i = 0; i < 64; i++) held.push(open(fifo, "r").then((f) => f.close()));
      const answers = Promise.all(["/assets/app.js", "/", "/experiences"].map((url) => t!.app.inject({ method: "GET", url })));
      // Generous: from memory this takes milliseconds; through the pool it never comes.
      const outcome = await Promise.race([answers, new Promise<"waited">((r) => setTimeout(() => r("waited"), 20_000))]);
      expect(outcome, "a dashboard file waited for the thread pool").not.toBe("waited");
      expect((outcome as { statusCode: number }[]).map((a) => a.statusCode)).toEqual([200, 200, 200]);
    } finally {
      if (held.length) {
        // A writer lets every open go on (a reader waiting in open counts, so this does not fail).
        const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
        await Promise.all(held);
        closeSync(writer);
      }
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
