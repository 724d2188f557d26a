// Group commit: concurrent writes share one transaction, each caller gets its own result after
// the commit, and one failing write fails only its own caller.
import { describe, expect, it } from "vitest";
import { GroupCommit } from "../src/store/group-commit.js";

describe("GroupCommit", () => {
  it("commits what was submitted in the same turn of the event loop together, in order", async () => {
    const batches: number[][] = [];
    const gc = new GroupCommit<number, number>((items) => {
      batches.push([...items]);
      return items.map((x) => x * 10);
    });
    const results = await Promise.all([1, 2, 3].map((x) => gc.submit(x)));
    expect(results).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(await gc.submit(4)).toBe(40);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it("with a delay, commits together what was submitted over several turns within it", async () => {
    const batches: number[][] = [];
    const gc = new GroupCommit<number, number>((items) => (batches.push([...items]), [...items]), undefined, 30);
    const results: Promise<number>[] = [];
    for (const x of [1, 2, 3]) {
      results.push(gc.submit(x));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(results)).toEqual([1, 2, 3]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it("caps a batch", async () => {
    const sizes: number[] = [];
    const gc = new GroupCommit<number, number>((items) => (sizes.push(items.length), [...items]), 2);
    await Promise.all([1, 2, 3, 4, 5].map((x) => gc.submit(x)));
    expect(sizes).toEqual([2, 2, 1]);
  });

  it("when the shared transaction fails, retries each write alone", async () => {
    const gc = new GroupCommit<number, number>((items) => {
      if (items.includes(13)) throw new Error("unlucky");
      return [...items];
    });
    const results = await Promise.allSettled([12, 13, 14].map((x) => gc.submit(x)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("with an asynchronous store, commits one batch after another, in order", async () => {
    const log: string[] = [];
    const gc = new GroupCommit<number, number>(async (items) => {
      log.push(`begin ${items.join(",")}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.push(`end ${items.join(",")}`);
      return items.map((x) => x + 1);
    }, 2);
    const results = await Promise.all([1, 2, 3].map((x) => gc.submit(x)));
    expect(results).toEqual([2, 3, 4]);
    expect(log).toEqual(["begin 1,2", "end 1,2", "begin 3", "end 3"]);
    const failing = new GroupCommit<number, number>(async (items) => {
      if (items.includes(13)) throw new Error("unlucky");
      return [...items];
    });
    const settled = await Promise.allSettled([12, 13, 14].map((x) => failing.submit(x)));
    expect(settled.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("when a batch fails at once and its retries answer later, retries one by one, and the next batch waits for them", async () => {
    const log: string[] = [];
    const gc = new GroupCommit<number, number>((items) => {
      if (items.length > 1) throw new Error("refused before it began"); // e.g. a batch check
      return (async () => {
        log.push(`begin ${items[0]}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`end ${items[0]}`);
        if (items[0] === 2) throw new Error("unlucky");
        return [items[0]! * 10];
      })();
    });
    const first = [1, 2, 3].map((x) => gc.submit(x));
    await new Promise((resolve) => setImmediate(resolve)); // the batch is under way: its retries too
    const later = gc.submit(4);
    const settled = await Promise.allSettled([...first, later]);
    expect(settled.map((r) => (r.status === "fulfilled" ? r.value : "rejected"))).toEqual([10, "rejected", 30, 40]);
    expect(log).toEqual(["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3", "begin 4", "end 4"]);
  });

  it("flush commits at once (shutdown)", () => {
    const seen: number[] = [];
    const gc = new GroupCommit<number, number>((items) => (seen.push(...items), [...items]));
    void gc.submit(7);
    gc.flush();
    expect(seen).toEqual([7]);
  });
});
