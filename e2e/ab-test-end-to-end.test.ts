// The core loop as an operator and shoppers live it (issue #16): an A/B test is built in the
// dashboard only — a plain control that changes nothing, and a variation made in the visual
// editor — started, visited by fresh shoppers in fresh browser contexts, and read where the
// operator reads it: the Results screen. Nothing is planted: every number comes from the visits.
//
// The test changes the product title (h1.product-title): the seeded, running price test owns
// #product-price on every product page (e2e/dashboard-overlaps.test.ts covers two tests on one
// element).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { count, createExperience, editVariationB, expectOnResults, launchBrowser, newVisitor, rowOf, setStatus, shoppers, signInOperator, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const PRODUCT_PATH = "/products/gentle-baby-wash";
const ORIGINAL_TITLE = "Gentle Baby Wash";
const NEW_TITLE = "Gentle Baby Wash · Loved by 10,000 parents";
const SHOPPERS = 48;

let stack: Stack;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** The first test's experience, running when the second starts. */
let firstExperience: { url: string; name: string } | null = null;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

async function operator(): Promise<{ page: Page; errors: string[] }> {
  const { context, page, errors } = await signInOperator(browser, stack);
  contexts.push(context);
  return { page, errors };
}

/** A shopper's visit in a fresh browser: the title they saw; `buys` clicks Add to cart, then every visitor moves on to the cart (the page's queued events leave on pagehide). */
async function shop(buys: boolean): Promise<string> {
  const context = await newVisitor(browser);
  try {
    const page = await context.newPage();
    const sent: { url: string; body: string }[] = [];
    page.on("request", (r) => sent.push({ url: r.url(), body: r.postData() ?? "" }));
    await page.goto(stack.shopUrl(PRODUCT_PATH), { waitUntil: "domcontentloaded", timeout: 60_000 });
    await page.waitForFunction(() => !document.getElementById("storefit-hide"), undefined, { timeout: 60_000 });
    const title = await page.locator("h1.product-title").innerText();
    // The exposure is sent once the page is shown: wait for it before leaving.
    await expect.poll(() => sent.some((r) => r.url.includes("/v1/config/request/summary/")), { timeout: 15_000 }).toBe(true);
    // Add to cart queues a custom event; leaving for the cart sends the queue (a beacon on pagehide).
    if (buys) await page.getByRole("button", { name: "Add to cart" }).click();
    await page.getByRole("link", { name: /cart/i }).first().click();
    await page.waitForURL(/\/cart$/, { waitUntil: "domcontentloaded", timeout: 60_000 });
    return title;
  } finally {
    await context.close();
  }
}

/** On an experience's page: Variation B in the visual editor, on the product page it suggests: a click on the title, `title` typed, saved. */
async function retitleInVisualEditor(page: Page, title: string): Promise<void> {
  await editVariationB(page, stack.shopUrl(PRODUCT_PATH), async (frame) => {
    await frame.locator("h1.product-title").click();
    await expect.poll(() => page.getByLabel("CSS path", { exact: true }).inputValue()).toContain("product-title");
    await page.getByLabel("Text", { exact: true }).fill(title);
    await expect.poll(() => frame.locator("h1.product-title").innerText()).toBe(title);
  });
}

/** The visitors exposed per variation, as the Results screen of the experience at `url` lists them. */
async function exposedPerVariation(page: Page, url: string): Promise<Record<string, number>> {
  await page.goto(url);
  await page.getByRole("link", { name: "Results" }).click();
  const table = page.getByRole("table", { name: /^Visitors exposed per variation|Visitors per variation/ });
  await table.waitFor({ timeout: 15_000 }).catch(() => undefined);
  const out: Record<string, number> = {};
  for (const variation of ["Control", "Variation B"]) out[variation] = count((await rowOf(table, variation)).Visitors);
  return out;
}

