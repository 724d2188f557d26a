// Addresses the operator can open and preview only operators can open (issues #16, #17), driven
// through the dashboard by roles, labels and visible text against the harness's stack, whose demo
// shop is on a port of its own (not 80, not 4200):
// - a preview link made by the dashboard opens the shop on its port and shows a draft; the same
//   address with `customfit_preview=1` alone (no operator's token) shows the live shop;
// - the visual editor suggests the demo's product page on the shop's port, and its bridge starts;
// - a wrong address, a page without the snippet and a page that refuses frames each get a message
//   naming the address and the likely cause.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { ExperienceDetail, ExperienceInput, SessionInfo } from "@storefit/contract";
import { DEMO_DOMAIN, DEMO_PAGES } from "../packages/server/src/seed/demo-pages.js";
import { DESKTOP_UA, launchBrowser, newVisitor, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

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

const product = DEMO_PAGES.find((p) => p.domain === DEMO_DOMAIN && p.element_hint === "price")!;
const DRAFT_TITLE = "Draft title only operators see";

async function operator(): Promise<Page> {
  const context = await browser.newContext({ userAgent: DESKTOP_UA, viewport: { width: 1440, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await signInToDashboard(page, stack);
  return page;
}

/** A draft experience that changes the product title of one demo product page. */
async function createDraft(page: Page, name: string): Promise<ExperienceDetail> {
  const session = (await (await page.request.get(`${stack.apiUrl}/api/session`)).json()) as SessionInfo;
  const input: ExperienceInput = {
    name,
    kind: "ab_test",
    priority: 50,
    pages: [{ domain: DEMO_DOMAIN, page_path: product.page_path, page_match: "exact_match" }],
    rules: [
      {
        audience_id: null,
        audience_name: "Everyone",
        behaviour: {
          name,
          traffic_allocation: 1,
          variations: [
            {
              name: "New title",
              weight: 1,
              configs: [
                {
                  config_customer_id: `title_${name.length}`,
                  config_id: `cfg_title_${name.length}`,
                  variation_data_type: "HTML_ELEMENT",
                  variation: { innerHTML: DRAFT_TITLE },
                  properties: { page_path: product.page_path, page_match: "exact_match", element_path: "h1.product-title", domain: DEMO_DOMAIN },
                },
              ],
            },
          ],
        },
      },
    ],
  };
  const res = await page.request.post(`${stack.apiUrl}/api/experiences`, {
    headers: { "x-csrf-token": session.csrf_token, "content-type": "application/json" },
    data: JSON.stringify(input),
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as ExperienceDetail;
}

/** A fresh shopper opens `url`: what the config call sent and answered, and the product title shown. */
async function visit(url: string): Promise<{ title: string; previewToken: string | undefined; answeredTitle: boolean }> {
  const context = await newVisitor(browser);
  try {
    const page = await context.newPage();
    const answer = page.waitForResponse((r) => r.url().includes("/v1/users/configs/"));
    await page.goto(url);
    const response = await answer;
    const body = JSON.parse(response.request().postData() ?? "{}") as { preview_mode?: boolean; preview_token?: string };
    expect(body.preview_mode).toBe(true);
    const configs = ((await response.json()) as { configs: Record<string, { properties?: { element_path?: string } }> }).configs;
    const answeredTitle = Object.values(configs).some((c) => c.properties?.element_path === "h1.product-title");
    await page.waitForFunction(() => !document.getElementById("storefit-hide"));
    if (answeredTitle) await page.waitForFunction((t) => document.querySelector("h1.product-title")?.textContent === t, DRAFT_TITLE);
    return { title: (await page.locator("h1.product-title").innerText()).trim(), previewToken: body.preview_token, answeredTitle };
  } finally {
    await context.close();
  }
}

describe("addresses the operator can open", () => {
  it("a preview link from the dashboard opens the shop on its port and shows the draft; customfit_preview=1 alone does not", async () => {
    const page = await operator();
    const draft = await createDraft(page, "Draft title preview");
    await page.goto(`${stack.apiUrl}/experiences/${draft.id}`);

    // The shop page to preview on is the experience's page at the shop's address, port included.
    const pageField = page.getByLabel("Shop page to preview on");
    await expect.poll(() => pageField.inputValue()).toBe(stack.shopUrl(product.page_path));
    const open = page.getByRole("link", { name: "Open a preview of New title" });
    const link = (await open.getAttribute("href"))!;
    const url = new URL(link);
    expect(url.origin).toBe(new URL(stack.shopUrl()).origin);
    expect(url.searchParams.get("cf_preview_token")).toMatch(/^[0-9a-z]+\.[\w-]+$/);
    await expect.poll(() => page.getByTestId("preview-expiry").innerText()).toMatch(/^These links work until /);

    // Clicking it opens the shop (a new tab), which loads and shows the draft.
    const [tab] = await Promise.all([page.context().waitForEvent("page"), open.click()]);
    await tab!.waitForLoadState();
    expect(new URL(tab!.url()).origin).toBe(url.origin);
    await expect.poll(() => tab!.locator("h1.product-title").innerText()).toBe(DRAFT_TITLE);
    // The script took the token out of the address bar.
    expect(new URL(tab!.url()).searchParams.has("cf_preview_token")).toBe(false);
    await tab!.close();

    const withToken = await visit(link);
    expect(withToken.previewToken).toBe(url.searchParams.get("cf_preview_token"));
    expect(withToken.title).toBe(DRAFT_TITLE);

    // Anyone can add customfit_preview=1 to a shop address: without the token, no draft.
    url.searchParams.delete("cf_preview_token");
    const without = await visit(url.toString());
    expect(without.previewToken).toBeUndefined();
    expect(without.answeredTitle).toBe(false);
    expect(without.title).not.toBe(DRAFT_TITLE);
  }, 120_000);

  it("the visual editor suggests the product page on the shop's port and its bridge starts there", async () => {
    const page = await operator();
    const draft = await createDraft(page, "Draft title in the visual editor");
    const variation = draft.rules[0]!.behaviour.variations[0]!;
    await page.goto(`${stack.apiUrl}/experiences/${draft.id}/visual?variation=${variation.id}`);
    const address = page.getByLabel("Page address");
    await expect.poll(() => address.inputValue()).toBe(stack.shopUrl(product.page_path));
    await page.getByRole("button", { name: "Open", exact: true }).click();
    // The bridge said ready: the panel's Select button is enabled.
    await page.getByRole("button", { name: "Select", exact: true }).and(page.locator(":enabled")).waitFor({ timeout: 20_000 });
    const frame = page.frame({ name: "storefit-editor" })!;
    expect(new URL(frame.url()).origin).toBe(new URL(stack.shopUrl()).origin);
    expect(await page.getByTestId("page-problem").count()).toBe(0);
  }, 120_000);

  it("a wrong address: the editor names it and says it does not load", async () => {
    const page = await operator();
    const draft = await createDraft(page, "Draft title at a wrong address");
    const variation = draft.rules[0]!.behaviour.variations[0]!;
    await page.goto(`${stack.apiUrl}/experiences/${draft.id}/visual?variation=${variation.id}`);
    // Port 9 (discard) has no web server on the test machine.
    const wrong = `http://${DEMO_DOMAIN}:9${product.page_path}`;
    await page.getByLabel("Page address").fill(wrong);
    await page.getByRole("button", { name: "Open", exact: true }).click();
    const problem = page.getByTestId("page-problem");
    await problem.waitFor({ timeout: 25_000 });
    await expect.poll(() => problem.innerText(), { timeout: 15_000 }).toContain("The address does not load");
    const text = await problem.innerText();
    expect(text).toContain(wrong);
    expect(text).toContain("nothing answers at that address and port");
  }, 120_000);

  it("a page without the snippet: the editor says the page loads but the snippet is not on it", async () => {
    const page = await operator();
    const draft = await createDraft(page, "Draft title on a page without the snippet");
    const variation = draft.rules[0]!.behaviour.variations[0]!;
    await page.goto(`${stack.apiUrl}/experiences/${draft.id}/visual?variation=${variation.id}`);
    // The shop's product image: it loads in the frame, and no script runs in it.
    const image = stack.shopUrl("/images/gentle-baby-wash-1.svg");
    await page.getByLabel("Page address").fill(image);
    await page.getByRole("button", { name: "Open", exact: true }).click();
    const problem = page.getByTestId("page-problem");
    await problem.waitFor({ timeout: 25_000 });
    await expect.poll(() => problem.innerText(), { timeout: 15_000 }).toContain("the Storefit snippet is not on it");
    expect(await problem.innerText()).toContain(image);
  }, 120_000);

  it("a page that refuses frames: the editor names the header that refuses it", async () => {
    const page = await operator();
    const draft = await createDraft(page, "Draft title on a page that refuses frames");
    const variation = draft.rules[0]!.behaviour.variations[0]!;
    await page.goto(`${stack.apiUrl}/experiences/${draft.id}/visual?variation=${variation.id}`);
    // The shop's host on the service's port: the service's own page, framed only by itself.
    const refusing = `http://${DEMO_DOMAIN}:${new URL(stack.apiUrl).port}/`;
    await page.getByLabel("Page address").fill(refusing);
    await page.getByRole("button", { name: "Open", exact: true }).click();
    const problem = page.getByTestId("page-problem");
    await problem.waitFor({ timeout: 25_000 });
    await expect.poll(() => problem.innerText(), { timeout: 15_000 }).toContain("The shop does not let other sites show this page in a frame.");
    const text = await problem.innerText();
    expect(text).toContain(refusing);
    expect(text).toContain("frame-ancestors 'self'");
  }, 120_000);
});
