// What a node remembers of recent visitors (decide/visitors.ts): their assignments as of an
// account revision, kept per visitor of an account.
import { describe, expect, it, vi } from "vitest";
import { RecentVisitors } from "../src/decide/visitors.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";

/** A fresh migrated in-memory store (real SQLite) and a spy on its assignment reads. */
function freshStore() {
  const store = openSqliteStore(":memory:");
  store.migrate();
  return { store, reads: vi.spyOn(store, "getAssignments") };
}

describe("RecentVisitors", () => {
  it("reads a visitor's assignments once per revision", async () => {
    const { store, reads } = freshStore();
    const visitors = new RecentVisitors(store);
    const a = await visitors.entry("acc_a", "u_1", 1);
    expect(await visitors.entry("acc_a", "u_1", 1)).toBe(a);
    expect(reads).toHaveBeenCalledTimes(1);
    await visitors.entry("acc_a", "u_1", 2);
    expect(reads).toHaveBeenCalledTimes(2);
    store.close();
  });

  it("never hands one account's entry to another account under the same user id", async () => {
    const { store, reads } = freshStore();
    const visitors = new RecentVisitors(store);
    const a = await visitors.entry("acc_a", "u_1", 1);
    a.assignments.set("e:r", {
      experience_id: "e",
      rule_id: "r",
      behaviour_id: "b",
      variation_id: "v",
      probability: 1,
    });
    visitors.recorded(a, [], 1000);
    const b = await visitors.entry("acc_b", "u_1", 1);
    expect(b).not.toBe(a);
    expect(b.assignments.size).toBe(0);
    expect(b.recordedMs).toBeNull();
    expect(reads).toHaveBeenLastCalledWith("acc_b", "u_1");
    expect(visitors.seen("acc_b", "u_1")).toBe(b);
    store.close();
  });

  it("reads a visitor's assignments only after their pending write (written behind an answer) has committed", async () => {
    const { store } = freshStore();
    const visitors = new RecentVisitors(store);
    const assignment = { experience_id: "e", rule_id: "r", behaviour_id: "b", variation_id: "v", probability: 0.5 };
    const pending = new Promise<void>((resolve) =>
      setTimeout(() => {
        store.commitClientWrites([{ kind: "decision", accountId: "acc", userId: "u_1", user: { user_customer_id: "c1", anonymous: true }, assignments: [assignment], now: "2026-11-27T12:00:00.000Z" }]);
        resolve();
      }, 5),
    );
    const e = await visitors.entry("acc", "u_1", 1, pending);
    expect([...e.assignments.values()].map((a) => a.variation_id)).toEqual(["v"]);
    store.close();
  });

  it("after forget, reads the visitor again and counts their record as never written", async () => {
    const { store, reads } = freshStore();
    const visitors = new RecentVisitors(store);
    const e = await visitors.entry("acc", "u_1", 1);
    visitors.recorded(e, [], 1000);
    visitors.forget(e);
    expect(visitors.stale(e, 1001)).toBe(true);
    await visitors.entry("acc", "u_1", 1);
    expect(reads).toHaveBeenCalledTimes(2);
    store.close();
  });

  it("forgets the least recently used visitor when full", async () => {
    const { store } = freshStore();
    const visitors = new RecentVisitors(store, 2);
    const one = await visitors.entry("acc", "u_1", 1);
    await visitors.entry("acc", "u_2", 1);
    await visitors.entry("acc", "u_1", 1); // u_1 used again: u_2 is now the oldest
    await visitors.entry("acc", "u_3", 1);
    expect(visitors.seen("acc", "u_1")).toBe(one);
    expect(visitors.seen("acc", "u_2").revision).toBe(-1); // forgotten: a fresh entry
    store.close();
  });
});
