// product.md §3: "one account's key never reads another account's data". A second account's
// operator and secret key try every resource of the demo account by id.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AccountView, ConfigsResponse, EventListResponse, ExperienceListResponse, SecretKeyCreated } from "@storefit/contract";
import { DEMO_CLIENT_KEY } from "../src/seed/demo.js";
import { userIdFor } from "../src/routes/client.js";
import { FIXED_NOW, OTHER, addOtherAccount, call, experienceBody, makeApp, signIn, insertEvents } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let demoOwner: Auth;
let demoKeyId: string;
let callers: [string, Auth][];

beforeEach(async () => {
  t = await makeApp();
  await addOtherAccount(t.store);
  demoOwner = await signIn(t.app);
  demoKeyId = ((await call(t.app, demoOwner, "POST", "/api/account/keys", { name: "demo" })).json() as SecretKeyCreated).id;
  const otherOwner = await signIn(t.app, OTHER.owner);
  const otherKey = ((await call(t.app, otherOwner, "POST", "/api/account/keys", { name: "other" })).json() as SecretKeyCreated).secret;
  callers = [
    ["the other account's owner", otherOwner],
    ["the other account's secret key", { bearer: otherKey }],
  ];
  insertEvents(t.store, t.account.id, "u_demo", [{ event_type: "PAGE", event_customer_id: "x|page", insert_id: "demo-1", event_timestamp: FIXED_NOW }], new Date(FIXED_NOW).toISOString());
});
afterEach(async () => {
  await t.close();
});

describe("another account's operator or secret key", () => {
  it("sees only its own account, experiences, audiences and events", async () => {
    for (const [who, auth] of callers) {
      expect(((await call(t.app, auth, "GET", "/api/account")).json() as AccountView).id, who).toBe(OTHER.accountId);
      expect(((await call(t.app, auth, "GET", "/api/experiences")).json() as ExperienceListResponse).experiences, who).toEqual([]);
      expect((await call(t.app, auth, "GET", "/api/audiences")).json(), who).toEqual({ audiences: [] });
      const events = (await call(t.app, auth, "GET", "/api/events")).json() as EventListResponse;
      expect(events, who).toEqual({ total: 0, total_exact: true, events: [], older: null, newer: null, searched: null });
    }
  });

  it("gets 404 for the demo account's resources by id, and changes nothing", async () => {
    const before = JSON.stringify([t.store.listExperiences(t.account.id), t.store.listAudiences(t.account.id), t.store.listSecretKeys(t.account.id), t.store.listOperators(t.account.id)]);
    const attempts: ["GET" | "PUT" | "PATCH" | "DELETE" | "POST", string, unknown][] = [
      ["GET", "/api/experiences/exp_price_message", undefined],
      ["PUT", "/api/experiences/exp_price_message", experienceBody()],
      ["PATCH", "/api/experiences/exp_price_message", { name: "mine" }],
      ["DELETE", "/api/experiences/exp_price_message", undefined],
      ["POST", "/api/experiences/exp_price_message/status", { status: "paused" }],
      ["GET", "/api/results/exp_price_message", undefined],
      ["GET", "/api/audiences/aud_first_time_visitors", undefined],
      ["PUT", "/api/audiences/aud_first_time_visitors", { name: "x", condition: {} }],
      ["DELETE", "/api/audiences/aud_first_time_visitors", undefined],
    ];
    for (const [who, auth] of callers) {
      for (const [method, url, body] of attempts) {
        const res = await call(t.app, auth, method, url, body);
        expect(res.statusCode, `${who}: ${method} ${url}`).toBe(404);
        expect(res.json()).toMatchObject({ error: { code: "not_found" } });
      }
    }
    // Members and keys are the owner's: the other owner gets 404, the other key 403 (editor).
    const [, otherOwner] = callers[0]!;
    expect((await call(t.app, otherOwner, "PATCH", "/api/account/members/op_owner", { role: "viewer" })).statusCode).toBe(404);
    expect((await call(t.app, otherOwner, "DELETE", "/api/account/members/op_owner")).statusCode).toBe(404);
    expect((await call(t.app, otherOwner, "DELETE", `/api/account/keys/${demoKeyId}`)).statusCode).toBe(404);
    const after = JSON.stringify([t.store.listExperiences(t.account.id), t.store.listAudiences(t.account.id), t.store.listSecretKeys(t.account.id), t.store.listOperators(t.account.id)]);
    expect(after).toBe(before);
  });

  it("cannot point a rule at the demo account's audience", async () => {
    for (const [who, auth] of callers) {
      const body = experienceBody({ rules: [{ ...experienceBody().rules[0], audience_id: "aud_first_time_visitors" }] });
      const res = await call(t.app, auth, "POST", "/api/experiences", body);
      expect(res.statusCode, who).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: "invalid_reference" } });
    }
  });

  it("an experience made in the other account is invisible to the demo account and its client key", async () => {
    const [, otherOwner] = callers[0]!;
    const mine = (await call(t.app, otherOwner, "POST", "/api/experiences", experienceBody())).json() as { id: string };
    await call(t.app, otherOwner, "POST", `/api/experiences/${mine.id}/status`, { status: "running" });
    expect((await call(t.app, demoOwner, "GET", `/api/experiences/${mine.id}`)).statusCode).toBe(404);
    // The demo shop's home page: the other account's experience targets the same path and domain.
    const answer = await t.app.inject({
      method: "POST",
      url: `/v1/users/configs/?cfenc=${DEMO_CLIENT_KEY}`,
      headers: { "content-type": "text/plain" },
      payload: JSON.stringify({ user: { user_customer_id: "v", anonymous: true }, current_page_path: "/", current_domain: "littlesprouts.localhost" }),
    });
    expect((answer.json() as ConfigsResponse).configs).toEqual({});
  });

  it("the same customer id in two accounts is two visitors, each with its own user id", async () => {
    const ask = async (clientKey: string, domain: string) => {
      const res = await t.app.inject({
        method: "POST",
        url: `/v1/users/configs/?cfenc=${clientKey}`,
        headers: { "content-type": "text/plain" },
        payload: JSON.stringify({ user: { user_customer_id: "same-visitor", anonymous: true }, current_page_path: "/", current_domain: domain }),
      });
      return (res.json() as ConfigsResponse).user_id;
    };
    // Asked in turn, so that a node's remembered ids are asked for the second account too.
    const demo = await ask(DEMO_CLIENT_KEY, "littlesprouts.localhost");
    const other = await ask(OTHER.clientKey, OTHER.domain);
    expect(demo).toBe(userIdFor(t.account.id, "same-visitor"));
    expect(other).toBe(userIdFor(OTHER.accountId, "same-visitor"));
    expect(other).not.toBe(demo);
    expect(await ask(DEMO_CLIENT_KEY, "littlesprouts.localhost")).toBe(demo);
  });
});
