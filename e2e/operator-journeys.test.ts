// Journeys an operator takes beyond the plain A/B test (e2e/ab-test-end-to-end.test.ts), each
// built only through the dashboard, visited by fresh shoppers in fresh browser contexts, and read
// where the operator reads it: the Results screen. Nothing is planted: every number comes from the
// visits, and what each shopper saw and was exposed to is read from their own browser (the title
// on the page; the experience ids in the exposures the script sends).
//
// Each journey runs on a product page of its own, changing the product title (h1.product-title):
// the seeded price test owns #product-price on every product page and exposes every shopper
// there, so each product page view sends one exposure request, with or without ours in it.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { DESKTOP_UA, launchBrowser, newVisitor, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const AT_ONCE = 3;

let stack: Stack;
let browser: Browser;
let operatorContext: BrowserContext;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  operatorContext = await browser.newContext({ userAgent: DESKTOP_UA, viewport: { width: 1440, height: 900 } });
  page = await operatorContext.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  await signInToDashboard(page, stack);
});
afterAll(async () => {
  await operatorContext?.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

type Built = { url: string; id: string; titles: Record<string, string> };

/**
 * A new experience made in the editor's form: a name, one product page, a plain control and the
 * variations named (each rewriting the product title to "<title> · <variation>"), with the
 * weights, traffic allocation and audience given, and whatever `more` adds (goals). Created, not
 * started.
 */
async function buildExperience(o: {
  name: string;
  path: string;
  title: string;
  variations?: { name: string; weight: string }[];
  controlWeight?: string;
  traffic?: string;
  audience?: string;
  more?: () => Promise<void>;
}): Promise<Built> {
  await page.getByRole("link", { name: "Experiences" }).click();
  await page.getByRole("link", { name: "New experience" }).click();
  await page.getByLabel("Name", { exact: true }).fill(o.name);
  await page.getByRole("button", { name: "Add page" }).click();
  await page.getByTestId("page-target").getByLabel("Page path or pattern").fill(o.path);
  const rule = page.getByTestId("rule");
  if (o.audience) await rule.getByLabel("Audience", { exact: true }).selectOption({ label: o.audience });
  if (o.traffic) await rule.getByLabel("Traffic allocation (%)").fill(o.traffic);
  const variations = o.variations ?? [{ name: "Variation B", weight: "50" }];
  // The editor starts with a control and Variation B; more are added with "Add variation".
  for (let i = 2; i <= variations.length; i++) await rule.getByRole("button", { name: "Add variation" }).click();
  const titles: Record<string, string> = { Control: o.title };
  const boxes = rule.getByTestId("variation");
  if (o.controlWeight) await boxes.nth(0).getByLabel("Weight").fill(o.controlWeight);
  for (const [i, v] of variations.entries()) {
    const box = boxes.nth(i + 1);
    await box.getByLabel("Variation name").fill(v.name);
    await box.getByLabel("Weight").fill(v.weight);
    await box.getByRole("button", { name: /Add config/ }).click();
    await box.getByLabel("Element (CSS path)").fill("h1.product-title");
    titles[v.name] = `${o.title} · ${v.name}`;
    await box.getByLabel("New text").fill(titles[v.name]!);
  }
  if (o.more) await o.more();
  await page.getByRole("button", { name: "Create experience" }).click();
  await page.waitForURL(/\/experiences\/exp_[^/]+$/);
  const url = page.url();
  return { url, id: new URL(url).pathname.split("/").pop()!, titles };
}

async function setStatus(url: string, button: "Start" | "Pause" | "Resume", status: string): Promise<void> {
  await page.goto(url);
  await page.getByRole("button", { name: button, exact: true }).click();
  await expect.poll(() => page.getByTestId("status-badge").getAttribute("data-status"), { timeout: 15_000 }).toBe(status);
}

type Visit = { title: string; exposed: boolean };

/**
 * One product page view in `context` (a fresh shopper's, or a returning one's): the title shown
 * and whether the exposures the page sent name experience `id`. Every product page sends one
 * exposure request (the seeded price test exposes everyone there), so waiting for it is waiting
 * for all of the page's exposures. `then` runs on the page afterwards (it leaves the page by a
 * link, so that queued events go out).
 */
async function view(context: BrowserContext, path: string, id: string, then?: (p: Page) => Promise<void>): Promise<Visit> {
  const p = await context.newPage();
  try {
    const exposures: string[] = [];
    p.on("request", (r) => {
      if (r.url().includes("/v1/config/request/summary/")) exposures.push(r.postData() ?? "");
    });
    await p.goto(stack.shopUrl(path), { waitUntil: "domcontentloaded", timeout: 60_000 });
    await p.waitForFunction(() => !document.getElementById("storefit-hide"), undefined, { timeout: 60_000 });
    const title = await p.locator("h1.product-title").innerText();
    await expect.poll(() => exposures.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const exposed = exposures.some((body) =>
      (JSON.parse(body) as { summaries: { experience_id?: string }[] }).summaries.some((s) => s.experience_id === id),
    );
    if (then) await then(p);
    else {
      await p.getByRole("link", { name: "Shop", exact: true }).click();
      await p.waitForURL((u) => u.pathname === "/", { waitUntil: "domcontentloaded", timeout: 60_000 });
    }
    return { title, exposed };
  } finally {
    await p.close();
  }
}

/** `n` fresh shoppers, AT_ONCE at a time; `i` is the shopper's number. */
async function shoppers<T>(n: number, one: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let first = 0; first < n; first += AT_ONCE) {
    const batch = Array.from({ length: Math.min(AT_ONCE, n - first) }, (_, k) => first + k);
    out.push(...(await Promise.all(batch.map(one))));
  }
  return out;
}

async function freshVisit(path: string, id: string, then?: (p: Page) => Promise<void>): Promise<Visit> {
  const context = await newVisitor(browser);
  try {
    return await view(context, path, id, then);
  } finally {
    await context.close();
  }
}

/** The variation a visit's title says it saw (null: the original page). */
function armOf(built: Built, title: string): string | null {
  const found = Object.entries(built.titles).find(([name, t]) => name !== "Control" && t === title);
  return found ? found[0] : title === built.titles.Control ? null : `unexpected title ${title}`;
}

/** The cells of a variation's row in a table, by column header. */
async function rowOf(table: Locator, variation: string): Promise<Record<string, string>> {
  // textContent: the headers are upper-cased by CSS, which innerText would report.
  const headers = await table.getByRole("columnheader").allTextContents();
  const row = table.getByRole("row").filter({ has: table.page().getByText(variation, { exact: true }) });
  const cells = await row.locator("th, td").allInnerTexts();
  return Object.fromEntries(headers.map((h, i) => [h.trim(), (cells[i] ?? "").trim()]));
}
const count = (text: string | undefined) => Number((text ?? "").replace(/[^0-9]/g, ""));

/**
 * Polls the experience's Results screen until `read` (run on the freshly loaded screen) gives
 * `expected`; fails with what the screen showed.
 */
async function expectResults<T>(built: Built, read: () => Promise<T>, expected: T): Promise<void> {
  let shown = "";
  await expect
    .poll(async () => {
      await page.goto(`${built.url}/results`);
      await page.getByRole("table", { name: /^Visitors exposed per variation/ }).waitFor({ timeout: 15_000 }).catch(() => undefined);
      shown = await page.locator("main").innerText();
      return read();
    }, { timeout: 60_000, interval: 2_000 })
    .toEqual(expected)
    .catch((e: unknown) => {
      throw new Error(`${String(e)}\nThe Results screen showed:\n${shown}`);
    });
}

const exposureTable = () => page.getByRole("table", { name: /^Visitors exposed per variation/ });
async function exposedVisitors(names: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of names) out[name] = count((await rowOf(exposureTable(), name)).Visitors);
  return out;
}

describe("operator journeys, built in the dashboard and measured from real visits", () => {
  it("traffic allocation 50 %: about half the shoppers enter, Results count only them, the reach line and the split check are true", { timeout: 600_000 }, async () => {
    const PATH = "/products/tear-free-shampoo-and-body-wash";
    const built = await buildExperience({ name: "Half the traffic", path: PATH, title: "Tear-Free Shampoo & Body Wash", traffic: "50" });
    await setStatus(built.url, "Start", "running");

    const SHOPPERS = 24;
    const visits = await shoppers(SHOPPERS, () => freshVisit(PATH, built.id));
    const arms: Record<string, number> = { Control: 0, "Variation B": 0 };
    for (const v of visits) {
      const arm = armOf(built, v.title);
      // Out of the allocation: the original page and no exposure; in it, an exposure either way.
      if (arm !== null) expect(v.exposed, `a shopper shown ${arm} is exposed`).toBe(true);
      if (v.exposed) arms[arm ?? "Control"]!++;
    }
    const exposed = arms.Control! + arms["Variation B"]!;
    // Half of 24, give or take what chance does to a fair coin (below 4 or above 20: 1 in 1,000).
    expect(exposed).toBeGreaterThanOrEqual(4);
    expect(exposed).toBeLessThanOrEqual(20);

    await expectResults(built, () => exposedVisitors(["Control", "Variation B"]), arms);
    // The reach line: every shopper viewed the page, `exposed` of them saw the experience.
    const reach = await page.getByTestId("few-visitors").innerText();
    expect(reach).toMatch(new RegExp(`\\b${SHOPPERS} visitors viewed this experience's pages since .*\\b${exposed} (of them )?saw it`));
    expect(await page.getByTestId("srm-ok").count()).toBe(1);
    expect(await page.getByRole("alert").filter({ hasText: "Sample ratio mismatch" }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
