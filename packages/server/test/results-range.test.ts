// GET /api/results/{id}?from=&to= against real SQLite (docs/results.md "Date range"): visitors
// count when their first exposure falls in the range, their conversions when they happen before
// its end; the visitor counts above the metrics are those same visitors; bad ranges are 400 JSON.
import { describe, expect, it, vi } from "vitest";
import type { ExperienceResults, GoalDefinition, TrackedEvent } from "@storefit/contract";
import { userIdFor } from "../src/routes/client.js";
import type { NewExperience } from "../src/store/types.js";
import { call, FIXED_NOW, signedInEachTest, insertEvents, insertExposures } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

// Each test starts a fresh app and signs in (scrypt, slow on purpose): on a loaded shared machine
// that set-up alone can pass vitest's default 10 s.
vi.setConfig({ hookTimeout: 60_000 });

let t: TestApp;
let owner: Auth;

signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

const NOW_ISO = new Date(FIXED_NOW).toISOString();
const GOALS: GoalDefinition[] = [{ id: "g_cart", name: "Add to cart", kind: "track", event_name: "add_to_cart" }];
/** Noon (UTC) of a November 2026 day, plus some minutes. */
const nov = (day: number, minutes = 0) => Date.UTC(2026, 10, day, 12, minutes);

function experience(): NewExperience {
  return {
    id: "exp_range",
    account_id: t.account.id,
    name: "Range test",
    status: "running",
    kind: "ab_test",
    priority: 1,
    pages: [{ domain: "littlesprouts.localhost", page_path: "/", page_match: "exact_match" }],
    goals: GOALS,
    rules: [
      {
        id: "rule_r",
        audience_id: null,
        audience_name: "Everyone",
        behaviour: {
          id: "beh_r",
          name: "B",
          traffic_allocation: 1,
          variations: ["v_a", "v_b"].map((id) => ({ id, name: id.toUpperCase(), weight: 1, configs: [] })),
        },
      },
    ],
  } as NewExperience;
}

let seq = 0;
function expose(ucid: string, variation: string, at: number) {
  insertExposures(t.store, 
    t.account.id,
    [{ config_id: "cfg_r", user_customer_id: ucid, user_id: userIdFor(t.account.id, ucid), requested_time: at, variation_id: variation, experience_id: "exp_range", rule_id: "rule_r", session_id: "s1", probability: 0.5 }],
    NOW_ISO,
  );
}
function addToCart(ucid: string, at: number) {
  const event: TrackedEvent = {
    event_type: "TRACK",
    name: "add_to_cart",
    event_customer_id: "littlesprouts.localhost|add_to_cart",
    domain: "littlesprouts.localhost",
    insert_id: `ev_${seq++}`,
    event_timestamp: at,
    properties: { page_path: "/" },
  };
  insertEvents(t.store, t.account.id, userIdFor(t.account.id, ucid), [event], NOW_ISO);
}

async function results(query: string): Promise<ExperienceResults> {
  const res = await call(t.app, owner, "GET", `/api/results/exp_range${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ExperienceResults;
}

/** Per variation of the one rule: [visitors, conversions] of the add-to-cart goal. */
const counts = (r: ExperienceResults) => r.rules[0]!.metrics[0]!.variations.map((v) => [v.visitors, v.conversions]);

describe("a date range", () => {
  it("counts visitors first exposed in it and their conversions before its end", async () => {
    t.store.saveExperience(experience());
    expose("early", "v_a", nov(1)); // before the range
    addToCart("early", nov(3));
    expose("a_in", "v_a", nov(3)); // in; converts after the range's end
    addToCart("a_in", nov(5));
    expose("b_in", "v_b", nov(3, 30)); // in; converts in it
    addToCart("b_in", nov(4, 600)); // Nov 4, 22:00 UTC: the last day is included
    expose("b_late", "v_b", nov(6)); // after the range
    addToCart("b_late", nov(6, 5));
    expose("returning", "v_b", nov(2)); // first exposed before; seen again in the range
    expose("returning", "v_b", nov(4));

    const all = await results("");
    expect(counts(all)).toEqual([[2, 2], [3, 2]]);
    expect(all.range).toEqual({ from: null, to: null });

    const range = await results("?from=2026-11-03&to=2026-11-04");
    expect(range.range).toEqual({ from: "2026-11-03", to: "2026-11-04" });
    expect(counts(range)).toEqual([[1, 0], [1, 1]]);
    // The daily series covers the visitors in the range only.
    expect(range.rules[0]!.daily.map((d) => d.date)).toEqual(["2026-11-03", "2026-11-04"]);
    expect(range.rules[0]!.daily[0]!.variations.map((v) => v.visitors)).toEqual([1, 1]);
    // The sample-ratio check sees the same visitors.
    expect(range.rules[0]!.srm.observed).toEqual([1, 1]);
    // The summary line and the Exposures table count the same visitors as the metrics: a_in and
    // b_in, not the returning visitor first exposed before the range (seen again inside it).
    expect(range.total_visitors).toBe(2);
    expect(range.variations.map((v) => [v.variation_id, v.visitors])).toEqual([["v_a", 1], ["v_b", 1]]);

    // One bound only.
    expect(counts(await results("?from=2026-11-03"))).toEqual([[1, 1], [2, 2]]);
    // "early" converted on Nov 3, after this range.
    expect(counts(await results("?to=2026-11-02"))).toEqual([[1, 0], [1, 0]]);
    // A single day.
    expect(counts(await results("?from=2026-11-06&to=2026-11-06"))).toEqual([[0, 0], [1, 1]]);
  });

  it("refuses a range that is not one, with 400 JSON", async () => {
    t.store.saveExperience(experience());
    for (const q of ["from=2026-02-30", "to=2026-13-01", "from=11/03/2026", "from=2026-11-3", "to=", "from=2026-11-05&to=2026-11-04"]) {
      const res = await call(t.app, owner, "GET", `/api/results/exp_range?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toMatchObject({ error: { code: "invalid_body" } });
    }
  });
});
