// The token bucket behind the per-key rate limits.
import { describe, expect, it } from "vitest";
import { TokenBuckets } from "../src/http/rate-limit.js";

describe("TokenBuckets", () => {
  it("allows a burst, then one request per refilled token, with the wait in whole seconds", () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 3, perSecond: 2 }, () => now);
    expect([1, 2, 3].map(() => buckets.take("k").ok)).toEqual([true, true, true]);
    expect(buckets.take("k")).toEqual({ ok: false, retryAfterS: 1 });
    now += 500; // one token back
    expect(buckets.take("k").ok).toBe(true);
    expect(buckets.take("k").ok).toBe(false);
    now += 60_000; // refills to the burst, never beyond
    expect([1, 2, 3, 4].map(() => buckets.take("k").ok)).toEqual([true, true, true, false]);
  });

  it("keeps one bucket per key", () => {
    const buckets = new TokenBuckets({ burst: 1, perSecond: 0.1 }, () => 0);
    expect(buckets.take("a").ok).toBe(true);
    expect(buckets.take("a")).toEqual({ ok: false, retryAfterS: 10 });
    expect(buckets.take("b").ok).toBe(true);
  });

  it("forgets the least recently used key beyond its size (a forgotten key starts full)", () => {
    const buckets = new TokenBuckets({ burst: 1, perSecond: 0.001 }, () => 0, 2);
    buckets.take("a");
    buckets.take("b");
    buckets.take("a"); // refused, and a is now the most recent
    buckets.take("c"); // evicts b
    expect(buckets.size).toBe(2);
    expect(buckets.take("a").ok).toBe(false);
    expect(buckets.take("b").ok).toBe(true);
  });

  it("refuses a limit that would block everything", () => {
    expect(() => new TokenBuckets({ burst: 0, perSecond: 1 }, Date.now)).toThrow();
    expect(() => new TokenBuckets({ burst: 1, perSecond: 0 }, Date.now)).toThrow();
  });
});
