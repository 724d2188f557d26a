// The experiences screens against the real service and the demo shop: an operator creates an A/B
// test on a product page, starts it, shoppers see its variations, a preview link forces one, a
// pause brings the original back; the editor validates before saving and shows the service's
// refusals; a viewer can change nothing, in the UI or through the API. The screenshots in
// docs/screenshots/ are taken here.
//
// The new test changes the product title (h1.product-title), not #product-price: the seeded,
// running A/B test exp_price_message already rewrites the price on every product page, and two
// experiences on one element resolve by priority, which would hide one of them.

import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { Config, ConfigsRequest, ConfigsResponse } from "@storefit/contract";
import { hashPassword } from "../packages/server/src/auth/password.js";
import { DEMO_DOMAIN } from "../packages/server/src/seed/demo-pages.js";
import { eventually, launchBrowser, newVisitor, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), "..", "docs", "screenshots");
const ACCOUNT_ID = "acc_littlesprouts";
const PRODUCT_PATH = "/products/gentle-baby-wash";
const ORIGINAL_TITLE = "Gentle Baby Wash";
const NEW_TITLE = "Gentle Baby Wash · Loved by 10,000 parents";
const VIEWER = { email: "viewer@e2e.example", password: "viewer-password-123" };

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  mkdirSync(SCREENSHOTS, { recursive: true });
  stack.store.createOperator({
    id: "op_viewer_e2e",
    account_id: ACCOUNT_ID,
    email: VIEWER.email,
    password_hash: await hashPassword(VIEWER.password),
    role: "viewer",
  });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function dashboard(width = 1280, height = 900) {
  const context = await browser.newContext({
    viewport: { width, height },
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  return { context, page, errors };
}

/** What a new shopper's visit to `url` showed: the config call sent and answered, and the title. */
type Visit = {
  request: ConfigsRequest;
  /** The answered config that changes the product title, if any (of a variation or a control). */
  titleConfig: Config | undefined;
  title: string;
};

/**
 * A new shopper's visit to `url`, once the script has revealed the page and applied what the
 * service answered for the title (so a slow engine cannot pass for the control).
 */
async function visit(url: string): Promise<Visit> {
  const context = await newVisitor(browser);
  try {
    const page = await context.newPage();
    const answer = page.waitForResponse((r) => r.url().includes("/v1/users/configs/"));
    await page.goto(url);
    const response = await answer;
    const request = JSON.parse(response.request().postData() ?? "null") as ConfigsRequest;
    const configs = ((await response.json()) as ConfigsResponse).configs;
    await page.waitForFunction(() => !document.getElementById("storefit-hide"));
    const titleConfig = Object.values(configs).find(
      (c) => c.properties?.element_path === "h1.product-title",
    );
    const html = (titleConfig?.variation as { innerHTML?: string } | undefined)?.innerHTML;
    if (html !== undefined) {
      await page.waitForFunction((expected) => {
        const d = document.createElement("div");
        d.innerHTML = expected;
        return document.querySelector("h1.product-title")?.textContent === d.textContent;
      }, html);
    }
    const title = (await page.locator("h1.product-title").innerText()).trim();
    return { request, titleConfig, title };
  } finally {
    await context.close();
  }
}

const titleSeenAt = async (url: string) => (await visit(url)).title;

/** A plain visit (no preview): the experience answered nothing for the title, which is the original. */
async function expectOriginalFor(url: string): Promise<void> {
  const seen = await visit(url);
  expect(seen.request.preview_mode).toBeUndefined();
  expect(seen.titleConfig).toBeUndefined();
  expect(seen.title).toBe(ORIGINAL_TITLE);
}

/**
 * A preview link forces its variation, whatever the status: the script asks for exactly that
 * experience and variation in preview mode, the service answers that variation's config, and the
 * page shows it. Deterministic, unlike counting titles across a 50/50 split.
 */
async function expectPreview(
  link: string,
  experienceId: string,
  variationId: string,
  title: string,
): Promise<void> {
  const seen = await visit(link);
  expect(seen.request).toMatchObject({
    preview_mode: true,
    desired_experiences: [`${experienceId}:${variationId}`],
  });
  expect(seen.titleConfig?.variation_id).toBe(variationId);
  expect(seen.title).toBe(title);
}

const currentExperienceId = (page: Page) =>
  decodeURIComponent(new URL(page.url()).pathname.split("/")[2] ?? "");

describe("experiences in the dashboard", () => {
  it("lists every experience with status, kind, pages, traffic and result", async () => {
    const { context, page, errors } = await dashboard();
    await signInToDashboard(page, stack);
    const rows = page.getByTestId("experience-row");
    await expect.poll(() => rows.count()).toBe(4);
    const price = rows.filter({ hasText: "Price message: free shipping" });
    await expect.poll(() => price.getByTestId("traffic").innerText()).toBe("100% · 50/50");
    expect(await price.getByTestId("status-badge").getAttribute("data-status")).toBe("running");
    expect(await price.innerText()).toContain("A/B test");
    expect(await price.innerText()).toContain("/products/");
    await expect
      .poll(() => price.getByTestId("headline-result").count(), { timeout: 10_000 })
      .toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, "experiences.png"), fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SCREENSHOTS, "experiences-390.png"), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  // 28 s alone; two dozen shopper visits and four previews, beside another browser test file.
  it("creates an A/B test, starts it, shows both variations, previews one, and pauses back to the original", { timeout: 180_000 }, async () => {
    const { context, page, errors } = await dashboard();
    await signInToDashboard(page, stack);
    await page.getByRole("link", { name: "New experience" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Product title: social proof");

    // Page targeting, checked with the URL tester before saving.
    await page.getByRole("button", { name: "Add page" }).click();
    const target = page.getByTestId("page-target");
    await target.getByLabel("Page path or pattern").fill(PRODUCT_PATH);
    expect(await target.getByLabel("Domain", { exact: true }).inputValue()).toBe(DEMO_DOMAIN);
    await page.getByLabel("Test a URL").fill(stack.shopUrl(`${PRODUCT_PATH}?utm_source=mail`));
    await expect
      .poll(() => page.getByTestId("url-test-result").innerText())
      .toContain("Runs on this page");
    await page
      .getByLabel("Test a URL")
      .fill(stack.shopUrl("/products/tear-free-shampoo-and-body-wash"));
    await expect
      .poll(() => page.getByTestId("url-test-result").innerText())
      .toContain("Does not run on this page");

    // Two variations (the defaults): the control counts exposures and changes nothing; B rewrites the title.
    const variations = page.getByTestId("variation");
    const control = variations.nth(0);
    await control.getByRole("button", { name: /Add config/ }).click();
    await control.getByLabel("Element (CSS path)").fill("h1.product-title");
    // Sections open from the keyboard.
    await control.locator("summary", { hasText: "Move, swap, edit HTML, duplicate" }).focus();
    await page.keyboard.press("Enter");
    await control.getByLabel("This is the control: change nothing, count the exposure").check();
    const treatment = variations.nth(1);
    await treatment.getByRole("button", { name: /Add config/ }).click();
    await treatment.getByLabel("Element (CSS path)").fill("h1.product-title");
    await treatment.getByLabel("New text").fill(NEW_TITLE);
    await treatment.getByRole("button", { name: "Add style" }).click();
    await treatment.getByLabel("CSS property").fill("color");
    await treatment.getByLabel("Pick color").fill("#2f6b4f");
    expect(await treatment.getByLabel("Value", { exact: true }).inputValue()).toBe("#2f6b4f");

    // The primary goal: the add-to-cart event the demo shop tracks.
    await page.getByRole("button", { name: "Add goal" }).click();
    const goal = page.getByTestId("goal");
    await goal.getByLabel("Goal name").fill("Add to cart");
    await goal.getByLabel("Counts").selectOption("track");
    await goal.getByLabel("Event name").fill("add_to_cart");

    const created = page.waitForResponse(
      (r) => r.url().endsWith("/api/experiences") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Create experience" }).click();
    expect((await created).status()).toBe(201);
    await page.waitForURL(/\/experiences\/exp_/);
    const id = currentExperienceId(page);
    const stored = stack.store.getExperience(ACCOUNT_ID, id)!;
    expect(stored).toMatchObject({
      status: "draft",
      kind: "ab_test",
      pages: [{ domain: DEMO_DOMAIN, page_path: PRODUCT_PATH, page_match: "exact_match" }],
    });
    const [controlVar, treatmentVar] = stored.rules[0]!.behaviour.variations;
    expect(treatmentVar!.configs[0]).toMatchObject({
      variation_data_type: "HTML_ELEMENT",
      properties: { element_path: "h1.product-title" },
      variation: { innerHTML: NEW_TITLE, style: { color: "#2f6b4f" } },
    });
    expect(controlVar!.configs[0]!.variation).toEqual({ customfit_meta: { is_default: true } });
    expect(stored.goals).toMatchObject([
      { name: "Add to cart", kind: "track", event_name: "add_to_cart" },
    ]);

    // A draft runs for nobody: the service answers no config for the title.
    const productUrl = stack.shopUrl(PRODUCT_PATH);
    await expectOriginalFor(productUrl);

    // Preview links force one variation, a draft's too.
    await page.getByLabel("Shop page to preview on").fill(productUrl);
    const link = await page
      .getByRole("textbox", { name: "Preview link of Variation B" })
      .inputValue();
    expect(new URL(link).searchParams.get("customfit_desired_experiences")).toBe(
      `${id}:${treatmentVar!.id}`,
    );
    await page.getByRole("button", { name: "Copy the preview link of Variation B" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    const controlLink = await page
      .getByRole("textbox", { name: "Preview link of Control" })
      .inputValue();
    await expectPreview(link, id, treatmentVar!.id, NEW_TITLE);
    await expectPreview(controlLink, id, controlVar!.id, ORIGINAL_TITLE);
    const visualEditor = treatment.getByRole("link", { name: "Open visual editor" });
    expect(await visualEditor.getAttribute("href")).toBe(
      `/experiences/${id}/visual?variation=${treatmentVar!.id}`,
    );

    // Start it: new shoppers see one variation each, and across shoppers both.
    await page.getByTestId("status-running").click();
    await expect
      .poll(() => page.getByTestId("status-badge").getAttribute("data-status"))
      .toBe("running");
    const seen = new Set<string>();
    for (let i = 0; i < 16 && seen.size < 2; i++) {
      const title = await titleSeenAt(productUrl);
      expect([ORIGINAL_TITLE, NEW_TITLE]).toContain(title);
      seen.add(title);
    }
    expect([...seen].sort()).toEqual([ORIGINAL_TITLE, NEW_TITLE].sort());

    // Pause: once the service stops answering the title config, the shop is back to the original
    // for every new shopper (while running, each one got a config: the control's or B's).
    await page.getByTestId("status-paused").click();
    await expect
      .poll(() => page.getByTestId("status-badge").getAttribute("data-status"))
      .toBe("paused");
    expect(stack.store.getExperience(ACCOUNT_ID, id)!.status).toBe("paused");
    await expect
      .poll(async () => (await visit(productUrl)).titleConfig, { timeout: 15_000 })
      .toBeUndefined();
    for (let i = 0; i < 8; i++) await expectOriginalFor(productUrl);
    // The paused experience still previews, for QA, while shoppers see the original.
    await expectPreview(link, id, treatmentVar!.id, NEW_TITLE);
    await expectPreview(controlLink, id, controlVar!.id, ORIGINAL_TITLE);
    await expectOriginalFor(productUrl);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("validates before saving, and shows the service's refusal", async () => {
    const { context, page } = await dashboard();
    await signInToDashboard(page, stack);
    await page.goto(`${stack.apiUrl}/experiences/new`);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/api/experiences")) posts.push(r.url());
    });
    await page.getByRole("button", { name: "Add page" }).click();
    await page.getByTestId("page-target").getByLabel("Match").selectOption("regex");
    await page.getByLabel("Page path or pattern").fill("/products/(");
    const variation = page.getByTestId("variation").nth(1);
    await variation.getByRole("button", { name: /Add config/ }).click();
    await variation.getByLabel("Element (CSS path)").fill("h1 >>");
    await variation.getByLabel("New text").fill("Hello");
    await page.getByRole("button", { name: "Create experience" }).click();
    const problems = page.getByTestId("form-problems");
    await expect.poll(() => problems.innerText()).toContain("The name is required.");
    expect(await problems.innerText()).toContain("not a valid regular expression");
    expect(await problems.innerText()).toContain('The element is not a valid CSS path: "h1 >>".');
    // The message sits at its input too, tied to it for screen readers.
    const name = page.getByLabel("Name", { exact: true });
    expect(await name.getAttribute("aria-invalid")).toBe("true");
    expect(
      await page
        .locator(`#${(await name.getAttribute("aria-describedby"))!.replace(/:/g, "\\:")}`)
        .innerText(),
    ).toBe("The name is required.");
    expect(posts).toEqual([]);
    // Each problem in the summary takes the focus to its input.
    await problems.getByRole("button", { name: /not a valid CSS path/ }).click();
    expect(
      await variation
        .getByLabel("Element (CSS path)")
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);

    // Valid for the form, refused by the service: a NUMBER config whose value is text, as JSON.
    await name.fill("Refused by the service");
    await page.getByLabel("Page path or pattern").fill("^/products/");
    await variation.getByLabel("Element (CSS path)").fill("h1");
    await variation.getByRole("button", { name: "Edit as JSON" }).click();
    await variation.getByLabel("Config (JSON)").fill(
      JSON.stringify({
        config_customer_id: "n",
        config_id: "n",
        variation_data_type: "NUMBER",
        variation: "ten",
      }),
    );
    const refused = page.waitForResponse(
      (r) => r.url().endsWith("/api/experiences") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Create experience" }).click();
    expect((await refused).status()).toBe(400);
    await expect
      .poll(() => page.getByTestId("save-error").innerText())
      .toMatch(/The service did not save it: .+/);
    expect(page.url()).toMatch(/\/experiences\/new$/);

    // Unsaved edits: closing the tab asks first.
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.type());
      void d.dismiss();
    });
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => dialogs).toEqual(["beforeunload"]);
    await context.close();
  });

  it("opens every part of a stored experience, reorders rules and saves them in the new order", async () => {
    const { context, page, errors } = await dashboard();
    await signInToDashboard(page, stack);
    await page.goto(`${stack.apiUrl}/experiences/exp_welcome_popup`);
    // The seeded popup's template settings are in the form, not hidden in JSON.
    await page.getByText("Template (popup)").first().click();
    expect(await page.getByLabel("Template id").first().inputValue()).toBe("tpl_welcome_us");
    expect(await page.getByLabel("Show", { exact: true }).first().inputValue()).toBe("on_entry");
    expect(await page.getByLabel("Stay closed").first().inputValue()).toBe("next_session");
    expect(await page.getByTestId("rule").first().getByLabel("Audience").inputValue()).toBe(
      "aud_first_time_visitors",
    );

    await page.getByRole("button", { name: "Add rule" }).click();
    const second = page.getByTestId("rule").nth(1);
    await second.getByLabel("Behaviour name").fill("Everyone else");
    await second.getByLabel("Traffic allocation (%)").fill("25");
    await page.getByRole("button", { name: "Move rule 2 up" }).click();
    expect(await page.getByTestId("rule").first().getByLabel("Behaviour name").inputValue()).toBe(
      "Everyone else",
    );
    const saved = page.waitForResponse(
      (r) =>
        r.url().endsWith("/api/experiences/exp_welcome_popup") && r.request().method() === "PUT",
    );
    await page.getByRole("button", { name: "Save changes" }).click();
    expect((await saved).status()).toBe(200);
    const rules = stack.store.getExperience(ACCOUNT_ID, "exp_welcome_popup")!.rules;
    await page.goto(`${stack.apiUrl}/experiences/exp_gallery_device`);
    const firstConfig = page.getByRole("region", { name: /^Config 1/ }).first();
    // Four configs (one per gallery page) start folded.
    expect(await firstConfig.getByLabel("Element (CSS path)").count()).toBe(0);
    await firstConfig.locator("summary", { hasText: /^Config 1: #product-media-main/ }).click();
    await firstConfig.getByText("Mobile and desktop sub-variations").click();
    expect(await firstConfig.getByLabel("Mobile sub-variation").isChecked()).toBe(true);
    expect(await firstConfig.getByLabel("Image source (src)").nth(1).inputValue()).toBe(
      "/images/kids-mineral-sunscreen-spf50-2.svg",
    );
    expect(await firstConfig.getByLabel("Image source (src)").nth(2).inputValue()).toBe(
      "/images/kids-mineral-sunscreen-spf50-3.svg",
    );
    expect(
      await page
        .getByLabel("Device-specific: apply the mobile or desktop sub-variation by device")
        .isChecked(),
    ).toBe(true);
    expect(rules.map((r) => r.behaviour.name)).toEqual([
      "Everyone else",
      "Welcome popup with a first-order code",
    ]);
    expect(rules[0]).toMatchObject({ audience_id: null, behaviour: { traffic_allocation: 0.25 } });
    // The seeded rule kept its ids (visitors keep their assignments) and its popup.
    expect(rules[1]).toMatchObject({
      id: "rule_welcome_first_visit",
      behaviour: { id: "beh_welcome_popup" },
    });
    expect(rules[1]!.behaviour.variations[0]!.configs[0]!.properties?.custom_template?.id).toBe(
      "tpl_welcome_us",
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it("edits values by data type, and keeps configs the form cannot show as JSON", async () => {
    const { context, page, errors } = await dashboard();
    await signInToDashboard(page, stack);
    await page.goto(`${stack.apiUrl}/experiences/new`);
    const variation = page.getByTestId("variation").nth(1);
    await variation.getByRole("button", { name: /Add config/ }).click();
    const config = variation.getByRole("region", { name: /^Config 1/ });

    // Rich text: HTML with a preview that runs no script.
    await config.getByLabel("Data type").selectOption("RICHTEXT");
    await config.getByLabel("Rich text (HTML)").fill("<p>Hi <em>there</em></p>");
    const preview = config.frameLocator('iframe[title="Rich text preview"]');
    await expect.poll(() => preview.locator("em").innerText()).toBe("there");
    expect(await config.locator("iframe").getAttribute("sandbox")).toBe("");

    // Color: picked or typed; the JSON view shows what will be saved.
    await config.getByLabel("Data type").selectOption("COLOR");
    await config.getByLabel("Pick a color").fill("#ff0000");
    expect(await config.getByLabel("Color (any CSS color)").inputValue()).toBe("#ff0000");
    await config.getByRole("button", { name: "Edit as JSON" }).click();
    const json = config.getByLabel("Config (JSON)");
    expect(JSON.parse(await json.inputValue())).toMatchObject({
      variation_data_type: "COLOR",
      variation: "#ff0000",
    });

    // A field the form cannot show keeps the config in JSON.
    const value = JSON.parse(await json.inputValue()) as Record<string, unknown>;
    await json.fill(JSON.stringify({ ...value, version: 2 }));
    await config.getByRole("button", { name: "Edit in the form" }).click();
    await expect
      .poll(() => config.getByRole("alert").innerText())
      .toContain("fields the form cannot show");
    await json.fill(JSON.stringify({ ...value, variation: "rebeccapurple" }));
    await config.getByRole("button", { name: "Edit in the form" }).click();
    expect(await config.getByLabel("Color (any CSS color)").inputValue()).toBe("rebeccapurple");

    // A link's stored target shows as it is: _parent and _top are choices, a frame's name is kept.
    const link = (target: string) => ({
      config_customer_id: "n",
      config_id: "n",
      variation_data_type: "HTML_ELEMENT",
      properties: { element_path: "a.cta" },
      variation: { href_target: { href: "/sale", target } },
    });
    for (const target of ["_top", "_parent", "promo-frame"]) {
      await config.getByRole("button", { name: "Edit as JSON" }).click();
      await json.fill(JSON.stringify(link(target)));
      await config.getByRole("button", { name: "Edit in the form" }).click();
      expect(await config.getByLabel("Opens in").inputValue()).toBe(target);
    }
    await config.getByLabel("Opens in").selectOption("_top");

    // Query parameters: a removed one takes no value, so none is asked for.
    await config.locator("summary", { hasText: "Global actions" }).click();
    const params = config.getByRole("group", { name: "Query parameters" });
    await params.getByRole("button", { name: "Add parameter" }).click();
    await params.getByLabel("Parameter").fill("ref");
    await params.getByLabel("Value").fill("spring");
    await params.getByLabel("Operation").selectOption("remove");
    expect(await params.getByLabel("Value").count()).toBe(0);
    await config.getByRole("button", { name: "Edit as JSON" }).click();
    expect(JSON.parse(await json.inputValue())).toMatchObject({
      variation: {
        href_target: { href: "/sale", target: "_top" },
        customfit_meta: { global_actions: { query_params: [{ key: "ref", operation: "remove" }] } },
      },
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("duplicates, archives and restores from the list", async () => {
    const { context, page, errors } = await dashboard();
    await signInToDashboard(page, stack);
    const row = (name: string) =>
      page
        .getByTestId("experience-row")
        .filter({ has: page.getByRole("link", { name, exact: true }) });
    await row("UK tax line: VAT and delivery")
      .getByRole("button", { name: "Duplicate UK tax line: VAT and delivery" })
      .click();
    await page.waitForURL(/\/experiences\/exp_/);
    const copyId = currentExperienceId(page);
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe(
      "Copy of UK tax line: VAT and delivery",
    );
    const copy = stack.store.getExperience(ACCOUNT_ID, copyId)!;
    const original = stack.store.getExperience(ACCOUNT_ID, "exp_uk_tax_line")!;
    expect(copy.status).toBe("draft");
    expect(copy.rules[0]!.behaviour.variations[0]!.configs).toEqual(
      original.rules[0]!.behaviour.variations[0]!.configs,
    );
    expect(copy.rules[0]!.behaviour.variations[0]!.id).not.toBe(
      original.rules[0]!.behaviour.variations[0]!.id,
    );

    await page.getByRole("link", { name: "All experiences" }).click();
    const copyRow = row("Copy of UK tax line: VAT and delivery");
    await copyRow.getByRole("button", { name: /^Archive / }).click();
    await expect
      .poll(() => copyRow.getByTestId("status-badge").getAttribute("data-status"))
      .toBe("archived");
    expect(stack.store.getExperience(ACCOUNT_ID, copyId)!.status).toBe("archived");
    // Filters: by status, and by text in the name or a page.
    const rows = page.getByTestId("experience-row");
    await page.getByLabel("Status", { exact: true }).selectOption("archived");
    await expect.poll(() => rows.allInnerTexts()).toHaveLength(1);
    expect(await rows.first().innerText()).toContain("Copy of UK tax line");
    await page.getByLabel("Status", { exact: true }).selectOption("");
    await page.getByLabel("Find").fill("uk tax");
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel("Find").fill("oatmeal-eczema");
    await expect.poll(() => rows.allInnerTexts()).toHaveLength(1);
    expect(await rows.first().innerText()).toContain("Gallery image by device");
    await page.getByLabel("Find").fill("no such experience");
    await expect.poll(() => page.getByText("No experience matches").count()).toBe(1);
    await page.getByLabel("Find").fill("");
    await copyRow.getByRole("button", { name: /^Restore / }).click();
    await expect
      .poll(() => copyRow.getByTestId("status-badge").getAttribute("data-status"))
      .toBe("draft");
    // A draft without pages cannot start: the service's reason is shown in the row.
    stack.store.saveExperience({ ...stack.store.getExperience(ACCOUNT_ID, copyId)!, pages: [] });
    await page.reload();
    await copyRow.getByRole("button", { name: /^Start / }).click();
    await expect.poll(() => copyRow.getByRole("alert").innerText()).toContain("It targets no page");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lets a viewer read everything and change nothing, in the UI and through the API", async () => {
    const { context, page, errors } = await dashboard();
    await signInToDashboard(page, stack, VIEWER);
    const rows = page.getByTestId("experience-row");
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    expect(await page.getByRole("button", { name: "New experience" }).isDisabled()).toBe(true);
    const price = rows.filter({ hasText: "Price message: free shipping" });
    for (const name of ["Pause", "Archive", "Duplicate"]) {
      expect(
        await price
          .getByRole("button", { name: `${name} Price message: free shipping` })
          .isDisabled(),
      ).toBe(true);
    }

    await price.getByRole("link", { name: "View Price message: free shipping" }).click();
    await page.getByLabel("Name", { exact: true }).waitFor();
    expect(await page.getByLabel("Name", { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Save changes" }).isDisabled()).toBe(true);
    expect(await page.getByTestId("status-paused").isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Add rule" }).isDisabled()).toBe(true);

    // Reading is not changing: a viewer unfolds a config that starts folded (a variation with
    // more than three) and reads it, and copies a preview link to check a variation in the shop.
    const stored = stack.store.getExperience(ACCOUNT_ID, "exp_price_message")!;
    const freeShipping = stored.rules[0]!.behaviour.variations[1]!;
    const folded = page
      .getByRole("region", { name: "Variation: Free shipping" })
      .getByRole("region", { name: /^Config 1: / });
    expect(await folded.getByLabel("Element (CSS path)").count()).toBe(0);
    await folded.locator("summary", { hasText: /^Config 1: #product-price/ }).click();
    expect(await folded.getByLabel("Element (CSS path)").inputValue()).toBe("#product-price");
    expect(await folded.getByLabel("New content (HTML)").inputValue()).toBe(
      (freeShipping.configs[0]!.variation as { innerHTML: string }).innerHTML,
    );
    expect(await folded.getByLabel("Element (CSS path)").isDisabled()).toBe(true);
    const previewLink = page.getByRole("textbox", { name: "Preview link of Free shipping" });
    expect(await previewLink.isDisabled()).toBe(false);
    const link = await previewLink.inputValue();
    expect(new URL(link).searchParams.get("customfit_desired_experiences")).toBe(
      `exp_price_message:${freeShipping.id}`,
    );
    await page.getByRole("button", { name: "Copy the preview link of Free shipping" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // The service refuses the viewer too, with a valid session and CSRF token.
    const statuses = await page.evaluate(async () => {
      const session = (await (await fetch("/api/session")).json()) as { csrf_token: string };
      const headers = { "content-type": "application/json", "x-csrf-token": session.csrf_token };
      const detail = (await (await fetch("/api/experiences/exp_price_message")).json()) as Record<
        string,
        unknown
      >;
      const input = {
        name: detail["name"],
        kind: detail["kind"],
        pages: detail["pages"],
        rules: detail["rules"],
      };
      return Promise.all([
        fetch("/api/experiences/exp_price_message/status", {
          method: "POST",
          headers,
          body: JSON.stringify({ status: "paused" }),
        }).then((r) => r.status),
        fetch("/api/experiences/exp_price_message", {
          method: "PUT",
          headers,
          body: JSON.stringify(input),
        }).then((r) => r.status),
        fetch("/api/experiences", {
          method: "POST",
          headers,
          body: JSON.stringify({ ...input, name: "Sneaky" }),
        }).then((r) => r.status),
      ]);
    });
    expect(statuses).toEqual([403, 403, 403]);
    expect(stack.store.getExperience(ACCOUNT_ID, "exp_price_message")!.status).toBe("running");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says so when an experience does not exist", async () => {
    const { context, page } = await dashboard();
    await signInToDashboard(page, stack);
    await page.goto(`${stack.apiUrl}/experiences/exp_missing`);
    const alert = page.getByRole("alert").filter({ hasText: "Could not load the experience" });
    await expect
      .poll(() => alert.innerText(), { timeout: 10_000 })
      .toContain('No experience "exp_missing"');
    await context.close();
  });

  it("takes the editor's screenshots at 1280 px and 390 px", async () => {
    const { context, page } = await dashboard();
    await signInToDashboard(page, stack);
    await page.goto(`${stack.apiUrl}/experiences/exp_price_message`);
    await page.getByLabel("Name", { exact: true }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "experience-editor.png") });
    await page.getByRole("heading", { name: "Rules" }).scrollIntoViewIfNeeded();
    await page.evaluate(() =>
      window.scrollBy(0, document.getElementById("rules-title")!.getBoundingClientRect().top - 16),
    );
    await page.screenshot({ path: join(SCREENSHOTS, "experience-editor-rules.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await eventually(
      async () => (await page.evaluate(() => document.documentElement.scrollWidth)) <= 390,
      5_000,
      "no sideways scroll at 390 px",
    );
    await page.screenshot({ path: join(SCREENSHOTS, "experience-editor-390.png") });
    await context.close();
  });

  it("computes a headline result only for experiences that can have one: a draft shows —", async () => {
    const { context, page, errors } = await dashboard();
    await signInToDashboard(page, stack);
    await page.getByTestId("experience-row").first().waitFor();
    const draftId = await page.evaluate(async () => {
      const session = (await (await fetch("/api/session")).json()) as { csrf_token: string };
      const res = await fetch("/api/experiences", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": session.csrf_token },
        body: JSON.stringify({
          name: "Draft without results",
          kind: "ab_test",
          pages: [],
          rules: [],
        }),
      });
      return ((await res.json()) as { id: string }).id;
    });
    const asked: string[] = [];
    page.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith("/api/results/"))
        asked.push(decodeURIComponent(path.slice("/api/results/".length)));
    });
    await page.reload();
    const rows = page.getByTestId("experience-row");
    const draft = rows.filter({ hasText: "Draft without results" });
    await expect
      .poll(() => draft.getByTestId("headline-none").innerText(), { timeout: 10_000 })
      .toBe("—");
    expect(await draft.getByTestId("headline-result").count()).toBe(0);
    const price = rows.filter({ hasText: "Price message: free shipping" });
    await expect
      .poll(() => price.getByTestId("headline-result").count(), { timeout: 15_000 })
      .toBe(1);
    expect(asked).toContain("exp_price_message");
    expect(asked).not.toContain(draftId);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("offers the custom event names the shop sent, says when a typed one is not among them, and saves what the operator chose", async () => {
    // The shop's add-to-cart event as the storefront script stores it (Live events reads it "Add to cart").
    stack.store.commitClientWrites([
      {
        kind: "events",
        accountId: ACCOUNT_ID,
        userId: "u_goal_names",
        user: { user_customer_id: "goal-names-shopper", anonymous: true },
        touch: false,
        events: [
          {
            event_type: "TRACK",
            event_customer_id: `${DEMO_DOMAIN}|add_to_cart`,
            domain: DEMO_DOMAIN,
            name: "add_to_cart",
            insert_id: "goal-names-1",
            event_timestamp: Date.now(),
            properties: { page_path: PRODUCT_PATH },
          },
        ],
        now: new Date().toISOString(),
      },
    ]);
    const { context, page, errors } = await dashboard();
    await signInToDashboard(page, stack);
    await page.getByTestId("experience-row").first().waitFor();
    const id = await page.evaluate(async () => {
      const session = (await (await fetch("/api/session")).json()) as { csrf_token: string };
      const res = await fetch("/api/experiences", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": session.csrf_token },
        body: JSON.stringify({ name: "Goal names", kind: "ab_test", pages: [], rules: [] }),
      });
      return ((await res.json()) as { id: string }).id;
    });
    await page.goto(`${stack.apiUrl}/experiences/${id}`);
    await page.getByRole("button", { name: "Add goal" }).click();
    const goal = page.getByTestId("goal");
    await goal.getByLabel("Goal name").fill("Add to cart");
    await goal.getByLabel("Counts").selectOption("track");
    const eventName = goal.getByLabel("Event name");
    // The names received are the field's suggestions.
    await expect
      .poll(() => eventName.evaluate((el) => Array.from((el as HTMLInputElement).list?.options ?? [], (o) => o.value)))
      .toContain("add_to_cart");

    // The name as Live events shows it: a warning with the exact name, which one click puts in.
    await eventName.fill("Add to cart");
    const warning = goal.getByTestId("event-name-warning");
    await expect.poll(() => warning.innerText()).toContain("Did you mean add_to_cart?");
    expect(await warning.innerText()).toContain("never received a custom event named “Add to cart”");
    await warning.getByRole("button", { name: "Use add_to_cart" }).click();
    expect(await eventName.inputValue()).toBe("add_to_cart");
    await expect.poll(() => warning.count()).toBe(0);

    // A name never received warns without a suggestion, and does not stop the save.
    await eventName.fill("signup_done");
    await expect.poll(() => warning.innerText()).toContain("never received a custom event named “signup_done”");
    expect(await warning.innerText()).not.toContain("Did you mean");
    const saved = page.waitForResponse((r) => r.url().endsWith(`/api/experiences/${id}`) && r.request().method() === "PUT");
    await page.getByRole("button", { name: "Save changes" }).click();
    expect((await saved).status()).toBe(200);
    expect(stack.store.getExperience(ACCOUNT_ID, id)!.goals).toMatchObject([{ name: "Add to cart", kind: "track", event_name: "signup_done" }]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
