// A reloaded order confirmation counts its order once. The demo shop's thank-you page tracks its
// order (`trackRevenue` with the order's id) on every load, as real shops' confirmation pages do;
// a shopper who reloads it twice must still be one order of the amount paid on the Results screen
// and one revenue event in Live events (the script gives the order's REVENUE event an insert id
// made of the order and the visitor, and the service stores an insert id once).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Request } from "playwright-core";
import { count, createExperience, expectOnResults, launchBrowser, newVisitor, rowOf, setStatus, signInOperator, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const PRODUCT_PATH = "/products/gentle-baby-wash";
const ACCOUNT = "acc_littlesprouts";

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

type RevenueEvent = { event_type: string; insert_id: string; properties: { order_id?: string; revenue_amount?: number; currency?: string } };
type EventsBody = { user: { user_customer_id: string }; events: RevenueEvent[] };

const money = (text: string | undefined) => Number((text ?? "").replace(/[^0-9.]/g, ""));

describe("a reloaded order confirmation", () => {
  it("counts the order once on the Results screen and in Live events", { timeout: 600_000 }, async () => {
    const { context, page, errors } = await signInOperator(browser, stack);
    contexts.push(context);

    // 1. An A/B test on the cart measured by orders, built and started in the dashboard.
    const experienceUrl = await createExperience(page, { name: "Cart: order count", path: "/cart", goals: [{ name: "Orders", counts: "revenue" }] });
    await setStatus(page, experienceUrl, "Start", "running");

    // 2. A shopper sees the cart (the exposure), places an order, then reloads the thank-you page
    // twice; each load tracks the order again. Leaving each load sends its queued events.
    const shopper = await newVisitor(browser);
    contexts.push(shopper);
    const shop = await shopper.newPage();
    // The shopper's calls to the service, with their bodies and answers. Read where the browser
    // sends them: a beacon's body is not on the page's request events.
    const calls = new Map<Request, { path: string; body: EventsBody | null; status?: number }>();
    await shopper.route(`${stack.apiUrl}/v1/**`, async (route) => {
      const r = route.request();
      calls.set(r, { path: new URL(r.url()).pathname, body: JSON.parse(r.postData() ?? "null") as EventsBody | null });
      await route.continue();
    });
    shopper.on("requestfinished", (r) => {
      // Caught: a failing test closes the browser while an answer is still being read.
      r.response()
        .then((res) => {
          const call = calls.get(r);
          if (call && res) call.status = res.status();
        })
        .catch(() => undefined);
    });
    await shop.goto(stack.shopUrl(PRODUCT_PATH), { waitUntil: "domcontentloaded", timeout: 60_000 });
    await shop.getByRole("button", { name: "Add to cart" }).click();
    await shop.getByRole("link", { name: /cart/i }).first().click();
    await shop.waitForURL(/\/cart$/, { waitUntil: "domcontentloaded", timeout: 60_000 });
    await expect.poll(() => [...calls.values()].filter((c) => c.path === "/v1/config/request/summary/").length, { timeout: 15_000 }).toBeGreaterThan(0);
    await shop.getByRole("link", { name: "Check out" }).click();
    await shop.waitForURL(/\/checkout$/, { waitUntil: "domcontentloaded", timeout: 60_000 });
    await shop.getByLabel("Full name").fill("Sam Shopper");
    await shop.getByLabel("Email").fill("sam@example.test");
    await shop.getByLabel("Address").fill("1 Main Street");
    await shop.getByLabel("City").fill("Springfield");
    await shop.getByLabel("ZIP code").fill("12345");
    await shop.getByRole("button", { name: "Place order" }).click();
    await shop.locator("#order-total").waitFor({ timeout: 60_000 });
    const paid = money(await shop.locator("#order-total").innerText());
    const orderId = await shop.locator("#order-id").innerText();
    expect(paid).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) {
      await shop.reload({ waitUntil: "domcontentloaded", timeout: 60_000 });
      expect(await shop.locator("#order-id").innerText()).toBe(orderId);
    }
    await shop.getByRole("link", { name: "Keep shopping" }).click();
    await shop.waitForURL((u) => u.pathname === "/", { waitUntil: "domcontentloaded", timeout: 60_000 });

    // The order was sent three times, with one insert id, and the service answered all three
    // before anything is read below.
    const revenueCalls = () =>
      [...calls.values()]
        .filter((c) => c.path === "/v1/cfe/")
        .flatMap((c) => (c.body?.events ?? []).filter((e) => e.event_type === "REVENUE").map((e) => ({ user: c.body!.user.user_customer_id, status: c.status, ...e })));
    await expect.poll(() => revenueCalls().map((e) => e.status), { timeout: 30_000 }).toEqual([200, 200, 200]);
    const revenue = revenueCalls();
    expect(revenue.map((e) => [e.properties.order_id, e.properties.revenue_amount])).toEqual(Array(3).fill([orderId, paid]));
    expect(new Set(revenue.map((e) => e.insert_id)).size).toBe(1);
    expect(new Set(revenue.map((e) => e.user)).size).toBe(1);
    const { user: visitor, properties } = revenue[0]!;
    expect(await stack.store.countEvents(ACCOUNT, { type: "REVENUE" })).toBe(1);

    // 3. Results: one buyer, one order, of the amount paid, in whichever variation they saw.
    await page.goto(experienceUrl);
    await page.getByRole("link", { name: "Results" }).click();
    const perVisitor = page.getByRole("table", { name: /^Orders: Revenue per visitor/ });
    const perOrder = page.getByRole("table", { name: /^Orders: Average order value/ });
    await expectOnResults(
      page,
      perOrder,
      async () => {
        let [buyers, orders, visitors, revenueSum] = [0, 0, 0, 0];
        for (const name of ["Control", "Variation B"]) {
          const [r, o] = [await rowOf(perVisitor, name), await rowOf(perOrder, name)];
          buyers += count(r.Buyers);
          visitors += count(r.Visitors);
          orders += count(o.Orders);
          if (count(o.Orders)) revenueSum += money(o["Average order value"]) * count(o.Orders);
        }
        return { visitors, buyers, orders, revenue: revenueSum };
      },
      { visitors: 1, buyers: 1, orders: 1, revenue: paid },
    );

    // 4. Live events, filtered by the shopper: the order once.
    await page.getByRole("link", { name: "Live events", exact: true }).click();
    await page.getByLabel("Visitor", { exact: true }).fill(visitor);
    await expect.poll(() => page.getByTestId("events-shown").innerText(), { timeout: 15_000 }).toMatch(/events? match the filters/);
    const orderRows = page.getByTestId("event-row").filter({ has: page.getByTestId("event-label").getByText(/^Revenue/) });
    await expect.poll(() => orderRows.count(), { timeout: 15_000 }).toBe(1);
    expect(await orderRows.first().getByTestId("event-label").innerText()).toBe(`Revenue: ${paid.toFixed(2)} ${properties.currency}`);
    expect(errors).toEqual([]);
  });
});
