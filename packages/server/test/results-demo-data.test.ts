// The demo account's simulated history (issue #7 part 4, `npm run demo-data`): written through
// the Store into real SQLite, refused a second time, and the results engine recovers the planted
// lift within its interval.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperienceResults } from "@storefit/contract";
import { DEMO_HISTORY_DAYS, DEMO_PRICE_MESSAGE_ARMS, demoSimulations, fillDemoHistory, simulateVisitors, utcMidnight } from "../src/seed/demo-data.js";
import { FIXED_NOW, call, makeApp, signIn } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;
let filled: Awaited<ReturnType<typeof fillDemoHistory>>;

// One fill for the whole file: ~40,000 visitors take a while on a shared machine.
beforeAll(async () => {
  t = await makeApp();
  owner = await signIn(t.app);
  filled = await fillDemoHistory(t.store, FIXED_NOW);
}, 180_000);
afterAll(async () => {
  await t.close();
});

async function results(id: string, query = ""): Promise<ExperienceResults> {
  const res = await call(t.app, owner, "GET", `/api/results/${id}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ExperienceResults;
}

const [control, freeShipping] = DEMO_PRICE_MESSAGE_ARMS;
const planted = (goal: string) => freeShipping!.rates[goal]! / control!.rates[goal]! - 1;

describe("demo data", () => {
  it("fills every running demo experience with 14 days of history", () => {
    expect(filled).toMatchObject({ filled: true, experiences: ["exp_price_message", "exp_uk_tax_line", "exp_welcome_popup", "exp_gallery_device"] });
    expect(filled.visitors).toBeGreaterThan(30_000);
    expect(filled.exposures).toBe(filled.visitors);
    expect(t.store.countEvents(t.account.id)).toBe(filled.events);
  });

  it("refuses to fill twice: nothing more is written", async () => {
    const events = t.store.countEvents(t.account.id);
    const exposures = t.store.countRows("exposures", t.account.id);
    expect(await fillDemoHistory(t.store, FIXED_NOW + 3 * 86_400_000)).toMatchObject({ filled: false });
    expect(t.store.countEvents(t.account.id)).toBe(events);
    expect(t.store.countRows("exposures", t.account.id)).toBe(exposures);
  });

  it("the engine recovers the planted +12 % add-to-cart lift within its interval, for every engine", async () => {
    expect(planted("goal_add_to_cart")).toBeCloseTo(0.12, 12);
    for (const engine of ["sequential", "frequentist", "bayesian"]) {
      const r = await results("exp_price_message", `?engine=${engine}`);
      const rule = r.rules[0]!;
      expect(rule.srm.mismatch).toBe(false);
      for (const goal of ["goal_add_to_cart", "goal_checkout"]) {
        const c = rule.metrics.find((m) => m.goal_id === goal)!.variations[1]!.comparison!;
        expect(c.ci[0], `${engine} ${goal}`).toBeLessThan(planted(goal));
        expect(c.ci[1], `${engine} ${goal}`).toBeGreaterThan(planted(goal));
      }
    }
    // The fixed-horizon test on 28,000 visitors finds the add-to-cart lift.
    const fixed = (await results("exp_price_message", "?engine=frequentist")).rules[0]!.metrics[0]!;
    expect(fixed.cuped).toBe(true);
    expect(fixed.variations[1]!.comparison!.ci[0]).toBeGreaterThan(0);
  });

  it("shows the 14 days in the daily series, and counts for the one-variation personalizations", async () => {
    const r = await results("exp_price_message");
    const days = r.rules[0]!.daily;
    expect(days).toHaveLength(DEMO_HISTORY_DAYS);
    expect(days[DEMO_HISTORY_DAYS - 1]!.date).toBe(new Date(utcMidnight(FIXED_NOW) - 86_400_000).toISOString().slice(0, 10));
    expect(days.reduce((s, d) => s + d.variations.reduce((x, v) => x + v.visitors, 0), 0)).toBe(r.total_visitors);
    const uk = await results("exp_uk_tax_line");
    expect(uk.total_visitors).toBeGreaterThan(1000);
    const revenue = uk.rules[0]!.metrics.find((m) => m.metric === "revenue_per_visitor")!;
    expect(revenue.variations).toHaveLength(1);
    expect(revenue.variations[0]!.revenue).toBeGreaterThan(0);
    expect(revenue.variations[0]!.comparison).toBeNull();
  });

  // README's Quick start tells a new user what the demo's A/B test shows on its Results screen;
  // the numbers are read from the README and checked against the answer the screen asks for
  // (its defaults: sequential engine, Holm correction). Which sentence the screen prints for a
  // rule with no significant comparison is the dashboard's ruleSignificanceSentence (its tests).
  it("README's demo results sentence is what the Results screen gets", async () => {
    const readme = readFileSync(join(import.meta.dirname, "../../../README.md"), "utf8").replace(/\s+/g, " ");
    const said = /\*\*Results\*\* on about ([\d,]+) visitors split 50\/50 \(the sample-ratio check passes\), with add-to-cart up about (\d+) % .* \(p ≈ ([\d.]+), its 95 % interval still reaches below zero\): "Nothing is significant yet"/.exec(readme);
    expect(said, "README: the demo A/B test's results sentence").not.toBeNull();
    const [visitors, lift, p] = [Number(said![1]!.replace(/,/g, "")), Number(said![2]), Number(said![3])];

    const r = await results("exp_price_message", "?engine=sequential&correction=holm");
    const rule = r.rules[0]!;
    // "about 27,000": the nearest thousand.
    expect(Math.round(r.total_visitors / 1000) * 1000).toBe(visitors);
    expect(rule.srm.mismatch).toBe(false);
    const cart = rule.metrics.find((m) => m.goal_id === "goal_add_to_cart")!;
    for (const v of cart.variations) expect(Math.abs(v.visitors / r.total_visitors - 0.5)).toBeLessThan(0.01);
    const c = cart.variations[1]!.comparison!;
    expect(Math.round(100 * c.effect)).toBe(lift);
    // The screen's p-value column is the adjusted one.
    expect(Number(c.adjusted_p_value!.toFixed(1))).toBe(p);
    expect(c.ci[0]).toBeLessThan(0);
    expect(rule.metrics.flatMap((m) => m.variations).some((v) => v.comparison?.significant)).toBe(false);
  });

  it("the simulation is a pure function of its seed", () => {
    const spec = demoSimulations(t.store.listRunningExperiences(t.account.id), utcMidnight(FIXED_NOW))[0]!;
    const take = (n: number) => {
      const out = [];
      for (const v of simulateVisitors(spec)) {
        out.push(v);
        if (out.length === n) break;
      }
      return out;
    };
    expect(take(50)).toEqual(take(50));
    expect(take(50).map((v) => v.exposure.variation_id)).not.toEqual(take(50).map(() => "var_price_control"));
  });
});
