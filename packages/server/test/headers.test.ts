// Security headers (issue #17 finding 7): the dashboard's files and its single-page fallback carry
// an enforced Content-Security-Policy, nosniff and a Referrer-Policy; the admin API, the scripts
// and error answers carry nosniff. (e2e/dashboard-csp.test.ts checks in Chromium that the built
// dashboard runs under the policy with no violation.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeApp, signIn } from "./helpers.js";
import type { TestApp } from "./helpers.js";

let t: TestApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "storefit-dashboard-"));
  mkdirSync(join(dir, "dashboard", "assets"), { recursive: true });
  writeFileSync(join(dir, "dashboard", "index.html"), '<!doctype html><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(dir, "dashboard", "assets", "app.js"), "console.log(1)");
  writeFileSync(join(dir, "storefit.js"), "/*storefit*/");
  t = await makeApp({ dashboardDir: join(dir, "dashboard"), sdkDir: dir });
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The policy as directive → sources. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}

describe("dashboard headers", () => {
  // The first request of a file waits for the app to compile every route's schemas.
  it("send an enforced CSP, nosniff and Referrer-Policy with every dashboard file and the app's routes", async () => {
    for (const url of ["/", "/index.html", "/assets/app.js", "/experiences/exp_price_message/visual", "/settings"]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-security-policy-report-only"], url).toBeUndefined();
      const csp = directives(String(res.headers["content-security-policy"]));
      expect(csp["script-src"], url).toEqual(["'self'"]);
      expect(csp["default-src"], url).toEqual(["'self'"]);
      expect(csp["object-src"], url).toEqual(["'none'"]);
      // The visual editor frames the shop, on any origin; nobody else frames the dashboard.
      expect(csp["frame-src"], url).toEqual(["http:", "https:"]);
      expect(csp["frame-ancestors"], url).toEqual(["'self'"]);
      expect(csp["style-src"], url).toEqual(["'self'"]);
      expect(res.headers["x-content-type-options"], url).toBe("nosniff");
      expect(res.headers["referrer-policy"], url).toBe("same-origin");
    }
  }, 30_000);

  it("send nosniff with the admin API, the scripts and error answers, and no dashboard CSP on them", async () => {
    const owner = await signIn(t.app);
    const answers = [
      await t.app.inject({ url: "/api/session", headers: { cookie: owner.cookie } }),
      await t.app.inject("/api/experiences"),
      await t.app.inject("/sdk/storefit.js"),
      await t.app.inject("/v1/nothing"),
      await t.app.inject({ method: "POST", url: "/v1/cfe/", payload: "{" }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 200, 404, 401]);
    for (const res of answers) {
      expect(res.headers["x-content-type-options"], res.raw.req.url).toBe("nosniff");
      expect(res.headers["content-security-policy"]).toBeUndefined();
    }
  }, 30_000);
});
