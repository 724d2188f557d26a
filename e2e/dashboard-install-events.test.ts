// Install and live events, for real: a fresh account waits for its first event; a visit to the
// demo shop turns the install check green with that first event; the snippet copies; the live
// list filters by type, domain and page path; both screens fit 390 px.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { DEMO_DOMAIN, DEMO_PAGES } from "../packages/server/src/seed/demo-pages.js";
import { DESKTOP_UA, launchBrowser, newVisitor, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const SCREENSHOTS = new URL("../docs/screenshots/", import.meta.url).pathname;
const usPage = DEMO_PAGES.find((p) => p.domain === DEMO_DOMAIN)!;
const ukPage = DEMO_PAGES.find((p) => p.domain !== DEMO_DOMAIN)!;

let stack: Stack;
let browser: Browser;
let owner: BrowserContext;
let page: Page;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  owner = await browser.newContext({
    userAgent: DESKTOP_UA,
    viewport: { width: 1280, height: 800 },
    permissions: ["clipboard-read", "clipboard-write"],
  });
  page = await owner.newPage();
  await signInToDashboard(page, stack);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function screenshot(name: string, fullPage = true) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage });
}

async function visitShop(path: string, host: string) {
  const context = await newVisitor(browser);
  const shop = await context.newPage();
  await shop.goto(stack.shopUrl(path, host));
  await shop.waitForFunction(() => !document.getElementById("storefit-hide"));
  return context;
}

describe("install", () => {
  it("waits for the first event, then turns green with it after a visit to the shop", async () => {
    expect(stack.store.countEvents("acc_littlesprouts")).toBe(0);
    await page.getByRole("link", { name: "Install" }).click();
    const status = page.getByTestId("install-status");
    await expect.poll(() => status.getAttribute("data-state")).toBe("waiting");
    expect(await status.innerText()).toContain("Waiting for the first event");
    // The link to visit the shop opens it at its real address, port included (the demo shop is not on port 80).
    expect(await page.getByTestId("install-shop-link").getAttribute("href")).toBe(stack.shopUrl("/"));

    const snippet = `<script src="${stack.apiUrl}/v1/accounts/ck_demo_littlesprouts/snippet.js"></script>`;
    expect(await page.getByTestId("install-snippet").innerText()).toBe(snippet);
    expect(await page.getByTestId("install-client-key").innerText()).toBe("ck_demo_littlesprouts");
    expect(await page.getByTestId("install-host").innerText()).toBe(stack.apiUrl);
    await page.getByRole("button", { name: "Copy snippet" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
    await page.getByRole("button", { name: "Copy client key" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("ck_demo_littlesprouts");
    await page.getByRole("button", { name: "Copy host" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(stack.apiUrl);
    await screenshot("install-waiting");

    const shopper = await visitShop(usPage.page_path, DEMO_DOMAIN);
    await expect.poll(() => status.getAttribute("data-state"), { timeout: 15_000 }).toBe("installed");
    const first = page.getByTestId("install-first-event");
    await expect.poll(() => first.innerText()).toContain("First event");
    const text = await first.innerText();
    expect(text).toContain("PAGE");
    expect(text).toContain(DEMO_DOMAIN);
    expect(text).toContain(usPage.page_path);
    await shopper.close();
    await screenshot("install");
  });

  it("works at 390 px", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId("install-snippet").waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // On a phone the live check comes first.
    const check = await page.getByTestId("install-status").boundingBox();
    const snippet = await page.getByTestId("install-snippet").boundingBox();
    expect(check!.y).toBeLessThan(snippet!.y);
    await screenshot("install-390", false);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

describe("live events", () => {
  it("filters the stream by domain, page path and event type, in the address too", async () => {
    const uk = await visitShop(ukPage.page_path, ukPage.domain);
    await uk.close();
    await page.getByRole("link", { name: "Live events", exact: true }).click();
    const rows = page.getByTestId("event-row");
    await expect.poll(() => rows.filter({ hasText: ukPage.domain }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => rows.filter({ hasText: usPage.page_path }).count()).toBeGreaterThan(0);

    await page.getByLabel("Domain", { exact: true }).selectOption(ukPage.domain);
    await expect.poll(() => rows.filter({ hasText: usPage.page_path }).count()).toBe(0);
    expect(await rows.count()).toBe(await rows.filter({ hasText: ukPage.domain }).count());
    expect(new URL(page.url()).searchParams.get("domain")).toBe(ukPage.domain);

    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.getByLabel("Page path or event name contains").fill(usPage.page_path.slice(0, 20).toUpperCase());
    await expect.poll(() => rows.filter({ hasText: ukPage.page_path }).count()).toBe(0);
    expect(await rows.filter({ hasText: usPage.page_path }).count()).toBeGreaterThan(0);
    await screenshot("events-filtered");

    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.getByLabel("Event type").selectOption("PAGE");
    await expect.poll(() => new URL(page.url()).searchParams.get("type")).toBe("PAGE");
    await expect.poll(() => page.getByTestId("events-shown").innerText()).toMatch(/^\d+ events match the filters\.$/);
    const all = await rows.count();
    expect(all).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId("event-label").allInnerTexts()).toEqual(Array(all).fill("Page view"));
    await page.getByLabel("Event type").selectOption("REVENUE");
    await expect.poll(() => page.getByText("No events match these filters").count()).toBe(1);

    // A filtered view survives a reload (it lives in the address).
    await page.reload();
    expect(await page.getByLabel("Event type").inputValue()).toBe("REVENUE");
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    await screenshot("events");
  });

  it("works at 390 px", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId("event-row").first().waitFor();
    await page.getByLabel("Event type").waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot("events-390");
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
