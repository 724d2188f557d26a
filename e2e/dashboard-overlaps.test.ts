// Overlaps are never silent (issue #16), driven through the dashboard only: a new A/B test on a
// product page that changes #product-price, as the demo's running "Price message: free shipping"
// (priority 10) does. The editor says so; the list shows and sorts priorities; Start asks first
// and names the conflict; "Split traffic" puts both into one mutually exclusive group with half
// each (the list's badges and the API show separate slices), after which Start asks nothing.
// Resuming a paused experience asks the same way, from the list and from the editor.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { ExperienceListResponse } from "@storefit/contract";
import { launchBrowser, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const ACCOUNT_ID = "acc_littlesprouts";
const PRODUCT_PATH = "/products/gentle-baby-wash";
const NAME = "Price colour: bold";
const PRICE_MESSAGE = "Price message: free shipping";

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe("overlapping experiences in the dashboard", () => {
  it("warns in the editor, the list and on Start, and splits traffic so that both run", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await signInToDashboard(page, stack);

    // A new A/B test: a plain control, and a variation that changes the price's colour.
    await page.getByRole("link", { name: "New experience" }).click();
    await page.getByLabel("Name", { exact: true }).fill(NAME);
    await page.getByRole("button", { name: "Add page" }).click();
    await page.getByTestId("page-target").getByLabel("Page path or pattern").fill(PRODUCT_PATH);
    const treatment = page.getByTestId("variation").nth(1);
    await treatment.getByRole("button", { name: /Add config/ }).click();
    await treatment.getByLabel("Element (CSS path)").fill("#product-price");
    await treatment.getByRole("button", { name: "Add style" }).click();
    await treatment.getByLabel("CSS property").fill("font-weight");
    await treatment.getByLabel("Value", { exact: true }).fill("700");
    await page.getByRole("button", { name: "Create experience" }).click();
    await page.waitForURL(/\/experiences\/exp_/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split("/")[2] ?? "");

    // The editor names the running experience, the element, the page and who is shown.
    const notice = page.getByRole("region", { name: "Overlapping experiences" });
    await expect.poll(() => notice.count(), { timeout: 10_000 }).toBe(1);
    const said = await notice.innerText();
    expect(said).toContain(`“${PRICE_MESSAGE}” (priority 10) also changes #product-price on`);
    expect(said).toContain(`${PRODUCT_PATH}.`);
    expect(said).toContain(
      "Where both apply, it is shown and this test is left out for all of its visitors",
    );
    // The visual editor says the same: the element, the page, and who is shown there.
    await page.goto(`${stack.apiUrl}/experiences/${id}/visual`);
    const visualNotice = page.getByRole("region", { name: "Overlapping experiences" });
    await expect
      .poll(() => visualNotice.innerText(), { timeout: 10_000 })
      .toContain(`“${PRICE_MESSAGE}” (priority 10) also changes #product-price`);
    expect(await visualNotice.innerText()).toContain(
      `also changes #product-price on littlesprouts.localhost${PRODUCT_PATH}. Where both apply, ` +
        "it is shown and this test is left out for all of its visitors (higher priority wins).",
    );

    // The list: a Priority column, sorted by a click on its header, either way.
    await page.goto(`${stack.apiUrl}/`);
    const rows = page.getByTestId("experience-row");
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(5);
    const priorities = async () =>
      (await rows.getByTestId("priority").allInnerTexts()).map((t) => Number(t));
    const header = page.getByRole("columnheader", { name: "Priority" });
    expect(await header.getAttribute("aria-sort")).toBe("none");
    await header.getByRole("button").click();
    expect(await header.getAttribute("aria-sort")).toBe("descending");
    expect(await priorities()).toEqual([10, 5, 1, 1, 0]);
    expect(await rows.first().innerText()).toContain(PRICE_MESSAGE);
    await header.getByRole("button").click();
    expect(await header.getAttribute("aria-sort")).toBe("ascending");
    expect(await priorities()).toEqual([0, 1, 1, 5, 10]);
    expect(await rows.first().innerText()).toContain(NAME);

    // Start asks first, naming the conflict; Cancel changes nothing.
    const start = page.getByRole("button", { name: `Start ${NAME}` });
    await start.click();
    const confirm = page.getByRole("alertdialog", {
      name: `“${NAME}” overlaps with a running experience`,
    });
    await confirm.waitFor();
    const asked = await confirm.innerText();
    expect(asked).toContain(`“${PRICE_MESSAGE}” (priority 10) also changes #product-price`);
    expect(asked).toContain(PRODUCT_PATH);
    expect(asked).toContain("it is shown and this test is left out");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    expect(stack.store.getExperience(ACCOUNT_ID, id)?.status).toBe("draft");

    // Split traffic: both into one group, half each, after a confirmation that says the cost.
    await start.click();
    await confirm.getByRole("button", { name: `Split traffic with “${PRICE_MESSAGE}”…` }).click();
    const split = page.getByRole("dialog", { name: `Split traffic with “${PRICE_MESSAGE}”` });
    await split.waitFor();
    expect(await split.getByLabel("Group name").inputValue()).toBe("gentle-baby-wash");
    expect(await split.innerText()).toContain(
      "Its visitors outside its half will no longer see it",
    );
    await split.getByLabel("Group name").fill("product-price");
    await split.getByRole("button", { name: "Split traffic 50 / 50" }).click();
    await expect.poll(() => split.count()).toBe(0);
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "now split traffic" }).count())
      .toBe(1);
    expect(stack.store.getExperience(ACCOUNT_ID, id)?.status).toBe("draft");

    // The list's badges and the API: one group, separate halves.
    // A row by its name's link: the other row's messages may name it too.
    const row = (name: string) =>
      rows.filter({ has: page.getByRole("link", { name, exact: true }) });
    const badge = (name: string) => row(name).getByTestId("group-badge").innerText();
    await expect.poll(() => badge(NAME)).toBe("Group: product-price · 50 %");
    await expect.poll(() => badge(PRICE_MESSAGE)).toBe("Group: product-price · 50 %");
    const listed = (await (
      await page.request.get(`${stack.apiUrl}/api/experiences`)
    ).json()) as ExperienceListResponse;
    const groupOf = (name: string) =>
      listed.experiences.find((e) => e.name === name)?.exclusion_group;
    const mine = groupOf(NAME)!;
    const theirs = groupOf(PRICE_MESSAGE)!;
    expect(mine.name).toBe("product-price");
    expect(theirs.name).toBe("product-price");
    expect(mine.end - mine.start).toBe(0.5);
    expect(theirs.end - theirs.start).toBe(0.5);
    expect(mine.end <= theirs.start || theirs.end <= mine.start).toBe(true);

    // Now Start asks nothing: the two no longer compete for a visitor.
    const answered = page.waitForResponse(
      (r) => r.url().endsWith(`/api/experiences/${id}/status`) && r.request().method() === "POST",
    );
    await start.click();
    expect((await answered).status()).toBe(200);
    expect(await page.getByRole("alertdialog").count()).toBe(0);
    await expect
      .poll(() => row(NAME).getByTestId("status-badge").getAttribute("data-status"))
      .toBe("running");
    expect(stack.store.getExperience(ACCOUNT_ID, id)?.status).toBe("running");

    // The editor now says that the two split traffic.
    await page.goto(`${stack.apiUrl}/experiences/${id}`);
    await expect
      .poll(() => page.getByRole("region", { name: "Overlapping experiences" }).innerText(), {
        timeout: 10_000,
      })
      .toContain("The two split traffic in the group “product-price”");
    // Its group section shows the group's members and their shares, and a share that no longer
    // fits says how much is free.
    const section = page.getByRole("region", { name: "Mutually exclusive group" });
    expect(await section.getByLabel("Group name").inputValue()).toBe("product-price");
    expect(await section.getByLabel("Share of the group's visitors (%)").inputValue()).toBe("50");
    const occupancy = section.getByTestId("group-occupancy");
    await expect
      .poll(() => occupancy.innerText())
      .toContain(`“${PRICE_MESSAGE}” (running): 50 %, from 0 % to 50 %`);
    expect(await occupancy.innerText()).toContain("This experience: 50 %, from 50 % to 100 %");
    await section.getByLabel("Share of the group's visitors (%)").fill("60");
    await expect
      .poll(() => section.getByRole("alert").innerText())
      .toContain("The group has only 50 % of its traffic free in one piece");
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it("splits traffic from the editor's notice, and the open form takes the new group over", async () => {
    // A copy of the running UK tax line (priority 5) as a draft: both change #product-tax.
    const {
      created_at: _c,
      updated_at: _u,
      ...uk
    } = stack.store.getExperience(ACCOUNT_ID, "exp_uk_tax_line")!;
    await stack.store.saveExperience({
      ...uk,
      id: "exp_uk_tax_bold",
      name: "UK tax line: bold",
      status: "draft",
      priority: 0,
      exclusion_group: null,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await signInToDashboard(page, stack);
    await page.goto(`${stack.apiUrl}/experiences/exp_uk_tax_bold`);
    const notice = page.getByRole("region", { name: "Overlapping experiences" });
    await expect
      .poll(() => notice.innerText(), { timeout: 10_000 })
      .toContain("“UK tax line: VAT and delivery” (priority 5) also changes #product-tax");
    await notice
      .getByRole("button", { name: "Split traffic with “UK tax line: VAT and delivery”" })
      .click();
    const split = page.getByRole("dialog", {
      name: "Split traffic with “UK tax line: VAT and delivery”",
    });
    await split.getByLabel("Group name").fill("uk-tax");
    await split.getByRole("button", { name: "Split traffic 50 / 50" }).click();
    await expect
      .poll(() => notice.innerText())
      .toContain("The two split traffic in the group “uk-tax”");
    // The form shows the saved group, with nothing unsaved, and a save keeps it (no conflict).
    const section = page.getByRole("region", { name: "Mutually exclusive group" });
    await expect.poll(() => section.getByLabel("Group name").inputValue()).toBe("uk-tax");
    expect(await page.getByText("Unsaved changes").count()).toBe(0);
    await page.getByLabel("Name", { exact: true }).fill("UK tax line: bold text");
    const saved = page.waitForResponse(
      (r) => r.url().endsWith("/api/experiences/exp_uk_tax_bold") && r.request().method() === "PUT",
    );
    await page.getByRole("button", { name: "Save changes" }).click();
    expect((await saved).status()).toBe(200);
    const stored = stack.store.getExperience(ACCOUNT_ID, "exp_uk_tax_bold")!;
    expect(stored.name).toBe("UK tax line: bold text");
    expect(stored.exclusion_group).toEqual({ name: "uk-tax", start: 0.5, end: 1 });
    expect(stack.store.getExperience(ACCOUNT_ID, "exp_uk_tax_line")!.exclusion_group).toEqual({
      name: "uk-tax",
      start: 0,
      end: 0.5,
    });
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it("asks before a paused experience is resumed, from the list and from the editor", async () => {
    // A running copy of the UK tax line at priority 0, with no group: both change #product-tax,
    // and the original (priority 5) is shown where both apply.
    const {
      created_at: _c,
      updated_at: _u,
      ...uk
    } = stack.store.getExperience(ACCOUNT_ID, "exp_uk_tax_line")!;
    const RESUMED = "UK tax line: italic";
    const UK_TAX = "UK tax line: VAT and delivery";
    await stack.store.saveExperience({
      ...uk,
      id: "exp_uk_tax_italic",
      name: RESUMED,
      status: "running",
      priority: 0,
      exclusion_group: null,
    });
    const statusOf = () => stack.store.getExperience(ACCOUNT_ID, "exp_uk_tax_italic")?.status;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await signInToDashboard(page, stack);
    const row = page
      .getByTestId("experience-row")
      .filter({ has: page.getByRole("link", { name: RESUMED, exact: true }) });
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);

    // Pause asks nothing.
    await row.getByRole("button", { name: `Pause ${RESUMED}` }).click();
    await expect
      .poll(() => row.getByTestId("status-badge").getAttribute("data-status"))
      .toBe("paused");
    expect(statusOf()).toBe("paused");

    // Resume from the list asks first, naming the conflict, and offers what Start offers under
    // Resume's own name; Cancel leaves it paused.
    const confirm = page.getByRole("alertdialog", {
      name: `“${RESUMED}” overlaps with a running experience`,
    });
    const expectAsked = async () => {
      await confirm.waitFor();
      const asked = await confirm.innerText();
      expect(asked).toContain(`“${UK_TAX}” (priority 5) also changes #product-tax on`);
      expect(asked).toContain("littlesprouts-uk.localhost/products/");
      expect(asked).toContain(
        "Where both apply, it is shown and this personalization is left out for all of its " +
          "visitors (higher priority wins).",
      );
      expect(await confirm.getByRole("button").allInnerTexts()).toEqual([
        "Cancel",
        `Split traffic with “${UK_TAX}”…`,
        "Resume anyway",
      ]);
    };
    await row.getByRole("button", { name: `Resume ${RESUMED}` }).click();
    await expectAsked();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    expect(statusOf()).toBe("paused");
    expect(await row.getByTestId("status-badge").getAttribute("data-status")).toBe("paused");
    const listed = (await (
      await page.request.get(`${stack.apiUrl}/api/experiences`)
    ).json()) as ExperienceListResponse;
    expect(listed.experiences.find((e) => e.id === "exp_uk_tax_italic")?.status).toBe("paused");

    // Resume from the editor asks the same; "Resume anyway" resumes it.
    await page.goto(`${stack.apiUrl}/experiences/exp_uk_tax_italic`);
    const resume = page.getByRole("button", { name: "Resume", exact: true });
    await resume.waitFor({ timeout: 10_000 });
    await resume.click();
    await expectAsked();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    expect(statusOf()).toBe("paused");
    await resume.click();
    await confirm.waitFor();
    const answered = page.waitForResponse(
      (r) =>
        r.url().endsWith("/api/experiences/exp_uk_tax_italic/status") &&
        r.request().method() === "POST",
    );
    await confirm.getByRole("button", { name: "Resume anyway" }).click();
    expect((await answered).status()).toBe(200);
    await expect.poll(() => confirm.count()).toBe(0);
    expect(statusOf()).toBe("running");
    await expect
      .poll(() => page.getByTestId("status-badge").first().getAttribute("data-status"))
      .toBe("running");
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
