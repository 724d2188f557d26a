// Audiences in the dashboard, for real: an operator builds an audience in the builder (device
// and campaign), the JSON view follows and drives the builder back, the tester answers match and
// no match with reasons, a broken condition is refused by the service at save time, and the
// audience, picked in a new experience's rule in the experience editor and started there,
// decides which demo-shop visitors see it.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Audience, ConfigsResponse } from "@storefit/contract";
import { DEMO_DOMAIN, DEMO_PAGES } from "../packages/server/src/seed/demo-pages.js";
import { DESKTOP_UA, eventually, launchBrowser, newVisitor, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const IPHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const ACCOUNT_ID = "acc_littlesprouts";
const SPRING_TEXT = "Spring offer for phones: 20% off today";
const SCREENSHOTS = new URL("../docs/screenshots/", import.meta.url).pathname;

let stack: Stack;
let browser: Browser;
let owner: BrowserContext;
let page: Page;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  owner = await newVisitor(browser);
  page = await owner.newPage();
  await signInToDashboard(page, stack);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const taxPage = DEMO_PAGES.find((p) => p.domain === DEMO_DOMAIN && p.element_hint === "tax")!;

/** A full-page screenshot from the top (the app header is sticky: scrolled, it lands mid-page). */
async function screenshot(name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
}

async function shopVisit(ua: string, query: string) {
  const context = await browser.newContext({
    userAgent: ua,
    viewport: ua === IPHONE_UA ? { width: 390, height: 844 } : { width: 1280, height: 800 },
  });
  const shop = await context.newPage();
  const answer = shop.waitForResponse((r) => r.url().includes("/v1/users/configs/"));
  await shop.goto(stack.shopUrl(`${taxPage.page_path}${query}`));
  const configs = (await (await answer).json()) as ConfigsResponse;
  await shop.waitForFunction(() => !document.getElementById("storefit-hide"));
  // Let the script apply what it was answered before reading the element.
  await shop.waitForTimeout(300);
  const tax = await shop.locator("#product-tax").innerText();
  await context.close();
  return { configs, tax };
}

describe("audiences", () => {
  let audienceId = "";

  it("builds an audience in the builder, the JSON view follows, and saving stores that condition", async () => {
    await page.getByRole("link", { name: "Audiences" }).click();
    await expect.poll(() => page.getByTestId("audience-row").count()).toBe(1);
    await screenshot("audiences-list");

    await page.getByRole("link", { name: "New audience" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Spring campaign on phones");
    // A new audience starts with "Device type is mobile".
    await expect.poll(() => page.getByLabel("Attribute of rule 1").inputValue()).toBe("cf_device_type");
    await expect.poll(() => page.getByLabel("Value of rule 1").inputValue()).toBe("mobile");
    await page.getByRole("button", { name: "Add a rule" }).click();
    await page.getByLabel("Attribute of rule 2").selectOption("utm_campaign");
    await page.getByLabel("Comparison of rule 2").selectOption("in");
    await page.getByLabel("Value of rule 2 (comma-separated)").fill("spring, summer");

    const expected = { cf_device_type: "mobile", utm_campaign: { $in: ["spring", "summer"] } };
    await expect.poll(async () => JSON.parse(await page.getByTestId("condition-json").inputValue())).toEqual(expected);

    await page.getByRole("button", { name: "Create audience" }).click();
    await page.waitForURL(/\?audience=aud_/);
    audienceId = new URL(page.url()).searchParams.get("audience")!;
    await expect.poll(() => page.getByTestId("audience-saved").innerText()).toContain("Created.");
    const stored = stack.store.getAudience(ACCOUNT_ID, audienceId);
    expect(stored).toMatchObject({ name: "Spring campaign on phones", condition: expected });
  });

  it("the tester answers match and no match, with the clause that failed", async () => {
    await page.getByLabel("Device type").selectOption("mobile");
    await page.getByLabel("utm_campaign").fill("spring");
    await page.getByRole("button", { name: "Test this visitor" }).click();
    await expect.poll(() => page.getByTestId("tester-verdict").innerText()).toContain("Match: this visitor is in the audience");

    await page.getByLabel("Device type").selectOption("desktop");
    await page.getByRole("button", { name: "Test this visitor" }).click();
    await expect.poll(() => page.getByTestId("tester-verdict").innerText()).toContain("No match");
    const failing = page.getByTestId("tester-clause").filter({ hasText: "does not match" });
    await expect.poll(() => failing.innerText()).toContain('cf_device_type "mobile" — visitor has "desktop"');
    await screenshot("audiences-editor");

    // The other campaign parameters and the private and session fields reach the evaluator too.
    await page.getByTestId("condition-json").fill(
      JSON.stringify({ utm_adgroup: "eczema", utm_term: "oat cream", gclid: { $exists: true }, "private.tier": "gold", "session.tags": "promo" }),
    );
    await expect.poll(() => page.getByLabel("Attribute of rule 1").inputValue()).toBe("utm_adgroup");
    await page.getByLabel("utm_adgroup").fill("eczema");
    await page.getByLabel("utm_term").fill("oat cream");
    await page.getByLabel("gclid").fill("Cj0KCQ");
    await page.getByLabel("Private fields (JSON)").fill('{ "tier": "gold" }');
    await page.getByLabel("Session fields (JSON)").fill('{ "tags": ["promo"] }');
    await page.getByRole("button", { name: "Test this visitor" }).click();
    await expect.poll(() => page.getByTestId("tester-verdict").innerText()).toContain("Match: this visitor is in the audience");
    await page.getByLabel("gclid").fill("");
    await page.getByLabel("Private fields (JSON)").fill('{ "tier": "silver" }');
    await page.getByRole("button", { name: "Test this visitor" }).click();
    await expect.poll(() => page.getByTestId("tester-verdict").innerText()).toContain("No match");
    const failed = await failing.allInnerTexts();
    expect(failed).toHaveLength(2);
    expect(failed[0]).toContain('gclid {"$exists":true} — visitor has not set');
    expect(failed[1]).toContain('private.tier "gold" — visitor has "silver"');
  });

  it("edits in the JSON view drive the builder; a condition it cannot show stays JSON-only", async () => {
    const json = page.getByTestId("condition-json");
    await json.fill(JSON.stringify({ $or: [{ cf_device_type: "tablet" }, { tags: { $all: ["vip", "gold"] } }] }));
    await expect.poll(() => page.getByLabel("Visitors who match").inputValue()).toBe("any");
    // Unsaved now: the "Created." notice is gone.
    expect(await page.getByTestId("audience-saved").count()).toBe(0);
    await expect.poll(() => page.getByLabel("Value of rule 1").inputValue()).toBe("tablet");
    await expect.poll(() => page.getByLabel("Attribute of rule 2").inputValue()).toBe("tags");
    await expect.poll(() => page.getByLabel("Comparison of rule 2").inputValue()).toBe("has_all");
    await expect.poll(() => page.getByLabel("Value of rule 2 (comma-separated)").inputValue()).toBe("vip, gold");

    await json.fill(JSON.stringify({ orders: { $elemMatch: { sku: "oat" } } }));
    await page.getByTestId("builder-unavailable").waitFor();
    expect(await page.getByTestId("condition-builder").count()).toBe(0);
    // Back to the builder: the JSON shows the builder's condition again.
    await page.getByRole("button", { name: "Start again in the builder" }).click();
    await page.getByTestId("condition-builder").waitFor();
    await expect.poll(async () => JSON.parse(await page.getByTestId("condition-json").inputValue())).toEqual({
      $or: [{ cf_device_type: "tablet" }, { tags: { $all: ["vip", "gold"] } }],
    });
  });

  it("checks rules before saving, and shows the service's refusal of a condition only it can check", async () => {
    const requests: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "PUT" && r.url().includes("/api/audiences/")) requests.push(r.url());
    });
    // A rule the builder can show, with a bad value: refused beside the field, nothing sent.
    const json = page.getByTestId("condition-json");
    const typed = { cf_browser_version: { $vgt: "new" } };
    await json.fill(JSON.stringify(typed));
    await expect.poll(() => page.getByLabel("Attribute of rule 1").inputValue()).toBe("cf_browser_version");
    // One press of Save, released only once the JSON view, left for the button, shows the
    // builder's text in place of the typed line (on a loaded machine the release can come that
    // late): the button must still be under the pointer, or the click goes elsewhere, unseen.
    const save = page.getByRole("button", { name: "Save audience" });
    await save.hover();
    const pressedAt = await save.boundingBox();
    await page.mouse.down();
    await expect.poll(() => json.inputValue()).toBe(JSON.stringify(typed, null, 2));
    const releasedAt = await save.boundingBox();
    await page.mouse.up();
    await expect.poll(() => page.getByText('Enter a version such as "120" or "17.4.1".').count(), { timeout: 15_000 }).toBe(1);
    expect(releasedAt).toEqual(pressedAt);
    expect(requests).toEqual([]);

    // Nested JSON the builder cannot show goes to the service, which names the broken place.
    await page.getByTestId("condition-json").fill(JSON.stringify({ $or: [{ is_first_time_visitor: true }, { age: { $near: 3 } }] }));
    await page.getByRole("button", { name: "Save audience" }).click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "Could not save" }).innerText()).toContain("$or[1].age.$near");
    expect(requests).toHaveLength(1);
    expect(stack.store.getAudience(ACCOUNT_ID, audienceId)!.condition).toEqual({ cf_device_type: "mobile", utm_campaign: { $in: ["spring", "summer"] } });
    await page.reload();
    await expect.poll(async () => JSON.parse(await page.getByTestId("condition-json").inputValue())).toEqual({
      cf_device_type: "mobile",
      utm_campaign: { $in: ["spring", "summer"] },
    });
    await expect.poll(() => page.getByLabel("Value of rule 2 (comma-separated)").inputValue()).toBe("spring, summer");
  });

  it("picked in an experience's rule in the editor and started there, it decides which shop visitors get the experience", async () => {
    // The operator builds the experience in the editor and chooses the audience in its rule.
    await page.getByRole("link", { name: "Experiences" }).click();
    await page.getByRole("link", { name: "New experience" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Spring offer on phones");
    await page.getByLabel("Kind", { exact: true }).selectOption("personalization");
    await page.getByRole("button", { name: "Add page" }).click();
    const target = page.getByTestId("page-target");
    await target.getByLabel("Page path or pattern").fill(taxPage.page_path);
    expect(await target.getByLabel("Domain", { exact: true }).inputValue()).toBe(DEMO_DOMAIN);
    const rule = page.getByTestId("rule");
    await rule.getByLabel("Audience", { exact: true }).selectOption({ label: "Spring campaign on phones" });
    await rule.getByLabel("Behaviour name").fill("Spring offer");
    // One variation: everyone the audience lets in gets the offer line.
    await rule.getByRole("button", { name: "Remove variation Control" }).click();
    const offer = rule.getByTestId("variation");
    await expect.poll(() => offer.count()).toBe(1);
    await offer.getByLabel("Variation name").fill("Offer line");
    await offer.getByRole("button", { name: /Add config/ }).click();
    await offer.getByLabel("Element (CSS path)").fill("#product-tax");
    await offer.getByLabel("New text").fill(SPRING_TEXT);
    const created = page.waitForResponse((r) => r.url().endsWith("/api/experiences") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Create experience" }).click();
    expect((await created).status()).toBe(201);
    await page.waitForURL(/\/experiences\/exp_/);
    const experienceId = new URL(page.url()).pathname.split("/").pop()!;
    expect(stack.store.getExperience(ACCOUNT_ID, experienceId)).toMatchObject({
      status: "draft",
      kind: "personalization",
      rules: [{ audience_id: audienceId, behaviour: { name: "Spring offer", variations: [{ name: "Offer line" }] } }],
    });
    // Reopened, the rule shows the audience it was saved with.
    await page.reload();
    await expect.poll(() => page.getByTestId("rule").getByLabel("Audience", { exact: true }).inputValue()).toBe(audienceId);
    // A draft runs for nobody; started from the editor, it runs for the audience.
    expect((await shopVisit(IPHONE_UA, "?utm_campaign=spring")).tax).not.toBe(SPRING_TEXT);
    await page.getByTestId("status-running").click();
    await expect.poll(() => page.getByTestId("status-badge").getAttribute("data-status")).toBe("running");
    expect(stack.store.getExperience(ACCOUNT_ID, experienceId)!.status).toBe("running");
    const fromExperience = (configs: ConfigsResponse) =>
      Object.values(configs.configs).some((c) => c.experience_behaviour_response?.experience_id === experienceId);

    const matching = await shopVisit(IPHONE_UA, "?utm_campaign=spring");
    expect(matching.tax).toBe(SPRING_TEXT);
    expect(fromExperience(matching.configs)).toBe(true);

    const desktop = await shopVisit(DESKTOP_UA, "?utm_campaign=spring");
    expect(desktop.tax).not.toBe(SPRING_TEXT);
    expect(fromExperience(desktop.configs)).toBe(false);

    const noCampaign = await shopVisit(IPHONE_UA, "");
    expect(noCampaign.tax).not.toBe(SPRING_TEXT);
    expect(fromExperience(noCampaign.configs)).toBe(false);

    // Changing the audience in the dashboard changes who gets it, on the next visit.
    await page.goto(`${stack.apiUrl}/audiences?audience=${audienceId}`);
    await expect.poll(() => page.getByLabel("Value of rule 2 (comma-separated)").inputValue()).toBe("spring, summer");
    await page.getByLabel("Value of rule 2 (comma-separated)").fill("autumn");
    expect(await page.getByTestId("audience-saved").count()).toBe(0);
    await page.getByRole("button", { name: "Save audience" }).click();
    await expect.poll(() => page.getByTestId("audience-saved").innerText()).toContain("Saved.");
    await eventually(
      () => JSON.stringify((stack.store.getAudience(ACCOUNT_ID, audienceId) as Audience).condition).includes("autumn"),
      10_000,
      "the saved audience",
    );
    expect((await shopVisit(IPHONE_UA, "?utm_campaign=spring")).tax).not.toBe(SPRING_TEXT);
    expect((await shopVisit(IPHONE_UA, "?utm_campaign=autumn")).tax).toBe(SPRING_TEXT);
  });

  it("cannot be deleted while a rule uses it: the service's 409 is shown", async () => {
    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "Could not delete" }).innerText()).toContain("Spring offer on phones");
    expect(stack.store.getAudience(ACCOUNT_ID, audienceId)).not.toBeNull();
  });

  it("deletes an audience no rule uses, after confirmation", async () => {
    await page.goto(`${stack.apiUrl}/audiences?audience=new`);
    await page.getByLabel("Name", { exact: true }).fill("Short-lived");
    await page.getByRole("button", { name: "Create audience" }).click();
    await page.getByTestId("audience-saved").waitFor();
    const id = new URL(page.url()).searchParams.get("audience")!;
    expect(stack.store.getAudience(ACCOUNT_ID, id)).not.toBeNull();
    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("button", { name: "Keep it" }).click();
    expect(stack.store.getAudience(ACCOUNT_ID, id)).not.toBeNull();
    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.waitForURL(`${stack.apiUrl}/audiences`);
    await expect.poll(() => page.getByTestId("audience-row").count()).toBe(2);
    expect(stack.store.getAudience(ACCOUNT_ID, id)).toBeNull();
    await page.goto(`${stack.apiUrl}/audiences?audience=${audienceId}`);
    await page.getByLabel("Attribute of rule 1").waitFor();
  });

  it("keeps JSON that does not parse as typed while the operator edits the name, and saves once it is fixed", async () => {
    await page.goto(`${stack.apiUrl}/audiences?audience=new`);
    await page.getByLabel("Name", { exact: true }).fill("Typed by hand");
    const json = page.getByTestId("condition-json");
    const broken = '{ "utm_source": "newsletter"';
    await json.fill(broken);
    const error = page.getByRole("alert").filter({ hasText: "Not valid JSON" });
    await error.waitFor();
    // Leaving the field for the name, and typing there, keeps the text and its error.
    await page.getByLabel("Name", { exact: true }).fill("Typed by hand, newsletter");
    await page.getByLabel("Description").fill("From the spring newsletter");
    expect(await json.inputValue()).toBe(broken);
    expect(await error.innerText()).toMatch(/Not valid JSON: .+/);
    const create = page.getByRole("button", { name: "Create audience" });
    expect(await create.isDisabled()).toBe(true);

    await json.fill('{ "utm_source": "newsletter" }');
    await expect.poll(() => page.getByLabel("Attribute of rule 1").inputValue()).toBe("utm_source");
    expect(await page.getByRole("alert").filter({ hasText: "Not valid JSON" }).count()).toBe(0);
    await expect.poll(() => create.isEnabled()).toBe(true);
    await create.click();
    await page.getByTestId("audience-saved").waitFor();
    const id = new URL(page.url()).searchParams.get("audience")!;
    expect(stack.store.getAudience(ACCOUNT_ID, id)).toMatchObject({
      name: "Typed by hand, newsletter",
      description: "From the spring newsletter",
      condition: { utm_source: "newsletter" },
    });
    await page.goto(`${stack.apiUrl}/audiences?audience=${audienceId}`);
    await page.getByLabel("Attribute of rule 1").waitFor();
  });

  it("shows the error state with a retry, and the empty state", async () => {
    const tab = await owner.newPage();
    let answer: "fail" | "empty" = "fail";
    await tab.route(`${stack.apiUrl}/api/audiences`, (route) =>
      answer === "fail"
        ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: { code: "internal", message: "Database is down" } }) })
        : route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ audiences: [] }) }),
    );
    await tab.goto(`${stack.apiUrl}/audiences`);
    const error = tab.getByRole("alert").filter({ hasText: "Could not load audiences" });
    await expect.poll(() => error.innerText(), { timeout: 20_000 }).toContain("Database is down");
    answer = "empty";
    await tab.getByRole("button", { name: "Try again" }).click();
    await expect.poll(() => tab.getByText("No audiences yet").count()).toBe(1);
    expect(await tab.getByRole("link", { name: "Create an audience" }).count()).toBe(1);
    await tab.close();
  });

  it("works at 390 px", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByLabel("Attribute of rule 1").waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot("audiences-editor-390");
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
