// Live events as an operator reads them (issue #16): a returning customer's history of 1,200
// events and real shoppers on the demo shop; the operator sees events named for people and
// counts with separators, pages to older events and back, filters by a visitor and by an
// experience picked by name, and opens a shopper's timeline with the experience they saw.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { DEMO_DOMAIN } from "../packages/server/src/seed/demo-pages.js";
import { DESKTOP_UA, launchBrowser, newVisitor, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const ACCOUNT = "acc_littlesprouts";
const CLIENT_KEY = "ck_demo_littlesprouts";
/** A gallery product page: the running "Gallery image by device" experience shows there. */
const GALLERY_PAGE = "/products/kids-mineral-sunscreen-spf50";
const GALLERY_EXPERIENCE = "Gallery image by device";
const RETURNING = "returning-customer-17";
const HISTORY = 1_200;

let stack: Stack;
let browser: Browser;
let owner: BrowserContext;
let page: Page;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  owner = await browser.newContext({ userAgent: DESKTOP_UA, viewport: { width: 1280, height: 800 } });
  page = await owner.newPage();
  await signInToDashboard(page, stack);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/**
 * A returning customer's earlier visits, sent through the client API as the script sends them
 * (three calls of 400): page views of /journal/1 … /journal/1197, then a click on a goal, a
 * newsletter form and an order of 24.00, the newest.
 */
async function sendHistory() {
  const t0 = Date.now() - 3_600_000;
  const events = Array.from({ length: HISTORY }, (_, i) => {
    const [event_type, name, properties]: [string, string, Record<string, unknown>] =
      i === HISTORY - 3
        ? ["CLICK", "Add_To_Cart", { click_count: 1 }]
        : i === HISTORY - 2
          ? ["FORM", "newsletter", { form_type: "newsletter" }]
          : i === HISTORY - 1
            ? ["REVENUE", "revenue", { revenue_amount: 24 }]
            : ["PAGE", "page_view", {}];
    return {
      event_type,
      name,
      event_customer_id: `${DEMO_DOMAIN}|${name}`,
      domain: DEMO_DOMAIN,
      insert_id: `history-${i}`,
      event_timestamp: t0 + i * 1000,
      session_id: "history-session",
      properties: { page_path: event_type === "PAGE" ? `/journal/${i + 1}` : "/checkout", ...properties },
    };
  });
  // 100 a call: a client API body is at most 64 KiB (http/edge.ts), as the script's are.
  for (let i = 0; i < HISTORY; i += 100) {
    const res = await fetch(`${stack.apiUrl}/v1/cfe/?cfenc=${CLIENT_KEY}`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ user: { user_customer_id: RETURNING, anonymous: false }, events: events.slice(i, i + 100) }),
    });
    expect(res.status, await res.text()).toBe(200);
  }
}

/** A fresh shopper on the gallery page who adds the product to the cart. */
async function shopperAddsToCart() {
  const context = await newVisitor(browser);
  const shop = await context.newPage();
  await shop.goto(stack.shopUrl(GALLERY_PAGE, DEMO_DOMAIN));
  await shop.waitForFunction(() => !document.getElementById("storefit-hide"));
  await shop.getByRole("button", { name: "Add to cart" }).click();
  await shop.getByText("Added to your cart.").waitFor();
  // Leaving the page sends what is queued (a beacon on pagehide); closing the browser context
  // instead sometimes lost it.
  await shop.getByRole("link", { name: /cart/i }).first().click();
  await shop.waitForURL(/\/cart$/, { waitUntil: "domcontentloaded" });
  await context.close();
}

const rows = () => page.getByTestId("event-row");
/** Rows of the shoppers' own "add_to_cart" events (not the history's "Click: Add to cart"). */
const addToCart = () => rows().filter({ has: page.getByTestId("event-label").getByText("Add to cart", { exact: true }) });
const shown = () => page.getByTestId("events-shown").innerText();

