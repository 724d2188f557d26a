// A date range's statement picks each page goal's paths among all the account's stored page
// paths (docs/results.md "The SQL"). Anyone with the client key can store page views of made-up
// paths, and a goal's accepted pattern may cost milliseconds a path: each path's answer is
// remembered per goal set (results/incremental.ts GoalMatcher), so a second ranged call tests no
// stored path again, and its numbers are the same.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ExperienceResults, GoalDefinition, TrackedEvent } from "@storefit/contract";
import { userIdFor } from "../src/routes/client.js";
import type { NewExperience } from "../src/store/types.js";
import { call, FIXED_NOW, insertEvents, insertExposures, signedInEachTest } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

vi.setConfig({ hookTimeout: 60_000 });

let t: TestApp;
let owner: Auth;
signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});
afterEach(() => vi.restoreAllMocks());

const NOW_ISO = new Date(FIXED_NOW).toISOString();
const GOALS: GoalDefinition[] = [{ id: "g_thanks", name: "Thank-you page", kind: "page_view", page: { page_path: ".*thank-you.*", page_match: "regex" } }];
const DAY = Date.UTC(2026, 10, 3, 12);

function page(path: string, at: number, id: string): TrackedEvent {
  return { event_type: "PAGE", name: path, event_customer_id: `littlesprouts.localhost|${path}`, domain: "littlesprouts.localhost", insert_id: id, event_timestamp: at, properties: { page_path: path } };
}

describe("a date range's goal paths", () => {
  it("are tested against a goal's pattern once per stored path, not again on the next call, with the same numbers", async () => {
    t.store.saveExperience({
      id: "exp_memo",
      account_id: t.account.id,
      name: "Memo",
      status: "running",
      kind: "ab_test",
      priority: 1,
      pages: [{ domain: "littlesprouts.localhost", page_path: "/", page_match: "exact_match" }],
      goals: GOALS,
      rules: [{ id: "rule_m", audience_id: null, behaviour: { id: "beh_m", name: "B", traffic_allocation: 1, variations: ["v_a", "v_b"].map((id) => ({ id, name: id, weight: 1, configs: [] })) } }],
    } as NewExperience);
    for (const [i, v] of ["v_a", "v_b"].entries()) {
      const ucid = `shopper-${i}`;
      insertExposures(t.store, t.account.id, [{ config_id: "cfg_m", user_customer_id: ucid, user_id: userIdFor(t.account.id, ucid), requested_time: DAY, variation_id: v, experience_id: "exp_memo", rule_id: "rule_m", session_id: "s" }], NOW_ISO);
      if (i === 0) insertEvents(t.store, t.account.id, userIdFor(t.account.id, ucid), [page("/checkout/thank-you", DAY + 1000, "thanks")], NOW_ISO);
    }
    // 300 made-up paths another client stored.
    insertEvents(t.store, t.account.id, "u_noise", Array.from({ length: 300 }, (_, i) => page(`/noise/${i}/${"x".repeat(200)}`, DAY, `n${i}`)), NOW_ISO);

    const ranged = async (): Promise<ExperienceResults> => {
      const res = await call(t.app, owner, "GET", "/api/results/exp_memo?from=2026-11-01&to=2026-11-30");
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ExperienceResults;
    };
    const conversions = (r: ExperienceResults) => r.rules[0]!.metrics[0]!.variations.map((v) => v.conversions);
    const first = await ranged();
    expect(conversions(first)).toEqual([1, 0]);

    // A new event changes the results' version, so the next call is computed again.
    insertEvents(t.store, t.account.id, "u_noise", [page("/noise/again", DAY, "n-again")], NOW_ISO);
    const tests = vi.spyOn(RegExp.prototype, "test");
    const second = await ranged();
    const goalTests = tests.mock.contexts.filter((re) => (re as RegExp).source === ".*thank-you.*").length;
    expect(conversions(second)).toEqual([1, 0]);
    // Only the one new path (twice at most: as path, and with its query), not the 300 before.
    expect(goalTests).toBeLessThan(10);
  }, 60_000);
});
