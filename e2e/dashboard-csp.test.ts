// The dashboard under its Content-Security-Policy (issue #17 finding 7, docs/security.md
// "Headers"): the service sends an enforced policy (not report-only), and every screen — sign-in,
// experiences, the experience editor, the visual editor with a shop page in its frame, results
// with their charts, audiences, settings, install, live events — runs under it without a single
// violation. Violations are collected in every frame (`securitypolicyviolation`) and from the
// console, where Chromium reports what a policy blocked.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { ExperienceDetail, SessionInfo } from "@storefit/contract";
import { fillDemoHistory } from "../packages/server/src/seed/demo-data.js";
import { DEMO_DOMAIN, DEMO_PAGES } from "../packages/server/src/seed/demo-pages.js";
import { DESKTOP_UA, launchBrowser, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

let stack: Stack;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  // Results with data, so that the charts (recharts, with its style attributes) are drawn.
  await fillDemoHistory(stack.store);
}, 180_000);
afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

type Violation = { where: string; directive: string; blocked: string; sample?: string };

/** A page that records every CSP violation in any of its frames, and CSP errors on the console. */
async function watchedPage(): Promise<{ page: Page; violations: Violation[] }> {
  context = await browser.newContext({ userAgent: DESKTOP_UA, viewport: { width: 1440, height: 900 } });
  const violations: Violation[] = [];
  await context.exposeBinding("__storefitCspViolation", ({ frame }, v: Omit<Violation, "where">) => {
    violations.push({ where: frame.url(), ...v });
  });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      void (window as unknown as { __storefitCspViolation: (v: unknown) => Promise<void> }).__storefitCspViolation({
        directive: e.effectiveDirective,
        blocked: e.blockedURI,
        sample: e.sample,
      });
    });
  });
  const page = await context.newPage();
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (load|apply|execute|frame|connect)/i.test(msg.text())) {
      violations.push({ where: page.url(), directive: "console", blocked: msg.text() });
    }
  });
  return { page, violations };
}

const product = DEMO_PAGES.find((p) => p.domain === DEMO_DOMAIN && p.element_hint === "price")!;

describe("dashboard content security policy", () => {
  it("is enforced, and every screen runs under it with no violation", async () => {
    const { page, violations } = await watchedPage();

    const first = await page.goto(`${stack.apiUrl}/login`);
    const headers = first!.headers();
    expect(headers["content-security-policy"]).toMatch(/script-src 'self'/);
    expect(headers["content-security-policy-report-only"]).toBeUndefined();
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("same-origin");

    await signInToDashboard(page, stack);
    expect(violations, "sign-in").toEqual([]);

    // Experiences, then the editor of the seeded A/B test.
    await page.getByTestId("experience-row").first().waitFor();
    const session = (await (await page.request.get(`${stack.apiUrl}/api/session`)).json()) as SessionInfo;
    const experiences = (await (await page.request.get(`${stack.apiUrl}/api/experiences`)).json()) as { experiences: ExperienceDetail[] };
    const listed = experiences.experiences.find((e) => e.kind === "ab_test" && e.status === "running")!;
    const abTest = (await (await page.request.get(`${stack.apiUrl}/api/experiences/${listed.id}`)).json()) as ExperienceDetail;
    expect(session.user.email).toBeTruthy();
    await page.getByTestId("experience-row").filter({ hasText: abTest.name }).getByRole("link", { name: abTest.name }).first().click();
    await page.getByLabel("Name", { exact: true }).first().waitFor();
    expect(violations, "experiences and the experience editor").toEqual([]);

    // The visual editor: the shop's page in the frame (frame-src), the bridge loaded from the
    // service into it, and its ready message received by the dashboard.
    const variation = abTest.rules[0]!.behaviour.variations[0]!;
    const query = new URLSearchParams({ variation: variation.id!, page: stack.shopUrl(product.page_path) });
    await page.goto(`${stack.apiUrl}/experiences/${abTest.id}/visual?${query}`);
    await page.getByRole("button", { name: "Select", exact: true }).and(page.locator(":enabled")).waitFor({ timeout: 30_000 });
    await page.frameLocator('iframe[name="storefit-editor"]').locator("#product-price").waitFor();
    expect(violations, "visual editor").toEqual([]);

    // Results, with the chart drawn.
    await page.goto(`${stack.apiUrl}/experiences/${abTest.id}/results`);
    await page.getByTestId("results-chart").locator("path.recharts-line-curve").first().waitFor({ state: "attached", timeout: 30_000 });
    expect(violations, "results").toEqual([]);

    // The account's screens, through the navigation as an operator goes.
    await page.getByRole("link", { name: "Audiences" }).click();
    await page.getByTestId("audience-row").first().waitFor();
    await page.getByTestId("audience-row").first().getByRole("link").first().click();
    await page.getByLabel("Name", { exact: true }).waitFor();
    expect(violations, "audiences").toEqual([]);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Main domain").waitFor();
    expect(violations, "settings").toEqual([]);
    await page.getByRole("link", { name: "Install" }).click();
    await page.getByTestId("install-snippet").waitFor();
    expect(violations, "install").toEqual([]);
    await page.getByRole("link", { name: "Live events", exact: true }).click();
    await page.getByTestId("event-row").first().waitFor({ timeout: 30_000 });
    expect(violations, "live events").toEqual([]);
  }, 240_000);

  it("reports a violation when the page breaks the policy (the watcher works)", async () => {
    const { page, violations } = await watchedPage();
    await page.goto(`${stack.apiUrl}/login`);
    await page.evaluate(() => {
      const s = document.createElement("script");
      s.textContent = "window.__inline = 1";
      document.body.append(s);
    });
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(violations.some((v) => v.directive === "script-src-elem" || /script/i.test(v.blocked))).toBe(true);
  }, 60_000);
});
