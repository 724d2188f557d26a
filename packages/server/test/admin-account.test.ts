// The account, its settings and snippet, team members, secret keys and roles (product.md §3).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AccountView, Member, SessionInfo, MemberListResponse, SecretKeyCreated, SecretKeyListResponse } from "@storefit/contract";
import { DEMO_CLIENT_KEY } from "../src/seed/demo.js";
import { MEMBER_PASSWORD, addOperator, call, makeApp, signIn } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;
let sdkDir: string;

beforeEach(async () => {
  sdkDir = mkdtempSync(join(tmpdir(), "storefit-sdk-"));
  writeFileSync(join(sdkDir, "storefit.js"), "/*storefit*/");
  t = await makeApp({ sdkDir });
  owner = await signIn(t.app);
});
afterEach(async () => {
  await t.close();
  rmSync(sdkDir, { recursive: true, force: true });
});

async function as(role: "editor" | "viewer"): Promise<Auth> {
  const email = `${role}@test.example`;
  await addOperator(t.store, t.account.id, email, role);
  return signIn(t.app, { email, password: MEMBER_PASSWORD });
}

async function newKey(name = "CI"): Promise<SecretKeyCreated> {
  const res = await call(t.app, owner, "POST", "/api/account/keys", { name });
  expect(res.statusCode).toBe(201);
  return res.json() as SecretKeyCreated;
}

