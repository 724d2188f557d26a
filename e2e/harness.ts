// What every browser test needs: the real service on real SQLite (a temporary file), the demo
// shop, both on loopback with free ports, and Debian's Chromium driven by playwright-core.
// Nothing of ours is mocked here.

import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Frame, Locator, Page, Request } from "playwright-core";
import { expect } from "vitest";
import { buildApp } from "../packages/server/src/app.js";
import { openSqliteStore, type SqliteStore } from "../packages/server/src/store/sqlite/index.js";
import { seedDemo } from "../packages/server/src/seed/demo.js";
import { demoSiteOrigins } from "../packages/server/src/seed/demo-pages.js";
import { createDemoShop } from "../apps/demo-shop/src/index.js";

import { DESKTOP_UA } from "./browser.js";

export { DESKTOP_UA, CHROMIUM_FLAGS, chromiumPath, launchBrowser, newVisitor, eventually } from "./browser.js";

export const OWNER = { email: "owner@e2e.example", password: "e2e-password-123" };

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

export type Stack = {
  apiUrl: string;
  shopUrl: (path?: string, host?: string) => string;
  store: SqliteStore;
  close: () => Promise<void>;
};

export async function startStack(): Promise<Stack> {
  const dataDir = mkdtempSync(join(tmpdir(), "storefit-e2e-"));
  const store = openSqliteStore(join(dataDir, "storefit.sqlite"));
  store.migrate();
  // STOREFIT_DASHBOARD_DIR: a dashboard build of one's own (vite build --outDir …), so that
  // rebuilding packages/dashboard/dist cannot pull files from under a running test.
  const dashboardDir = process.env.STOREFIT_DASHBOARD_DIR;
  // The demo shop listens on loopback, as with `npm start`: let the page check fetch it.
  process.env.PAGE_CHECK_PRIVATE_ADDRESSES ??= "loopback";
  const app = await buildApp({ store, ...(dashboardDir ? { dashboardDir } : {}) });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const apiPort = (app.server.address() as AddressInfo).port;
  const apiUrl = `http://localhost:${apiPort}`;
  const shop = createDemoShop({ apiUrl });
  const shopPort = await listen(shop);
  // Seeded once the shop's port is known: the account stores the shop's addresses with it.
  await seedDemo(store, OWNER, { siteOrigins: demoSiteOrigins(shopPort) });
  return {
    apiUrl,
    shopUrl: (path = "/", host = "littlesprouts.localhost") => `http://${host}:${shopPort}${path}`,
    store,
    close: async () => {
      await new Promise<void>((r) => shop.close(() => r()));
      await app.close();
      store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in to the dashboard the stack serves, as the seeded owner unless told otherwise. */
export async function signInToDashboard(page: Page, stack: Stack, who: { email: string; password: string } = OWNER): Promise<void> {
  await page.goto(`${stack.apiUrl}/login`);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("user-email").waitFor();
}

/**
 * An operator signed in to the dashboard in a browser context of their own (desktop size), with
 * the page's uncaught errors collected in `errors`. The caller closes the context.
 */
export async function signInOperator(browser: Browser, stack: Stack): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ userAgent: DESKTOP_UA, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await signInToDashboard(page, stack);
  return { context, page, errors };
}

/** Records every request a page sends to the service, with its parsed JSON body. */
export function captureApiRequests(page: Page, apiUrl: string): { url: URL; body: unknown; request: Request }[] {
  const seen: { url: URL; body: unknown; request: Request }[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(apiUrl) || request.method() !== "POST") return;
    let body: unknown = null;
    try {
      body = JSON.parse(request.postData() ?? "null");
    } catch {
      body = request.postData();
    }
    seen.push({ url: new URL(request.url()), body, request });
  });
  return seen;
}

/** The cells of a variation's row in a Results table, by column header. */
export async function rowOf(table: Locator, variation: string): Promise<Record<string, string>> {
  // textContent: the headers are upper-cased by CSS, which innerText would report.
  const headers = await table.getByRole("columnheader").allTextContents();
  const row = table.getByRole("row").filter({ has: table.page().getByText(variation, { exact: true }) });
  const cells = await row.locator("th, td").allInnerTexts();
  return Object.fromEntries(headers.map((h, i) => [h.trim(), (cells[i] ?? "").trim()]));
}

/** A count as the screen shows it ("1,204") as a number. */
export const count = (text: string | undefined) => Number((text ?? "").replace(/[^0-9]/g, ""));

