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
import type { Browser, BrowserContext, Page } from "playwright-core";
import { count, createExperience, expectOnResults, launchBrowser, newVisitor, rowOf, setStatus, shoppers, signInOperator, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

let stack: Stack;
let browser: Browser;
let operatorContext: BrowserContext;
let page: Page;
/** The operator page's uncaught errors, over every journey. */
let errors: string[] = [];

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  ({ context: operatorContext, page, errors } = await signInOperator(browser, stack));
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
  await page.getByRole("link", { name: "Experiences", exact: true }).click();
  const titles: Record<string, string> = { Control: o.title };
  const url = await createExperience(page, {
    name: o.name,
    path: o.path,
    more: async () => {
      const rule = page.getByTestId("rule");
      if (o.audience) await rule.getByLabel("Audience", { exact: true }).selectOption({ label: o.audience });
      if (o.traffic) await rule.getByLabel("Traffic allocation (%)").fill(o.traffic);
      const variations = o.variations ?? [{ name: "Variation B", weight: "50" }];
      // The editor starts with a control and Variation B; more are added with "Add variation".
      for (let i = 2; i <= variations.length; i++) await rule.getByRole("button", { name: "Add variation" }).click();
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
    },
  });
  return { url, id: new URL(url).pathname.split("/").pop()!, titles };
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
    // The title as the page first showed it, read when the script has applied its answer: a
    // repeat view may show a kept answer and replace it moments later (docs/api.md "Answer cache").
    await p.addInitScript(() => {
      document.addEventListener("storefit:applied", () => {
        const w = window as unknown as { shownTitle?: string };
        w.shownTitle ??= document.querySelector("h1.product-title")?.textContent?.trim() ?? "";
      });
    });
    await p.goto(stack.shopUrl(path), { waitUntil: "domcontentloaded", timeout: 60_000 });
    await p.waitForFunction(() => !document.getElementById("storefit-hide"), undefined, { timeout: 60_000 });
    const title = await p.waitForFunction(() => (window as unknown as { shownTitle?: string }).shownTitle, undefined, { timeout: 60_000 }).then((h) => h.jsonValue() as Promise<string>);
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

/**
 * Polls the experience's Results screen until `read` (run on the freshly loaded screen) gives
 * `expected`; fails with what the screen showed.
 */
async function expectResults<T>(built: Built, read: () => Promise<T>, expected: T): Promise<void> {
  await page.goto(`${built.url}/results`);
  await expectOnResults(page, exposureTable(), read, expected);
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
    await setStatus(page, built.url, "Start", "running");

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

  it("three variations weighted 50 / 25 / 25: every arm gets shoppers, Results list all three exactly, the split check uses the weights", { timeout: 600_000 }, async () => {
    const PATH = "/products/calendula-baby-lotion";
    const built = await buildExperience({
      name: "Three ways to say it",
      path: PATH,
      title: "Calendula Baby Lotion",
      controlWeight: "50",
      variations: [
        { name: "Variation B", weight: "25" },
        { name: "Variation C", weight: "25" },
      ],
    });
    await setStatus(page, built.url, "Start", "running");

    const SHOPPERS = 24;
    const visits = await shoppers(SHOPPERS, () => freshVisit(PATH, built.id));
    const arms: Record<string, number> = { Control: 0, "Variation B": 0, "Variation C": 0 };
    for (const v of visits) {
      expect(v.exposed, "everyone is in the test").toBe(true);
      arms[armOf(built, v.title) ?? "Control"]!++;
    }
    // Every arm gets shoppers (an arm of 25 % empty after 24 shoppers: 1 in 1,000).
    for (const [arm, n] of Object.entries(arms)) expect(n, arm).toBeGreaterThan(0);

    await expectResults(built, () => exposedVisitors(Object.keys(arms)), arms);
    const targets: Record<string, string> = {};
    for (const name of Object.keys(arms)) targets[name] = (await rowOf(exposureTable(), name))["Target share"]!;
    expect(targets).toEqual({ Control: "50.0%", "Variation B": "25.0%", "Variation C": "25.0%" });
    // The check's p-value is the chi-square test of the counts against the weights (2 degrees of
    // freedom: p = exp(-x/2)); against an even split it would differ.
    const expected = [SHOPPERS * 0.5, SHOPPERS * 0.25, SHOPPERS * 0.25];
    const x = Object.values(arms).reduce((sum, n, i) => sum + (n - expected[i]!) ** 2 / expected[i]!, 0);
    const srm = await page.getByTestId("srm-ok").innerText();
    const shown = /sample-ratio check, p (?:= ([0-9.]+)|< 0\.001)/.exec(srm);
    expect(shown, srm).not.toBeNull();
    expect(Number(shown![1] ?? 0)).toBeCloseTo(Math.exp(-x / 2), 2);
    expect(errors).toEqual([]);
  });

  it("an audience built in the Audiences screen: shoppers outside it are never exposed, those inside are split and counted under its name", { timeout: 600_000 }, async () => {
    const PATH = "/products/zinc-diaper-rash-cream";
    await page.getByRole("link", { name: "Audiences" }).click();
    await page.getByRole("link", { name: "New audience" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Newsletter readers");
    await page.getByLabel("Attribute of rule 1").selectOption("utm_source");
    await page.getByLabel("Value of rule 1").fill("newsletter");
    await expect.poll(async () => JSON.parse(await page.getByTestId("condition-json").inputValue())).toEqual({ utm_source: "newsletter" });
    await page.getByRole("button", { name: "Create audience" }).click();
    await page.waitForURL(/\?audience=aud_/);

    const built = await buildExperience({ name: "Newsletter readers' title", path: PATH, title: "Zinc Diaper Rash Cream", audience: "Newsletter readers" });
    await setStatus(page, built.url, "Start", "running");

    const SHOPPERS = 18;
    // Every second shopper comes from the newsletter.
    const visits = await shoppers(SHOPPERS, (i) => freshVisit(i % 2 === 0 ? `${PATH}?utm_source=newsletter` : PATH, built.id));
    const arms: Record<string, number> = { Control: 0, "Variation B": 0 };
    visits.forEach((v, i) => {
      if (i % 2 === 1) {
        expect([v.title, v.exposed], "a shopper outside the audience").toEqual([built.titles.Control, false]);
        return;
      }
      expect(v.exposed, "a newsletter reader is in the test").toBe(true);
      arms[armOf(built, v.title) ?? "Control"]!++;
    });
    expect(arms.Control! + arms["Variation B"]!).toBe(SHOPPERS / 2);

    await expectResults(built, () => exposedVisitors(Object.keys(arms)), arms);
    expect(await page.getByRole("heading", { name: "Audience: Newsletter readers" }).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it("pause, then resume: while paused shoppers see the original page unexposed; after resume returning shoppers keep their variation and are counted once", { timeout: 600_000 }, async () => {
    const PATH = "/products/kids-sunscreen-stick-spf30";
    const built = await buildExperience({ name: "Pause and resume", path: PATH, title: "Kids Sunscreen Stick SPF 30" });
    await setStatus(page, built.url, "Start", "running");

    // Returning shoppers: one browser context each, kept across their visits.
    const RETURNING = 6;
    const people = await Promise.all(Array.from({ length: RETURNING }, () => newVisitor(browser)));
    try {
      const first = await shoppers(RETURNING, (i) => view(people[i]!, PATH, built.id));
      const arms: Record<string, number> = { Control: 0, "Variation B": 0 };
      for (const v of first) {
        expect(v.exposed).toBe(true);
        arms[armOf(built, v.title) ?? "Control"]!++;
      }

      // The snippet is served stale-while-revalidate (docs/api.md "Answer cache"): a returning
      // shopper's first view after a status change may run the copy they have, with the answer
      // kept from their last view, and reconcile behind it. Their second view has the new one.
      await setStatus(page, built.url, "Pause", "paused");
      // (In practice that first view shows each their variation again and reports its exposure:
      // the pause reaches a returning shopper one view late.)
      const stale = await shoppers(RETURNING, (i) => view(people[i]!, PATH, built.id));
      stale.forEach((v, i) => expect([first[i]!.title, built.titles.Control]).toContain(v.title));
      const paused = await shoppers(RETURNING + 3, (i) => (i < RETURNING ? view(people[i]!, PATH, built.id) : freshVisit(PATH, built.id)));
      paused.forEach((v, i) => expect([v.title, v.exposed], `shopper ${i} while paused`).toEqual([built.titles.Control, false]));

      await setStatus(page, built.url, "Resume", "running");
      await shoppers(RETURNING, (i) => view(people[i]!, PATH, built.id));
      const again = await shoppers(RETURNING, (i) => view(people[i]!, PATH, built.id));
      again.forEach((v, i) => {
        expect([v.title, v.exposed], `returning shopper ${i} after resume`).toEqual([first[i]!.title, true]);
      });
      await expectResults(built, () => exposedVisitors(Object.keys(arms)), arms);
    } finally {
      await Promise.all(people.map((c) => c.close()));
    }
    expect(errors).toEqual([]);
  });

  it("a page goal added while the test runs counts the visits made after each shopper's exposure, before the goal existed too", { timeout: 600_000 }, async () => {
    const PATH = "/products/sweet-almond-baby-massage-oil";
    const built = await buildExperience({ name: "Goal added later", path: PATH, title: "Sweet Almond Baby Massage Oil" });
    await setStatus(page, built.url, "Start", "running");

    /** A shopper who views the product page, then (if told) goes on to the cart and leaves it. */
    const toCart = async (p: Page) => {
      await p.getByRole("link", { name: /cart/i }).first().click();
      await p.waitForURL(/\/cart$/, { waitUntil: "domcontentloaded", timeout: 60_000 });
      await p.waitForFunction(() => !document.getElementById("storefit-hide"), undefined, { timeout: 60_000 });
      await p.getByRole("link", { name: "Shop", exact: true }).click();
      await p.waitForURL((u) => u.pathname === "/", { waitUntil: "domcontentloaded", timeout: 60_000 });
    };
    const arms: Record<string, [number, number]> = { Control: [0, 0], "Variation B": [0, 0] };
    const tally = (visits: Visit[]) =>
      visits.forEach((v, i) => {
        expect(v.exposed).toBe(true);
        const arm = arms[armOf(built, v.title) ?? "Control"]!;
        arm[0]++;
        if (i % 2 === 0) arm[1]++;
      });
    const SHOPPERS = 9;
    tally(await shoppers(SHOPPERS, (i) => freshVisit(PATH, built.id, i % 2 === 0 ? toCart : undefined)));

    // The goal, added to the running experience in its editor.
    await page.goto(built.url);
    await page.getByRole("button", { name: "Add goal" }).click();
    const goal = page.getByTestId("goal");
    await goal.getByLabel("Goal name").fill("Reached cart");
    await goal.getByLabel("Counts").selectOption("page_view");
    await goal.getByLabel("Goal page").fill("/cart");
    const saved = page.waitForResponse((r) => r.url().endsWith(`/api/experiences/${built.id}`) && r.request().method() === "PUT");
    await page.getByRole("button", { name: "Save changes" }).click();
    expect((await saved).status()).toBe(200);

    tally(await shoppers(SHOPPERS, (i) => freshVisit(PATH, built.id, i % 2 === 0 ? toCart : undefined)));

    const table = () => page.getByRole("table", { name: /^Reached cart: Conversion rate/ });
    await expectResults(
      built,
      async () => {
        const out: Record<string, [number, number]> = {};
        for (const name of Object.keys(arms)) {
          const row = await rowOf(table(), name);
          out[name] = [count(row.Visitors), count(row.Conversions)];
        }
        return out;
      },
      arms,
    );
    expect(errors).toEqual([]);
  });

  it("Live events, filtered to the experience and its page, show the shoppers' page views and goal events as they happen, and each one's exposure in their timeline", { timeout: 600_000 }, async () => {
    const PATH = "/products/kids-detangling-spray";
    const NAME = "Watched live";
    const built = await buildExperience({ name: NAME, path: PATH, title: "Kids Detangling Spray" });
    await setStatus(page, built.url, "Start", "running");

    await page.getByRole("link", { name: "Live events", exact: true }).click();
    await page.getByLabel("Experience", { exact: true }).selectOption({ label: NAME });
    await page.getByLabel("Page path or event name contains").fill(PATH);
    const rows = page.getByTestId("event-row");
    await expect.poll(() => page.getByTestId("events-shown").innerText()).toMatch(/match the filters|No events/);
    expect(await rows.count()).toBe(0);

    // Three shoppers, the screen left open: each views the page and adds to the cart.
    const SHOPPERS = 3;
    const addToCart = async (p: Page) => {
      await p.getByRole("button", { name: "Add to cart" }).click();
      await p.getByText("Added to your cart.").waitFor();
      await p.getByRole("link", { name: /cart/i }).first().click();
      await p.waitForURL(/\/cart$/, { waitUntil: "domcontentloaded", timeout: 60_000 });
    };
    const visits = await shoppers(SHOPPERS, () => freshVisit(PATH, built.id, addToCart));
    for (const v of visits) expect(v.exposed).toBe(true);

    // Without a reload: their page views of the page and their adds to cart.
    const labelled = (label: string) => rows.filter({ has: page.getByTestId("event-label").getByText(label, { exact: true }) });
    await expect.poll(() => labelled("Page view").count(), { timeout: 30_000 }).toBe(SHOPPERS);
    await expect.poll(() => labelled("Add to cart").count(), { timeout: 30_000 }).toBe(SHOPPERS);

    // A shopper's timeline names the variation they saw.
    await labelled("Add to cart").first().getByRole("button", { name: /^Timeline of visitor / }).click();
    const timeline = page.getByRole("region", { name: "Visitor timeline" });
    await expect.poll(() => timeline.getByTestId("timeline-item").count()).toBeGreaterThanOrEqual(3);
    const steps = (await timeline.getByTestId("timeline-item").allInnerTexts()).join("\n");
    expect(steps).toMatch(new RegExp(`Saw “${NAME}”: (Control|Variation B)`));
    const seenArm = /Saw “[^”]+”: (Control|Variation B)/.exec(steps)![1]!;
    expect(visits.map((v) => armOf(built, v.title) ?? "Control")).toContain(seenArm);
    expect(errors).toEqual([]);
  });

  it("two rules (an audience of phone shoppers, then everyone else): each rule's variations are read apart, their shares within their rule", { timeout: 600_000 }, async () => {
    const PATH = "/products/lavender-sleepy-bubble-bath";
    const TITLE = "Lavender Sleepy Bubble Bath";
    const IPHONE_UA =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
    // A new audience starts as "Device type is mobile".
    await page.getByRole("link", { name: "Audiences" }).click();
    await page.getByRole("link", { name: "New audience" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Phone shoppers");
    await expect.poll(async () => JSON.parse(await page.getByTestId("condition-json").inputValue())).toEqual({ cf_device_type: "mobile" });
    await page.getByRole("button", { name: "Create audience" }).click();
    await page.waitForURL(/\?audience=aud_/);

    await page.getByRole("link", { name: "Experiences", exact: true }).click();
    const titles = { phones: `${TITLE} · for phones`, everyone: `${TITLE} · for everyone` };
    const url = await createExperience(page, {
      name: "Phones first",
      path: PATH,
      more: async () => {
        await page.getByRole("button", { name: "Add rule" }).click();
        const rules = page.getByTestId("rule");
        await rules.nth(0).getByLabel("Audience", { exact: true }).selectOption({ label: "Phone shoppers" });
        for (const [i, text] of [titles.phones, titles.everyone].entries()) {
          const b = rules.nth(i).getByTestId("variation").nth(1);
          await b.getByRole("button", { name: /Add config/ }).click();
          await b.getByLabel("Element (CSS path)").fill("h1.product-title");
          await b.getByLabel("New text").fill(text);
        }
      },
    });
    const built: Built = { url, id: new URL(url).pathname.split("/").pop()!, titles: { Control: TITLE } };
    await setStatus(page, built.url, "Start", "running");

    // Every third shopper on a phone.
    const SHOPPERS = 12;
    const visits = await shoppers(SHOPPERS, async (i) => {
      const phone = i % 3 === 0;
      const context = phone
        ? await browser.newContext({ userAgent: IPHONE_UA, viewport: { width: 390, height: 844 } })
        : await newVisitor(browser);
      try {
        return { phone, ...(await view(context, PATH, built.id)) };
      } finally {
        await context.close();
      }
    });
    const arms = { "Phone shoppers": { Control: 0, "Variation B": 0 }, Everyone: { Control: 0, "Variation B": 0 } };
    for (const v of visits) {
      expect(v.exposed).toBe(true);
      const rule = v.phone ? arms["Phone shoppers"] : arms.Everyone;
      expect([TITLE, v.phone ? titles.phones : titles.everyone]).toContain(v.title);
      rule[v.title === TITLE ? "Control" : "Variation B"]++;
    }

    // The exposures table tells the rules apart, and a variation's share is of its rule's visitors
    // (the share its weight aims at is within the rule too).
    const percent = (n: number, of: number) => `${((n / of) * 100).toFixed(1)}%`;
    const expected: string[][] = [];
    for (const [audience, a] of Object.entries(arms)) {
      const total = a.Control + a["Variation B"];
      for (const [name, n] of Object.entries(a)) expected.push([audience, name, String(n), percent(n, total), "50.0%"]);
    }
    await expectResults(
      built,
      async () => (await exposureTable().getByTestId("exposure-row").all()).length === 4
        ? Promise.all((await exposureTable().getByTestId("exposure-row").all()).map(async (r) => (await r.locator("th, td").allInnerTexts()).map((t) => t.trim())))
        : [],
      expected,
    );
    for (const audience of Object.keys(arms)) expect(await page.getByRole("heading", { name: `Audience: ${audience}` }).count()).toBe(1);
    expect(await page.getByTestId("srm-ok").count()).toBe(2);
    expect(errors).toEqual([]);
  });

  it("weights changed while the test runs: returning shoppers keep their variation, Results count everyone once, the split check passes", { timeout: 600_000 }, async () => {
    const PATH = "/products/cradle-cap-foam-shampoo";
    const built = await buildExperience({ name: "Weights moved", path: PATH, title: "Cradle Cap Foam Shampoo" });
    await setStatus(page, built.url, "Start", "running");

    const RETURNING = 4;
    const people = await Promise.all(Array.from({ length: RETURNING }, () => newVisitor(browser)));
    try {
      const arms: Record<string, number> = { Control: 0, "Variation B": 0 };
      const first = await shoppers(RETURNING, (i) => view(people[i]!, PATH, built.id));
      for (const v of first) arms[armOf(built, v.title) ?? "Control"]!++;

      // 80 / 20 from now on, saved in the editor of the running experience.
      await page.goto(built.url);
      const boxes = page.getByTestId("rule").getByTestId("variation");
      await boxes.nth(0).getByLabel("Weight").fill("80");
      await boxes.nth(1).getByLabel("Weight").fill("20");
      const saved = page.waitForResponse((r) => r.url().endsWith(`/api/experiences/${built.id}`) && r.request().method() === "PUT");
      await page.getByRole("button", { name: "Save changes" }).click();
      expect((await saved).status()).toBe(200);

      // Returning shoppers (twice: the first view may run the snippet they have) and new ones.
      await shoppers(RETURNING, (i) => view(people[i]!, PATH, built.id));
      const again = await shoppers(RETURNING, (i) => view(people[i]!, PATH, built.id));
      again.forEach((v, i) => expect([v.title, v.exposed], `returning shopper ${i}`).toEqual([first[i]!.title, true]));
      const fresh = await shoppers(8, () => freshVisit(PATH, built.id));
      for (const v of fresh) {
        expect(v.exposed).toBe(true);
        arms[armOf(built, v.title) ?? "Control"]!++;
      }
      await expectResults(built, () => exposedVisitors(Object.keys(arms)), arms);
      expect(await page.getByTestId("srm-ok").count(), await page.locator("main").innerText()).toBe(1);
    } finally {
      await Promise.all(people.map((c) => c.close()));
    }
    expect(errors).toEqual([]);
  });
});
