// The whole loop, for real: a demo-shop product page loads the snippet from the service, the
// script asks for configs, changes the page, reveals it, sends the PAGE event, the service stores
// it in SQLite, and the operator sees it in the dashboard after signing in.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { ConfigsResponse } from "@storefit/contract";
import { DEMO_PAGES, DEMO_DOMAIN } from "../packages/server/src/seed/demo-pages.js";
import { OWNER, captureApiRequests, eventually, launchBrowser, newVisitor, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const usPage = DEMO_PAGES.find((p) => p.domain === DEMO_DOMAIN)!;
const ukPage = DEMO_PAGES.find((p) => p.domain !== DEMO_DOMAIN)!;

async function visit(path: string, host: string) {
  const context = await newVisitor(browser);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const sent = captureApiRequests(page, stack.apiUrl);
  const answer = page.waitForResponse((r) => r.url().includes("/v1/users/configs/"));
  await page.goto(stack.shopUrl(path, host));
  const configs = (await (await answer).json()) as ConfigsResponse;
  await page.waitForFunction(() => !document.getElementById("storefit-hide"));
  return { context, page, sent, configs, errors };
}

describe("walking skeleton", () => {
  it("shows the variation the service chose, reveals the page, and stores the PAGE event", async () => {
    // The A/B test splits 50/50: new visitors until one sees the treatment (both outcomes are
    // checked against the service's answer; 12 misses in a row has odds of 1 in 4096).
    let sawTreatment = false;
    for (let i = 0; i < 12 && !sawTreatment; i++) {
      const { context, page, sent, configs, errors } = await visit(usPage.page_path, DEMO_DOMAIN);
      const config = Object.values(configs.configs).find((c) => c.properties?.element_path === "#product-price");
      expect(config, "the service answers a price config on a product page").toBeDefined();
      const price = page.locator("#product-price");
      if (config!.variation_id === "var_price_free_shipping") {
        sawTreatment = true;
        await expect.poll(() => price.innerText()).toBe(`${usPage.price_text} · Free shipping today`);
      } else {
        expect(await price.innerText()).toBe(usPage.price_text);
      }
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).visibility)).toBe("visible");

      // The config call is spec §7 exactly: JSON text under a form-encoded type, cfenc, trailing slash.
      const call = sent.find((s) => s.url.pathname === "/v1/users/configs/")!;
      expect(call.url.searchParams.get("cfenc")).toBe("ck_demo_littlesprouts");
      expect(call.request.headers()["content-type"]).toBe("application/x-www-form-urlencoded");
      expect(call.body).toMatchObject({ current_domain: DEMO_DOMAIN, user: { anonymous: true } });

      const stored = await eventually(
        () =>
          stack.store
            .listEvents("acc_littlesprouts", 50)
            .find((e) => e.event_type === "PAGE" && e.user_id === configs.user_id),
        10_000,
        "the PAGE event in SQLite",
      );
      expect(stored.page_path).toBe(usPage.page_path);
      expect(stored.event.config_summary?.[0]).toMatchObject({ variation_id: config!.variation_id });
      expect(errors).toEqual([]);
      await context.close();
    }
    expect(sawTreatment).toBe(true);
  });

  it("personalizes the UK tax line on the second domain", async () => {
    const { context, page, errors } = await visit(ukPage.page_path, ukPage.domain);
    await expect.poll(() => page.locator("#product-tax").innerText()).toBe("VAT included · Free UK delivery on orders over £30");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the stored events in the dashboard after signing in", async () => {
    const { context: shopper } = await visit(usPage.page_path, DEMO_DOMAIN);
    await shopper.close();
    const context = await newVisitor(browser);
    const page = await context.newPage();
    await page.goto(`${stack.apiUrl}/events`);
    await page.waitForURL(/\/login$/);
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${stack.apiUrl}/`);
    await page.getByRole("link", { name: "Live events" }).click();
    const stored = stack.store.countEvents("acc_littlesprouts");
    expect(stored).toBeGreaterThan(0);
    await expect.poll(async () => Number(await page.getByTestId("event-count").innerText()), { timeout: 10_000 }).toBeGreaterThanOrEqual(stored);
    await expect.poll(() => page.getByTestId("event-row").filter({ hasText: usPage.page_path }).count()).toBeGreaterThan(0);
    await page.getByRole("link", { name: "Experiences" }).click();
    // The seed runs four experiences: the price A/B test, the UK tax line, the welcome popup, the gallery per device.
    await expect.poll(() => page.getByTestId("experience-row").count()).toBe(4);
    await context.close();
  });
});
