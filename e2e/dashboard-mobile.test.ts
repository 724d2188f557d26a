// Every main screen of the dashboard, as an operator sees it: at phone width (390 × 844) the top
// navigation reaches every screen and no screen scrolls sideways; and on the screens, in plain
// words — no spec references ("spec §"), no script error codes (CFINIT…), no raw setting names
// where a label fits — so internal vocabulary cannot creep back into the UI.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { DESKTOP_UA, launchBrowser, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const DEMO_EXPERIENCE = "exp_price_message";

let stack: Stack;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  context = await browser.newContext({ userAgent: DESKTOP_UA, viewport: { width: 390, height: 844 } });
  page = await context.newPage();
  await signInToDashboard(page, stack);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** The top navigation's destinations: link name, the path it opens, what shows the screen is there. */
const NAV = [
  { name: "Experiences", path: "/", ready: () => page.getByRole("link", { name: "New experience" }) },
  { name: "Audiences", path: "/audiences", ready: () => page.getByRole("link", { name: "New audience" }) },
  { name: "Live events", path: "/events", ready: () => page.getByRole("heading", { level: 1, name: /events/i }) },
  { name: "Install", path: "/install", ready: () => page.getByRole("heading", { level: 1, name: /install/i }) },
  { name: "Settings", path: "/settings", ready: () => page.getByLabel("Main domain") },
] as const;

/** Wider than the window: the page scrolls sideways (what a phone shows as a page that wobbles). */
const sidewaysOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Every text of the page an operator can read, folded parts included, and the attributes a screen
 * reader reads — the dashboard's own words: descriptions in lists are what operators wrote.
 */
const screenText = () =>
  page.evaluate(() => {
    const body = document.body.cloneNode(true) as HTMLElement;
    for (const cell of Array.from(body.querySelectorAll('td[data-label="Description"]'))) cell.remove();
    const attributes = Array.from(body.querySelectorAll("[placeholder], [title], [aria-label]")).map((el) =>
      ["placeholder", "title", "aria-label"].map((a) => el.getAttribute(a) ?? "").join(" "),
    );
    return `${document.title}\n${body.textContent ?? ""}\n${attributes.join("\n")}`;
  });

/** The labels, legends, headings and hints of a screen: where a raw setting name has a label to be instead. */
const labelTexts = () =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll("label, legend, h1, h2, h3, .field__hint, .panel__description, .checkbox-field__label, dt")).map((el) =>
      (el.textContent ?? "").trim(),
    ),
  );

describe("at 390 px", () => {
  it("the top navigation reaches every screen, each link on screen and clickable", async () => {
    await page.goto(`${stack.apiUrl}/`);
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const dest of NAV) {
      const link = nav.getByRole("link", { name: dest.name, exact: true });
      // Within the window, not behind a sideways scroll the operator cannot see.
      const box = await link.boundingBox();
      expect(box, dest.name).not.toBeNull();
      expect(box!.x, dest.name).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, dest.name).toBeLessThanOrEqual(390);
      await link.click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(dest.path);
      await dest.ready().first().waitFor();
      expect(await link.getAttribute("aria-current"), dest.name).toBe("page");
    }
  });

  it("no main screen scrolls sideways: Settings, Experiences, Audiences, the editor, Results, Live events, Install", async () => {
    const screens: [string, string, () => ReturnType<Page["getByLabel"]>][] = [
      ["Settings", "/settings", () => page.getByLabel("Main domain")],
      ["Experiences", "/", () => page.getByRole("link", { name: "New experience" })],
      ["Audiences", "/audiences", () => page.getByRole("link", { name: "New audience" })],
      ["Audience editor", "/audiences?audience=new", () => page.getByLabel("Attribute of rule 1")],
      ["Experience editor", `/experiences/${DEMO_EXPERIENCE}`, () => page.getByLabel("Name", { exact: true })],
      ["New experience", "/experiences/new", () => page.getByLabel("Name", { exact: true })],
      ["Results", `/experiences/${DEMO_EXPERIENCE}/results`, () => page.getByRole("heading", { level: 1 })],
      ["Live events", "/events", () => page.getByRole("heading", { level: 1 })],
      ["Install", "/install", () => page.getByRole("heading", { level: 1 })],
    ];
    const wide: string[] = [];
    for (const [name, path, ready] of screens) {
      await page.goto(`${stack.apiUrl}${path}`);
      await ready().first().waitFor();
      // Long lists unfolded, as an operator reading them would (the demo's page configurations).
      for (const more of await page.getByText(/^Show all \d+/).all()) await more.click();
      const overflow = await sidewaysOverflow();
      if (overflow > 0) wide.push(`${name}: ${overflow}px`);
    }
    expect(wide).toEqual([]);
  });
});

describe("in plain words", () => {
  const SCREENS: [string, string, () => ReturnType<Page["getByLabel"]>][] = [
    ["Settings", "/settings", () => page.getByLabel("Main domain")],
    ["Experiences", "/", () => page.getByRole("link", { name: "New experience" })],
    ["Audiences", "/audiences", () => page.getByRole("link", { name: "New audience" })],
    ["Audience editor", "/audiences?audience=new", () => page.getByLabel("Attribute of rule 1")],
    ["Experience editor", `/experiences/${DEMO_EXPERIENCE}`, () => page.getByLabel("Name", { exact: true })],
    ["New experience", "/experiences/new", () => page.getByLabel("Name", { exact: true })],
    ["Results", `/experiences/${DEMO_EXPERIENCE}/results`, () => page.getByTestId("rule-results").or(page.getByText("No visitors yet"))],
    ["Visual editor", `/experiences/${DEMO_EXPERIENCE}/visual`, () => page.getByLabel("Page address")],
    ["Live events", "/events", () => page.getByRole("heading", { level: 1 })],
    ["Install", "/install", () => page.getByTestId("install-status")],
  ];

  it("no screen names the spec or shows a script error code", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const found: string[] = [];
    for (const [name, path, ready] of SCREENS) {
      await page.goto(`${stack.apiUrl}${path}`);
      await ready().first().waitFor();
      const text = await screenText();
      for (const m of text.matchAll(/.{0,40}(?:spec §|§|\bspec\b|CFINIT\d*).{0,40}/gi)) found.push(`${name}: …${m[0]}…`);
    }
    expect(found).toEqual([]);
  });

  it("labels, headings and hints use words, not setting names", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const found: string[] = [];
    for (const [name, path, ready] of SCREENS) {
      await page.goto(`${stack.apiUrl}${path}`);
      await ready().first().waitFor();
      for (const text of await labelTexts()) {
        // A setting or field name: lower-case words joined by "_" (sdk_timeout_ms). One may follow
        // its label in brackets, as "Campaign name (utm_campaign)": operators put those in links.
        for (const m of text.matchAll(/\b[a-z]+(?:_[a-z0-9]+)+\b/g)) {
          if (new RegExp(`\\w.* \\(${m[0]}\\)`).test(text)) continue;
          found.push(`${name}: ${m[0]} in “${text.slice(0, 80)}”`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
