// Account settings, team and secret keys in the dashboard, against the real service: edits are
// checked before they are sent, each section sends only its own fields, they persist across a
// reload and reach the generated snippet's settings global (flags, time-outs, domains,
// blacklists, revenue rules, goal and rule pages, integrations and GA, event-merge rules, page
// configurations); a viewer added here signs in and can change nothing (UI and API); a new
// secret key is shown once, works, and stops when revoked.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { SessionInfo, StorefitSettings } from "@storefit/contract";
import { launchBrowser, newVisitor, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const ACCOUNT_ID = "acc_littlesprouts";
const VIEWER = { email: "viewer@e2e.example", password: "viewer-password-1" };
const SCREENSHOTS = new URL("../docs/screenshots/", import.meta.url).pathname;

let stack: Stack;
let browser: Browser;
let owner: BrowserContext;
let page: Page;
const patches: Record<string, unknown>[] = [];
let firstPagePath = "";

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  owner = await newVisitor(browser);
  page = await owner.newPage();
  page.on("request", (r) => {
    if (r.method() === "PATCH" && new URL(r.url()).pathname === "/api/account") patches.push(JSON.parse(r.postData() ?? "null") as Record<string, unknown>);
  });
  await signInToDashboard(page, stack);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** The settings global of the snippet shops load. */
async function snippetSettings(): Promise<StorefitSettings> {
  const res = await fetch(`${stack.apiUrl}/v1/accounts/ck_demo_littlesprouts/snippet.js`);
  expect(res.status).toBe(200);
  const text = await res.text();
  // The script's compile hint first (routes/assets.ts snippetOf), then the settings global.
  const m = /^\/\/# allFunctionsCalledOnLoad\nwindow\.storefitSettings=(.*?);\n/s.exec(text);
  expect(m, "the snippet starts with the compile hint, then the settings global").not.toBeNull();
  return JSON.parse(m![1]!) as StorefitSettings;
}

const section = (id: string) => page.getByTestId(`settings-${id}`);

describe("account settings", () => {
  it("edits persist across a reload and reach the snippet; each section sends only its own fields", async () => {
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Main domain").waitFor();
    await page.setViewportSize({ width: 1280, height: 1500 });
    await page.screenshot({ path: `${SCREENSHOTS}settings.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Discarding puts the stored values back and sends nothing.
    await page.getByLabel("Skip").check();
    await section("flags").getByRole("button", { name: "Discard changes" }).click();
    expect(await page.getByLabel("Skip").isChecked()).toBe(false);
    expect(patches).toHaveLength(0);

    await page.getByLabel("Single-page-app mode").check();
    await page.getByLabel("Error reporting").check();
    await section("flags").getByRole("button", { name: "Save script flags" }).click();
    await expect.poll(() => section("flags").getByRole("status").innerText()).toBe("Saved.");
    // The flags an owner may change: not the account states Storefit sets (shown as status).
    expect(Object.keys(patches.at(-1)!.settings as object).sort()).toEqual(
      [
        "auto_url_change_detection", "consent_required", "error_reporting", "event_analyzer", "intelligent_code", "outbound_only",
        "page_update", "personalize_after_timeout", "sdk_powered_off", "shop_platform_integration", "skip", "spa_mode",
      ].sort(),
    );

    await page.getByLabel("Service time-out (ms)").fill("3000");
    await section("timeouts").getByRole("button", { name: "Save time-outs" }).click();
    await expect.poll(() => section("timeouts").getByRole("status").innerText()).toBe("Saved.");

    const subdomains = page.getByLabel("Other domains and subdomains");
    await subdomains.fill(`${await subdomains.inputValue()}\n*.littlesprouts-eu.localhost`);
    await section("general").getByRole("button", { name: "Save shop and domains" }).click();
    await expect.poll(() => section("general").getByRole("status").innerText()).toBe("Saved.");

    await page.getByLabel("Page blacklist").fill("^/checkout\n/account/");
    await section("blacklists").getByRole("button", { name: "Save blacklists" }).click();
    await expect.poll(() => section("blacklists").getByRole("status").innerText()).toBe("Saved.");

    await section("revenue").getByRole("button", { name: "Add revenue rule" }).click();
    await section("revenue").getByLabel("Path").selectOption("starts_with");
    await section("revenue").getByLabel("Pattern").fill("/thank-you");
    await section("revenue").getByLabel("Revenue event name").fill("order_placed");
    await section("revenue").getByLabel("Amount").fill("25");
    await section("revenue").getByRole("button", { name: "Save revenue rules" }).click();
    await expect.poll(() => section("revenue").getByRole("status").innerText()).toBe("Saved.");

    // Two goal pages, then the first removed: the second keeps its own values.
    const goals = section("active-pages");
    await goals.getByRole("button", { name: "Add goal page" }).click();
    await goals.getByRole("button", { name: "Add goal page" }).click();
    await goals.getByLabel("Page path").nth(0).fill("/cart");
    await goals.getByLabel("Page path").nth(1).fill("/thank-you");
    await goals.getByRole("button", { name: "Remove goal page 1" }).click();
    expect(await goals.getByLabel("Page path").inputValue()).toBe("/thank-you");
    // A rule page, on another domain of the account.
    await goals.getByRole("button", { name: "Add rule page" }).click();
    await goals.getByLabel("Domain").nth(1).fill("littlesprouts-uk.localhost");
    await goals.getByLabel("Page path").nth(1).fill("/products/");
    await goals.getByRole("button", { name: "Save goal and rule pages" }).click();
    await expect.poll(() => goals.getByRole("status").innerText()).toBe("Saved.");

    // Integrations and the GA set-up.
    const integrations = section("integrations");
    expect(await integrations.getByLabel("Google Analytics").isChecked()).toBe(true);
    await integrations.getByLabel("Hotjar").check();
    await integrations.getByLabel("Google Analytics").uncheck();
    await integrations.getByLabel("How GA is loaded").selectOption("gtag");
    await integrations.getByLabel("Data layer variable").fill("sfLayer");
    await integrations.getByRole("button", { name: "Save integrations" }).click();
    await expect.poll(() => integrations.getByRole("status").innerText()).toBe("Saved.");

    // An event-merge rule with no domain (every domain) and one for the UK shop.
    const merge = section("event-merge");
    await merge.getByRole("button", { name: "Add merge rule" }).click();
    await merge.getByRole("button", { name: "Add merge rule" }).click();
    await merge.getByLabel("Path").nth(0).selectOption("starts_with");
    await merge.getByLabel("Pattern").nth(0).fill("/products/");
    await merge.getByLabel("Reported as").nth(0).fill("/products");
    await merge.getByLabel("Domain (optional)").nth(1).fill("Littlesprouts-UK.localhost");
    await merge.getByLabel("Path").nth(1).selectOption("regex");
    await merge.getByLabel("Pattern").nth(1).fill("^/collections/[^/]+$");
    await merge.getByLabel("Reported as").nth(1).fill("/collections");
    await merge.getByRole("button", { name: "Save event-merge rules" }).click();
    await expect.poll(() => merge.getByRole("status").innerText()).toBe("Saved.");

    // The demo's 30 page configurations start folded; one is edited, one added.
    const pagesSection = section("pages");
    expect(await pagesSection.getByTestId("settings-row").count()).toBe(0);
    await pagesSection.getByText("Show all 30 pages").click();
    await expect.poll(() => pagesSection.getByTestId("settings-row").count()).toBe(30);
    const firstPage = pagesSection.getByTestId("settings-row").nth(0);
    firstPagePath = await firstPage.getByLabel("Page path").inputValue();
    await firstPage.getByLabel("Path", { exact: true }).selectOption("contains");
    await firstPage.getByLabel("Element (CSS path)").fill("#product-price .amount");
    await firstPage.getByLabel("Config id").fill("cfg_price_amount");
    await pagesSection.getByRole("button", { name: "Add page" }).click();
    const added = pagesSection.getByTestId("settings-row").nth(30);
    await added.getByLabel("Path", { exact: true }).selectOption("regex");
    await added.getByLabel("Page path").fill("^/collections/");
    await added.getByLabel("Element (CSS path)").fill("#collection-banner");
    await added.getByLabel("Element hint (optional)").fill("media");
    await added.getByLabel("Config id").fill("cfg_collection_banner");
    await pagesSection.getByRole("button", { name: "Save page configurations" }).click();
    await expect.poll(() => pagesSection.getByRole("status").innerText()).toBe("Saved.");

    await page.reload();
    await page.getByLabel("Main domain").waitFor();
    expect(await page.getByLabel("Single-page-app mode").isChecked()).toBe(true);
    expect(await page.getByLabel("Service time-out (ms)").inputValue()).toBe("3000");
    expect(await page.getByLabel("Other domains and subdomains").inputValue()).toContain("*.littlesprouts-eu.localhost");
    expect(await section("revenue").getByLabel("Pattern").inputValue()).toBe("/thank-you");
    expect(await goals.getByLabel("Page path").count()).toBe(2);
    expect(await goals.getByLabel("Page path").nth(1).inputValue()).toBe("/products/");
    expect(await goals.getByLabel("Domain").nth(1).inputValue()).toBe("littlesprouts-uk.localhost");
    expect(await integrations.getByLabel("Hotjar").isChecked()).toBe(true);
    expect(await integrations.getByLabel("Google Analytics").isChecked()).toBe(false);
    expect(await integrations.getByLabel("How GA is loaded").inputValue()).toBe("gtag");
    expect(await integrations.getByLabel("Data layer variable").inputValue()).toBe("sfLayer");
    expect(await merge.getByLabel("Pattern").nth(0).inputValue()).toBe("/products/");
    expect(await merge.getByLabel("Domain (optional)").nth(0).inputValue()).toBe("");
    expect(await merge.getByLabel("Domain (optional)").nth(1).inputValue()).toBe("littlesprouts-uk.localhost");
    expect(await merge.getByLabel("Path").nth(1).inputValue()).toBe("regex");
    expect(await merge.getByLabel("Reported as").nth(1).inputValue()).toBe("/collections");
    await pagesSection.getByText("Show all 31 pages").click();
    expect(await firstPage.getByLabel("Path", { exact: true }).inputValue()).toBe("contains");
    expect(await firstPage.getByLabel("Config id").inputValue()).toBe("cfg_price_amount");
    expect(await added.getByLabel("Page path").inputValue()).toBe("^/collections/");
    expect(await added.getByLabel("Element hint (optional)").inputValue()).toBe("media");

    const settings = await snippetSettings();
    expect(settings).toMatchObject({
      spa_mode: true,
      error_reporting: true,
      sdk_timeout_ms: 3000,
      page_blacklist: ["^/checkout", "/account/"],
      goal_pages: [{ domain: "littlesprouts.localhost", page_path: "/thank-you" }],
      rule_pages: [{ domain: "littlesprouts-uk.localhost", page_path: "/products/" }],
      revenue_pages: [
        { domain: "littlesprouts.localhost", path_check_type: "starts_with", pattern_value: "/thank-you", revenue_event_customer_id: "order_placed", revenue_amount: 25 },
      ],
      integrations: { google_analytics: false, hotjar: true },
      ga_setup: { mode: "gtag", data_variable: "sfLayer" },
      event_merge: [
        { path_check_type: "starts_with", pattern_value: "/products/", final_path: "/products" },
        { domain: "littlesprouts-uk.localhost", path_check_type: "regex", pattern_value: "^/collections/[^/]+$", final_path: "/collections" },
      ],
    });
    // A rule with no domain holds none (every domain), rather than an empty one.
    expect(settings.event_merge[0]).not.toHaveProperty("domain");
    expect(settings.subdomains).toContain("*.littlesprouts-eu.localhost");
    expect(settings.pages).toHaveLength(31);
    expect(settings.pages[0]).toMatchObject({ page_path: firstPagePath, page_match: "contains", element_path: "#product-price .amount", config_id: "cfg_price_amount" });
    expect(settings.pages[30]).toEqual({
      domain: "littlesprouts.localhost",
      page_path: "^/collections/",
      page_match: "regex",
      element_path: "#collection-banner",
      element_hint: "media",
      config_id: "cfg_collection_banner",
    });
  });

  it("shows the account states Storefit sets as status with what they mean, not as settings to tick", async () => {
    const status = page.getByTestId("account-status");
    await expect.poll(() => status.getByTestId("status-subscription_expired").innerText()).toContain("Active");
    expect(await status.getByTestId("status-account_enabled").innerText()).toContain("Enabled");
    expect(await status.getByTestId("status-personalized_users_limit_exceeded").innerText()).toContain("Within the plan");
    for (const label of [/Subscription expired/i, /Account enabled/i, /limit exceeded/i]) {
      expect(await page.getByRole("checkbox", { name: label }).count(), String(label)).toBe(0);
    }
    expect(await status.getByRole("checkbox").count()).toBe(0);
    expect(await status.locator("input, select, textarea, button").count()).toBe(0);

    // Storefit's billing marks the subscription lapsed and the visitor limit reached.
    const account = stack.store.getAccount(ACCOUNT_ID)!;
    stack.store.updateAccount(ACCOUNT_ID, () => ({ settings: { ...account.settings, subscription_expired: true, personalized_users_limit_exceeded: true } }));
    await page.reload();
    await expect.poll(() => status.getByTestId("status-subscription_expired").innerText()).toContain("Expired");
    expect(await status.getByTestId("status-subscription_expired").innerText()).toContain("The script stops on the shop's pages until the subscription is renewed.");
    expect(await status.getByTestId("status-personalized_users_limit_exceeded").innerText()).toMatch(/Reached[\s\S]*new visitors see the shop's original pages/);
    // Saving the flags keeps them: the section does not send them back.
    await page.getByLabel("Event analyzer").click();
    await section("flags").getByRole("button", { name: "Save script flags" }).click();
    await expect.poll(() => section("flags").getByRole("status").innerText()).toBe("Saved.");
    expect(stack.store.getAccount(ACCOUNT_ID)!.settings).toMatchObject({ subscription_expired: true, personalized_users_limit_exceeded: true });
    stack.store.updateAccount(ACCOUNT_ID, () => ({ settings: { ...stack.store.getAccount(ACCOUNT_ID)!.settings, subscription_expired: false, personalized_users_limit_exceeded: false } }));
    await page.getByLabel("Event analyzer").click();
    await section("flags").getByRole("button", { name: "Save script flags" }).click();
    await expect.poll(() => section("flags").getByRole("status").innerText()).toBe("Saved.");
    await page.reload();
    await page.getByLabel("Main domain").waitFor();
  });

  it("checks fields before sending: a bad domain, a bad pattern and a bad time-out are shown and nothing is sent", async () => {
    const before = patches.length;
    await page.getByLabel("Main domain").fill("https://shop.example/path");
    await section("general").getByRole("button", { name: "Save shop and domains" }).click();
    await expect.poll(() => section("general").getByText("is not a host name").count()).toBe(1);

    await page.getByLabel("Referrer blacklist").fill("spam(");
    await section("blacklists").getByRole("button", { name: "Save blacklists" }).click();
    await expect.poll(() => section("blacklists").getByText("Not a valid regular expression").count()).toBe(1);

    await page.getByLabel("Track queue size (events)").fill("2");
    await section("timeouts").getByRole("button", { name: "Save time-outs" }).click();
    await expect.poll(() => section("timeouts").getByText("Between 5 and 500.").count()).toBe(1);

    expect(patches.length).toBe(before);
    expect(stack.store.getAccount(ACCOUNT_ID)!.settings.domain).toBe("littlesprouts.localhost");
    await page.reload();
    await page.getByLabel("Main domain").waitFor();
  });

  it("adds a viewer (and shows the service's refusal of a taken email)", async () => {
    await page.getByLabel("Email", { exact: true }).fill("owner@e2e.example");
    await page.getByLabel("Password", { exact: true }).fill("some-password-1");
    await page.getByRole("button", { name: "Add member" }).click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "Could not add the member" }).innerText()).toContain(
      "An operator with this email exists",
    );

    await page.getByLabel("Email", { exact: true }).fill(VIEWER.email);
    await page.getByLabel("Password", { exact: true }).fill(VIEWER.password);
    await page.getByLabel("Role", { exact: true }).selectOption("viewer");
    await page.getByRole("button", { name: "Add member" }).click();
    await expect.poll(() => page.getByTestId("member-row").filter({ hasText: VIEWER.email }).count()).toBe(1);
    expect(stack.store.getOperatorByEmail(VIEWER.email)).toMatchObject({ account_id: ACCOUNT_ID, role: "viewer" });
  });

  it("a viewer signs in and can change nothing, in the UI and through the API", async () => {
    const context = await newVisitor(browser);
    const viewer = await context.newPage();
    await signInToDashboard(viewer, stack, VIEWER);

    await viewer.getByRole("link", { name: "Settings" }).click();
    await viewer.getByTestId("read-only-notice").waitFor();
    expect(await viewer.getByRole("button", { name: /^Save/ }).count()).toBe(0);
    expect(await viewer.getByLabel("Single-page-app mode").isDisabled()).toBe(true);
    expect(await viewer.getByLabel("Main domain").isDisabled()).toBe(true);
    expect(await viewer.getByRole("button", { name: /^Add / }).count()).toBe(0);
    expect(await viewer.getByRole("heading", { name: "Team members" }).count()).toBe(0);
    expect(await viewer.getByRole("heading", { name: "Secret keys" }).count()).toBe(0);
    await viewer.evaluate(() => window.scrollTo(0, 0));
    await viewer.screenshot({ path: `${SCREENSHOTS}settings-viewer.png` });

    await viewer.getByRole("link", { name: "Audiences" }).click();
    await viewer.getByTestId("audience-row").first().waitFor();
    expect(await viewer.getByRole("link", { name: "New audience" }).count()).toBe(0);
    await viewer.getByRole("link", { name: "First-time visitors" }).click();
    await viewer.getByLabel("Name", { exact: true }).waitFor();
    expect(await viewer.getByLabel("Name", { exact: true }).isDisabled()).toBe(true);
    expect(await viewer.getByTestId("condition-json").isDisabled()).toBe(true);
    expect(await viewer.getByRole("button", { name: "Save audience" }).count()).toBe(0);
    expect(await viewer.getByRole("button", { name: "Delete…" }).count()).toBe(0);
    // The tester changes nothing, so a viewer may use it.
    await viewer.getByRole("button", { name: "Test this visitor" }).click();
    await expect.poll(() => viewer.getByTestId("tester-verdict").innerText()).toContain("Match");

    const session = (await (await viewer.request.get(`${stack.apiUrl}/api/session`)).json()) as SessionInfo;
    expect(session.user.role).toBe("viewer");
    const headers = { "x-csrf-token": session.csrf_token, "content-type": "application/json" };
    const tries = [
      viewer.request.patch(`${stack.apiUrl}/api/account`, { headers, data: JSON.stringify({ settings: { spa_mode: false } }) }),
      viewer.request.post(`${stack.apiUrl}/api/audiences`, { headers, data: JSON.stringify({ name: "x", condition: {} }) }),
      viewer.request.put(`${stack.apiUrl}/api/audiences/aud_first_time_visitors`, { headers, data: JSON.stringify({ name: "x", condition: {} }) }),
      viewer.request.delete(`${stack.apiUrl}/api/audiences/aud_first_time_visitors`, { headers }),
      viewer.request.post(`${stack.apiUrl}/api/account/members`, { headers, data: JSON.stringify({ email: "x@e2e.example", password: "0123456789", role: "owner" }) }),
      viewer.request.post(`${stack.apiUrl}/api/account/keys`, { headers, data: JSON.stringify({ name: "x" }) }),
    ];
    for (const res of await Promise.all(tries)) expect(res.status(), res.url()).toBe(403);
    expect(stack.store.getAccount(ACCOUNT_ID)!.settings.spa_mode).toBe(true);
    expect(stack.store.getAudience(ACCOUNT_ID, "aud_first_time_visitors")!.name).toBe("First-time visitors");
    await context.close();
  });

  it("shows a new secret key once; it works until revoked", async () => {
    await page.getByLabel("Key name").fill("Order sync");
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = await (await page.getByTestId("new-secret").elementHandle())!.innerText();
    expect(secret).toMatch(/^sk_/);
    const row = page.getByTestId("key-row").filter({ hasText: "Order sync" });
    await expect.poll(() => row.innerText()).toContain(secret.slice(0, 9));
    await page.locator("#keys").screenshot({ path: `${SCREENSHOTS}settings-secret-key.png` });

    const withKey = () => fetch(`${stack.apiUrl}/api/account`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await withKey()).status).toBe(200);

    await page.getByRole("button", { name: "I have stored it" }).click();
    await expect.poll(() => page.getByTestId("new-secret").count()).toBe(0);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole("button", { name: "Revoke Order sync…" }).click();
    await page.getByRole("button", { name: "Revoke Order sync", exact: true }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await withKey()).status).toBe(401);
  });

  it("changes a member's role, keeps the last owner, and removes a member", async () => {
    const ownerRow = page.getByTestId("member-row").filter({ hasText: "owner@e2e.example" });
    await ownerRow.getByLabel("Role of owner@e2e.example").selectOption("viewer");
    await expect.poll(() => ownerRow.getByRole("alert").innerText()).toBe("The account must keep at least one owner");
    expect(stack.store.getOperatorByEmail("owner@e2e.example")!.role).toBe("owner");

    const viewerRow = page.getByTestId("member-row").filter({ hasText: VIEWER.email });
    await viewerRow.getByLabel(`Role of ${VIEWER.email}`).selectOption("editor");
    await expect.poll(() => stack.store.getOperatorByEmail(VIEWER.email)?.role).toBe("editor");
    await viewerRow.getByRole("button", { name: `Remove ${VIEWER.email}…` }).click();
    await viewerRow.getByRole("button", { name: `Remove ${VIEWER.email}`, exact: true }).click();
    await expect.poll(() => viewerRow.count()).toBe(0);
    expect(stack.store.getOperatorByEmail(VIEWER.email)).toBeNull();
    // Only yourself is not removable here.
    expect(await ownerRow.getByRole("button", { name: /^Remove/ }).count()).toBe(0);
  });

  it("asks before the tab closes with unsaved changes", async () => {
    const tab = await owner.newPage();
    await tab.goto(`${stack.apiUrl}/settings`);
    const timeout = tab.getByLabel("Service time-out (ms)");
    await timeout.click();
    // Typed keys are a user gesture, which Chromium requires before it asks.
    await tab.keyboard.press("End");
    await tab.keyboard.type("1");
    const dialog = Promise.race([
      new Promise<string>((resolve) =>
        tab.once("dialog", (d) => {
          resolve(d.type());
          void d.accept();
        }),
      ),
      new Promise<string>((resolve) => setTimeout(() => resolve("no dialog within 5 s"), 5_000)),
    ]);
    await tab.close({ runBeforeUnload: true });
    expect(await dialog).toBe("beforeunload");
    if (!tab.isClosed()) await tab.close();
  });

  it("works at 390 px", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByLabel("Main domain").waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SCREENSHOTS}settings-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
