// The storefront script, the generated snippet, and unknown routes.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { DEMO_CLIENT_KEY } from "../src/seed/demo.js";
import { makeApp } from "./helpers.js";
import type { TestApp } from "./helpers.js";
import { snippetOf } from "../src/routes/assets.js";

let t: TestApp;
let app: FastifyInstance;
let sdkDir: string;

beforeEach(async () => {
  sdkDir = mkdtempSync(join(tmpdir(), "storefit-sdk-"));
  writeFileSync(join(sdkDir, "storefit.js"), "/*storefit*/console.log(1)");
  writeFileSync(join(sdkDir, "storefit.debug.js"), "/*debug*/console.log(1)");
  t = await makeApp({ sdkDir, dashboardDir: join(sdkDir, "none"), publicUrl: "https://api.storefit.test" });
  app = t.app;
});
afterEach(async () => {
  await t.close();
  rmSync(sdkDir, { recursive: true, force: true });
});

describe("scripts", () => {
  it("serves storefit.js and its debug twin as JavaScript", async () => {
    const res = await app.inject("/sdk/storefit.js");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(res.body).toBe("/*storefit*/console.log(1)");
    expect((await app.inject("/sdk/storefit.debug.js")).body).toContain("/*debug*/");
  });

  it("serves every file the SDK build emits, and nothing outside its directory", async () => {
    writeFileSync(join(sdkDir, "storefit-ext.js"), "/*ext*/");
    const ext = await app.inject("/sdk/storefit-ext.js");
    expect(ext.statusCode).toBe(200);
    expect(ext.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(ext.body).toBe("/*ext*/");
    const missing = await app.inject("/sdk/storefit-editor.js");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: "not_found" } });
    for (const url of ["/sdk/..%2Fpackage.json", "/sdk/storefit.json", "/sdk/.hidden.js", "/sdk/UPPER.js"]) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.headers["content-type"], url).toMatch(/^application\/json/);
    }
  });

  it("serves the account's snippet: the settings global, then the script, with an ETag", async () => {
    const res = await app.inject(`/v1/accounts/${DEMO_CLIENT_KEY}/snippet.js`);
    expect(res.statusCode).toBe(200);
    const [first, rest] = [res.body.slice(0, res.body.indexOf("\n")), res.body.slice(res.body.indexOf("\n") + 1)];
    expect(rest).toBe("/*storefit*/console.log(1)");
    const settings = JSON.parse(first.replace(/^window\.storefitSettings=/, "").replace(/;$/, ""));
    expect(settings).toMatchObject({
      client_key: DEMO_CLIENT_KEY,
      api_host: "https://api.storefit.test",
      domain: "littlesprouts.localhost",
      subdomains: ["littlesprouts-uk.localhost"],
      page_update: false,
      intelligent_code: true,
      personalize_after_timeout: true,
      sdk_timeout_ms: 5000,
    });
    expect(settings.pages.length).toBeGreaterThanOrEqual(25);
    // The account's revision (docs/api.md "Answer cache"): a kept config answer of another is never shown.
    expect(settings.revision).toBe(t.store.getAccountByClientKey(DEMO_CLIENT_KEY)!.revision);
    // Always revalidated, in the background: a page load never waits for the snippet it has.
    expect(res.headers["cache-control"]).toBe("public, max-age=0, stale-while-revalidate=604800");
    const again = await app.inject({ url: `/v1/accounts/${DEMO_CLIENT_KEY}/snippet.js`, headers: { "if-none-match": res.headers.etag as string } });
    expect(again.statusCode).toBe(304);
  });

  it("names the account's new revision after a change, under a new ETag", async () => {
    const revisionOf = (body: string) => JSON.parse(body.slice(0, body.indexOf("\n")).replace(/^window\.storefitSettings=/, "").replace(/;$/, "")).revision as number;
    const before = await app.inject(`/v1/accounts/${DEMO_CLIENT_KEY}/snippet.js`);
    t.store.updateAccount(t.account.id, (a) => ({ settings: { ...a.settings, sdk_timeout_ms: 4000 } }));
    const after = await app.inject({ url: `/v1/accounts/${DEMO_CLIENT_KEY}/snippet.js`, headers: { "if-none-match": before.headers.etag as string } });
    expect(after.statusCode).toBe(200);
    expect(revisionOf(after.body)).toBeGreaterThan(revisionOf(before.body));
  });

  it("answers 404 JSON for an unknown account's snippet and unknown routes", async () => {
    const res = await app.inject("/v1/accounts/ck_nobody/snippet.js");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: "unknown_client_key" } });
    const nothing = await app.inject("/api/nothing");
    expect(nothing.statusCode).toBe(404);
    expect(nothing.json()).toMatchObject({ error: { code: "not_found" } });
  });
});

