// The bounded pair memo behind the config call's user ids and shared assignment keys.
import { describe, expect, it } from "vitest";
import { PairMemo } from "../src/util/pair-memo.js";

describe("PairMemo", () => {
  it("makes each pair's value once, keeps pairs apart, and starts again when full", () => {
    const made: string[] = [];
    const make = (a: string, b: string) => (made.push(`${a}|${b}`), `${a}:${b}`);
    const memo = new PairMemo<string>(3);
    expect(memo.get("a", "1", make)).toBe("a:1");
    expect(memo.get("a", "1", make)).toBe("a:1");
    expect(memo.get("b", "1", make)).toBe("b:1");
    expect(memo.get("a", "2", make)).toBe("a:2");
    expect(made).toEqual(["a|1", "b|1", "a|2"]);
    expect(memo.size).toBe(3);
    expect(memo.get("c", "1", make)).toBe("c:1"); // full: forgets the rest, keeps this one
    expect(memo.size).toBe(1);
    expect(memo.get("a", "1", make)).toBe("a:1");
    expect(made).toEqual(["a|1", "b|1", "a|2", "c|1", "a|1"]);
  });
});
