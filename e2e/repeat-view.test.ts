// Repeat views for real (issue #19, docs/api.md "Answer cache"): a returning shopper's view of a
// demo product page is revealed with the answer kept from their last view, before any config call
// completes, and the call runs behind the reveal; after a publish, an answer of the old revision is
// shown only while the snippet the browser runs still names that revision, the call behind it
// brings the change, and once the snippet names the new revision the old answer is never shown.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DEMO_DOMAIN, DEMO_PAGES } from "../packages/server/src/seed/demo-pages.js";
import { launchBrowser, newVisitor, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

let stack: Stack;
let browser: Browser;
const ACCOUNT = "acc_littlesprouts";
const EXPERIENCE = "exp_price_message";
const usPage = DEMO_PAGES.find((p) => p.domain === DEMO_DOMAIN)!;

/** The free-shipping variation for everyone, with this text after the price. */
function publishPriceMessage(text: string): void {
  const exp = structuredClone(stack.store.getExperience(ACCOUNT, EXPERIENCE)!);
  for (const rule of exp.rules) {
    for (const v of rule.behaviour.variations) {
      v.weight = v.id === "var_price_free_shipping" ? 100 : 0;
      for (const c of v.configs) if (v.id === "var_price_free_shipping") c.variation = { innerHTML: `${usPage.price_text} · ${text}` };
    }
  }
  stack.store.saveExperience(exp);
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

type Seen = { price: string; calls: number; cached: boolean; revision: number };

/** One view: at the reveal, the price, the config calls completed, whether the kept answer was shown, the revision the snippet named. */
async function view(page: Page): Promise<Seen> {
  await page.goto(stack.shopUrl(usPage.page_path));
  await page.waitForFunction(() => (window as unknown as { __seen?: unknown }).__seen);
  return page.evaluate(() => (window as unknown as { __seen: Seen }).__seen);
}

describe("a returning shopper's repeat view", () => {
  it("is revealed with the kept answer before any config call completes; a publish is shown no later than the view after the snippet names it", async () => {
    publishPriceMessage("Free shipping today");
    const context = await newVisitor(browser);
    await context.addInitScript(() => {
      document.addEventListener("storefit:ready", (e) => {
        (window as unknown as { __seen: Seen }).__seen = {
          price: document.getElementById("product-price")?.textContent ?? "",
          calls: performance.getEntriesByType("resource").filter((r) => r.name.includes("/v1/users/configs/")).length,
          cached: !!(e as CustomEvent<{ cached?: boolean }>).detail?.cached,
          revision: (window as unknown as { storefitSettings: { revision: number } }).storefitSettings.revision,
        };
      });
    });
    const page = await context.newPage();
    const price = () => page.locator("#product-price").textContent();

    const first = await view(page);
    expect(first).toMatchObject({ calls: 1, cached: false, price: `${usPage.price_text} · Free shipping today` });
    // The answer is kept once the call behind the page is done (after the reveal).
    await page.waitForTimeout(300);

    const behind = page.waitForResponse((r) => r.url().includes("/v1/users/configs/"));
    const repeat = await view(page);
    expect(repeat).toMatchObject({ calls: 0, cached: true, price: `${usPage.price_text} · Free shipping today`, revision: first.revision });
    // The call still runs, behind the reveal, and the same answer changes nothing.
    await behind;
    expect(await price()).toBe(`${usPage.price_text} · Free shipping today`);
    await page.waitForTimeout(300);

    publishPriceMessage("Free returns too");
    const revision = stack.store.getAccountByClientKey("ck_demo_littlesprouts")!.revision;
    expect(revision).toBeGreaterThan(first.revision);
    // Views until the snippet the browser runs names the new revision (the first one after the
    // publish may still run the copy it had, and fetch the new one behind it).
    let after = await view(page);
    for (let i = 0; i < 3 && after.revision !== revision; i++) {
      // A view that ran the old snippet may show the old kept answer, and the call behind it brings the change.
      expect(after.revision).toBe(first.revision);
      await expect.poll(price).toBe(`${usPage.price_text} · Free returns too`);
      await page.waitForTimeout(300);
      after = await view(page);
    }
    expect(after.revision).toBe(revision);
    // Never the answer of the old revision once the snippet names the new one.
    expect(after.price).toBe(`${usPage.price_text} · Free returns too`);
    await context.close();
  });
});