describe("the snippet's compile hint (packages/sdk/compile-hint.mjs)", () => {
  it("starts the snippet with the script's compile hint, so V8 reads it as the file's first line", () => {
    const script = "//# allFunctionsCalledOnLoad\n(()=>{})();";
    expect(snippetOf("window.storefitSettings={};", script)).toBe("//# allFunctionsCalledOnLoad\nwindow.storefitSettings={};\n(()=>{})();");
    expect(snippetOf("window.storefitSettings={};", "(()=>{})();")).toBe("window.storefitSettings={};\n(()=>{})();");
  });
});

describe("the snippet's api_host (issue #17 finding 7)", () => {
  const settingsOf = (body: string) => JSON.parse(body.slice(0, body.indexOf("\n")).replace(/^window\.storefitSettings=/, "").replace(/;$/, "")) as { api_host: string };
  const snippet = (a: FastifyInstance, host: string) => a.inject({ url: `/v1/accounts/${DEMO_CLIENT_KEY}/snippet.js`, headers: { host } });

  it("comes from PUBLIC_URL whatever the Host header says, and then does not vary by Host", async () => {
    const res = await snippet(app, "evil.example");
    expect(settingsOf(res.body).api_host).toBe("https://api.storefit.test");
    expect(String(res.headers.vary ?? "")).not.toMatch(/host/i);
    expect(res.headers["cache-control"]).toBe("public, max-age=0, stale-while-revalidate=604800");
  });

  it("without PUBLIC_URL, names the Host only when it is a public origin, else the first of them; Vary: Host", async () => {
    const other = await makeApp({ sdkDir, dashboardDir: join(sdkDir, "none"), publicOrigins: ["https://cdn.storefit.test", "http://Localhost:4100/"] });
    try {
      for (const [host, apiHost] of [
        ["evil.example", "https://cdn.storefit.test"],
        ["localhost:4100", "http://localhost:4100"],
        ["127.0.0.1:4100", "https://cdn.storefit.test"],
        ["localhost:4100@evil.example", "https://cdn.storefit.test"],
      ] as const) {
        const res = await snippet(other.app, host);
        expect(res.statusCode, host).toBe(200);
        expect(settingsOf(res.body).api_host, host).toBe(apiHost);
        expect(res.headers.vary, host).toMatch(/\bHost\b/);
        expect(res.headers["x-content-type-options"]).toBe("nosniff");
      }
    } finally {
      await other.close();
    }
  });

  it("behind a trusted proxy, also varies by the forwarded host and scheme it reads", async () => {
    const origins = ["https://cdn.storefit.test", "https://api.storefit.test"];
    const proxied = await makeApp({ sdkDir, dashboardDir: join(sdkDir, "none"), publicOrigins: origins, trustProxy: true });
    try {
      const res = await proxied.app.inject({
        url: `/v1/accounts/${DEMO_CLIENT_KEY}/snippet.js`,
        headers: { host: "cdn.storefit.test", "x-forwarded-host": "api.storefit.test", "x-forwarded-proto": "https" },
      });
      expect(settingsOf(res.body).api_host).toBe("https://api.storefit.test");
      expect(String(res.headers.vary).split(/,\s*/)).toEqual(["Host", "X-Forwarded-Host", "X-Forwarded-Proto"]);
    } finally {
      await proxied.close();
    }
    // Without the setting the forwarded headers are not read, and the answer varies by Host only.
    const direct = await makeApp({ sdkDir, dashboardDir: join(sdkDir, "none"), publicOrigins: origins });
    try {
      const res = await direct.app.inject({ url: `/v1/accounts/${DEMO_CLIENT_KEY}/snippet.js`, headers: { host: "cdn.storefit.test", "x-forwarded-host": "api.storefit.test" } });
      expect(settingsOf(res.body).api_host).toBe("https://cdn.storefit.test");
      expect(res.headers.vary).toBe("Host");
    } finally {
      await direct.close();
    }
  });

  it("with no public origin configured, takes loopback hosts only and refuses any other (421)", async () => {
    const bare = await makeApp({ sdkDir, dashboardDir: join(sdkDir, "none") });
    try {
      const local = await snippet(bare.app, "localhost:4100");
      expect(settingsOf(local.body).api_host).toBe("http://localhost:4100");
      expect(settingsOf((await snippet(bare.app, "127.0.0.1:9")).body).api_host).toBe("http://127.0.0.1:9");
      const evil = await snippet(bare.app, "evil.example");
      expect(evil.statusCode).toBe(421);
      expect(evil.json()).toMatchObject({ error: { code: "forbidden_origin" } });
      expect(evil.headers.vary).toMatch(/\bHost\b/);
    } finally {
      await bare.close();
    }
  });
});
