// Changing a mutually exclusive group's shares mid-test, in the dashboard (docs/dashboard.md
// "Mutually exclusive groups"): two running members, K1 (0–30 %, after its share was made
// smaller) and K2 (50–100 %). Growing K2 to 70 % takes 30–50 %, which K1's shoppers may hold: the
// editor says so before saving and offers to keep K2's slice; saved anyway, K2 grows around its
// own slice. Shrinking it says which of its shoppers it gives up.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser, signInToDashboard, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const ACCOUNT_ID = "acc_littlesprouts";
const K1 = "K1 sanitizer A";
const K2 = "K2 sanitizer B";
const SHARE = "Share of the group's visitors (%)";

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe("a group's shares changed while its members run", () => {
  it("warns before a member takes space that may hold another's shoppers, and keeps its slice on request", async () => {
    // Two running copies of a demo experience, members of "sanitizer".
    const {
      created_at: _c,
      updated_at: _u,
      ...base
    } = stack.store.getExperience(ACCOUNT_ID, "exp_uk_tax_line")!;
    await stack.store.saveExperience({
      ...base,
      id: "exp_k1",
      name: K1,
      status: "running",
      exclusion_group: { name: "sanitizer", start: 0, end: 0.3 },
    });
    await stack.store.saveExperience({
      ...base,
      id: "exp_k2",
      name: K2,
      status: "running",
      exclusion_group: { name: "sanitizer", start: 0.5, end: 1 },
    });

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await signInToDashboard(page, stack);
    await page.goto(`${stack.apiUrl}/experiences/exp_k2`);
    const section = page.getByRole("region", { name: "Mutually exclusive group" });
    const occupancy = section.getByTestId("group-occupancy");
    await expect
      .poll(() => occupancy.innerText(), { timeout: 10_000 })
      .toContain("This experience: 50 %, from 50 % to 100 %");
    const taken = section.getByTestId("group-taken");
    expect(await taken.count()).toBe(0);

    // 70 %: it grows around its own slice, into 30–50 %, and the editor says what that may cost.
    await section.getByLabel(SHARE).fill("70");
    await expect
      .poll(() => occupancy.innerText())
      .toContain("This experience: 70 %, from 30 % to 100 %");
    await expect
      .poll(() => taken.innerText())
      .toContain("30 %–50 % of this group is free now but not this experience's.");
    expect(await taken.innerText()).toContain(
      `If another member held it before (perhaps “${K1}”, if its share was made smaller or it stopped), those shoppers will switch to this experience and count in both experiences' results.`,
    );

    // Keep its current slice: the share and place as saved, and no warning.
    await taken
      .getByRole("button", { name: "Keep its current slice (50 %, from 50 % to 100 %)" })
      .click();
    expect(await section.getByLabel(SHARE).inputValue()).toBe("50");
    await expect.poll(() => taken.count()).toBe(0);
    expect(await occupancy.innerText()).toContain("This experience: 50 %, from 50 % to 100 %");

    // The operator may still decide to grow it: saved where the editor showed it.
    await section.getByLabel(SHARE).fill("70");
    await expect.poll(() => taken.count()).toBe(1);
    const saved = page.waitForResponse(
      (r) => r.url().endsWith("/api/experiences/exp_k2") && r.request().method() === "PUT",
    );
    await page.getByRole("button", { name: "Save changes" }).click();
    expect((await saved).status()).toBe(200);
    expect(stack.store.getExperience(ACCOUNT_ID, "exp_k2")!.exclusion_group).toEqual({
      name: "sanitizer",
      start: 0.3,
      end: 1,
    });
    // Saved, the slice is its own: no warning left.
    await expect.poll(() => taken.count()).toBe(0);

    // Smaller: it keeps its start and says which of its shoppers leave it.
    await section.getByLabel(SHARE).fill("40");
    await expect
      .poll(() => occupancy.innerText())
      .toContain("This experience: 40 %, from 30 % to 70 %");
    await expect
      .poll(() => section.getByTestId("group-released").innerText())
      .toContain(
        "70 %–100 % of this group held this experience's shoppers: they will no longer see it.",
      );
    expect(await taken.count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
