// Audiences through the admin API: conditions validated at save time, used by rules at decision
// time, and protected from deletion while a rule uses them.
import { describe, expect, it } from "vitest";
import type { Audience, AudienceListResponse, ConfigsResponse } from "@storefit/contract";
import { DEMO_CLIENT_KEY } from "../src/seed/demo.js";
import { call, experienceBody, FORM, SHOP_ORIGIN, signedInEachTest, user } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;

signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

const MOBILE = { name: "Mobile shoppers", description: "Phones", condition: { cf_device_type: "mobile", "private.tier": { $in: ["gold", "silver"] } } };

describe("audiences", () => {
  it("lists the seeded audience, creates, reads, replaces and deletes one", async () => {
    const list = (await call(t.app, owner, "GET", "/api/audiences")).json() as AudienceListResponse;
    expect(list.audiences.map((a) => [a.id, a.condition])).toEqual([["aud_first_time_visitors", { is_first_time_visitor: true }]]);
    const created = await call(t.app, owner, "POST", "/api/audiences", MOBILE);
    expect(created.statusCode).toBe(201);
    const audience = created.json() as Audience;
    expect(audience).toMatchObject({ ...MOBILE, id: expect.stringMatching(/^aud_/) });
    expect((await call(t.app, owner, "GET", `/api/audiences/${audience.id}`)).json()).toEqual(audience);
    const put = await call(t.app, owner, "PUT", `/api/audiences/${audience.id}`, { name: "Tablets", condition: { cf_device_type: "tablet" } });
    expect(put.json()).toMatchObject({ id: audience.id, name: "Tablets", description: "", condition: { cf_device_type: "tablet" }, created_at: audience.created_at });
    expect((await call(t.app, owner, "DELETE", `/api/audiences/${audience.id}`)).statusCode).toBe(204);
    expect((await call(t.app, owner, "GET", `/api/audiences/${audience.id}`)).statusCode).toBe(404);
  });

  for (const [name, condition, where] of [
    ["an unknown operator", { age: { $near: 3 } }, "age.$near"],
    ["an invalid regular expression", { cf_ua: { $regex: "(" } }, "cf_ua.$regex"],
    ["a regular expression that takes exponential time", { cf_ua: { $regex: "^(a+)+$" } }, "cf_ua.$regex"],
    ["overlapping alternatives, exponential at star height 1", { cf_ua: { $regex: "^(a|a)*$" } }, "cf_ua.$regex"],
    ["$in without an array", { tier: { $in: "gold" } }, "tier.$in"],
    ["a bad version", { cf_browser_version: { $vgt: "new" } }, "cf_browser_version.$vgt"],
    ["operators mixed with fields", { tier: { $eq: 1, gold: true } }, "tier"],
  ] as const) {
    it(`refuses ${name} with 400 invalid_condition naming where, and stores nothing`, async () => {
      const res = await call(t.app, owner, "POST", "/api/audiences", { name: "Broken", condition });
      expect(res.statusCode).toBe(400);
      const body = res.json() as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_condition");
      expect(body.error.message).toContain(where);
      expect(t.store.listAudiences(t.account.id)).toHaveLength(1);
    });

    it(`refuses ${name} in a PUT too, and keeps the stored condition`, async () => {
      const before = t.store.getAudience(t.account.id, "aud_first_time_visitors");
      const res = await call(t.app, owner, "PUT", "/api/audiences/aud_first_time_visitors", { name: "Broken", condition });
      expect(res.statusCode).toBe(400);
      const body = res.json() as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_condition");
      expect(body.error.message).toContain(where);
      expect(t.store.getAudience(t.account.id, "aud_first_time_visitors")).toEqual(before);
    });
  }

  it("refuses bodies of the wrong shape", async () => {
    for (const body of [{ name: "x" }, { name: "x", condition: [] }, { name: "", condition: {} }, { name: "x", condition: {}, extra: 1 }]) {
      const res = await call(t.app, owner, "POST", "/api/audiences", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: "invalid_body" } });
    }
  });

  it("a rule's audience decides who gets the experience, and an edited condition applies on the next call", async () => {
    const audience = (await call(t.app, owner, "POST", "/api/audiences", { name: "Campaign", condition: { utm_campaign: "spring" } })).json() as Audience;
    const body = experienceBody({ rules: [{ ...experienceBody().rules[0], audience_id: audience.id }] });
    const exp = (await call(t.app, owner, "POST", "/api/experiences", body)).json() as { id: string };
    await call(t.app, owner, "POST", `/api/experiences/${exp.id}/status`, { status: "running" });
    const ask = async (extra: Record<string, unknown>) =>
      (
        (
          await t.app.inject({
            method: "POST",
            url: `/v1/users/configs/?cfenc=${DEMO_CLIENT_KEY}`,
            headers: { "content-type": FORM, origin: SHOP_ORIGIN },
            payload: JSON.stringify({ user: user("v", extra), current_page_path: "/", current_domain: "littlesprouts.localhost" }),
          })
        ).json() as ConfigsResponse
      ).configs.hero_title;
    expect(await ask({ utm_campaign: "spring" })).toMatchObject({ experience_behaviour_response: { audience_name: "Campaign" } });
    expect(await ask({ utm_campaign: "autumn" })).toBeUndefined();
    await call(t.app, owner, "PUT", `/api/audiences/${audience.id}`, { name: "Campaign", condition: { utm_campaign: { $in: ["spring", "autumn"] } } });
    expect(await ask({ utm_campaign: "autumn" })).toBeDefined();

    // In use: not deletable.
    const del = await call(t.app, owner, "DELETE", `/api/audiences/${audience.id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json()).toMatchObject({ error: { code: "in_use" } });
    expect((await call(t.app, owner, "DELETE", "/api/audiences/aud_first_time_visitors")).statusCode).toBe(409);
  });
});
