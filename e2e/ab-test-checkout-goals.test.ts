// The core loop with the goals a shop cares most about, as an operator and shoppers live it: an
// A/B test built in the dashboard only, on the cart page, measured by a page goal (reaching
// /checkout) and a revenue goal (the order confirmation's trackRevenue), from real checkouts by
// fresh shoppers in fresh browser contexts, read on the Results screen. Nothing is planted: every
// number comes from the visits. (e2e/ab-test-end-to-end.test.ts does the same with a TRACK goal.)

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { count, createExperience, editVariationB, expectOnResults, launchBrowser, newVisitor, rowOf, setStatus, shoppers, signInOperator, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const PRODUCT_PATH = "/products/gentle-baby-wash";
const ORIGINAL_HEADING = "Your cart";
const NEW_HEADING = "Your cart · free returns for 60 days";
const SHOPPERS = 24;

let stack: Stack;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

type Visit = { heading: string; checkedOut: boolean; paid: number | null };

/**
 * A shopper's visit in a fresh browser: adds the product to the cart, opens the cart (where the
 * experience runs; some look at the checkout first), then, as told, goes on to the checkout and
 * places an order. Every visit
 * leaves its last page by a link, so the page's queued events are sent (a beacon on pagehide).
 */
async function shop(checkout: boolean, order: boolean, checkoutBefore: boolean): Promise<Visit> {
  const context = await newVisitor(browser);
  try {
    const page = await context.newPage();
    const sent: string[] = [];
    page.on("request", (r) => sent.push(`${new URL(r.url()).pathname} ${r.postData() ?? ""}`));
    await page.goto(stack.shopUrl(PRODUCT_PATH), { waitUntil: "domcontentloaded", timeout: 60_000 });
    await page.getByRole("button", { name: "Add to cart" }).click();
    if (checkoutBefore) {
      // A look at the checkout before the cart: the experience has not been seen yet, so this
      // visit to the goal page is no conversion.
      await page.goto(stack.shopUrl("/checkout"), { waitUntil: "domcontentloaded", timeout: 60_000 });
      await page.waitForFunction(() => !document.getElementById("storefit-hide"), undefined, { timeout: 60_000 });
    }
    await page.getByRole("link", { name: /cart/i }).first().click();
    await page.waitForURL(/\/cart$/, { waitUntil: "domcontentloaded", timeout: 60_000 });
    await page.waitForFunction(() => !document.getElementById("storefit-hide"), undefined, { timeout: 60_000 });
    const heading = await page.locator("h1").innerText();
    // The exposure is sent once the cart page is shown.
    await expect.poll(() => sent.filter((s) => s.includes("/v1/config/request/summary/")).length, { timeout: 15_000 }).toBeGreaterThan(0);
    let paid: number | null = null;
    if (checkout) {
      await page.getByRole("link", { name: "Check out" }).click();
      await page.waitForURL(/\/checkout$/, { waitUntil: "domcontentloaded", timeout: 60_000 });
      if (order) {
        await page.getByLabel("Full name").fill("Sam Shopper");
        await page.getByLabel("Email").fill("sam@example.test");
        await page.getByLabel("Address").fill("1 Main Street");
        await page.getByLabel("City").fill("Springfield");
        await page.getByLabel("ZIP code").fill("12345");
        await page.getByRole("button", { name: "Place order" }).click();
        await page.locator("#order-total").waitFor({ timeout: 60_000 });
        paid = Number((await page.locator("#order-total").innerText()).replace(/[^0-9.]/g, ""));
        expect(paid).toBeGreaterThan(0);
      }
    }
    await page.getByRole("link", { name: "Shop", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/", { waitUntil: "domcontentloaded", timeout: 60_000 });
    return { heading, checkedOut: checkout, paid };
  } finally {
    await context.close();
  }
}

const money = (text: string | undefined) => Number((text ?? "").replace(/[^0-9.]/g, ""));

describe("an A/B test on the cart, built in the dashboard, measured by checkouts", () => {
  it("a page goal (reaching the checkout) and a revenue goal (orders placed) count what the shoppers did", { timeout: 1_200_000 }, async () => {
    const { context, page, errors } = await signInOperator(browser, stack);
    contexts.push(context);

    // 1. Build it: the cart page, a page goal and a revenue goal.
    const experienceUrl = await createExperience(page, {
      name: "Cart: free returns",
      path: "/cart",
      goals: [
        { name: "Reached checkout", counts: "page_view", page: "/checkout" },
        { name: "Orders", counts: "revenue" },
      ],
    });

    // 2. Variation B in the visual editor: the cart's heading, on the cart page it suggests.
    await editVariationB(page, stack.shopUrl("/cart"), async (frame) => {
      await frame.locator("h1").click();
      await expect.poll(() => page.getByTestId("match-count").innerText()).toBe("<h1> · 1 element matches");
      await page.getByLabel("Text", { exact: true }).fill(NEW_HEADING);
      await expect.poll(() => frame.locator("h1").innerText()).toBe(NEW_HEADING);
    });

    // 3. Start it.
    await setStatus(page, experienceUrl, "Start", "running");

    // 4. Fresh shoppers: every second one goes to the checkout, every fourth one orders; of the
    // others, every second one looked at the checkout before the cart (no conversion).
    const arms = { Control: { seen: 0, checkedOut: 0, buyers: 0, revenue: 0 }, "Variation B": { seen: 0, checkedOut: 0, buyers: 0, revenue: 0 } };
    const visits = await shoppers(SHOPPERS, (i) => shop(i % 2 === 0, i % 4 === 0, i % 4 === 1));
    for (const v of visits) {
      expect([ORIGINAL_HEADING, NEW_HEADING]).toContain(v.heading);
      const arm = arms[v.heading === NEW_HEADING ? "Variation B" : "Control"];
      arm.seen++;
      if (v.checkedOut) arm.checkedOut++;
      if (v.paid !== null) {
        arm.buyers++;
        arm.revenue += v.paid;
      }
    }
    expect(arms.Control.seen).toBeGreaterThan(0);
    expect(arms["Variation B"].seen).toBeGreaterThan(0);

    // 5. Read Results where the operator reads them: the page goal, revenue per visitor and the
    // average order value, per variation, exactly as the shoppers made them.
    await page.goto(experienceUrl);
    await page.getByRole("link", { name: "Results" }).click();
    const checkoutTable = page.getByRole("table", { name: /^Reached checkout: Conversion rate/ });
    const perVisitor = page.getByRole("table", { name: /^Orders: Revenue per visitor/ });
    const perOrder = page.getByRole("table", { name: /^Orders: Average order value/ });
    const expected = Object.entries(arms).map(([name, a]) => [
      name, a.seen, a.checkedOut, a.buyers, Math.round((a.revenue / a.seen) * 100) / 100, a.buyers, a.buyers ? Math.round((a.revenue / a.buyers) * 100) / 100 : null,
    ]);
    await expectOnResults(
      page,
      checkoutTable,
      async () => {
        const out = [];
        for (const name of Object.keys(arms)) {
          const [c, r, o] = [await rowOf(checkoutTable, name), await rowOf(perVisitor, name), await rowOf(perOrder, name)];
          out.push([
            name, count(c.Visitors), count(c.Conversions), count(r.Buyers), money(r["Revenue per visitor"]), count(o.Orders),
            o["Average order value"] === "—" ? null : money(o["Average order value"]),
          ]);
        }
        return out;
      },
      expected,
    );
    expect(errors).toEqual([]);
  });
  it("a click goal counted by the visual editor in Variation B alone is measured in every variation", { timeout: 1_200_000 }, async () => {
    const { context, page, errors } = await signInOperator(browser, stack);
    contexts.push(context);
    const BUTTON = "Add to cart";
    const NEW_BUTTON = "Add to cart · ships today";

    // 1. Build it: the product page, a click goal named as the visual editor will count it.
    const experienceUrl = await createExperience(page, {
      name: "Button: ships today",
      path: PRODUCT_PATH,
      goals: [{ name: "Add to cart clicks", counts: "click", event: "cta_click" }],
    });

    // 2. Variation B in the visual editor: the button's text, and its clicks counted as the goal
    // (the plain control changes nothing, so it has no change of the button to count them with).
    await editVariationB(page, stack.shopUrl(PRODUCT_PATH), async (frame) => {
      await frame.locator("#add-to-cart").click();
      await expect.poll(() => page.getByTestId("match-count").innerText()).toBe("<button> · 1 element matches");
      await page.getByLabel("Text", { exact: true }).fill(NEW_BUTTON);
      await expect.poll(() => frame.locator("#add-to-cart").innerText()).toBe(NEW_BUTTON);
      await page.getByLabel("Count clicks as the goal").fill("cta_click");
      expect(await page.getByTestId("click-goal-note").innerText()).toBe("Counted by the goal “Add to cart clicks”.");
    });

    // 3. Start it.
    await setStatus(page, experienceUrl, "Start", "running");

    // 4. Fresh shoppers on the product page; every second one clicks the button.
    const arms = { Control: { seen: 0, clicked: 0 }, "Variation B": { seen: 0, clicked: 0 } };
    const visit = async (click: boolean) => {
      const shopper = await newVisitor(browser);
      try {
        const p = await shopper.newPage();
        await p.goto(stack.shopUrl(PRODUCT_PATH), { waitUntil: "domcontentloaded", timeout: 60_000 });
        await p.waitForFunction(() => !document.getElementById("storefit-hide"), undefined, { timeout: 60_000 });
        const text = await p.locator("#add-to-cart").innerText();
        const sent: string[] = [];
        p.on("request", (r) => sent.push(new URL(r.url()).pathname));
        await expect.poll(() => p.evaluate(() => performance.getEntriesByType("resource").some((r) => r.name.includes("/v1/config/request/summary/"))), { timeout: 15_000 }).toBe(true);
        if (click) await p.locator("#add-to-cart").click();
        await p.getByRole("link", { name: "Shop", exact: true }).click();
        await p.waitForURL((u) => u.pathname === "/", { waitUntil: "domcontentloaded", timeout: 60_000 });
        return text;
      } finally {
        await shopper.close();
      }
    };
    const texts = await shoppers(SHOPPERS, (i) => visit(i % 2 === 0));
    texts.forEach((text, i) => {
      expect([BUTTON, NEW_BUTTON]).toContain(text);
      const arm = arms[text === NEW_BUTTON ? "Variation B" : "Control"];
      arm.seen++;
      if (i % 2 === 0) arm.clicked++;
    });
    expect(arms.Control.clicked).toBeGreaterThan(0);
    expect(arms["Variation B"].clicked).toBeGreaterThan(0);

    // 5. Results: the Control's clicks count as conversions too.
    await page.goto(experienceUrl);
    await page.getByRole("link", { name: "Results" }).click();
    const table = page.getByRole("table", { name: /^Add to cart clicks: Conversion rate/ });
    await expectOnResults(
      page,
      table,
      async () => {
        const [c, t] = [await rowOf(table, "Control"), await rowOf(table, "Variation B")];
        return [count(c.Visitors), count(t.Visitors), count(c.Conversions), count(t.Conversions)];
      },
      [arms.Control.seen, arms["Variation B"].seen, arms.Control.clicked, arms["Variation B"].clicked],
    );
    expect(errors).toEqual([]);
  });
});
