// What every browser test needs: the real service on real SQLite (a temporary file), the demo
// shop, both on loopback with free ports, and Debian's Chromium driven by playwright-core.
// Nothing of ours is mocked here.

import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator, Page, Request } from "playwright-core";
import { buildApp } from "../packages/server/src/app.js";
import { openSqliteStore, type SqliteStore } from "../packages/server/src/store/sqlite/index.js";
import { seedDemo } from "../packages/server/src/seed/demo.js";
import { demoSiteOrigins } from "../packages/server/src/seed/demo-pages.js";
import { createDemoShop } from "../apps/demo-shop/src/index.js";

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
