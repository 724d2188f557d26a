// The results screen (issue #7 part 3) against the real service on real SQLite. The data sets are
// made the way storefronts make them, through the client API: config calls that assign visitors
// (and store their assignment probability), config summaries that record exposures, TRACK and
// REVENUE events after them. Then the operator opens the screen and reads, switches engines,
// exports, and is warned about an unbalanced split.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { ConfigsResponse, ExperienceDetail, ExperienceResults, SessionInfo } from "@storefit/contract";
import { DEMO_CLIENT_KEY } from "../packages/server/src/seed/demo.js";
import { DEMO_DOMAIN, DEMO_PAGES } from "../packages/server/src/seed/demo-pages.js";
import { DESKTOP_UA, OWNER, launchBrowser, newVisitor, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), "..", "docs", "screenshots");
const FORM = "application/x-www-form-urlencoded";
const DAY_MS = 86_400_000;
const NOW = Date.now();

const PRICE = { id: "exp_price_message", control: "var_price_control", treatment: "var_price_free_shipping" } as const;
const SPLIT = { id: "", control: "var_e2e_blue", treatment: "var_e2e_green", goal: "goal_e2e_cart" };
const NO_GOALS = { id: "", control: "var_e2e_badge_old", treatment: "var_e2e_badge_new" };
const PRICE_VISITORS = 800;
/** The unbalanced data set: 60 / 40 against 50 / 50 weights, chi-square p ≈ 6e-5. */
const SPLIT_VISITORS = { control: 240, treatment: 160 };

let stack: Stack;
let browser: Browser;
let shopOrigin: string;
/** The operator's signed-in cookies, shared by the tests: signing in is slow on purpose (scrypt). */
let operatorState: Awaited<ReturnType<BrowserContext["storageState"]>>;
/** What the price data set should show: visitors and add-to-cart conversions per variation. */
const expected = new Map<string, { visitors: number; carts: number; orders: number; revenue: number }>();
/** The price data set's visitors per UTC day of exposure and variation. */
const priceByDay = new Map<string, Map<string, number>>();
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

// ---- The client API, as the storefront script calls it (spec §7: JSON text in a form body) ----

