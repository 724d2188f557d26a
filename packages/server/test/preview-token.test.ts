// Preview only for operators (issue #17): the config call shows draft and paused experiences in
// preview mode only with a preview token the admin API minted for the same account, before it
// expires. Anything else is answered as a normal visit of running experiences, with no error.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConfigsResponse } from "@storefit/contract";
import { isValidPreviewToken, mintPreviewToken, PREVIEW_TOKEN_TTL_MS, previewTokenKey } from "../src/auth/preview-token.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import { DEMO_CLIENT_KEY } from "../src/seed/demo.js";
import { FIXED_NOW, FORM, OTHER, SHOP_ORIGIN, addOperator, addOtherAccount, call, makeApp, signIn, user, MEMBER_PASSWORD } from "./helpers.js";
import type { TestApp } from "./helpers.js";

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
  const draft = structuredClone(t.store.getExperience(t.account.id, "exp_price_message")!);
  t.store.saveExperience({ ...draft, id: "exp_draft_price", status: "draft", priority: 99 });
});
afterEach(async () => {
  await t.close();
});

const productPage = () => t.account.settings.pages.find((p) => p.domain === t.account.settings.domain)!.page_path;

/** The experience whose config the call answers for the price (the draft outranks the running test). */
async function shownFor(extra: Record<string, unknown>, visitor = "v-preview"): Promise<string | undefined> {
  const res = await t.app.inject({
    method: "POST",
    url: `/v1/users/configs/?cfenc=${DEMO_CLIENT_KEY}`,
    headers: { "content-type": FORM, origin: SHOP_ORIGIN },
    payload: JSON.stringify({ user: user(visitor), current_page_path: productPage(), current_domain: "littlesprouts.localhost", ...extra }),
  });
  expect(res.statusCode, res.body).toBe(200);
  // The rows a call stores commit behind its answer (routes/client.ts): the tests count them.
  await t.app.clientWritesBehind.drain();
  const configs = Object.values((res.json() as ConfigsResponse).configs);
  return configs.find((c) => c.properties?.element_path === "#product-price")?.experience_behaviour_response?.experience_id;
}

async function mintedToken(creds = { email: "owner@test.example", password: "correct horse battery" }): Promise<{ token: string; expires_at: string }> {
  const res = await call(t.app, await signIn(t.app, creds), "POST", "/api/preview-token");
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { token: string; expires_at: string };
}

