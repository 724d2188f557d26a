// GET /api/results/{id} reuses a computed answer while nothing it depends on changed
// (results/cache.ts, docs/results.md "Cache"): a new event, exposure, experience edit, audience
// change or another query computes afresh.
import { describe, expect, it, vi } from "vitest";
import type { ExperienceResults } from "@storefit/contract";
import { ResultsCache } from "../src/results/cache.js";
import { userIdFor } from "../src/routes/client.js";
import type { NewExperience } from "../src/store/types.js";
import { call, FIXED_NOW, signedInEachTest, insertEvents, insertExposures } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;
signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

const NOW_ISO = new Date(FIXED_NOW).toISOString();

function experience(name = "Cache test"): NewExperience {
  return {
    id: "exp_c",
    account_id: t.account.id,
    name,
    status: "running",
    kind: "ab_test",
    priority: 1,
    pages: [{ domain: "littlesprouts.localhost", page_path: "/", page_match: "exact_match" }],
    goals: [{ id: "g_cart", name: "Add to cart", kind: "track", event_name: "add_to_cart" }],
    rules: [
      {
        id: "rule_c",
        audience_id: null,
        audience_name: "Everyone",
        behaviour: {
          id: "beh_c",
          name: "B",
          traffic_allocation: 1,
          variations: ["v_a", "v_b"].map((id) => ({ id, name: id, weight: 1, configs: [] })),
        },
      },
    ],
  };
}

function exposure(ucid: string, variation_id: string) {
  insertExposures(t.store, 
    t.account.id,
    [{ config_id: "cfg", user_customer_id: ucid, user_id: userIdFor(t.account.id, ucid), requested_time: FIXED_NOW, variation_id, experience_id: "exp_c", session_id: "s", probability: 0.5 }],
    NOW_ISO,
  );
}

function event(ucid: string, n: number) {
  insertEvents(t.store, 
    t.account.id,
    userIdFor(t.account.id, ucid),
    [{ event_type: "TRACK", name: "add_to_cart", event_customer_id: "littlesprouts.localhost|add_to_cart", domain: "littlesprouts.localhost", insert_id: `ev${n}`, event_timestamp: FIXED_NOW + n, properties: {} }],
    NOW_ISO,
  );
}

async function results(query = ""): Promise<ExperienceResults> {
  const res = await call(t.app, owner, "GET", `/api/results/exp_c${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ExperienceResults;
}

const conversions = (r: ExperienceResults) => r.rules[0]!.metrics[0]!.variations.map((v) => v.conversions);

describe("the results cache", () => {
  it("an unchanged second call does not aggregate again; new data, an edit or another query does", async () => {
    t.store.saveExperience(experience());
    exposure("a", "v_a");
    exposure("b", "v_b");
    event("a", 1);
    // Without a date range the route folds the results state (results/incremental.ts).
    const aggregate = vi.spyOn(t.store, "foldResults");

    const first = await results();
    expect(await results()).toEqual(first);
    expect(aggregate).toHaveBeenCalledTimes(1);
    expect(conversions(first)).toEqual([1, 0]);

    await results("?engine=bayesian"); // another query
    expect(aggregate).toHaveBeenCalledTimes(2);
    await results("?engine=bayesian");
    expect(aggregate).toHaveBeenCalledTimes(2);

    event("b", 2); // a new event
    expect(conversions(await results())).toEqual([1, 1]);
    expect(aggregate).toHaveBeenCalledTimes(3);

    exposure("c", "v_a"); // a new exposure
    expect((await results()).total_visitors).toBe(3);
    expect(aggregate).toHaveBeenCalledTimes(4);

    t.store.saveExperience(experience("Renamed")); // an experience edit (same goals: the numbers alike)
    await results();
    expect(aggregate).toHaveBeenCalledTimes(5);

    const audience = t.store.saveAudience({ id: "aud_c", account_id: t.account.id, name: "Anyone", description: "", condition: { all: [] } as never });
    t.store.saveAudience({ ...audience, account_id: t.account.id, name: "Renamed" }); // any audience write: the rules' labels may change
    await results();
    expect(aggregate).toHaveBeenCalledTimes(6);
    await results();
    expect(aggregate).toHaveBeenCalledTimes(6);
  });

  it("is bounded: the least recently used answer goes first", () => {
    const cache = new ResultsCache(2);
    const answer = (id: string) => ({ experience_id: id }) as ExperienceResults;
    cache.set("a", answer("a"));
    cache.set("b", answer("b"));
    expect(cache.get("a")?.experience_id).toBe("a"); // a is now the most recent
    cache.set("c", answer("c"));
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")?.experience_id).toBe("a");
    expect(cache.get("c")?.experience_id).toBe("c");
  });
});
