// A results call never hangs on another request's build of the same state (results/build.ts):
// when a claim stays fresh past stateBuild.claimWaitMs (its builder died a moment ago, or is slow),
// the call answers 503 busy with Retry-After, which the dashboard asks again on; once the claim is
// gone it answers the results.
import { afterEach, describe, expect, it } from "vitest";
import { ResultsBuildBusy, stateBuild } from "../src/results/build.js";
import { isStoreBusy } from "../src/store/errors.js";
import { goalsKey } from "../src/results/incremental.js";
import { call, signedInEachTest } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;
signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

const defaultWait = stateBuild.claimWaitMs;
afterEach(() => {
  stateBuild.claimWaitMs = defaultWait;
});

/** Another node's build of the experience's state, its claim written just now: fresh for CLAIM_STALE_MS. */
function claimByAnotherNode(exp: { id: string; goals: Parameters<typeof goalsKey>[0] }): void {
  t.store.sqlite.db
    .prepare("INSERT OR REPLACE INTO results_state (account_id, experience_id, goals, event_seq, exposure_seq, totals) VALUES (?, ?, ?, -1, -1, ?)")
    .run(t.account.id, exp.id, goalsKey(exp.goals), JSON.stringify({ building: "another-node", at: Date.now() }));
}

describe("a results call waiting for another's build", () => {
  it("answers 503 busy with Retry-After once the wait is over, and the results once the claim is gone", async () => {
    stateBuild.claimWaitMs = 300;
    const exp = t.store.getExperience(t.account.id, "exp_price_message")!;
    claimByAnotherNode(exp);
    const started = Date.now();
    const busy = await call(t.app, owner, "GET", "/api/results/exp_price_message");
    expect(busy.statusCode, busy.body.slice(0, 300)).toBe(503);
    expect(busy.headers["retry-after"]).toBeDefined();
    expect(JSON.parse(busy.body)).toMatchObject({ error: { code: "busy" } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);

    t.store.sqlite.db.prepare("DELETE FROM results_state").run();
    const res = await call(t.app, owner, "GET", "/api/results/exp_price_message");
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  });

  it("the store's error says busy, so either backend's route answers 503", async () => {
    stateBuild.claimWaitMs = 100;
    const exp = t.store.getExperience(t.account.id, "exp_price_message")!;
    claimByAnotherNode(exp);
    const error = await Promise.resolve(t.store.foldResults(t.account.id, exp.id, exp.goals)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResultsBuildBusy);
    expect(isStoreBusy(error)).toBe(true);
  });
});