/** A goal as the experience editor's goal box takes it: `page` for a page goal, `event` for a track, click or form-submit goal. */
export type GoalInput = { name: string; counts: "page_view" | "track" | "click" | "form_submit" | "revenue"; page?: string; event?: string };

/**
 * From the signed-in dashboard's Experiences screen: a new experience made in the editor's form (a
 * name, one page, the default variations: a plain control and Variation B, the goals given), and
 * whatever `more` fills in before it is created. Created, not started; the browser is left on
 * the experience's page, whose address it answers.
 */
export async function createExperience(page: Page, o: { name: string; path: string; goals?: GoalInput[]; more?: () => Promise<void> }): Promise<string> {
  await page.getByRole("link", { name: "New experience" }).click();
  await page.getByLabel("Name", { exact: true }).fill(o.name);
  await page.getByRole("button", { name: "Add page" }).click();
  await page.getByTestId("page-target").getByLabel("Page path or pattern").fill(o.path);
  for (const [i, goal] of (o.goals ?? []).entries()) {
    await page.getByRole("button", { name: "Add goal" }).click();
    const box = page.getByTestId("goal").nth(i);
    await box.getByLabel("Goal name").fill(goal.name);
    await box.getByLabel("Counts").selectOption(goal.counts);
    if (goal.page !== undefined) await box.getByLabel("Goal page").fill(goal.page);
    if (goal.event !== undefined) await box.getByLabel("Event name").fill(goal.event);
  }
  if (o.more) await o.more();
  await page.getByRole("button", { name: "Create experience" }).click();
  await page.waitForURL(/\/experiences\/exp_[^/]+$/);
  return page.url();
}

/**
 * On an experience's page: opens Variation B in the visual editor, which must suggest `address`
 * (the page the experience targets, on the shop's origin with its port), opens that page, runs
 * `edit` with the shop page's frame once the Select tool is ready, then saves the variation.
 */
export async function editVariationB(page: Page, address: string, edit: (frame: Frame) => Promise<void>): Promise<void> {
  await page.getByTestId("variation").nth(1).getByRole("link", { name: "Open visual editor" }).click();
  await expect.poll(() => page.getByLabel("Page address").inputValue()).toBe(address);
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await page.getByRole("button", { name: "Select", exact: true }).and(page.locator(":enabled")).waitFor({ timeout: 30_000 });
  await edit(page.frame({ name: "storefit-editor" })!);
  await page.getByRole("button", { name: "Save variation" }).click();
  await expect.poll(() => page.getByText("Saved", { exact: true }).count()).toBeGreaterThan(0);
}

/** Opens the experience at `url`, presses `button` and waits for its status badge to say `status`. */
export async function setStatus(page: Page, url: string, button: "Start" | "Pause" | "Resume", status: string): Promise<void> {
  await page.goto(url);
  await page.getByRole("button", { name: button, exact: true }).click();
  await expect.poll(() => page.getByTestId("status-badge").getAttribute("data-status"), { timeout: 15_000 }).toBe(status);
}

/** Shoppers visiting at once, each in a browser context of their own: a few, as the stack and their pages share two cores. */
export const SHOPPERS_AT_ONCE = 3;

/** `n` shoppers' visits, SHOPPERS_AT_ONCE at a time: what `visit(i)` answers, in the order of i. */
export async function shoppers<T>(n: number, visit: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let first = 0; first < n; first += SHOPPERS_AT_ONCE) {
    const batch = Array.from({ length: Math.min(SHOPPERS_AT_ONCE, n - first) }, (_, k) => first + k);
    out.push(...(await Promise.all(batch.map(visit))));
  }
  return out;
}

/**
 * On an experience's Results screen: reloads it, waiting each time for `table`, until `read`
 * answers `expected` (the counts arrive in the store after the visits end). A failure shows the
 * screen's text.
 */
export async function expectOnResults<T>(page: Page, table: Locator, read: () => Promise<T>, expected: T): Promise<void> {
  let shown = "";
  await expect
    .poll(async () => {
      await page.reload();
      await table.waitFor({ timeout: 15_000 }).catch(() => undefined);
      shown = await page.locator("main").innerText();
      return read();
    }, { timeout: 60_000, interval: 2_000 })
    .toEqual(expected)
    .catch((e: unknown) => {
      throw new Error(`${String(e)}\nThe Results screen showed:\n${shown}`);
    });
}