describe("GET and PATCH /api/account", () => {
  it("answers the client key with access level client, and the settings", async () => {
    const res = await call(t.app, owner, "GET", "/api/account");
    const body = res.json() as AccountView;
    expect(body).toMatchObject({ client_key: DEMO_CLIENT_KEY, access_level: "client", name: "Little Sprouts" });
    expect(body.settings).toMatchObject({ domain: "littlesprouts.localhost", page_update: false, intelligent_code: true });
    expect(body.settings.pages).toHaveLength(30);
  });

  it("an owner changes settings; only the fields given change; the snippet and its ETag follow at once", async () => {
    const before = await t.app.inject(`/v1/accounts/${DEMO_CLIENT_KEY}/snippet.js`);
    const res = await call(t.app, owner, "PATCH", "/api/account", {
      name: "Little Sprouts EU",
      settings: { spa_mode: true, consent_required: true, sdk_timeout_ms: 3000, subdomains: ["littlesprouts-uk.localhost", "*.littlesprouts.example"] },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as AccountView;
    expect(body.name).toBe("Little Sprouts EU");
    expect(body.settings).toMatchObject({ spa_mode: true, sdk_timeout_ms: 3000, domain: "littlesprouts.localhost", page_update: false });
    expect(body.revision).toBeGreaterThan(t.account.revision);

    const after = await t.app.inject({ url: `/v1/accounts/${DEMO_CLIENT_KEY}/snippet.js`, headers: { "if-none-match": before.headers.etag as string } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body).toContain('"spa_mode":true');
    expect(after.body).toContain('"consent_required":true');
    expect(after.body).toContain('"sdk_timeout_ms":3000');
    expect(after.body).toContain("*.littlesprouts.example");
    // The new subdomain is a CORS origin of the client API from the next call on.
    const cors = await t.app.inject({
      method: "POST",
      url: `/v1/alerts/?cfenc=${DEMO_CLIENT_KEY}`,
      headers: { "content-type": "text/plain", origin: "https://shop.littlesprouts.example" },
      payload: "{}",
    });
    expect(cors.statusCode).toBe(200);
  });

  it("refuses bad settings with 400 and changes nothing", async () => {
    for (const body of [
      { settings: { spa_mode: "yes" } },
      { settings: { domain: "https://x.example/" } },
      { settings: { track_queue_size: 2 } },
      { settings: { client_key: "ck_mine" } },
      { settings: { pages: [{ domain: "x", page_path: "/p" }] } },
      // Patterns the script runs on every visitor's URL: nested repetition is refused (admin/patterns.ts).
      { settings: { page_blacklist: ["^/ok$", "^(a+)+$"] } },
      { settings: { referrer_blacklist: ["(.*a){30}"] } },
      { settings: { referrer_blacklist: ["^https://(\\w|\\d)+\\.example/$"] } },
      { settings: { event_merge: [{ path_check_type: "regex", pattern_value: "^/(p+)+$", final_path: "/p" }] } },
      { settings: { revenue_pages: [{ domain: "", path_check_type: "regex", pattern_value: "(\\d+)*!", revenue_event_customer_id: "r", revenue_amount: 1 }] } },
      { settings: { pages: [{ domain: "", page_path: "(x+x+)+y", element_path: "#p", page_match: "regex", config_id: "c" }] } },
      { revision: 9 },
      { name: "" },
    ]) {
      const res = await call(t.app, owner, "PATCH", "/api/account", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: "invalid_body" } });
    }
    expect(t.store.getAccount(t.account.id)).toEqual(t.account);
  });

  it("refuses an owner's change to the states Storefit sets (403, nothing stored), and takes them back unchanged", async () => {
    t.store.updateAccount(t.account.id, () => ({ settings: { ...t.account.settings, subscription_expired: true, personalized_users_limit_exceeded: true } }));
    const before = t.store.getAccount(t.account.id)!;
    for (const settings of [
      { subscription_expired: false },
      { personalized_users_limit_exceeded: false },
      { account_enabled: false },
      // Refused as a whole: the allowed flag beside it is not stored either.
      { spa_mode: true, subscription_expired: false },
    ]) {
      const res = await call(t.app, owner, "PATCH", "/api/account", { settings });
      expect(res.statusCode, JSON.stringify(settings)).toBe(403);
      expect(res.headers["content-type"]).toContain("application/json");
      const name = Object.keys(settings).find((k) => k !== "spa_mode")!;
      expect(res.json()).toMatchObject({ error: { code: "forbidden", message: expect.stringContaining(`(${name}) is set by Storefit`) as unknown } });
    }
    expect(t.store.getAccount(t.account.id)).toEqual(before);
    // The stored values sent back (a client PATCHing the settings it read) are accepted.
    const res = await call(t.app, owner, "PATCH", "/api/account", {
      settings: { spa_mode: true, account_enabled: true, subscription_expired: true, personalized_users_limit_exceeded: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(t.store.getAccount(t.account.id)!.settings).toMatchObject({ spa_mode: true, subscription_expired: true, personalized_users_limit_exceeded: true });
  });

  it("keeps a settings pattern that does not compile (spec Appendix A: it matches nothing) and a safe one", async () => {
    const res = await call(t.app, owner, "PATCH", "/api/account", { settings: { page_blacklist: ["^/admin(", "^/checkout/[a-z-]+$"] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(t.store.getAccount(t.account.id)!.settings.page_blacklist).toEqual(["^/admin(", "^/checkout/[a-z-]+$"]);
  });

  it("viewers and editors read the account but may not change it", async () => {
    for (const role of ["viewer", "editor"] as const) {
      const auth = await as(role);
      expect((await call(t.app, auth, "GET", "/api/account")).statusCode).toBe(200);
      const res = await call(t.app, auth, "PATCH", "/api/account", { name: "Mine" });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: { code: "forbidden" } });
    }
    expect(t.store.getAccount(t.account.id)!.name).toBe("Little Sprouts");
  });
});

describe("/api/account/members (owner)", () => {
  it("adds a member who can then sign in with that role, changes the role, removes them", async () => {
    const add = await call(t.app, owner, "POST", "/api/account/members", { email: "Ed@Test.example", password: "a-long-password", role: "editor" });
    expect(add.statusCode).toBe(201);
    const member = add.json() as Member;
    expect(member).toMatchObject({ email: "ed@test.example", role: "editor" });
    expect(JSON.stringify(member)).not.toContain("password");

    const ed = await signIn(t.app, { email: "ed@test.example", password: "a-long-password" });
    expect(ed.session.user.role).toBe("editor");

    const list = (await call(t.app, owner, "GET", "/api/account/members")).json() as MemberListResponse;
    expect(list.members.map((m) => m.email).sort()).toEqual(["ed@test.example", "owner@test.example"]);

    const patched = await call(t.app, owner, "PATCH", `/api/account/members/${member.id}`, { role: "viewer" });
    expect(patched.json()).toMatchObject({ role: "viewer" });
    // The role is read per request: the open session is a viewer now.
    expect((await call(t.app, ed, "POST", "/api/audiences", { name: "x", condition: {} })).statusCode).toBe(403);

    expect((await call(t.app, owner, "DELETE", `/api/account/members/${member.id}`)).statusCode).toBe(204);
    expect((await call(t.app, ed, "GET", "/api/session")).statusCode).toBe(401);
  });

  it("refuses a taken email (409), a short password and an unknown role (400)", async () => {
    const taken = await call(t.app, owner, "POST", "/api/account/members", { email: "OWNER@test.example", password: "a-long-password", role: "viewer" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: { code: "conflict" } });
    for (const body of [
      { email: "new@test.example", password: "short", role: "viewer" },
      { email: "new@test.example", password: "a-long-password", role: "admin" },
      { email: "not-an-email", password: "a-long-password", role: "viewer" },
    ]) {
      expect((await call(t.app, owner, "POST", "/api/account/members", body)).statusCode).toBe(400);
    }
    expect(t.store.listOperators(t.account.id)).toHaveLength(1);
  });

  it("keeps at least one owner", async () => {
    const me = ((await call(t.app, owner, "GET", "/api/session")).json() as SessionInfo).user.id;
    const demote = await call(t.app, owner, "PATCH", `/api/account/members/${me}`, { role: "editor" });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({ error: { code: "last_owner" } });
    expect((await call(t.app, owner, "DELETE", `/api/account/members/${me}`)).statusCode).toBe(409);
  });

  it("is for owners only", async () => {
    for (const role of ["viewer", "editor"] as const) {
      const auth = await as(role);
      expect((await call(t.app, auth, "GET", "/api/account/members")).statusCode).toBe(403);
      expect((await call(t.app, auth, "POST", "/api/account/members", { email: `x${role}@t.example`, password: "a-long-password", role: "owner" })).statusCode).toBe(403);
    }
  });
});

describe("secret keys", () => {
  it("shows the secret once, stores only its hash, and lists keys without it", async () => {
    const key = await newKey("Nightly import");
    expect(key.secret).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(key.secret.slice(0, 9));
    const list = (await call(t.app, owner, "GET", "/api/account/keys")).json() as SecretKeyListResponse;
    expect(list.keys).toEqual([{ id: key.id, name: "Nightly import", prefix: key.prefix, created_at: key.created_at, last_used_at: null }]);
    expect(JSON.stringify(list)).not.toContain(key.secret);
  });

  it("a secret key acts as an editor on its account without CSRF, and is marked as used", async () => {
    const key = await newKey();
    const bearer: Auth = { bearer: key.secret };
    expect((await call(t.app, bearer, "GET", "/api/experiences")).statusCode).toBe(200);
    const created = await call(t.app, bearer, "POST", "/api/audiences", { name: "Returning", condition: { is_first_time_visitor: false } });
    expect(created.statusCode).toBe(201);
    // Editor rights, not owner's.
    expect((await call(t.app, bearer, "PATCH", "/api/account", { name: "x" })).statusCode).toBe(403);
    expect((await call(t.app, bearer, "GET", "/api/account/keys")).statusCode).toBe(403);
    // A key is not a session.
    expect((await call(t.app, bearer, "GET", "/api/session")).statusCode).toBe(401);
    const list = (await call(t.app, owner, "GET", "/api/account/keys")).json() as SecretKeyListResponse;
    expect(list.keys[0]!.last_used_at).not.toBeNull();
  });

  it("a revoked, wrong or client key opens nothing", async () => {
    const key = await newKey();
    expect((await call(t.app, owner, "DELETE", `/api/account/keys/${key.id}`)).statusCode).toBe(204);
    for (const bearer of [key.secret, key.secret.slice(0, -1) + "x", DEMO_CLIENT_KEY, "sk_"]) {
      const res = await call(t.app, { bearer }, "GET", "/api/experiences");
      expect(res.statusCode, bearer).toBe(401);
      expect(res.json()).toMatchObject({ error: { code: "unauthorized" } });
    }
    expect((await call(t.app, owner, "DELETE", `/api/account/keys/${key.id}`)).statusCode).toBe(404);
  });

  it("rate-limits per secret key with 429 and Retry-After", async () => {
    const limited = await makeApp({ rateLimits: { secretKey: { burst: 2, perSecond: 0.5 } } });
    try {
      const o = await signIn(limited.app);
      const key = ((await call(limited.app, o, "POST", "/api/account/keys", { name: "k" })).json() as SecretKeyCreated).secret;
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await call(limited.app, { bearer: key }, "GET", "/api/experiences")).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
      const res = await call(limited.app, { bearer: key }, "GET", "/api/experiences");
      expect(res.headers["retry-after"]).toBe("2");
      expect(res.json()).toMatchObject({ error: { code: "rate_limited" } });
      // Sessions are not limited by the key's bucket.
      expect((await call(limited.app, o, "GET", "/api/experiences")).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("sign-in attempts", () => {
  it("are rate-limited per email address", async () => {
    const limited = await makeApp({ rateLimits: { signIn: { burst: 2, perSecond: 1 / 60 } } });
    try {
      const attempt = (email: string) => limited.app.inject({ method: "POST", url: "/api/session", payload: { email, password: "wrong" } });
      expect((await attempt("owner@test.example")).statusCode).toBe(401);
      expect((await attempt("OWNER@test.example")).statusCode).toBe(401);
      const third = await attempt("owner@test.example");
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers["retry-after"])).toBe(60);
      expect((await attempt("someone@else.example")).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});
