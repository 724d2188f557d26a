// Bucketing must never change under a visitor: unitHash is FNV-1a (with a final mix) of the parts
// joined by U+0000.
import { describe, expect, it } from "vitest";
import { fnv1a32, unitHash } from "../src/decide/hash.js";

describe("unitHash", () => {
  it("equals the hash of the joined parts", () => {
    for (const parts of [["traffic", "exp_a", "rule_1", "visitor-1"], ["variation", "é", "", "x"], ["one"], []]) {
      expect(unitHash(...parts)).toBe(fnv1a32(parts.join("\u0000")) / 0x1_0000_0000);
    }
  });

  it("keeps the values it had when the first visitors were bucketed (a change would move them all)", () => {
    expect(fnv1a32("")).toBe(2872998923);
    expect(fnv1a32("storefit")).toBe(1910588625);
    expect(unitHash("traffic", "exp_price_message", "rule_price_everyone", "visitor-1")).toBe(0.4208922632969916);
    expect(unitHash("variation", "exp_price_message", "rule_price_everyone", "alice")).toBe(0.7833869818132371);
  });
});