describe("preview tokens in the config call", () => {
  it("a valid token of the account: the draft is shown, nothing is stored", async () => {
    const { token, expires_at } = await mintedToken();
    expect(Date.parse(expires_at)).toBe(FIXED_NOW + PREVIEW_TOKEN_TTL_MS);
    expect(await shownFor({ preview_mode: true, preview_token: token })).toBe("exp_draft_price");
    expect(t.store.countRows("visitors", t.account.id)).toBe(0);
    expect(t.store.countRows("assignments", t.account.id)).toBe(0);
  });

  it("no token, a forged, an expired or another account's token: running experiences only, as a normal visit", async () => {
    const key = await previewTokenKey(t.store);
    const { token } = await mintedToken();
    const [expiry, mac] = token.split(".") as [string, string];
    const other = await addOtherAccount(t.store);
    const cases: Record<string, string | undefined> = {
      none: undefined,
      empty: "",
      garbage: "not-a-token",
      "forged MAC": `${expiry}.${Buffer.alloc(32, 7).toString("base64url")}`,
      "expiry moved later": `${(parseInt(expiry, 36) + 1000).toString(36)}.${mac}`,
      expired: mintPreviewToken(key, t.account.id, FIXED_NOW - PREVIEW_TOKEN_TTL_MS - 1).token,
      "another account's": mintPreviewToken(key, other.id, FIXED_NOW).token,
      "another installation's": mintPreviewToken(Buffer.alloc(32, 1), t.account.id, FIXED_NOW).token,
    };
    let n = 0;
    for (const [name, preview_token] of Object.entries(cases)) {
      const shown = await shownFor({ preview_mode: true, ...(preview_token === undefined ? {} : { preview_token }) }, `v-${n++}`);
      expect(shown, name).toBe("exp_price_message");
    }
    // Answered as normal visits: each visitor and its assignment stored.
    expect(t.store.countRows("visitors", t.account.id)).toBe(n);
    // The real token still works.
    expect(await shownFor({ preview_mode: true, preview_token: token })).toBe("exp_draft_price");
  });

  it("desired_experiences cannot force a draft or paused experience without a valid token", async () => {
    const draft = t.store.getExperience(t.account.id, "exp_draft_price")!;
    t.store.saveExperience({ ...structuredClone(draft), id: "exp_paused_price", status: "paused", priority: 98 });
    const key = await previewTokenKey(t.store);
    const otherInstallation = mintPreviewToken(Buffer.alloc(32, 1), t.account.id, FIXED_NOW).token;
    let n = 0;
    for (const forced of ["exp_draft_price", "exp_paused_price"]) {
      for (const extra of [{}, { preview_mode: true }, { preview_mode: true, preview_token: otherInstallation }]) {
        const shown = await shownFor({ desired_experiences: [forced], ...extra }, `v-forced-${n++}`);
        expect(shown, `${forced} ${JSON.stringify(extra)}`).toBe("exp_price_message");
      }
    }
    // With the operator's token, forcing one of them shows it.
    const { token } = mintPreviewToken(key, t.account.id, FIXED_NOW);
    expect(await shownFor({ desired_experiences: ["exp_paused_price"], preview_mode: true, preview_token: token })).toBe("exp_paused_price");
  });

  it("a token longer than any real one is a 400, not a 5xx", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: `/v1/users/configs/?cfenc=${DEMO_CLIENT_KEY}`,
      headers: { "content-type": FORM, origin: SHOP_ORIGIN },
      payload: JSON.stringify({ user: user(), current_page_path: "/", current_domain: "littlesprouts.localhost", preview_mode: true, preview_token: "x".repeat(129) }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: "invalid_body" } });
  });

  it("a token is checked at the call's time: valid until its expiry, not after", () => {
    const key = Buffer.alloc(32, 3);
    const { token, expiresAt } = mintPreviewToken(key, "acc_a", 1_000_000);
    expect(isValidPreviewToken(key, "acc_a", token, expiresAt - 1)).toBe(true);
    expect(isValidPreviewToken(key, "acc_a", token, expiresAt)).toBe(false);
    expect(isValidPreviewToken(key, "acc_b", token, 1_000_000)).toBe(false);
  });
});

describe("POST /api/preview-token", () => {
  it("needs a signed-in operator with a CSRF token; any role may preview", async () => {
    expect((await call(t.app, null, "POST", "/api/preview-token")).statusCode).toBe(401);
    const owner = await signIn(t.app);
    expect((await call(t.app, { cookie: owner.cookie, csrf: "wrong" }, "POST", "/api/preview-token")).statusCode).toBe(403);
    await addOperator(t.store, t.account.id, "viewer@test.example", "viewer");
    const { token } = await mintedToken({ email: "viewer@test.example", password: MEMBER_PASSWORD });
    expect(await shownFor({ preview_mode: true, preview_token: token })).toBe("exp_draft_price");
  });

  it("mints for the caller's account only: the other account's owner gets a token the demo shop refuses", async () => {
    await addOtherAccount(t.store);
    const { token } = await mintedToken(OTHER.owner);
    expect(await shownFor({ preview_mode: true, preview_token: token })).toBe("exp_price_message");
  });

  it("the signing key is made once per database: a second node accepts the first one's tokens", async () => {
    const { token } = await mintedToken();
    const second = openSqliteStore(t.file);
    try {
      expect((await previewTokenKey(second)).equals(await previewTokenKey(t.store))).toBe(true);
      expect(isValidPreviewToken(await previewTokenKey(second), t.account.id, token, FIXED_NOW)).toBe(true);
    } finally {
      second.close();
    }
  });
});
