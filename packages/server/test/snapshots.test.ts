// The account snapshots (decide/snapshots.ts): the revision read that makes a publish take effect
// on every node's next config call is shared by the calls of one turn of the event loop, and made
// after the last of them arrived — never reused for a call that comes after it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AccountSnapshots } from "../src/decide/snapshots.js";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/index.js";
import type { Store } from "../src/store/types.js";
import { DEMO_CLIENT_KEY, makeApp } from "./helpers.js";
import type { TestApp } from "./helpers.js";

let t: TestApp;
let nodeB: SqliteStore;
beforeEach(async () => {
  t = await makeApp();
  // Another node: a second connection to the same database file.
  nodeB = openSqliteStore(t.file);
});
afterEach(async () => {
  nodeB.close();
  await t.close();
});

/** A write on node B that moves the account's revision; answers the new revision. */
function publishOnNodeB(): number {
  const a = nodeB.getAccount(t.account.id)!;
  nodeB.updateAccount(a.id, () => ({ name: `${a.name} (edited)` }));
  return nodeB.getAccount(t.account.id)!.revision;
}

describe("AccountSnapshots.byClientKey", () => {
  it("reads the revision once for all the calls of one turn, after the last of them", async () => {
    const snapshots = new AccountSnapshots(t.store);
    const reads = vi.spyOn(t.store, "getAccountRevision");
    const calls = Array.from({ length: 5 }, () => snapshots.byClientKey(DEMO_CLIENT_KEY));
    expect(reads).not.toHaveBeenCalled(); // not at the call: in the check phase after it
    const answers = await Promise.all(calls);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]!.account.id).toBe(t.account.id);
  });

  it("a write committed before a call is seen by it, though an earlier call of the same turn came before the write", async () => {
    const snapshots = new AccountSnapshots(t.store);
    const before = (await snapshots.byClientKey(DEMO_CLIENT_KEY))!.account.revision;
    const first = snapshots.byClientKey(DEMO_CLIENT_KEY);
    const revision = publishOnNodeB();
    expect(revision).toBeGreaterThan(before);
    const second = snapshots.byClientKey(DEMO_CLIENT_KEY);
    expect((await second)!.account.revision).toBe(revision);
    expect((await second)!.account.name).toMatch(/\(edited\)$/);
    // The earlier call was concurrent with the write: it may see it, and here does (one read).
    expect((await first)!.account.revision).toBe(revision);
  });

  it("a call made after a batch's read gets a read of its own", async () => {
    const snapshots = new AccountSnapshots(t.store);
    const reads = vi.spyOn(t.store, "getAccountRevision");
    const first = await snapshots.byClientKey(DEMO_CLIENT_KEY);
    const revision = publishOnNodeB();
    const next = await snapshots.byClientKey(DEMO_CLIENT_KEY);
    expect(reads).toHaveBeenCalledTimes(2);
    expect(first!.account.revision).toBeLessThan(revision);
    expect(next!.account.revision).toBe(revision);
    // A call made while the batch's answer is being delivered (after its read) starts a new one.
    const later = await snapshots.byClientKey(DEMO_CLIENT_KEY).then(() => {
      publishOnNodeB();
      return snapshots.byClientKey(DEMO_CLIENT_KEY);
    });
    expect(later!.account.revision).toBe(nodeB.getAccount(t.account.id)!.revision);
  });

  it("with a store that answers later (over a network), a call made while a read is in flight gets a read of its own", async () => {
    const snapshots = new AccountSnapshots(t.store);
    const before = await snapshots.byClientKey(DEMO_CLIENT_KEY); // parsed and kept at this revision
    const read = t.store.getAccountRevision.bind(t.store);
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    // Typed as the Store interface, whose methods may answer with a promise.
    vi.spyOn(t.store as Store, "getAccountRevision").mockImplementation(async (key: string) => {
      const answer = read(key); // what the database holds when the query runs…
      started();
      await new Promise((resolve) => setTimeout(resolve, 20)); // …answered a little later
      return answer;
    });
    const first = snapshots.byClientKey(DEMO_CLIENT_KEY);
    await inFlight;
    const revision = publishOnNodeB();
    const second = snapshots.byClientKey(DEMO_CLIENT_KEY);
    expect(await first).toBe(before); // its read was made before the write
    expect((await second)!.account.revision).toBe(revision);
  });

  it("answers each client key of a batch on its own; an unknown key gets null", async () => {
    const snapshots = new AccountSnapshots(t.store);
    const [known, unknown, again] = await Promise.all([
      snapshots.byClientKey(DEMO_CLIENT_KEY),
      snapshots.byClientKey("ck_nobody"),
      snapshots.byClientKey(DEMO_CLIENT_KEY),
    ]);
    expect(known!.account.id).toBe(t.account.id);
    expect(unknown).toBeNull();
    expect(again).toBe(known);
  });

  it("keeps the parsed snapshot while the revision stands, and parses again when it moves", async () => {
    const snapshots = new AccountSnapshots(t.store);
    const loads = vi.spyOn(t.store, "loadAccountSnapshot");
    const a = await snapshots.byClientKey(DEMO_CLIENT_KEY);
    const b = await snapshots.byClientKey(DEMO_CLIENT_KEY);
    expect(b).toBe(a);
    expect(loads).toHaveBeenCalledTimes(1);
    publishOnNodeB();
    const c = await snapshots.byClientKey(DEMO_CLIENT_KEY);
    expect(c).not.toBe(a);
    expect(loads).toHaveBeenCalledTimes(2);
  });
});
