// The admin API's sign-in, session cookie, CSRF and first resources, against real SQLite.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import type { EventListResponse, ExperienceListResponse, SessionInfo } from "@storefit/contract";
import { DEMO_CLIENT_KEY } from "../src/seed/demo.js";
import type { SqliteStore } from "../src/store/sqlite/index.js";
import { OWNER, makeApp, insertEvents } from "./helpers.js";
import type { TestApp } from "./helpers.js";

let t: TestApp;
let app: FastifyInstance;
let store: SqliteStore;

beforeEach(async () => {
  t = await makeApp();
  ({ app, store } = t);
});
afterEach(async () => {
  await t.close();
});

async function signIn() {
  const res = await app.inject({ method: "POST", url: "/api/session", payload: OWNER });
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name === "storefit_session")!;
  return { cookie: `storefit_session=${cookie.value}`, session: res.json() as SessionInfo, raw: cookie };
}

describe("sign-in and sessions", () => {
  it("refuses anonymous callers and client keys with 401 JSON", async () => {
    for (const url of ["/api/session", "/api/experiences", "/api/events", `/api/events?cfenc=${DEMO_CLIENT_KEY}`]) {
      const res = await app.inject({ url, headers: { cfenc: DEMO_CLIENT_KEY } });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ error: { code: "unauthorized" } });
    }
  });

  it("refuses a wrong password and an unknown email alike", async () => {
    for (const payload of [{ ...OWNER, password: "nope" }, { email: "who@x.example", password: "nope" }]) {
      const res = await app.inject({ method: "POST", url: "/api/session", payload });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: { code: "invalid_credentials" } });
      expect(res.cookies).toHaveLength(0);
    }
  });

  it("signs in with an httpOnly SameSite=Strict cookie and answers the session", async () => {
    const { cookie, session, raw } = await signIn();
    expect(raw.httpOnly).toBe(true);
    expect(raw.sameSite).toBe("Strict");
    expect(session.user).toMatchObject({ email: OWNER.email, role: "owner" });
    expect(session.account.client_key).toBe(DEMO_CLIENT_KEY);
    const me = await app.inject({ url: "/api/session", headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect((me.json() as SessionInfo).csrf_token).toBe(session.csrf_token);
  });

  it("signing out needs the CSRF token, then the session is gone", async () => {
    const { cookie, session } = await signIn();
    const noCsrf = await app.inject({ method: "DELETE", url: "/api/session", headers: { cookie } });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json()).toMatchObject({ error: { code: "csrf" } });
    const wrong = await app.inject({ method: "DELETE", url: "/api/session", headers: { cookie, "x-csrf-token": "x" + session.csrf_token } });
    expect(wrong.statusCode).toBe(403);
    const ok = await app.inject({ method: "DELETE", url: "/api/session", headers: { cookie, "x-csrf-token": session.csrf_token } });
    expect(ok.statusCode).toBe(204);
    expect((await app.inject({ url: "/api/session", headers: { cookie } })).statusCode).toBe(401);
  });

  it("rejects a malformed sign-in body with 400", async () => {
    const res = await app.inject({ method: "POST", url: "/api/session", payload: { email: "a@b.c" } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: "invalid_body" } });
  });
});

describe("resources", () => {
  it("lists the seeded experiences, one of each kind of change", async () => {
    const { cookie } = await signIn();
    const res = await app.inject({ url: "/api/experiences", headers: { cookie } });
    const body = res.json() as ExperienceListResponse;
    // The seed saves them within the same millisecond or so: compare by id.
    expect(body.experiences.map((e) => [e.id, e.status, e.kind, e.variation_count]).sort()).toEqual([
      ["exp_gallery_device", "running", "personalization", 1],
      ["exp_price_message", "running", "ab_test", 2],
      ["exp_uk_tax_line", "running", "personalization", 1],
      ["exp_welcome_popup", "running", "personalization", 1],
    ]);
    // What the list's traffic column shows, without reading each experience.
    expect(body.experiences.find((e) => e.id === "exp_price_message")!.traffic).toEqual([
      { rule_id: "rule_price_everyone", traffic_allocation: 1, weights: [50, 50] },
    ]);
  });

  it("lists the latest events, newest first, with the total, and validates limit", async () => {
    const { cookie } = await signIn();
    const account = store.getAccountByClientKey(DEMO_CLIENT_KEY)!;
    insertEvents(store, 
      account.id,
      "u_1",
      [1, 2, 3].map((i) => ({
        event_type: "PAGE",
        event_customer_id: "littlesprouts.localhost|page_view",
        insert_id: `e${i}`,
        event_timestamp: i,
        properties: { page_path: `/p${i}` },
      })),
      new Date().toISOString(),
    );
    const res = await app.inject({ url: "/api/events?limit=2", headers: { cookie } });
    const body = res.json() as EventListResponse;
    expect(body.total).toBe(3);
    expect(body.events.map((e) => e.page_path)).toEqual(["/p3", "/p2"]);
    const bad = await app.inject({ url: "/api/events?limit=lots", headers: { cookie } });
    expect(bad.statusCode).toBe(400);
  });
});
