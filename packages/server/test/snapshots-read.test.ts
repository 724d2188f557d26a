// A config call's share of the revision read (decide/snapshots.ts AccountSnapshots.read): the
// visitors it names until the read goes in the check phase, and the account as last read, which
// the call's checks may use ahead of the read.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AccountSnapshots } from "../src/decide/snapshots.js";
import { DEMO_CLIENT_KEY, makeApp } from "./helpers.js";
import type { TestApp } from "./helpers.js";

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => {
  await t.close();
});

describe("AccountSnapshots.read", () => {
  it("takes visitors until the read goes, and passes them to the store's revision read", async () => {
    const snapshots = new AccountSnapshots(t.store);
    const reads = vi.spyOn(t.store, "getAccountRevision");
    const first = snapshots.read(DEMO_CLIENT_KEY);
    const second = snapshots.read(DEMO_CLIENT_KEY);
    expect(first.withVisitor("u_1")).toBe(true);
    expect(second.withVisitor("u_2")).toBe(true);
    const answer = await first.answer;
    expect(await second.answer).toBe(answer);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(reads).toHaveBeenCalledWith(DEMO_CLIENT_KEY, ["u_1", "u_2"]);
    // Gone: the caller reads the visitor itself.
    expect(first.withVisitor("u_3")).toBe(false);
    // SQLite answers no assignments with the revision (each is a read of the file: no round trip to save).
    expect(answer?.assignments).toBeUndefined();
    // A read with no visitor asks for none.
    await snapshots.read(DEMO_CLIENT_KEY).answer;
    expect(reads).toHaveBeenLastCalledWith(DEMO_CLIENT_KEY, undefined);
  });

  it("cached: nothing before the first read of a key, then the account as last read", async () => {
    const snapshots = new AccountSnapshots(t.store);
    expect(snapshots.cached(DEMO_CLIENT_KEY)).toBeUndefined();
    const prepared = (await snapshots.read(DEMO_CLIENT_KEY).answer)!.prepared;
    expect(snapshots.cached(DEMO_CLIENT_KEY)).toBe(prepared);
    expect(snapshots.cached("ck_unknown")).toBeUndefined();
    expect(await snapshots.read("ck_unknown").answer).toBeNull();
    expect(snapshots.cached("ck_unknown")).toBeUndefined();
  });
});