describe("an A/B test built in the dashboard is measured right", () => {
  it("plain control + visual-editor variation: both arms get visitors, the split passes the check, conversions are counted", { timeout: 1_200_000 }, async () => {
    const { page, errors } = await operator();

    // 1. Build it: name, page, the default variations (a plain control and B), a goal.
    const experienceUrl = await createExperience(page, {
      name: "Title: social proof",
      path: PRODUCT_PATH,
      goals: [{ name: "Add to cart", counts: "track", event: "add_to_cart" }],
    });
    firstExperience = { url: experienceUrl, name: "Title: social proof" };

    // 2. Variation B in the visual editor: click the title in the shop's page, type, save.
    await retitleInVisualEditor(page, NEW_TITLE);

    // 3. Start it from the experience's page. No overlap with the running price test (another
    // element), so no confirmation stands between.
    await setStatus(page, experienceUrl, "Start", "running");

    // 4. Fresh shoppers, a few at a time; every third one adds to the cart.
    const seen = { control: 0, treatment: 0 };
    const bought = { control: 0, treatment: 0 };
    const titles = await shoppers(SHOPPERS, (i) => shop(i % 3 === 0));
    titles.forEach((title, i) => {
      expect([ORIGINAL_TITLE, NEW_TITLE]).toContain(title);
      const arm = title === NEW_TITLE ? "treatment" : "control";
      seen[arm]++;
      if (i % 3 === 0) bought[arm]++;
    });
    expect(seen.control).toBeGreaterThan(0);
    expect(seen.treatment).toBeGreaterThan(0);

    // 5. Read Results where the operator reads them.
    await page.goto(experienceUrl);
    await page.getByRole("link", { name: "Results" }).click();
    const table = page.getByRole("table", { name: /^Add to cart: Conversion rate/ });
    await expectOnResults(
      page,
      table,
      async () => {
        const [c, t] = [await rowOf(table, "Control"), await rowOf(table, "Variation B")];
        return [count(c.Visitors), count(t.Visitors), count(c.Conversions), count(t.Conversions)];
      },
      [seen.control, seen.treatment, bought.control, bought.treatment],
    );
    await expect(page.getByText("Traffic split matches the weights").count()).resolves.toBe(1);
    expect(await page.getByRole("alert").filter({ hasText: "Sample ratio mismatch" }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("a second test on the same element: Start warns and names the conflict; split into a mutually exclusive group, both get visitors and both are measured", { timeout: 1_200_000 }, async () => {
    expect(firstExperience, "the first test's experience is running").not.toBeNull();
    const first = firstExperience!;
    const { page, errors } = await operator();
    const NAME = "Title: pediatrician approved";
    const OTHER_TITLE = "Gentle Baby Wash · Pediatrician approved";

    // Built as the first: name and page in the editor, the variation in the visual editor.
    const secondUrl = await createExperience(page, { name: NAME, path: PRODUCT_PATH });
    // Its variation made as the first one's: a click on the same title in the visual editor.
    await retitleInVisualEditor(page, OTHER_TITLE);
    await page.goto(secondUrl);

    // Start warns before anything changes, naming the running test and the element.
    await page.getByRole("button", { name: "Start" }).click();
    const confirm = page.getByRole("alertdialog", { name: `“${NAME}” overlaps with a running experience` });
    await confirm.waitFor({ timeout: 15_000 });
    expect(await confirm.innerText()).toContain(`“${first.name}”`);
    expect(await confirm.innerText()).toContain("product-title");
    // The remedy: one mutually exclusive group, half each; then Start asks nothing more.
    await confirm.getByRole("button", { name: `Split traffic with “${first.name}”…` }).click();
    const split = page.getByRole("dialog", { name: `Split traffic with “${first.name}”` });
    await split.getByRole("button", { name: "Split traffic 50 / 50" }).click();
    await expect.poll(() => split.count()).toBe(0);
    await page.getByRole("button", { name: "Start" }).click();
    await expect.poll(() => page.getByTestId("status-badge").getAttribute("data-status"), { timeout: 15_000 }).toBe("running");
    expect(await page.getByRole("alertdialog").count()).toBe(0);

    // Fresh shoppers: each sees one of the two tests (or a control), never both.
    const before = { first: await exposedPerVariation(page, first.url), second: await exposedPerVariation(page, secondUrl) };
    const GROUP_SHOPPERS = 30;
    const titles = await shoppers(GROUP_SHOPPERS, () => shop(false));
    for (const title of titles) expect([ORIGINAL_TITLE, NEW_TITLE, OTHER_TITLE]).toContain(title);
    // Both are measured, and every shopper counted in exactly one of them.
    const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
    let after = before;
    await expect
      .poll(async () => {
        after = { first: await exposedPerVariation(page, first.url), second: await exposedPerVariation(page, secondUrl) };
        return sum(after.first) - sum(before.first) + sum(after.second) - sum(before.second);
      }, { timeout: 60_000, interval: 3_000 })
      .toBe(GROUP_SHOPPERS);
    expect(sum(after.first) - sum(before.first)).toBeGreaterThan(0);
    expect(sum(after.second)).toBeGreaterThan(0);
    // Both arms of the second test, its plain control too.
    expect(Object.values(after.second).every((n) => n > 0), JSON.stringify(after.second)).toBe(true);
    // Each split passes the sample-ratio check on its own Results screen (exposedPerVariation left the page there).
    for (const url of [first.url, secondUrl]) {
      await exposedPerVariation(page, url);
      await expect.poll(() => page.getByTestId("srm-ok").count(), { timeout: 15_000 }).toBe(1);
      expect(await page.getByRole("alert").filter({ hasText: "Sample ratio mismatch" }).count(), url).toBe(0);
    }
    expect(errors).toEqual([]);
  });
});
