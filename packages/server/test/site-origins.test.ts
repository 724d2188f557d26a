// The shop's addresses (settings.site_origins, issue #16): the demo account stores where its
// shop is served, port included, so the dashboard opens pages that load; operators set them for
// a real shop through PATCH /api/account. Matching stays by host name.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AccountView } from "@storefit/contract";
import { DEMO_CLIENT_KEY, seedDemo } from "../src/seed/demo.js";
import { demoSiteOrigins } from "../src/seed/demo-pages.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import { OWNER, call, makeApp, signIn } from "./helpers.js";
import type { TestApp } from "./helpers.js";

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe("the demo account's shop addresses", () => {
  it("seedDemo stores the shop's origins with its port; a restart on another port moves them, an operator's own are kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), "storefit-origins-"));
    const store = openSqliteStore(join(dir, "s.sqlite"));
    try {
      store.migrate();
      await seedDemo(store, OWNER, { siteOrigins: demoSiteOrigins(4321) });
      const origins = () => store.getAccountByClientKey(DEMO_CLIENT_KEY)!.settings.site_origins;
      expect(origins()).toEqual(["http://littlesprouts.localhost:4321", "http://littlesprouts-uk.localhost:4321"]);
      // The domains the script and the service match stay host names.
      expect(store.getAccountByClientKey(DEMO_CLIENT_KEY)!.settings.domain).toBe("littlesprouts.localhost");

      await seedDemo(store, OWNER, { siteOrigins: demoSiteOrigins(4200) });
      expect(origins()).toEqual(demoSiteOrigins(4200));
      // Without options (npm run demo-data), what is stored stays.
      await seedDemo(store, OWNER);
      expect(origins()).toEqual(demoSiteOrigins(4200));

      const account = store.getAccountByClientKey(DEMO_CLIENT_KEY)!;
      store.updateAccount(account.id, () => ({ settings: { ...account.settings, site_origins: ["https://littlesprouts.example"] } }));
      await seedDemo(store, OWNER, { siteOrigins: demoSiteOrigins(5000) });
      expect(origins()).toEqual(["https://littlesprouts.example"]);

      // An account seeded before the setting existed gets the demo's addresses.
      const { site_origins: _, ...older } = account.settings;
      store.updateAccount(account.id, () => ({ settings: older }));
      await seedDemo(store, OWNER, { siteOrigins: demoSiteOrigins(4200) });
      expect(origins()).toEqual(demoSiteOrigins(4200));
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("site_origins through the admin API", () => {
  it("GET /api/account answers them; PATCH takes origins and refuses anything else with a 400", async () => {
    t = await makeApp();
    const owner = await signIn(t.app);
    const got = (await call(t.app, owner, "GET", "/api/account")).json() as AccountView;
    expect(got.settings.site_origins).toEqual(demoSiteOrigins());

    const ok = await call(t.app, owner, "PATCH", "/api/account", { settings: { site_origins: ["https://shop.example.com", "http://localhost:3000"] } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((ok.json() as AccountView).settings.site_origins).toEqual(["https://shop.example.com", "http://localhost:3000"]);

    for (const bad of ["shop.example.com", "https://shop.example.com/products", "ftp://shop.example.com", "https://shop.example.com:port", 7]) {
      const res = await call(t.app, owner, "PATCH", "/api/account", { settings: { site_origins: [bad] } });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: "invalid_body" } });
    }
  });
});