async function client<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}?cfenc=${DEMO_CLIENT_KEY}`, {
    method: "POST",
    headers: { "content-type": FORM, origin: shopOrigin },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const user = (id: string) => ({ user_customer_id: id, anonymous: true });

type Exposure = { visitor: string; experience: string; variation: string; config: string; at: number };

async function sendSummaries(exposures: Exposure[]) {
  for (let i = 0; i < exposures.length; i += 100) {
    const chunk = exposures.slice(i, i + 100);
    await client("/v1/config/request/summary/", {
      user: user(chunk[0]!.visitor),
      summaries: chunk.map((x) => ({
        config_id: x.config,
        user_customer_id: x.visitor,
        requested_time: x.at,
        variation_id: x.variation,
        experience_id: x.experience,
        session_id: `s_${x.visitor}`,
      })),
    });
  }
}

async function track(visitor: string, at: number, events: { type: "TRACK" | "REVENUE"; name: string; amount?: number }[]) {
  await client("/v1/cfe/", {
    user: user(visitor),
    events: events.map((e, i) => ({
      event_type: e.type,
      name: e.name,
      event_customer_id: `${DEMO_DOMAIN}|${e.name}`,
      domain: DEMO_DOMAIN,
      insert_id: `e2e_${visitor}_${i}`,
      event_timestamp: at + (i + 1) * 60_000,
      session_id: `s_${visitor}`,
      ...(e.amount === undefined ? {} : { properties: { revenue_amount: e.amount, currency: "USD" } }),
    })),
  });
}

async function inBatches<T>(items: T[], size: number, each: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(each));
}

/**
 * The price A/B test: the service assigns each visitor (config call), who is exposed on one of
 * the last six days; 20 % of the control and 50 % of the treatment add to cart, and half of
 * those order. Which visitor lands where is the service's hash: the test counts.
 */
async function pricingDataSet() {
  const page = DEMO_PAGES.find((p) => p.domain === DEMO_DOMAIN)!;
  for (const id of [PRICE.control, PRICE.treatment]) expected.set(id, { visitors: 0, carts: 0, orders: 0, revenue: 0 });
  const exposures: Exposure[] = [];
  const conversions: { visitor: string; at: number; events: Parameters<typeof track>[2] }[] = [];
  await inBatches([...Array(PRICE_VISITORS).keys()], 10, async (i) => {
    const visitor = `e2e-price-${i}`;
    const answer = await client<ConfigsResponse>("/v1/users/configs/", {
      user: user(visitor),
      current_page_path: page.page_path,
      current_domain: DEMO_DOMAIN,
    });
    const config = Object.values(answer.configs).find((c) => c.variation_id === PRICE.control || c.variation_id === PRICE.treatment);
    if (!config?.variation_id) throw new Error(`no price config for ${visitor}`);
    const at = NOW - (i % 6) * DAY_MS - 2 * 3_600_000;
    exposures.push({ visitor, experience: PRICE.id, variation: config.variation_id, config: config.config_id, at });
    const tally = expected.get(config.variation_id)!;
    tally.visitors++;
    const day = priceByDay.get(utcDay(at)) ?? new Map<string, number>();
    day.set(config.variation_id, (day.get(config.variation_id) ?? 0) + 1);
    priceByDay.set(utcDay(at), day);
    const carts = config.variation_id === PRICE.control ? i % 5 === 0 : i % 2 === 0;
    if (!carts) return;
    tally.carts++;
    const events: Parameters<typeof track>[2] = [{ type: "TRACK", name: "add_to_cart" }];
    if (i % 4 < 2) {
      const amount = 30 + (i % 7) * 5;
      events.push({ type: "REVENUE", name: "checkout", amount });
      tally.orders++;
      tally.revenue += amount;
    }
    conversions.push({ visitor, at, events });
  });
  await sendSummaries(exposures);
  await inBatches(conversions, 10, (c) => track(c.visitor, c.at, c.events));
}

/** A second experience whose exposures come out 60 / 40 against equal weights. */
async function unbalancedDataSet() {
  const signIn = await fetch(`${stack.apiUrl}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(OWNER),
  });
  const session = (await signIn.json()) as SessionInfo;
  const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const variation = (id: string, name: string, color: string) => ({
    id,
    name,
    weight: 1,
    configs: [
      {
        config_customer_id: "e2e_cart_button",
        config_id: "cfg_e2e_cart_button",
        variation_data_type: "HTML_ELEMENT",
        variation: { innerHTML: `Add to cart <span class="sf-${color}"></span>` },
        properties: { element_path: "#add-to-cart", domain: DEMO_DOMAIN },
      },
    ],
  });
  const create = async (name: string, suffix: string, variations: [string, string][], goals: unknown[]) => {
    const res = await fetch(`${stack.apiUrl}/api/experiences`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, "x-csrf-token": session.csrf_token },
      body: JSON.stringify({
        name,
        kind: "ab_test",
        priority: 2,
        pages: [{ domain: DEMO_DOMAIN, page_path: "/products/", page_match: "contains" }],
        goals,
        rules: [
          {
            id: `rule_e2e_${suffix}`,
            audience_id: null,
            audience_name: "Everyone",
            behaviour: {
              id: `beh_e2e_${suffix}`,
              name,
              traffic_allocation: 1,
              variations: variations.map(([id, label], i) => variation(id, label, i === 0 ? "blue" : "green")),
            },
          },
        ],
      }),
    });
    if (res.status !== 201) throw new Error(`creating the experience answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as ExperienceDetail).id;
  };
  SPLIT.id = await create(
    "Cart button colour",
    "button",
    [[SPLIT.control, "Blue button"], [SPLIT.treatment, "Green button"]],
    [{ id: SPLIT.goal, name: "Add to cart", kind: "track", event_name: "add_to_cart" }],
  );
  // And one that measures nothing: seen by visitors, but without goals.
  NO_GOALS.id = await create("Badge wording", "badge", [[NO_GOALS.control, "Old badge"], [NO_GOALS.treatment, "New badge"]], []);

  // Only exposures with a randomised assignment behind them count (docs/results.md "Forced
  // exposures"): each experience runs alone (both change the cart button) while the service
  // assigns visitors by its config call, then pauses; the summaries name what it assigned.
  const setStatus = async (id: string, status: string) => {
    const res = await fetch(`${stack.apiUrl}/api/experiences/${id}/status`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, "x-csrf-token": session.csrf_token },
      body: JSON.stringify({ status }),
    });
    if (!res.ok) throw new Error(`${status} answered ${res.status}: ${await res.text()}`);
  };
  const page = DEMO_PAGES.find((p) => p.domain === DEMO_DOMAIN && p.page_path.includes("/products/"))!;
  /** Visitors `${prefix}-i` the service assigned, up to `want[variation]` per variation. */
  const assign = async (experienceId: string, prefix: string, want: Record<string, number>) => {
    const got: Record<string, string[]> = Object.fromEntries(Object.keys(want).map((v) => [v, []]));
    const full = () => Object.entries(want).every(([v, n]) => got[v]!.length >= n);
    await setStatus(experienceId, "running");
    for (let start = 0; !full(); start += 20) {
      if (start >= 4 * Object.values(want).reduce((a, b) => a + b, 0)) throw new Error(`could not assign enough visitors to ${experienceId}: ${JSON.stringify(got)}`);
      await inBatches([...Array(20).keys()].map((i) => `${prefix}-${start + i}`), 10, async (visitor) => {
        const answer = await client<ConfigsResponse>("/v1/users/configs/", { user: user(visitor), current_page_path: page.page_path, current_domain: DEMO_DOMAIN });
        const variation = Object.values(answer.configs).find((c) => c.variation_id !== undefined && c.variation_id in want)?.variation_id;
        if (variation && got[variation]!.length < want[variation]!) got[variation]!.push(visitor);
      });
    }
    await setStatus(experienceId, "paused");
    return got;
  };

  const badges = await assign(NO_GOALS.id, "e2e-badge", { [NO_GOALS.control]: 10, [NO_GOALS.treatment]: 10 });
  await sendSummaries(
    Object.entries(badges).flatMap(([variation, visitors]) =>
      visitors.map((visitor) => ({ visitor, experience: NO_GOALS.id, variation, config: "cfg_e2e_cart_button", at: NOW - 3_600_000 })),
    ),
  );
  const split = await assign(SPLIT.id, "e2e-split", { [SPLIT.control]: SPLIT_VISITORS.control, [SPLIT.treatment]: SPLIT_VISITORS.treatment });
  const exposures: Exposure[] = Object.entries(split).flatMap(([variation, visitors]) =>
    visitors.map((visitor, i) => ({ visitor, experience: SPLIT.id, variation, config: "cfg_e2e_cart_button", at: NOW - (i % 3) * DAY_MS - 3_600_000 })),
  );
  await sendSummaries(exposures);
  await inBatches(
    exposures.filter((_, i) => i % 8 === 0),
    10,
    (x) => track(x.visitor, x.at, [{ type: "TRACK", name: "add_to_cart" }]),
  );
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  shopOrigin = new URL(stack.shopUrl()).origin;
  await pricingDataSet();
  await unbalancedDataSet();
  const context = await newVisitor(browser);
  await signInToDashboard(await context.newPage(), stack);
  operatorState = await context.storageState();
  await context.close();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

// ---- The screen ----

const operatorContext = () =>
  browser.newContext({ userAgent: DESKTOP_UA, viewport: { width: 1280, height: 800 }, storageState: operatorState });

/** The screen, and the results requests it sends (path and query, in order). */
async function openResults(experienceId: string, query = ""): Promise<{ context: BrowserContext; page: Page; errors: string[]; resultsRequests: string[] }> {
  const context = await operatorContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const resultsRequests: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === new URL(stack.apiUrl).origin && url.pathname.startsWith("/api/results/")) resultsRequests.push(url.pathname + url.search);
  });
  await page.goto(`${stack.apiUrl}/experiences/${experienceId}/results${query}`);
  return { context, page, errors, resultsRequests };
}

const metricSection = (page: Page, goalId: string, metric = "conversion_rate") =>
  page.locator(`[data-testid="metric-results"][data-goal-id="${goalId}"][data-metric="${metric}"]`);
const variationRow = (page: Page, goalId: string, variationId: string, metric?: string) =>
  metricSection(page, goalId, metric).locator(`[data-testid="variation-row"][data-variation-id="${variationId}"]`);
const count = async (text: Promise<string>) => Number((await text).replace(/[^\d.]/g, ""));

/** A small RFC 4180 reader for the downloaded file. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === ",") {
      row.push(cell);
      cell = "";
    } else if (!quoted && ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else {
      cell += ch;
    }
  }
  return rows;
}

describe("results screen", () => {
  it("the service answers the full results for the generated data set", async () => {
    // Guards the rest: a failure here means the service's computation, not the screen.
    const signIn = await fetch(`${stack.apiUrl}/api/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(OWNER),
    });
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const results = (await (await fetch(`${stack.apiUrl}/api/results/${PRICE.id}`, { headers: { cookie } })).json()) as ExperienceResults;
    expect(results.total_visitors).toBe(PRICE_VISITORS);
    expect(results.rules.map((r) => r.rule_id)).toEqual(["rule_price_everyone"]);
  });

  it("shows each variation's visitors and conversions, the lift as a bar, and the p-value by default", async () => {
    const { context, page, errors, resultsRequests } = await openResults(PRICE.id);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Price message: free shipping");
    // Sequential is the default, and is what the screen asks the service for (with Holm), by name
    // rather than by leaving the service to its own defaults.
    await expect(page.getByRole("radio", { name: "Sequential (always valid)" }).isChecked()).resolves.toBe(true);
    await expect.poll(() => resultsRequests, { timeout: 15_000 }).not.toEqual([]);
    for (const sent of resultsRequests) expect(sent).toBe(`/api/results/${PRICE.id}?engine=sequential&correction=holm`);

    const control = expected.get(PRICE.control)!;
    const treatment = expected.get(PRICE.treatment)!;
    // Both arms got visitors from the hash, and the planted difference is there.
    expect(control.visitors).toBeGreaterThan(150);
    expect(treatment.visitors).toBeGreaterThan(150);
    for (const [id, want] of [[PRICE.control, control], [PRICE.treatment, treatment]] as const) {
      const row = variationRow(page, "goal_add_to_cart", id);
      await expect.poll(() => count(row.getByTestId("visitors").innerText()), { timeout: 15_000 }).toBe(want.visitors);
      expect(await count(row.getByTestId("conversions").innerText())).toBe(want.carts);
      expect(await row.getByTestId("value").innerText()).toBe(`${((100 * want.carts) / want.visitors).toFixed(2)}%`);
    }
    // Revenue per visitor is money, from the capped revenue summed per variation.
    const rpv = variationRow(page, "goal_revenue", PRICE.treatment, "revenue_per_visitor");
    expect(await rpv.getByTestId("value").innerText()).toBe((treatment.revenue / treatment.visitors).toFixed(2));
    // Running: no notice that the numbers of a stopped experience can still move.
    expect(await page.getByTestId("status-notice").count()).toBe(0);

    const treatmentRow = variationRow(page, "goal_add_to_cart", PRICE.treatment);
    const bar = treatmentRow.getByTestId("lift-bar");
    expect(await bar.getAttribute("data-tone")).toBe("positive");
    expect(await bar.getAttribute("aria-label")).toMatch(/^Lift \+\d+\.\d%, 95% CI .* significant$/);
    const liftPercent = Number((await treatmentRow.getByTestId("lift-value").innerText()).replace(/[+%]/g, ""));
    const planted = 100 * ((treatment.carts / treatment.visitors) / (control.carts / control.visitors) - 1);
    expect(liftPercent).toBeCloseTo(planted, 0);
    // The control is the baseline: no bar.
    expect(await variationRow(page, "goal_add_to_cart", PRICE.control).getByTestId("lift-bar").count()).toBe(0);

    const section = metricSection(page, "goal_add_to_cart");
    expect(await section.getByRole("columnheader", { name: "p-value (Holm-adjusted)" }).count()).toBe(1);
    expect(await treatmentRow.getByTestId("certainty").innerText()).toMatch(/^< 0\.001\s*Significant$/);
    // Something is significant: the sentence under the tables says what that means.
    expect(await page.getByTestId("significance-note").innerText()).toMatch(/^Significant: the Holm-adjusted p-value is below 0\.05/);
    // The split passes, and the line says where the alarm would start.
    expect(await page.getByTestId("srm-ok").innerText()).toContain("a mismatch is flagged only below p = 0.001, a 1-in-1,000 chance");

    await page.getByTestId("results-chart").locator("path.recharts-line-curve").first().waitFor({ state: "attached" });
    await page.screenshot({ path: join(SCREENSHOTS, "results.png"), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("switching the engine changes the column, keeps the choice in the URL, and works from the keyboard", async () => {
    const { context, page, errors } = await openResults(PRICE.id);
    const section = metricSection(page, "goal_add_to_cart");
    const treatmentRow = variationRow(page, "goal_add_to_cart", PRICE.treatment);
    await treatmentRow.getByTestId("certainty").waitFor({ timeout: 15_000 });

    await page.getByRole("radio", { name: "Bayesian" }).check();
    await expect.poll(() => section.getByRole("columnheader", { name: "Chance to win" }).count()).toBe(1);
    expect(await section.getByRole("columnheader", { name: /p-value/ }).count()).toBe(0);
    // Bayesian ignores the correction: its credible intervals are not called unadjusted.
    expect(await section.getByRole("columnheader", { name: "Lift (95% credible interval)", exact: true }).count()).toBe(1);
    expect(await page.getByText("unadjusted").count()).toBe(0);
    await expect.poll(() => treatmentRow.getByTestId("certainty").innerText()).toMatch(/^(> 99\.9|99\.\d)%\s*Expected loss \d\.\d\d%\s*Significant$/);
    expect(new URL(page.url()).searchParams.get("engine")).toBe("bayesian");
    // The correction applies to p-values only.
    expect(await page.getByLabel("Correction across goals").isDisabled()).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, "results-bayesian.png") });

    // A shared link opens on the same engine.
    const shared = await context.newPage();
    await shared.goto(page.url());
    await expect.poll(() => metricSection(shared, "goal_add_to_cart").getByRole("columnheader", { name: "Chance to win" }).count(), { timeout: 15_000 }).toBe(1);
    await shared.close();

    // Arrow keys move between the engines: Bayesian → (wraps to) Sequential.
    await page.getByRole("radio", { name: "Bayesian" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => new URL(page.url()).searchParams.get("engine")).toBe("sequential");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => new URL(page.url()).searchParams.get("engine")).toBe("frequentist");
    await expect.poll(() => section.getByRole("columnheader", { name: "p-value (Holm-adjusted)" }).count()).toBe(1);
    // Significant follows the adjusted p-value, the intervals drawn are not corrected: both said.
    expect(await section.getByRole("columnheader", { name: "Lift (95% CI, uncorrected)", exact: true }).count()).toBe(1);
    expect(await page.getByTestId("significance-note").first().innerText()).toContain("intervals are not corrected");

    await page.getByLabel("Correction across goals").selectOption("none");
    await expect.poll(() => section.getByRole("columnheader", { name: "p-value", exact: true }).count()).toBe(1);
    expect(await section.getByRole("columnheader", { name: "Lift (95% CI)", exact: true }).count()).toBe(1);
    expect(await page.getByText("unadjusted").count()).toBe(0);
    expect(new URL(page.url()).searchParams.get("correction")).toBe("none");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a date range: custom days and presets narrow the visitors, and stay in the URL", async () => {
    const { context, page, errors, resultsRequests } = await openResults(PRICE.id);
    const visitors = (id: string) => count(variationRow(page, "goal_add_to_cart", id).getByTestId("visitors").innerText());
    await expect.poll(() => visitors(PRICE.control), { timeout: 15_000 }).toBe(expected.get(PRICE.control)!.visitors);
    expect(await page.getByTestId("results-range").innerText()).toBe("all time");

    // One day, two days back: only the visitors first exposed that day.
    const day = utcDay(NOW - 2 * DAY_MS - 2 * 3_600_000);
    const onDay = priceByDay.get(day)!;
    await page.getByLabel("Date range").selectOption({ label: "Custom dates" });
    await page.getByLabel("From", { exact: true }).fill(day);
    await page.getByLabel("To", { exact: true }).fill(day);
    await expect.poll(() => visitors(PRICE.control), { timeout: 15_000 }).toBe(onDay.get(PRICE.control) ?? 0);
    expect(await visitors(PRICE.treatment)).toBe(onDay.get(PRICE.treatment) ?? 0);
    expect(onDay.get(PRICE.control)! + onDay.get(PRICE.treatment)!).toBeLessThan(PRICE_VISITORS / 3);
    expect(resultsRequests).toContain(`/api/results/${PRICE.id}?engine=sequential&correction=holm&from=${day}&to=${day}`);
    const url = new URL(page.url()).searchParams;
    expect([url.get("range"), url.get("from"), url.get("to")]).toEqual(["custom", day, day]);
    // The day in the browser's date style, as the computed time beside it.
    const shown = await page.evaluate((d) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${d}T00:00:00Z`)), day);
    expect(await page.getByTestId("results-range").innerText()).toBe(shown);
    const computed = page.getByTestId("results-summary").locator("time");
    const computedDay = await page.evaluate((iso) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(new Date(iso)), (await computed.getAttribute("datetime"))!);
    expect((await computed.innerText()).startsWith(computedDay)).toBe(true);
    // The chart follows: one day, one point per line.
    await expect.poll(() => page.getByTestId("results-chart").locator(".recharts-line-dots").first().locator("circle").count()).toBe(1);

    // A link with the range opens on it.
    const shared = await context.newPage();
    await shared.goto(page.url());
    await expect.poll(() => count(variationRow(shared, "goal_add_to_cart", PRICE.control).getByTestId("visitors").innerText()), { timeout: 15_000 }).toBe(onDay.get(PRICE.control) ?? 0);
    expect(await shared.getByLabel("From", { exact: true }).inputValue()).toBe(day);
    await shared.close();

    // Last 7 days holds all six days of the data set.
    await page.getByLabel("Date range").selectOption({ label: "Last 7 days" });
    await expect.poll(() => visitors(PRICE.control), { timeout: 15_000 }).toBe(expected.get(PRICE.control)!.visitors);
    expect(await page.getByLabel("From", { exact: true }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get("range")).toBe("7d");
    expect(resultsRequests.at(-1)).toBe(`/api/results/${PRICE.id}?engine=sequential&correction=holm&from=${utcDay(Date.now() - 6 * DAY_MS)}&to=${utcDay(Date.now())}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("draws the cumulative conversion rate per variation, for the goal chosen", async () => {
    const { context, page, errors } = await openResults(PRICE.id);
    const chart = page.getByTestId("results-chart");
    await chart.waitFor({ timeout: 15_000 });
    await expect.poll(() => chart.locator("path.recharts-line-curve").count()).toBe(2);
    for (const d of await chart.locator("path.recharts-line-curve").evaluateAll((paths) => paths.map((p) => p.getAttribute("d") ?? ""))) {
      expect(d).toMatch(/^M[\d.]+,[\d.]+(L|C)/);
    }
    // Six days of exposures: six points per line.
    expect(await chart.locator(".recharts-line-dots").first().locator("circle").count()).toBe(6);
    const control = expected.get(PRICE.control)!;
    const summary = await chart.getByTestId("chart-summary").innerText();
    expect(summary).toContain(`Control ${((100 * control.carts) / control.visitors).toFixed(2)}% (${control.carts} of ${control.visitors})`);
    expect(summary).toContain("Free shipping");

    await chart.getByLabel("Goal").selectOption({ label: "Revenue" });
    await expect.poll(() => chart.getByRole("heading").innerText()).toContain("Revenue");
    await expect.poll(() => chart.getByTestId("chart-summary").innerText()).toContain(`(${control.orders} of ${control.visitors})`);

    // Nobody reached checkout (no page views in this data set): a 0 % line on a 0–1 % axis, not 0–400 %.
    await chart.getByLabel("Goal").selectOption({ label: "Reached checkout" });
    await expect.poll(() => chart.getByTestId("chart-summary").innerText()).toContain(`(0 of ${control.visitors})`);
    const yTicks = () => chart.locator(".recharts-yAxis-tick-labels text").allTextContents();
    await expect.poll(yTicks).toEqual(["0.0%", "0.5%", "1.0%"]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("exports every metric and variation as CSV", async () => {
    const { context, page } = await openResults(PRICE.id, "?engine=frequentist&correction=bh");
    await variationRow(page, "goal_add_to_cart", PRICE.treatment).waitFor({ timeout: 15_000 });
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^storefit-results-exp_price_message-frequentist-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await download.path(), "utf8").replace(/^\uFEFF/, "");
    const [header, ...rows] = parseCsv(text);
    expect(header!.slice(0, 12)).toEqual([
      "experience_id", "rule_id", "audience", "goal_id", "goal", "metric",
      "variation_id", "variation", "is_control", "visitors", "conversions", "value",
    ]);
    const records = rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])));
    // Three goals, the revenue goal with two metrics, two variations each.
    expect(records).toHaveLength(4 * 2);
    expect(new Set(records.map((r) => `${r.goal_id}/${r.metric}`))).toEqual(
      new Set(["goal_add_to_cart/conversion_rate", "goal_checkout/conversion_rate", "goal_revenue/revenue_per_visitor", "goal_revenue/average_order_value"]),
    );
    for (const id of [PRICE.control, PRICE.treatment]) {
      const want = expected.get(id)!;
      const cart = records.find((r) => r.goal_id === "goal_add_to_cart" && r.variation_id === id)!;
      expect(cart).toMatchObject({ visitors: String(want.visitors), conversions: String(want.carts), engine: "frequentist", correction: "bh" });
      const rpv = records.find((r) => r.metric === "revenue_per_visitor" && r.variation_id === id)!;
      expect(Number(rpv.revenue)).toBeCloseTo(want.revenue, 6);
    }
    const treatment = records.find((r) => r.goal_id === "goal_add_to_cart" && r.variation_id === PRICE.treatment)!;
    expect(Number(treatment.lift)).toBeGreaterThan(0);
    expect(Number(treatment.adjusted_p_value)).toBeLessThan(0.001);
    expect(treatment.significant).toBe("true");
    await context.close();
  });

  it("warns of a sample-ratio mismatch on an unbalanced split, and not on a balanced one", async () => {
    const balanced = await openResults(PRICE.id);
    await variationRow(balanced.page, "goal_add_to_cart", PRICE.control).waitFor({ timeout: 15_000 });
    expect(await balanced.page.getByTestId("srm-ok").count()).toBe(1);
    expect(await balanced.page.getByTestId("srm-warning").count()).toBe(0);
    await balanced.context.close();

    const { context, page, errors } = await openResults(SPLIT.id);
    const warning = page.getByTestId("srm-warning");
    await warning.waitFor({ timeout: 15_000 });
    expect(await warning.getAttribute("role")).toBe("alert");
    expect(await warning.innerText()).toContain("Sample ratio mismatch");
    const rows = await warning.getByTestId("srm-row").allInnerTexts();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^Blue button\s+240 \(60\.0%\)\s+200 \(50\.0%\)$/);
    expect(rows[1]).toMatch(/^Green button\s+160 \(40\.0%\)\s+200 \(50\.0%\)$/);
    expect(await page.getByTestId("srm-ok").count()).toBe(0);
    expect(await warning.innerText()).toContain("(p < 0.001)");
    expect(await warning.innerText()).toContain("less than once in 1,000 times (p < 0.001)");
    // Nothing is significant in this data set: no "Significant: …" sentence, but a line saying so.
    expect(await page.getByTestId("significance-note").innerText()).toMatch(/^Nothing is significant yet: no variation differs from the control/);
    expect(await page.getByText(/^Significant:/).count()).toBe(0);
    await page.getByTestId("results-chart").locator("path.recharts-line-curve").first().waitFor({ state: "attached" });
    await page.screenshot({ path: join(SCREENSHOTS, "results-srm.png"), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a 390 px phone: no sideways scrolling, rows as cards", async () => {
    const { context, page, errors } = await openResults(PRICE.id);
    await page.setViewportSize({ width: 390, height: 844 });
    const row = variationRow(page, "goal_add_to_cart", PRICE.treatment);
    await row.waitFor({ timeout: 15_000 });
    await page.getByTestId("results-chart").locator("path.recharts-line-curve").first().waitFor({ state: "attached" });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Each cell carries its column name on a phone.
    expect(await row.locator('td[data-label="Visitors"]').isVisible()).toBe(true);
    expect(await row.getByTestId("lift-bar").isVisible()).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, "results-390.png"), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the experiences list shows each experience's headline result", async () => {
    const context = await operatorContext();
    const page = await context.newPage();
    await page.goto(`${stack.apiUrl}/`);
    const cell = (name: string) => page.getByTestId("experience-row").filter({ hasText: name }).getByTestId("headline-result");
    await expect.poll(() => cell("Price message: free shipping").innerText(), { timeout: 15_000 }).toMatch(
      /^\+\d+\.\d%\s+Free shipping · Add to cart · p < 0\.001$/,
    );
    expect(await cell("Price message: free shipping").getAttribute("class")).toContain("headline-result--up");
    await expect.poll(() => cell("UK tax line").innerText()).toBe("No data yet");
    await context.close();
  });

  it("shows a loading state until the service answers", async () => {
    const context = await operatorContext();
    const page = await context.newPage();
    // The real request, held back until the loading state has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/results/**", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${stack.apiUrl}/experiences/${PRICE.id}/results`);
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Computing results…" }).count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId("variation-row").count()).toBe(0);
    release();
    await variationRow(page, "goal_add_to_cart", PRICE.treatment).waitFor({ timeout: 15_000 });
    expect(await page.getByText("Computing results…").count()).toBe(0);
    await context.close();
  });

  it("says what to do when an experience has visitors but no goals", async () => {
    const { context, page, errors } = await openResults(NO_GOALS.id);
    await page.getByTestId("rule-results").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("no-metrics").innerText()).toContain("No goals to measure");
    // Paused after its visitors were assigned: said, with why its numbers can still move.
    expect(await page.getByTestId("status-notice").innerText()).toBe(
      "This experience is paused: shoppers no longer see it. Conversions of visitors who saw it before still count, so these numbers can still change.",
    );
    expect(await page.getByTestId("exposure-row").count()).toBe(2);
    expect(await page.getByTestId("srm-ok").count()).toBe(1);
    expect(await page.getByRole("button", { name: "Export CSV" }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says so when nobody has seen the experience yet", async () => {
    const { context, page } = await openResults("exp_uk_tax_line");
    await expect.poll(() => page.getByText("No visitors yet").count(), { timeout: 15_000 }).toBe(1);
    // Running, and no page view has come from the shop since it was set up: said so, with what to check.
    const notice = page.getByTestId("few-visitors");
    expect(await notice.getAttribute("data-cause")).toBe("no_traffic");
    expect(await notice.innerText()).toMatch(/^No page views from the shop\s+The shop has sent no page views since .*snippet/);
    expect(await page.getByRole("button", { name: "Export CSV" }).count()).toBe(0);
    await context.close();
  });

  it("shows the service's error for an experience that does not exist", async () => {
    const { context, page } = await openResults("exp_does_not_exist");
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "Could not load the results" }).count(), { timeout: 15_000 }).toBe(1);
    await context.close();
  });
});
