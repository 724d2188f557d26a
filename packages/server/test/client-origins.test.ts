// The origin check of the client API is remembered per account revision (routes/client.ts
// originAllowed): a domain added or removed in the settings is checked afresh on the next call,
// a foreign origin stays refused however often it calls, and what is remembered is bounded.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ORIGIN_CACHE_SIZE, REMEMBERED_TEXT_MAX_LENGTH, originAllowed } from "../src/routes/client.js";
import type { PreparedAccount } from "../src/decide/snapshots.js";
import { DEMO_CLIENT_KEY, makeApp } from "./helpers.js";
import type { TestApp } from "./helpers.js";

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => {
  await t.close();
});

const SHOP = "http://littlesprouts.localhost:4200";
const configCall = (origin: string) =>
  t.app.inject({
    method: "POST",
    url: `/v1/users/configs/?cfenc=${DEMO_CLIENT_KEY}`,
    headers: { "content-type": "text/plain", origin },
    payload: JSON.stringify({ user: { user_customer_id: "v1", anonymous: true }, current_domain: "littlesprouts.localhost", current_page_path: "/" }),
  });

describe("the client API's origin check", () => {
  it("follows the account's settings: a subdomain added is allowed, once removed refused again", async () => {
    const shopOrigin = "https://eu.littlesprouts.localhost";
    for (let i = 0; i < 2; i++) expect((await configCall(shopOrigin)).statusCode).toBe(403);
    const settings = t.store.getAccount(t.account.id)!.settings;
    t.store.updateAccount(t.account.id, () => ({ settings: { ...settings, subdomains: [...settings.subdomains, "eu.littlesprouts.localhost"] } }));
    const allowed = await configCall(shopOrigin);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers["access-control-allow-origin"]).toBe(shopOrigin);
    t.store.updateAccount(t.account.id, () => ({ settings }));
    // Refused though the account as this node last read it allowed it (the call's checks run
    // ahead of its revision read, and are made again on what the read answers): no CORS header.
    const refused = await configCall(shopOrigin);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
    expect((await configCall(SHOP)).statusCode).toBe(200);
  });

  it("refuses a foreign origin on every call, remembers only allowed origins, a bounded number of them, none longer than the limit", () => {
    const prepared = {
      account: { ...t.account, settings: { ...t.account.settings, domain: "shop.example", subdomains: [] } },
      experiences: [],
      audiences: new Map(),
      planCache: new Map(),
      origins: new Map(),
    } as PreparedAccount;
    for (let i = 0; i < 3; i++) {
      expect(originAllowed(prepared, "https://evil.example")).toBe(false);
      expect(originAllowed(prepared, "https://shop.example")).toBe(true);
      expect(originAllowed(prepared, "not a url")).toBe(false);
    }
    // Refused origins, which anyone can send, are not remembered: the shop's own stays.
    for (let i = 0; i < 3 * ORIGIN_CACHE_SIZE; i++) expect(originAllowed(prepared, `https://x${i}.evil.example`)).toBe(false);
    expect([...prepared.origins.keys()]).toEqual(["https://shop.example"]);
    for (let i = 0; i < 3 * ORIGIN_CACHE_SIZE; i++) expect(originAllowed(prepared, `https://shop.example:${1000 + i}`)).toBe(true);
    expect(prepared.origins.size).toBeLessThanOrEqual(ORIGIN_CACHE_SIZE);
    expect(prepared.origins.size).toBeGreaterThan(0);
    const long = `https://shop.example/${"a".repeat(REMEMBERED_TEXT_MAX_LENGTH)}`;
    prepared.origins.clear();
    expect(originAllowed(prepared, long)).toBe(true);
    expect(prepared.origins.size).toBe(0);
  });
});
