// The visual editor of an experience whose variations are named `__proto__` and `toString`
// (stored before the service refused such ids, docs/api.md): the page was blank. In the browser,
// with the real service and shop: each variation is shown in the frame, the switcher moves between
// them, and an edit marks only its own variation unsaved.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import type { ConfigDefinition } from "@storefit/contract";
import { DEMO_DOMAIN, DEMO_PAGES } from "../packages/server/src/seed/demo-pages.js";
import type { NewExperience } from "../packages/server/src/store/types.js";
import { DESKTOP_UA, eventually, launchBrowser, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

let stack: Stack;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});
afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

const product = DEMO_PAGES.find((p) => p.domain === DEMO_DOMAIN && p.element_hint === "price")!;

function priceConfig(innerHTML: string): ConfigDefinition {
  return {
    config_customer_id: "proto_price",
    config_id: "cfg_proto_price",
    variation_data_type: "HTML_ELEMENT",
    variation: { innerHTML },
    properties: { page_path: product.page_path, page_match: "exact_match", element_path: "#product-price", domain: DEMO_DOMAIN },
  };
}

async function editorFrame(page: Page): Promise<Frame> {
  await page.getByRole("button", { name: "Select", exact: true }).and(page.locator(":enabled")).waitFor({ timeout: 20_000 });
  return eventually(() => page.frame({ name: "storefit-editor" }) ?? undefined, 5_000, "the editor frame");
}

describe("visual editor with variations __proto__ and toString", () => {
  it("shows each one, switches between them, and an edit is unsaved in its own variation only", async () => {
    // Straight into the store: the admin API refuses these ids now.
    const experience: NewExperience = {
      id: "exp_proto_ids",
      account_id: "acc_littlesprouts",
      name: "Proto ids",
      status: "draft",
      kind: "ab_test",
      priority: 500,
      pages: [{ domain: DEMO_DOMAIN, page_path: product.page_path, page_match: "exact_match" }],
      rules: [
        {
          id: "rule_proto",
          audience_id: null,
          behaviour: {
            id: "beh_proto",
            name: "Proto ids",
            traffic_allocation: 1,
            variations: [
              { id: "__proto__", name: "Proto", weight: 1, configs: [priceConfig("Proto price")] },
              { id: "toString", name: "ToString", weight: 1, configs: [priceConfig("ToString price")] },
            ],
          },
        },
      ],
      goals: [],
      exclusion_group: null,
    };
    stack.store.saveExperience(experience);

    context = await browser.newContext({ userAgent: DESKTOP_UA, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await signInToDashboard(page, stack);
    const query = new URLSearchParams({ variation: "__proto__", page: stack.shopUrl(product.page_path) });
    await page.goto(`${stack.apiUrl}/experiences/${experience.id}/visual?${query}`);
    const frame = await editorFrame(page);
    const price = () => frame.locator("#product-price").innerText();
    await expect.poll(price).toBe("Proto price");

    const switcher = page.getByLabel("Variation", { exact: true });
    await switcher.selectOption("toString");
    await expect.poll(price).toBe("ToString price");
    expect(new URL(page.url()).searchParams.get("variation")).toBe("toString");
    await switcher.selectOption("__proto__");
    await expect.poll(price).toBe("Proto price");
    expect(new URL(page.url()).searchParams.get("variation")).toBe("__proto__");

    // An edit of the price in __proto__: shown in the frame, undoable, unsaved there only.
    await page.getByLabel("CSS path", { exact: true }).fill("#product-price");
    await page.getByRole("button", { name: "Select", exact: true }).click();
    const textField = page.getByLabel("Text", { exact: true });
    await textField.fill("Edited proto price");
    await expect.poll(price).toBe("Edited proto price");
    await expect.poll(() => page.getByRole("button", { name: "Undo", exact: true }).isEnabled()).toBe(true);
    const labels = () => switcher.locator("option").allInnerTexts();
    await expect.poll(labels).toEqual(["Proto (unsaved)", "ToString"]);
    await switcher.selectOption("toString");
    await expect.poll(price).toBe("ToString price");
    await expect.poll(() => page.getByRole("button", { name: "Undo", exact: true }).isEnabled()).toBe(false);
    await expect.poll(labels).toEqual(["Proto (unsaved)", "ToString"]);
    await switcher.selectOption("__proto__");
    await expect.poll(price).toBe("Edited proto price");
    expect(errors).toEqual([]);
  });
});