/** Each step reads what the one before left on screen; a busy machine gets time. */
const STEP_MS = 120_000;
let formatted = "";
const journal = (texts: string[]) => texts.map((r) => Number(/\/journal\/(\d+)/.exec(r)?.[1] ?? NaN)).filter((n) => !Number.isNaN(n));

describe("live events", () => {
  it("names events for people, with counts that have separators", async () => {
    await sendHistory();
    await shopperAddsToCart();
    // The shopper's add to cart and the exposure to the gallery experience are stored.
    await expect.poll(() => stack.store.countEvents(ACCOUNT, { type: "TRACK" }), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => stack.store.listExposures(ACCOUNT, 50).map((x) => x.experience_id), { timeout: 30_000 }).toContain("exp_gallery_device");

    await page.getByRole("link", { name: "Live events", exact: true }).click();
    await expect.poll(() => addToCart().count(), { timeout: 15_000 }).toBe(1);

    // Human names, not `domain|name` or type codes; the domain in its own column.
    const labels = await page.getByTestId("event-label").allInnerTexts();
    expect(labels).toContain("Page view");
    expect(labels).toContain("Click: Add to cart");
    expect(labels).toContain("Form submit: Newsletter");
    expect(labels).toContain("Revenue: 24.00");
    expect(labels.some((l) => l.includes("|") || /^[A-Z_]+$/.test(l))).toBe(false);
    expect(await rows().first().getByRole("cell").nth(1).innerText()).toBe(DEMO_DOMAIN);
    // The stored name is still there, in a row's details.
    const revenueRow = rows().filter({ hasText: "Revenue: 24.00" });
    await revenueRow.getByText("Details").click();
    await expect.poll(() => revenueRow.getByText(`${DEMO_DOMAIN}|revenue`).isVisible()).toBe(true);

    // Counts with separators; one page of 50.
    expect(stack.store.countEvents(ACCOUNT)).toBeGreaterThan(HISTORY);
    await expect.poll(() => page.getByTestId("event-count").innerText()).toBe(stack.store.countEvents(ACCOUNT).toLocaleString("en-US"));
    formatted = await page.getByTestId("event-count").innerText();
    expect(formatted).toMatch(/^1,\d{3}$/);
    expect(await shown()).toBe(`The newest 50 of ${formatted} events.`);
    expect(await rows().count()).toBe(50);
  }, STEP_MS);

  it("pages to older events and back; the newest page stays live", async () => {
    // Older events: the next 50, none of the first page's; then back.
    const pager = page.getByRole("navigation", { name: "Pages of events" });
    expect(await pager.getByRole("button", { name: "Newer events" }).isDisabled()).toBe(true);
    const firstPage = await rows().allInnerTexts();
    await pager.getByRole("button", { name: "Older events" }).click();
    await expect.poll(() => shown()).toBe(`50 of ${formatted} events are listed on this page.`);
    const secondPage = await rows().allInnerTexts();
    expect(secondPage).toHaveLength(50);
    expect(secondPage.filter((r) => firstPage.includes(r))).toEqual([]);
    // Every older page view is of an earlier journal page than the first page's.
    expect(Math.max(...journal(secondPage))).toBeLessThan(Math.min(...journal(firstPage)));
    expect(new URL(page.url()).searchParams.get("before")).toMatch(/^\d+$/);
    await pager.getByRole("button", { name: "Older events" }).click();
    await expect.poll(async () => Math.max(...journal(await rows().allInnerTexts()))).toBeLessThan(Math.min(...journal(secondPage)));
    await pager.getByRole("button", { name: "Newer events" }).click();
    await expect.poll(async () => (await rows().allInnerTexts()).join("\n")).toBe(secondPage.join("\n"));
    await pager.getByRole("button", { name: "Newest events" }).click();
    await expect.poll(() => shown()).toBe(`The newest 50 of ${formatted} events.`);

    // The newest page stays live: a new shopper's events arrive without a reload.
    await shopperAddsToCart();
    await expect.poll(() => addToCart().count(), { timeout: 15_000 }).toBe(2);
  }, STEP_MS);

  it("filters by a visitor and by an experience picked by name", async () => {
    // By visitor: the returning customer's id as the shop knows it, typed key by key. A filtered
    // list is an expensive read with a rate limit of its own: the list is asked once typing
    // pauses, not once per key.
    const asked: string[] = [];
    const record = (r: { url(): string }) => {
      const visitor = new URL(r.url()).searchParams.get("visitor");
      if (new URL(r.url()).pathname === "/api/events" && visitor) asked.push(visitor);
    };
    page.on("request", record);
    await page.getByLabel("Visitor", { exact: true }).pressSequentially(RETURNING, { delay: 30 });
    await expect.poll(() => shown()).toBe(`${HISTORY.toLocaleString("en-US")} events match the filters; the newest 50 are listed.`);
    expect(await rows().filter({ hasText: "Click: Add to cart" }).count()).toBe(1);
    expect(await addToCart().count()).toBe(0); // not the shoppers' events
    expect(await rows().filter({ hasText: GALLERY_PAGE }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get("visitor")).toBe(RETURNING);
    page.off("request", record);
    expect(RETURNING.length).toBeGreaterThan(5);
    expect(asked.length, asked.join(", ")).toBeLessThanOrEqual(3);
    expect(asked).toContain(RETURNING);
    await page.getByRole("button", { name: "Clear filters" }).click();

    // By experience, picked by its name: only the events of the two shoppers who saw it.
    await page.getByLabel("Experience", { exact: true }).selectOption({ label: GALLERY_EXPERIENCE });
    await expect.poll(() => shown()).toMatch(/^\d+ events match the filters\.$/);
    const exposed = await rows().allInnerTexts();
    expect(exposed.length).toBeGreaterThanOrEqual(4); // two shoppers: a page view and an add to cart each
    expect(exposed.every((r) => !r.includes("/journal/") && !r.includes("Revenue"))).toBe(true);
    expect(await addToCart().count()).toBe(2);
  }, STEP_MS);

  it("opens a shopper's timeline, and lists only that visitor's events from it", async () => {
    // A shopper's timeline, in order: the experience they saw (its variation), their page view, the add to cart.
    const shopperRow = addToCart().first();
    await shopperRow.getByRole("button", { name: /^Timeline of visitor / }).click();
    const timeline = page.getByRole("region", { name: "Visitor timeline" });
    await expect.poll(() => timeline.getByTestId("timeline-item").count()).toBeGreaterThanOrEqual(3);
    const steps = await timeline.getByTestId("timeline-item").allInnerTexts();
    // A step's lines: its time, its label, then where.
    const at = (label: string) => steps.findIndex((s) => s.split("\n").some((line) => line.trim().startsWith(label)));
    // The script reports what the page showed as it shows it, and the page view just after.
    expect(at(`Saw “${GALLERY_EXPERIENCE}”: Image per device`), steps.join("\n")).toBeGreaterThanOrEqual(0);
    expect(at("Page view"), steps.join("\n")).toBeGreaterThanOrEqual(0);
    expect(at("Add to cart")).toBeGreaterThan(Math.max(at(`Saw “${GALLERY_EXPERIENCE}”`), at("Page view")));
    expect(steps.some((s) => s.includes("/journal/"))).toBe(false);
    // What the timeline counts: events, and the views that showed an experience (once per page view and variation).
    expect(await timeline.getByRole("status").innerText()).toMatch(/^\d+ events? and \d+ views? of \d+ experiences?, oldest first/);

    // From the timeline to the list of that visitor's events only.
    await timeline.getByRole("button", { name: "Only this visitor's events" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("visitor")).toMatch(/^u_/);
    await expect.poll(() => shown()).toMatch(/^\d+ events match the filters\.$/);
    expect(await addToCart().count()).toBe(1);
    expect(await rows().filter({ hasText: "/journal/" }).count()).toBe(0);
    await timeline.getByRole("button", { name: "Close timeline" }).click();
    expect(await page.getByRole("region", { name: "Visitor timeline" }).count()).toBe(0);
  }, STEP_MS);
});
