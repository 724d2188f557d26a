// The visual editor, end to end (issue #9, docs/visual-editor.md): the operator signs in, opens a
// demo product page in the editor for an experience made through the admin API, clicks the price
// span inside the frame, changes its text and color, saves, and a new shopper sees both changes.
// Also: switching variations shows each one in the frame, undo and redo (buttons and keys),
// keyboard moves of the selection, the mobile width, the service's error on a bad save, and the
// dashboard ignoring messages that do not come from the editor frame on the shop's origin.

import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { APIRequestContext, Browser, BrowserContext, Frame, Page } from "playwright-core";
import type { ConfigDefinition, ExperienceDetail, ExperienceInput, HtmlElementVariation, SessionInfo, VariationDefinition } from "@storefit/contract";
import { hashPassword } from "../packages/server/src/auth/password.js";
import { DEMO_DOMAIN, DEMO_PAGES } from "../packages/server/src/seed/demo-pages.js";
import { DESKTOP_UA, eventually, launchBrowser, newVisitor, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

let stack: Stack;
let browser: Browser;
const contexts: BrowserContext[] = [];

const VIEWER = { email: "viewer@visual-editor.example", password: "viewer-password-123" };

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  stack.store.createOperator({
    id: "op_viewer_visual_editor",
    account_id: "acc_littlesprouts",
    email: VIEWER.email,
    password_hash: await hashPassword(VIEWER.password),
    role: "viewer",
  });
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

const SCREENSHOTS = fileURLToPath(new URL("../docs/screenshots/", import.meta.url));
/** A price page of the main domain (the seeded price A/B test also changes its #product-price). */
const product = DEMO_PAGES.find((p) => p.domain === DEMO_DOMAIN && p.element_hint === "price")!;
const RED = "rgb(200, 0, 0)";

/** An operator with a wide window: the editor shows the frame and the panel side by side. */
async function operator(who?: { email: string; password: string }): Promise<Page> {
  // A normal browser's UA: the script stops for bots (HeadlessChrome) before it looks at edit mode.
  const context = await browser.newContext({ userAgent: DESKTOP_UA, viewport: { width: 1440, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await signInToDashboard(page, stack, who);
  return page;
}

async function api(request: APIRequestContext, method: "GET" | "POST" | "PUT", path: string, body?: unknown) {
  const session = (await (await request.get(`${stack.apiUrl}/api/session`)).json()) as SessionInfo;
  const res = await request.fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { "x-csrf-token": session.csrf_token, "content-type": "application/json" },
    ...(body === undefined ? {} : { data: JSON.stringify(body) }),
  });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
  return (await res.json()) as ExperienceDetail;
}

/**
 * Creates an experience on the product page through the admin API. Experiences that change the
 * same element exclude each other and the higher priority wins (decide.ts): the seed's price test
 * has 10, and each running one here outranks those made before it.
 */
let priority = 100;
async function createExperience(
  page: Page,
  name: string,
  variations: { name: string; configs: ConfigDefinition[] }[],
  run = false,
): Promise<ExperienceDetail> {
  const input: ExperienceInput = {
    name,
    kind: "ab_test",
    priority: ++priority,
    pages: [{ domain: DEMO_DOMAIN, page_path: product.page_path, page_match: "exact_match" }],
    rules: [
      {
        audience_id: null,
        audience_name: "Everyone",
        behaviour: {
          name,
          traffic_allocation: 1,
          variations: variations.map((v) => ({ ...v, weight: 1 })),
        },
      },
    ],
  };
  const created = await api(page.request, "POST", "/api/experiences", input);
  return run ? api(page.request, "POST", `/api/experiences/${created.id}/status`, { status: "running" }) : created;
}

const variationsOf = (e: ExperienceDetail) => e.rules.flatMap((r) => r.behaviour.variations);

/** The experience as PUT takes it, renamed, with each variation replaced by what `map` gives. */
function withVariations(e: ExperienceDetail, name: string, map: (v: VariationDefinition) => VariationDefinition[]): ExperienceInput {
  return {
    name,
    kind: e.kind,
    priority: e.priority,
    pages: e.pages,
    goals: e.goals,
    rules: e.rules.map((r) => ({ ...r, behaviour: { ...r.behaviour, variations: r.behaviour.variations.flatMap(map) } })),
  };
}

function priceConfig(id: string, innerHTML: string): ConfigDefinition {
  return {
    config_customer_id: id,
    config_id: `cfg_${id}`,
    variation_data_type: "HTML_ELEMENT",
    variation: { innerHTML },
    properties: { page_path: product.page_path, page_match: "exact_match", element_path: "#product-price", domain: DEMO_DOMAIN },
  };
}

/** The editor frame, once the bridge in it has said ready (the panel's Select button enables). */
async function editorFrame(page: Page): Promise<Frame> {
  await page.getByRole("button", { name: "Select", exact: true }).and(page.locator(":enabled")).waitFor({ timeout: 20_000 });
  return eventually(() => page.frame({ name: "storefit-editor" }) ?? undefined, 5_000, "the editor frame");
}

async function openEditor(page: Page, experienceId: string, variationId: string, pageUrl?: string): Promise<Frame> {
  const query = new URLSearchParams({ variation: variationId, ...(pageUrl ? { page: pageUrl } : {}) });
  await page.goto(`${stack.apiUrl}/experiences/${experienceId}/visual?${query}`);
  if (!pageUrl) {
    await page.getByLabel("Page address").fill(stack.shopUrl(product.page_path));
    await page.getByRole("button", { name: "Open", exact: true }).click();
  }
  return editorFrame(page);
}

const text = (frame: Frame, sel: string) => frame.locator(sel).innerText();
const color = (frame: Frame, sel: string) => frame.locator(sel).evaluate((el) => getComputedStyle(el).color);
const selectedPath = (page: Page) => page.getByLabel("CSS path", { exact: true }).inputValue();

describe("visual editor", () => {
  it("changes the price's text and color on a product page, saves, and a shopper sees both", async () => {
    const page = await operator();
    const experience = await createExperience(page, "Red price", [{ name: "Red price", configs: [] }], true);
    const variation = variationsOf(experience)[0]!;
    const frame = await openEditor(page, experience.id, variation.id);

    // The frame is the shop page in edit mode, framed with the dashboard's origin.
    const src = new URL(frame.url());
    expect(src.searchParams.get("utm_customfit_edit")).toBe(stack.apiUrl);
    expect(await text(frame, "#product-price")).toBe(product.price_text);

    // A click inside the frame selects the price span: its path and how many elements it matches.
    await frame.locator("#product-price").click();
    await expect.poll(() => selectedPath(page)).toBe("#product-price");
    await expect.poll(() => page.getByTestId("match-count").innerText()).toBe("<span> · 1 element matches");

    await page.getByLabel("Text", { exact: true }).fill("Now only $9.99");
    await page.getByLabel("Text color", { exact: true }).fill(RED);
    // The change previews live in the frame, applied by the script's own engine.
    await expect.poll(() => text(frame, "#product-price")).toBe("Now only $9.99");
    await expect.poll(() => color(frame, "#product-price")).toBe(RED);
    expect(await page.getByTestId("change-row").innerText()).toContain("#product-price");

    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOTS}visual-editor.png` });

    await page.getByRole("button", { name: "Save variation" }).click();
    await expect.poll(() => page.getByTestId("save-status").innerText()).toBe("Saved");
    const saved = await api(page.request, "GET", `/api/experiences/${experience.id}`);
    const configs = variationsOf(saved)[0]!.configs;
    expect(configs).toHaveLength(1);
    expect(configs[0]).toMatchObject({
      variation_data_type: "HTML_ELEMENT",
      variation: { innerHTML: "Now only $9.99", style: { color: RED } },
      properties: { element_path: "#product-price", page_path: product.page_path, page_match: "exact_match", domain: DEMO_DOMAIN },
    });
    expect(saved.status).toBe("running");

    // Next time, the target page is suggested on the shop's origin as last opened (its port).
    await page.goto(`${stack.apiUrl}/experiences/${experience.id}/visual?variation=${variation.id}`);
    await expect.poll(() => page.getByLabel("Page address").inputValue()).toBe(stack.shopUrl(product.page_path));

    // A new shopper gets the single variation (weight 1, all traffic, above the seeded test).
    const shopper = await newVisitor(browser);
    contexts.push(shopper);
    const visit = await shopper.newPage();
    await visit.goto(stack.shopUrl(product.page_path));
    await visit.waitForFunction(() => !document.getElementById("storefit-hide"));
    await expect.poll(() => visit.locator("#product-price").innerText()).toBe("Now only $9.99");
    expect(await visit.locator("#product-price").evaluate((el) => getComputedStyle(el).color)).toBe(RED);
  });

  it("an experience-editor tab opened before the visual editor saved gets a conflict, not an overwrite; and the other way round", async () => {
    const visual = await operator();
    const experience = await createExperience(visual, "Lost updates", [{ name: "Only", configs: [] }]);
    const variation = variationsOf(experience)[0]!;

    // An experience-editor tab is opened first, and left open (its own window, as a second
    // operator's would be: a background tab of the same window does not get the frame's clicks).
    const older = await operator();
    await older.goto(`${stack.apiUrl}/experiences/${experience.id}`);
    const name = older.getByLabel("Name", { exact: true });
    await expect.poll(() => name.inputValue()).toBe("Lost updates");

    // Meanwhile the visual editor saves the variation's configs.
    const frame = await openEditor(visual, experience.id, variation.id);
    await frame.locator("#product-price").click();
    await expect.poll(() => selectedPath(visual)).toBe("#product-price");
    await visual.getByLabel("Text", { exact: true }).fill("Visual editor price");
    await visual.getByRole("button", { name: "Save variation" }).click();
    await expect.poll(() => visual.getByTestId("save-status").innerText()).toBe("Saved");

    // The older tab renames and saves: the service refuses (412); the tab says so, keeps the edit.
    await name.fill("Renamed in the older tab");
    await older.getByRole("button", { name: "Save changes" }).click();
    const conflict = older.getByTestId("save-conflict");
    await expect.poll(() => conflict.innerText()).toContain("changed since you opened it");
    expect(await name.inputValue()).toBe("Renamed in the older tab");
    let stored = await api(visual.request, "GET", `/api/experiences/${experience.id}`);
    expect(stored.name).toBe("Lost updates");
    expect((variationsOf(stored)[0]!.configs[0]!.variation as HtmlElementVariation).innerHTML).toBe("Visual editor price");

    // Only the explicit action discards the edit: the latest version is loaded, and then saves.
    await older.getByRole("button", { name: /Reload the latest version/ }).click();
    await expect.poll(() => name.inputValue()).toBe("Lost updates");
    await expect.poll(() => conflict.count()).toBe(0);
    await name.fill("Renamed after reloading");
    await older.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(async () => (await api(visual.request, "GET", `/api/experiences/${experience.id}`)).name).toBe("Renamed after reloading");
    stored = await api(visual.request, "GET", `/api/experiences/${experience.id}`);
    expect((variationsOf(stored)[0]!.configs[0]!.variation as HtmlElementVariation).innerHTML).toBe("Visual editor price");
    // A status change from the same tab is no conflict: a PUT keeps the status, so the form takes
    // the new version as its base (its rules came back in another key order: same values).
    await older.getByTestId("status-running").click();
    // It changes the price line, as the running price test does: Start names the overlap first.
    await older.getByRole("alertdialog").getByRole("button", { name: "Start anyway", exact: true }).click();
    await expect.poll(() => older.getByTestId("status-badge").first().getAttribute("data-status")).toBe("running");
    await name.fill("Renamed while running");
    await older.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(async () => (await api(visual.request, "GET", `/api/experiences/${experience.id}`)).name, { timeout: 5_000 }).toBe("Renamed while running");
    expect(await older.getByTestId("save-conflict").count()).toBe(0);
    stored = await api(visual.request, "GET", `/api/experiences/${experience.id}`);

    // The other way round: the same variation's configs saved elsewhere stop the visual editor's
    // save too; its edit stays until "Reload the latest version".
    await api(visual.request, "PUT", `/api/experiences/${experience.id}`, withVariations(stored, stored.name, (v) => [{ ...v, configs: [priceConfig("elsewhere", "Saved elsewhere")] }]));
    await visual.getByLabel("Text", { exact: true }).fill("Second visual edit");
    await visual.getByRole("button", { name: "Save variation" }).click();
    const veConflict = visual.getByTestId("save-conflict");
    await expect.poll(() => veConflict.innerText()).toContain("changed since you opened it");
    expect(await visual.getByTestId("save-status").innerText()).toBe("Unsaved changes");
    stored = await api(visual.request, "GET", `/api/experiences/${experience.id}`);
    expect(variationsOf(stored)[0]!.configs).toEqual([priceConfig("elsewhere", "Saved elsewhere")]);
    await visual.getByRole("button", { name: /Reload the latest version/ }).click();
    await expect.poll(() => veConflict.count()).toBe(0);
    await expect.poll(() => visual.getByTestId("save-status").innerText()).toBe("No unsaved changes");
    await expect.poll(() => text(frame, "#product-price")).toBe("Saved elsewhere");
  });

  it("shows each variation in the frame, undoes and redoes, moves the selection by keyboard, and saves one variation only", async () => {
    const page = await operator();
    const experience = await createExperience(page, "Two prices", [
      { name: "Variation A", configs: [priceConfig("price_a", "Price A")] },
      { name: "Variation B", configs: [priceConfig("price_b", "Price B")] },
    ]);
    const [a, b] = variationsOf(experience) as [VariationDefinition, VariationDefinition];
    // ?page= opens the page at once.
    let frame = await openEditor(page, experience.id, a.id, stack.shopUrl(product.page_path));
    await expect.poll(() => text(frame, "#product-price")).toBe("Price A");
    // Opening the same address again loads it afresh, and the editor waits for its bridge again.
    await page.getByRole("button", { name: "Open", exact: true }).click();
    await expect.poll(() => frame.isDetached()).toBe(true);
    frame = await editorFrame(page);
    await expect.poll(() => text(frame, "#product-price")).toBe("Price A");

    const switcher = page.getByLabel("Variation", { exact: true });
    await switcher.selectOption({ label: "Variation B" });
    await expect.poll(() => text(frame, "#product-price")).toBe("Price B");
    expect(new URL(page.url()).searchParams.get("variation")).toBe(b.id);
    await switcher.selectOption({ label: "Variation A" });
    await expect.poll(() => text(frame, "#product-price")).toBe("Price A");
    // A reloaded page has a new bridge: the variation is previewed again.
    await frame.goto(frame.url());
    await expect.poll(() => text(frame, "#product-price")).toBe("Price A");

    // A typed path is highlighted and counted before it is selected.
    await page.getByLabel("CSS path", { exact: true }).fill(".product-perks li");
    await expect.poll(() => page.getByTestId("match-count").innerText()).toBe("3 elements match the typed path");
    await page.getByRole("button", { name: "Select", exact: true }).click();
    await expect.poll(() => page.getByTestId("match-count").innerText()).toBe("<li> · 3 elements match");
    expect(await page.getByText("This path matches 3 elements: a change applies to every one of them.").count()).toBe(1);
    // A typed path not selected yet is not described as the selection: the panel still edits the old one.
    await page.getByLabel("CSS path", { exact: true }).fill("#product-price");
    await frame.locator("h1").hover();
    await expect.poll(() => page.getByTestId("match-count").innerText()).toBe("Still selected: .product-perks li");

    // Keyboard navigation: the panel's buttons and Alt+arrows drive the bridge's selection.
    await frame.locator("#product-price").click();
    await expect.poll(() => selectedPath(page)).toBe("#product-price");
    await page.getByRole("button", { name: "Parent", exact: true }).click();
    await expect.poll(() => selectedPath(page)).toBe(".product-price-line");
    await page.getByTestId("save-status").click(); // focus on the dashboard, outside any input
    await page.keyboard.press("Alt+ArrowDown");
    await expect.poll(() => selectedPath(page)).toBe("#product-price");
    await page.keyboard.press("Alt+ArrowUp");
    await expect.poll(() => selectedPath(page)).toBe(".product-price-line");
    await page.keyboard.press("Alt+ArrowRight");
    await expect.poll(() => selectedPath(page)).toBe("#product-tax");

    // Undo and redo, by button and by key.
    const taxBefore = await text(frame, "#product-tax");
    await page.getByLabel("Text", { exact: true }).fill("Tax edited");
    await expect.poll(() => text(frame, "#product-tax")).toBe("Tax edited");
    await page.getByRole("button", { name: "Undo" }).click();
    await expect.poll(() => text(frame, "#product-tax")).toBe(taxBefore);
    await page.getByRole("button", { name: "Redo" }).click();
    await expect.poll(() => text(frame, "#product-tax")).toBe("Tax edited");
    await page.getByTestId("save-status").click();
    await page.keyboard.press("Control+z");
    await expect.poll(() => text(frame, "#product-tax")).toBe(taxBefore);
    await page.keyboard.press("Control+Shift+z");
    await expect.poll(() => text(frame, "#product-tax")).toBe("Tax edited");
    // The other variation has its own history and shows its own configs only.
    await switcher.selectOption({ label: "Variation B" });
    await expect.poll(() => text(frame, "#product-tax")).toBe(taxBefore);
    await expect.poll(() => text(frame, "#product-price")).toBe("Price B");
    expect(await page.getByRole("button", { name: "Undo" }).isDisabled()).toBe(true);
    await switcher.selectOption({ label: "Variation A (unsaved)" });
    await expect.poll(() => text(frame, "#product-tax")).toBe("Tax edited");

    // The list of changes on this page: select one by its path, remove one (and undo that).
    await page.getByTestId("change-row").filter({ hasText: "#product-price" }).getByRole("button", { name: "#product-price", exact: true }).click();
    await expect.poll(() => selectedPath(page)).toBe("#product-price");
    await page.getByRole("button", { name: "Remove the change of #product-price" }).click();
    await expect.poll(() => text(frame, "#product-price")).toBe(product.price_text);
    expect(await page.getByTestId("change-row").count()).toBe(1);
    await page.getByRole("button", { name: "Undo" }).click();
    await expect.poll(() => text(frame, "#product-price")).toBe("Price A");

    // The mobile width resizes the frame; the preview follows.
    await page.getByRole("button", { name: "Mobile" }).click();
    await expect.poll(() => frame.evaluate(() => window.innerWidth)).toBe(390);
    await expect.poll(() => text(frame, "#product-tax")).toBe("Tax edited");
    await page.screenshot({ path: `${SCREENSHOTS}visual-editor-mobile.png` });
    await page.getByRole("button", { name: "Desktop" }).click();

    // The service's refusal is shown in its own words: a swap target over the 2048-character limit.
    await page.getByLabel("Swap with (CSS path)").fill(`#${"x".repeat(2100)}`);
    await page.getByRole("button", { name: "Save variation" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Could not save" });
    await expect.poll(() => alert.innerText()).toContain("invalid_body");
    await page.getByLabel("Swap with (CSS path)").fill("");

    // Meanwhile someone else renames the experience and changes Variation B: the save keeps both.
    const renamed = withVariations(experience, "Two prices, renamed", (v) =>
      v.id === b.id ? [{ ...v, configs: [priceConfig("price_b2", "Price B2")] }] : [v],
    );
    await api(page.request, "PUT", `/api/experiences/${experience.id}`, renamed);

    await page.getByRole("button", { name: "Save variation" }).click();
    await expect.poll(() => page.getByTestId("save-status").innerText()).toBe("Saved");
    const stored = await api(page.request, "GET", `/api/experiences/${experience.id}`);
    const saved = variationsOf(stored);
    // Variation A: its price config as it was, plus the tax line; Variation B as the other left it.
    expect(saved[0]!.configs.map((c) => c.properties?.element_path)).toEqual(["#product-price", "#product-tax"]);
    expect((saved[0]!.configs[1]!.variation as HtmlElementVariation).innerHTML).toBe("Tax edited");
    expect(saved[1]!.configs).toEqual([priceConfig("price_b2", "Price B2")]);
    expect(stored.name).toBe("Two prices, renamed");
    // "Saved" is said of the variation that was saved, not of the one switched to.
    await switcher.selectOption({ label: "Variation B" });
    await expect.poll(() => page.getByTestId("save-status").innerText()).toBe("No unsaved changes");
    await switcher.selectOption({ label: "Variation A" });
    await expect.poll(() => page.getByTestId("save-status").innerText()).toBe("Saved");

    // A variation removed meanwhile cannot be saved into: the editor says so.
    await api(page.request, "PUT", `/api/experiences/${experience.id}`, withVariations(stored, stored.name, (v) => (v.id === a.id ? [] : [v])));
    await page.getByLabel("Text", { exact: true }).fill("Tax edited again");
    await page.getByRole("button", { name: "Save variation" }).click();
    await expect.poll(() => alert.innerText()).toContain("This variation was removed from the experience");

    // Leaving with unsaved changes asks first.
    const visualUrl = page.url();
    page.once("dialog", (d) => void d.dismiss());
    await page.getByRole("link", { name: "← Two prices" }).click();
    await page.waitForTimeout(300);
    expect(page.url()).toBe(visualUrl);
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("link", { name: "← Two prices" }).click();
    await page.waitForURL(`${stack.apiUrl}/experiences/${experience.id}`);
  });

  it("keeps a saved change when its value is typed again, also after switching variations with the element selected", async () => {
    const page = await operator();
    const experience = await createExperience(page, "Retyped prices", [
      { name: "Variation A", configs: [priceConfig("retyped_a", "Price A")] },
      { name: "Variation B", configs: [priceConfig("retyped_b", "Price B")] },
    ]);
    const [a, b] = variationsOf(experience) as [VariationDefinition, VariationDefinition];
    const frame = await openEditor(page, experience.id, a.id, stack.shopUrl(product.page_path));
    await expect.poll(() => text(frame, "#product-price")).toBe("Price A");

    // Selected while Variation A's saved price is previewed: the page the bridge reads shows it.
    await frame.locator("#product-price").click();
    await expect.poll(() => selectedPath(page)).toBe("#product-price");
    const field = page.getByLabel("Text", { exact: true });
    expect(await field.inputValue()).toBe("Price A");
    await field.fill("Price AB");
    await expect.poll(() => text(frame, "#product-price")).toBe("Price AB");
    // Back to the saved value: the saved change, not no change.
    await field.fill("Price A");
    await expect.poll(() => page.getByTestId("save-status").innerText()).toBe("No unsaved changes");
    await expect.poll(() => text(frame, "#product-price")).toBe("Price A");
    expect(await page.getByTestId("change-row").count()).toBe(1);
    await page.getByLabel("Text color", { exact: true }).fill(RED);
    await expect.poll(() => color(frame, "#product-price")).toBe(RED);
    await page.getByRole("button", { name: "Save variation" }).click();
    await expect.poll(() => page.getByTestId("save-status").innerText()).toBe("Saved");
    let saved = variationsOf(await api(page.request, "GET", `/api/experiences/${experience.id}`));
    expect(saved[0]!.configs).toEqual([{ ...priceConfig("retyped_a", "Price A"), variation: { innerHTML: "Price A", style: { color: RED } } }]);

    // Another variation, the price still selected (read while "Price A" was shown): the shop's own
    // price takes the change back; "Price A" is a change of Variation B's.
    await page.getByLabel("Variation", { exact: true }).selectOption({ label: "Variation B" });
    await expect.poll(() => text(frame, "#product-price")).toBe("Price B");
    await expect.poll(() => field.inputValue()).toBe("Price B");
    await field.fill(product.price_text);
    await expect.poll(() => text(frame, "#product-price")).toBe(product.price_text);
    expect(await page.getByTestId("change-row").count()).toBe(0);
    await field.fill("Price A");
    await expect.poll(() => text(frame, "#product-price")).toBe("Price A");
    await page.getByRole("button", { name: "Save variation" }).click();
    await expect.poll(() => page.getByTestId("save-status").innerText()).toBe("Saved");
    saved = variationsOf(await api(page.request, "GET", `/api/experiences/${experience.id}`));
    expect(saved.map((v) => v.id)).toEqual([a.id, b.id]);
    expect(saved[1]!.configs.map((c) => c.variation)).toEqual([{ innerHTML: "Price A" }]);
  });

  it("is read-only for a viewer: pages, selection, paths and values, variations; no edits, undo or save", async () => {
    const owner = await operator();
    const experience = await createExperience(owner, "Viewed prices", [
      { name: "Variation A", configs: [priceConfig("viewed_a", "Price A")] },
      { name: "Variation B", configs: [priceConfig("viewed_b", "Price B")] },
    ]);
    const [a] = variationsOf(experience) as [VariationDefinition, VariationDefinition];
    const page = await operator(VIEWER);
    const frame = await openEditor(page, experience.id, a.id);
    await expect.poll(() => text(frame, "#product-price")).toBe("Price A");
    expect(await page.getByTestId("read-only").innerText()).toContain("View only");

    await frame.locator("#product-price").click();
    await expect.poll(() => selectedPath(page)).toBe("#product-price");
    const field = page.getByLabel("Text", { exact: true });
    expect(await field.inputValue()).toBe("Price A");
    expect(await field.isEditable()).toBe(false);
    expect(await page.getByLabel("Text color", { exact: true }).isEditable()).toBe(false);
    expect(await page.getByLabel("Then", { exact: true }).isEnabled()).toBe(false);
    await page.getByLabel("Variation", { exact: true }).selectOption({ label: "Variation B" });
    await expect.poll(() => text(frame, "#product-price")).toBe("Price B");
    await expect.poll(() => field.inputValue()).toBe("Price B");
    // Moving the selection is looking, not changing.
    await page.getByRole("button", { name: "Parent", exact: true }).click();
    await expect.poll(() => selectedPath(page)).toBe(".product-price-line");

    for (const name of ["Save variation", "Undo", "Redo", "Insert popup", "Move up", "Duplicate", "Remove the change of #product-price"])
      expect(await page.getByRole("button", { name, exact: true }).count(), name).toBe(0);
    expect(await page.getByLabel("New changes apply on").count()).toBe(0);
    // Keys change nothing either.
    await page.getByTestId("read-only").click();
    await page.keyboard.press("Control+z");
    await page.waitForTimeout(300);
    expect(await text(frame, "#product-price")).toBe("Price B");
    const stored = variationsOf(await api(page.request, "GET", `/api/experiences/${experience.id}`));
    expect(stored.map((v) => v.configs)).toEqual([[priceConfig("viewed_a", "Price A")], [priceConfig("viewed_b", "Price B")]]);
  });

  // 25 s alone: every kind of change, each previewed in the frame, then a shopper's visit.
  it("makes every kind of change the script applies, previews each, and a shopper gets them all", { timeout: 180_000 }, async () => {
    const page = await operator();
    const experience = await createExperience(page, "Everything", [{ name: "Everything", configs: [] }], true);
    const frame = await openEditor(page, experience.id, variationsOf(experience)[0]!.id, stack.shopUrl(product.page_path));
    const select = async (sel: string, path: string) => {
      await frame.locator(sel).click();
      await expect.poll(() => selectedPath(page)).toBe(path);
    };
    /** Selects by a typed path (Select sends select-path): the config is bound to that path. */
    const selectPath = async (path: string, tag: string) => {
      await page.getByLabel("CSS path", { exact: true }).fill(path);
      await page.getByRole("button", { name: "Select", exact: true }).click();
      await expect.poll(() => page.getByTestId("match-count").innerText()).toBe(`<${tag}> · 1 element matches`);
      await expect.poll(() => selectedPath(page)).toBe(path);
    };
    const perks = () => frame.locator(".product-perks li").allInnerTexts();
    const thumbs = (f: Page | Frame) => f.locator(".product-thumb").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
    const thumbsBefore = await thumbs(frame);
    expect(thumbsBefore.length).toBeGreaterThan(1);
    const perksBefore = await perks();
    const handle = product.page_path.split("/").pop()!;

    // Duplicate the title; insert HTML after the price.
    await select("h1", ".product-title");
    await page.getByRole("button", { name: "Duplicate", exact: true }).click();
    await expect.poll(() => frame.locator("h1").count()).toBe(2);
    await select("#product-price", "#product-price");
    await page.getByLabel("Where", { exact: true }).selectOption("insert_after_html");
    await page.getByLabel("HTML to insert").fill('<em id="sf-badge">Bestseller</em>');
    await expect.poll(() => frame.locator("#product-price + #sf-badge").count()).toBe(1);
    // … and before, at the end of, and instead of other elements.
    await selectPath("#announcement-bar", "div");
    await page.getByLabel("Where", { exact: true }).selectOption("insert_before_html");
    await page.getByLabel("HTML to insert").fill('<p id="sf-before">Sale today</p>');
    await expect.poll(() => frame.locator("#sf-before + #announcement-bar").count()).toBe(1);
    await selectPath(".product-description", "p");
    await page.getByLabel("Where", { exact: true }).selectOption("append_html");
    await page.getByLabel("HTML to insert").fill('<span id="sf-appended"> Now vegan.</span>');
    await expect.poll(() => frame.locator(".product-description > #sf-appended:last-child").count()).toBe(1);
    await selectPath(".site-footer span:first-child", "span");
    await page.getByLabel("Where", { exact: true }).selectOption("replace_html");
    await page.getByLabel("HTML to insert").fill('<span id="sf-instead">A Storefit demo</span>');
    await expect.poll(() => frame.locator("#sf-instead").count()).toBe(1);
    await expect.poll(() => frame.getByText("© Little Sprouts").count()).toBe(0);
    // The HTML field.
    await selectPath(".breadcrumbs > span", "span");
    await page.getByLabel("HTML", { exact: true }).fill("<em>Best</em>seller");
    await expect.poll(() => frame.locator(".breadcrumbs > span").innerHTML()).toBe("<em>Best</em>seller");

    // Classes, a color from the picker, and a swap on the tax line.
    await select("#product-tax", "#product-tax");
    await page.getByLabel("Background color picker").fill("#ffee00");
    await expect.poll(() => frame.locator("#product-tax").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(255, 238, 0)");
    expect(await page.getByLabel("Background color", { exact: true }).inputValue()).toBe("#ffee00");
    await page.getByLabel("Add classes").fill("sf-note");
    await expect.poll(() => frame.locator("#product-tax").getAttribute("class")).toBe("product-tax sf-note");
    await page.getByLabel("Remove classes").fill("product-tax");
    await expect.poll(() => frame.locator("#product-tax").getAttribute("class")).toBe("sf-note");
    await page.getByLabel("Swap with (CSS path)").fill(".product-description");
    await expect.poll(() => frame.evaluate(() => document.querySelector(".product-description")!.nextElementSibling?.id)).toBe("product-tax");

    // Move the second perk up; hide the third.
    await frame.locator(".product-perks li").nth(1).click();
    await expect.poll(() => page.getByTestId("match-count").innerText()).toBe("<li> · 1 element matches");
    await page.getByRole("button", { name: "Move up" }).click();
    await expect.poll(perks).toEqual([perksBefore[1], perksBefore[0], perksBefore[2]]);
    // Move the first thumbnail down.
    await selectPath(".product-thumbs > button:nth-of-type(1)", "button");
    await page.getByRole("button", { name: "Move down" }).click();
    await expect.poll(() => thumbs(frame)).toEqual([thumbsBefore[1], thumbsBefore[0], ...thumbsBefore.slice(2)]);
    await frame.locator(".product-perks li").nth(2).click();
    await expect.poll(() => page.getByTestId("match-count").innerText()).toBe("<li> · 1 element matches");
    await page.getByLabel("Hide this element").check();
    await expect.poll(() => frame.locator(".product-perks li").nth(2).evaluate((el) => getComputedStyle(el).display)).toBe("none");

    // The image's source; the breadcrumb link's address and target.
    await select("#product-media-main", "#product-media-main");
    expect(await page.getByLabel("Text", { exact: true }).count()).toBe(0); // an image has no text
    await page.getByLabel("Image address (src)").fill(`/images/${handle}-2.svg`);
    await expect.poll(() => frame.locator("#product-media-main").getAttribute("src")).toBe(`/images/${handle}-2.svg`);
    const srcset = `/images/${handle}-2.svg 1x, /images/${handle}-1.svg 2x`;
    await page.getByLabel("Responsive sources (srcset)").fill(srcset);
    await expect.poll(() => frame.locator("#product-media-main").getAttribute("srcset")).toBe(srcset);
    await frame.locator(".breadcrumbs a").click();
    await expect.poll(() => page.getByTestId("match-count").innerText()).toBe("<a> · 1 element matches");
    await page.getByLabel("Link address (href)").fill("/cart");
    await page.getByLabel("Opens in").selectOption("_blank");
    await expect.poll(() => frame.locator(".breadcrumbs a").evaluate((a) => [a.getAttribute("href"), a.getAttribute("target")])).toEqual(["/cart", "_blank"]);

    // A click action: the add-to-cart button counts a goal and hides the perks.
    await select("#add-to-cart", "#add-to-cart");
    await page.getByLabel("Count clicks as the goal").fill("cta_click");
    // The experience has no goal that counts these clicks: the panel says so.
    expect(await page.getByTestId("click-goal-note").innerText()).toBe(
      "No goal of this experience counts “cta_click” yet: add a Click goal with the event name cta_click to the experience’s Goals to see these clicks in Results.",
    );
    await page.getByLabel("Then", { exact: true }).selectOption("hide_element");
    await page.getByLabel("Target element (CSS path)").fill(".product-perks");
    // The breadcrumb's title shows them again; the announcement scrolls to the footer; the price
    // line goes to the cart.
    await selectPath(".breadcrumbs > span", "span");
    await page.getByLabel("Then", { exact: true }).selectOption("unhide_element");
    await page.getByLabel("Target element (CSS path)").fill(".product-perks");
    await selectPath("#announcement-bar", "div");
    await page.getByLabel("Then", { exact: true }).selectOption("scroll_to_element");
    await page.getByLabel("Target element (CSS path)").fill(".site-footer");
    await selectPath(".product-price-line", "div");
    await page.getByLabel("Then", { exact: true }).selectOption("redirect_to_page");
    await page.locator(".ve-panel").getByLabel("Page address").fill("/cart");

    // A popup, on every page the experience targets.
    await page.getByLabel("New changes apply on").selectOption("experience");
    await page.getByRole("button", { name: "Insert popup" }).click();
    await expect.poll(() => frame.getByText("Take 10% off your first order.").count()).toBe(1);
    await page.getByLabel("New changes apply on").selectOption("page");
    // Popups on the other triggers, on this page; the preview shows each at once.
    const popupHtml = (id: string) => `<div id="sf-${id}" style="background:#fff;padding:1rem"><button type="button" data-storefit-close>Dismiss the ${id} offer</button></div>`;
    for (const [id, trigger] of [["timer", "timerbased"], ["scroll", "on_scroll"], ["exit", "at_exit"]] as const) {
      await page.getByLabel("Popup HTML").fill(popupHtml(id));
      await page.getByLabel("Show it").selectOption(trigger);
      if (trigger === "timerbased") await page.getByLabel("Delay (seconds)").fill("1");
      if (trigger === "on_scroll") await page.getByLabel("Scrolled (percent of the page)").fill("90");
      await page.getByRole("button", { name: "Insert popup" }).click();
      await expect.poll(() => frame.locator(`[data-storefit-template] #sf-${id}`).count()).toBe(1);
    }

    // Click actions act in the preview once selection is off.
    await page.getByLabel("Select elements by clicking in the page").uncheck();
    await frame.locator("[data-storefit-template]").evaluateAll((els) => els.forEach((el) => el.remove()));
    await frame.locator("#add-to-cart").click();
    await expect.poll(() => frame.locator(".product-perks").evaluate((el) => getComputedStyle(el).display)).toBe("none");
    await frame.locator(".breadcrumbs > span").click();
    await expect.poll(() => frame.locator(".product-perks").evaluate((el) => getComputedStyle(el).display)).not.toBe("none");
    await page.screenshot({ path: `${SCREENSHOTS}visual-editor-changes.png` });
    // Every change is its own row (a change made before the panel took the next selection would
    // have gone to the previous element).
    const rows = await page.getByTestId("change-row").locator(".ve-changes__path").allInnerTexts();
    expect(rows.slice(0, 14)).toEqual([
      ".product-title", "#product-price", "#announcement-bar", ".product-description", ".site-footer span:first-child",
      ".breadcrumbs > span", "#product-tax", ".product-perks > li:nth-of-type(2)", ".product-thumbs > button:nth-of-type(1)",
      ".product-perks > li:nth-of-type(3)", "#product-media-main", ".breadcrumbs > a", "#add-to-cart", ".product-price-line",
    ]);
    expect(rows.slice(14).map((r) => r.replace(/_[0-9a-f]{12}$/, ""))).toEqual(Array(4).fill("tpl_ve_popup"));

    await page.getByRole("button", { name: "Save variation" }).click();
    await expect.poll(() => page.getByTestId("save-status").innerText()).toBe("Saved");
    const configs = variationsOf(await api(page.request, "GET", `/api/experiences/${experience.id}`))[0]!.configs;
    const byPath = (path: string) => configs.find((c) => c.properties?.element_path === path)?.variation;
    expect(byPath(".product-title")).toEqual({ customfit_meta: { duplicate_actions: [{ position: "below" }] } });
    expect(byPath("#product-price")).toEqual({
      customfit_meta: { edit_elem_action: { action_type: "insert_after_html", action_txt: '<em id="sf-badge">Bestseller</em>' } },
    });
    expect(byPath("#announcement-bar")).toEqual({
      customfit_meta: {
        edit_elem_action: { action_type: "insert_before_html", action_txt: '<p id="sf-before">Sale today</p>' },
        advanced_click_actions: [{ action_type: "scroll_to_element", target: ".site-footer" }],
      },
    });
    expect(byPath(".product-description")).toEqual({
      customfit_meta: { edit_elem_action: { action_type: "append_html", action_txt: '<span id="sf-appended"> Now vegan.</span>' } },
    });
    expect(byPath(".site-footer span:first-child")).toEqual({
      customfit_meta: { edit_elem_action: { action_type: "replace_html", action_txt: '<span id="sf-instead">A Storefit demo</span>' } },
    });
    expect(byPath(".breadcrumbs > span")).toEqual({
      innerHTML: "<em>Best</em>seller",
      customfit_meta: { advanced_click_actions: [{ action_type: "unhide_element", target: ".product-perks" }] },
    });
    expect(byPath(".product-price-line")).toEqual({
      customfit_meta: { advanced_click_actions: [{ action_type: "redirect_to_page", redirect_url: "/cart" }] },
    });
    expect(byPath(".product-thumbs > button:nth-of-type(1)")).toEqual({
      customfit_meta: { move_action: { target: ".product-thumbs > button:nth-of-type(2)", position: "below" } },
    });
    expect(byPath("#product-media-main")).toEqual({ src: `/images/${handle}-2.svg`, srcset });
    expect(byPath("#product-tax")).toEqual({
      style: { "background-color": "#ffee00" },
      cf_classes_edit_option: "add_remove_classes",
      cf_classes_add: ["sf-note"],
      cf_classes_remove: ["product-tax"],
      customfit_meta: { swap_action: { target: ".product-description" } },
    });
    expect(byPath("#add-to-cart")).toEqual({
      customfit_meta: {
        onclick_action: { action_type: "track_click", action_txt: { goal_name: "cta_click" } },
        advanced_click_actions: [{ action_type: "hide_element", target: ".product-perks" }],
      },
    });
    const popups = configs.filter((c) => c.properties?.custom_template);
    expect(popups.map((c) => c.properties!.custom_template!.properties!.settings)).toEqual([
      { config_selected: "on_entry" },
      { config_selected: "timerbased", timeout: 1 },
      { config_selected: "on_scroll", scroll_percentage: 90 },
      { config_selected: "at_exit" },
    ]);
    const popup = popups[0]!;
    expect(popup.properties).not.toHaveProperty("page_path");
    expect(popup.properties!.custom_template).toMatchObject({ parentElement: "body", properties: { settings: { config_selected: "on_entry" } } });
    for (const p of popups.slice(1)) expect(p.properties).toMatchObject({ page_path: product.page_path, page_match: "exact_match" });
    expect(popups[1]!.properties!.custom_template!.html).toBe(popupHtml("timer"));

    // The shopper's page, from the service and the script alone.
    const shopper = await newVisitor(browser);
    contexts.push(shopper);
    const visit = await shopper.newPage();
    // A short window: the page scrolls (the scroll popup waits for 90 %, "scroll to" moves).
    await visit.setViewportSize({ width: 1280, height: 300 });
    await visit.goto(stack.shopUrl(product.page_path));
    await visit.waitForFunction(() => !document.getElementById("storefit-hide"));
    await expect.poll(() => visit.locator("h1").count()).toBe(2);
    expect(await visit.locator("#sf-before + #announcement-bar").count()).toBe(1);
    expect(await visit.locator(".product-description > #sf-appended:last-child").count()).toBe(1);
    expect(await visit.locator("#sf-instead").count()).toBe(1);
    expect(await visit.getByText("© Little Sprouts").count()).toBe(0);
    expect(await visit.locator(".breadcrumbs > span").innerHTML()).toBe("<em>Best</em>seller");
    expect(await thumbs(visit)).toEqual([thumbsBefore[1], thumbsBefore[0], ...thumbsBefore.slice(2)]);
    expect(await visit.locator("#product-media-main").getAttribute("srcset")).toBe(srcset);
    await expect.poll(() => visit.locator("#product-price + #sf-badge").count()).toBe(1);
    expect(await visit.locator("#product-tax").getAttribute("class")).toBe("sf-note");
    expect(await visit.locator(".product-perks li").allInnerTexts()).toEqual([perksBefore[1], perksBefore[0], perksBefore[2]]);
    expect(await visit.locator(".product-perks li").nth(2).evaluate((el) => getComputedStyle(el).display)).toBe("none");
    expect(await visit.locator("#product-media-main").getAttribute("src")).toBe(`/images/${handle}-2.svg`);
    expect(await visit.locator(".breadcrumbs a").getAttribute("target")).toBe("_blank");
    await expect.poll(() => visit.getByText("Take 10% off your first order.").count()).toBe(1);
    // The popups on their triggers: after a second, at 90 % scrolled, when the pointer leaves.
    // The timer popup opens over the entry popup, so it is dismissed first, as a shopper would.
    await expect.poll(() => visit.locator("#sf-timer").count()).toBe(1);
    await visit.getByRole("button", { name: "Dismiss the timer offer" }).click();
    await visit.getByRole("button", { name: "Close", exact: true }).click();
    await expect.poll(() => visit.getByText("Take 10% off your first order.").count()).toBe(0);
    expect(await visit.locator("#sf-scroll").count()).toBe(0);
    await visit.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => visit.locator("#sf-scroll").count()).toBe(1);
    await visit.getByRole("button", { name: "Dismiss the scroll offer" }).click();
    expect(await visit.locator("#sf-exit").count()).toBe(0);
    await visit.evaluate(() => document.dispatchEvent(new MouseEvent("mouseout", { bubbles: true, clientY: 0, relatedTarget: null })));
    await expect.poll(() => visit.locator("#sf-exit").count()).toBe(1);
    await visit.getByRole("button", { name: "Dismiss the exit offer" }).click();
    // Click actions: scroll to the footer; hide the perks, show them again; go to the cart.
    await visit.evaluate(() => window.scrollTo(0, 0));
    await visit.locator("#announcement-bar").click();
    await expect.poll(() => visit.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await visit.locator("#add-to-cart").click();
    await expect.poll(() => visit.locator(".product-perks").evaluate((el) => getComputedStyle(el).display)).toBe("none");
    await visit.locator(".breadcrumbs > span").click();
    await expect.poll(() => visit.locator(".product-perks").evaluate((el) => getComputedStyle(el).display)).not.toBe("none");
    await visit.locator(".product-price-line").click();
    await visit.waitForURL(stack.shopUrl("/cart"));
  });

  it("previews and edits each device's sub-variation of a device-specific behaviour", async () => {
    // The seeded gallery experience shows one image on phones and another on desktops.
    const page = await operator();
    const gallery = DEMO_PAGES.find((p) => p.domain === DEMO_DOMAIN && p.element_hint === "media")!;
    const handle = gallery.page_path.split("/").pop()!;
    const image = (n: number) => `/images/${handle}-${n}.svg`;
    const before = await api(page.request, "GET", "/api/experiences/exp_gallery_device");
    const frame = await openEditor(page, "exp_gallery_device", "var_gallery_device", stack.shopUrl(gallery.page_path));
    const src = () => frame.locator("#product-media-main").getAttribute("src");
    await expect.poll(src).toBe(image(3));
    await page.getByRole("button", { name: "Mobile" }).click();
    await expect.poll(src).toBe(image(2));
    expect(await page.getByTestId("device-note").innerText()).toContain("mobile width");
    const others = variationsOf(before)[0]!.configs.length - 1;
    expect(others).toBeGreaterThan(0);
    expect(await page.getByTestId("other-pages").innerText()).toBe(`${others} more change${others === 1 ? "" : "s"} of this variation on other pages.`);

    await frame.locator("#product-media-main").click();
    await expect.poll(() => selectedPath(page)).toBe("#product-media-main");
    const field = page.getByLabel("Image address (src)");
    await expect.poll(() => field.inputValue()).toBe(image(2));
    await field.fill(image(1));
    await expect.poll(src).toBe(image(1));
    await page.getByRole("button", { name: "Desktop" }).click();
    await expect.poll(src).toBe(image(3));
    await expect.poll(() => field.inputValue()).toBe(image(3));

    await page.getByRole("button", { name: "Save variation" }).click();
    await expect.poll(() => page.getByTestId("save-status").innerText()).toBe("Saved");
    const [was, now] = [before, await api(page.request, "GET", "/api/experiences/exp_gallery_device")].map((e) => variationsOf(e)[0]!.configs);
    const onPage = (c: ConfigDefinition) => c.properties?.page_path === gallery.page_path;
    expect(now!.find(onPage)!.variation).toEqual({ mobile: { src: image(1) }, desktop: { src: image(3) } });
    expect(now!.filter((c) => !onPage(c))).toEqual(was!.filter((c) => !onPage(c)));
  });

  it("ignores messages that are not from the editor frame on the shop's origin", async () => {
    const page = await operator();
    const experience = await createExperience(page, "Forgery", [{ name: "Only", configs: [] }]);
    const frame = await openEditor(page, experience.id, variationsOf(experience)[0]!.id, stack.shopUrl(product.page_path));

    // Two other frames in the dashboard: one on a foreign origin, one on the shop's own origin.
    await page.evaluate(
      ([foreign, sameOrigin]) => {
        for (const [name, src] of [["foreign", foreign], ["lookalike", sameOrigin]] as const) {
          const f = document.createElement("iframe");
          f.name = name;
          f.src = src!;
          document.body.append(f);
        }
      },
      [stack.shopUrl("/", "127.0.0.1"), stack.shopUrl("/cart")],
    );
    const forge = (f: Frame, path: string) =>
      f.evaluate((p) => {
        const selection = {
          path: p,
          matchCount: 1,
          tagName: "div",
          text: "forged",
          html: "forged",
          htmlTruncated: false,
          attributes: {},
          rect: { x: 0, y: 0, width: 10, height: 10 },
          styles: {},
          can: { parent: false, child: false, next: false, previous: false },
        };
        window.parent.postMessage({ source: "storefit-bridge", v: 1, type: "selected", selection }, "*");
      }, path);
    const foreign = await eventually(() => page.frame({ name: "foreign" }) ?? undefined, 10_000, "the foreign frame");
    const lookalike = await eventually(() => page.frame({ name: "lookalike" }) ?? undefined, 10_000, "the lookalike frame");
    await foreign.waitForLoadState("domcontentloaded");
    await lookalike.waitForLoadState("domcontentloaded");
    expect(new URL(foreign.url()).origin).not.toBe(new URL(frame.url()).origin);
    expect(new URL(lookalike.url()).origin).toBe(new URL(frame.url()).origin);
    await forge(foreign, "#forged-foreign");
    await forge(lookalike, "#forged-lookalike");
    await page.waitForTimeout(500);
    expect(await selectedPath(page)).toBe("");
    expect(await page.getByTestId("match-count").innerText()).not.toContain("<div>");

    // The same message from the editor frame itself is taken: the check above could fail.
    await forge(frame, "#from-the-editor-frame");
    await expect.poll(() => selectedPath(page)).toBe("#from-the-editor-frame");

    // The operator follows a link to the account's other shop domain: its bridge is listened to.
    const uk = DEMO_PAGES.find((p) => p.domain !== DEMO_DOMAIN)!;
    await frame.goto(stack.shopUrl(uk.page_path, uk.domain));
    await page.getByText("This page is not one of the experience's target pages").waitFor();
    await frame.locator("#product-tax").click();
    await expect.poll(() => selectedPath(page)).toBe("#product-tax");
    // The same frame on an origin that is none of the account's domains is not, even saying ready.
    await frame.goto(stack.shopUrl("/", "127.0.0.1"));
    await forge(frame, "#forged-after-navigation");
    await frame.evaluate((url) => {
      window.parent.postMessage({ source: "storefit-bridge", v: 1, type: "ready", url, title: "x", viewport: { width: 1, height: 1 } }, "*");
    }, frame.url());
    await forge(frame, "#forged-after-ready");
    await page.waitForTimeout(500);
    expect(await selectedPath(page)).toBe("#product-tax");

    // An address outside the account's domains is refused before anything is framed.
    await page.getByLabel("Page address").fill("https://shop.evil.example/products/x");
    await page.getByRole("button", { name: "Open", exact: true }).click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "not on the account's domains" }).count()).toBe(1);
    expect(page.frame({ name: "storefit-editor" })!.url()).toBe(stack.shopUrl("/", "127.0.0.1"));
  });

  it("says so when the page in the frame never answers, and shows the service's error on load", async () => {
    // Headless Chromium's own UA is a bot to the script (spec §6): it stops before edit mode, so
    // no bridge ever says ready — as on a page without the snippet.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await signInToDashboard(page, stack);
    const experience = await createExperience(page, "Silent page", [{ name: "Only", configs: [] }]);
    await page.clock.install();
    await page.goto(`${stack.apiUrl}/experiences/${experience.id}/visual?variation=${variationsOf(experience)[0]!.id}&page=${encodeURIComponent(stack.shopUrl(product.page_path))}`);
    await page.getByText("Loading the page…").waitFor();
    await page.clock.fastForward(16_000);
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "The page did not answer" }).count()).toBe(1);
    expect(await page.getByText("Loading the page…").count()).toBe(0);

    await page.goto(`${stack.apiUrl}/experiences/exp_missing/visual`);
    await expect.poll(() => page.getByRole("alert").innerText()).toContain("Could not load the experience");
  });
});
