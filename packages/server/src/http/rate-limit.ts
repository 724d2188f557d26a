// Rate limits per key (product.md §3, the "rate limits per key"): a token bucket per key,
// in this process's memory. Each bucket holds up to `burst` tokens and refills at `perSecond`;
// a request takes one token or is refused with how long until the next one.
//
// Per node on purpose: a shared limit would need shared state on every config call, which the
// decision path avoids (ARCHITECTURE.md, design goal 4). With N nodes a key gets N × the rate.

export type RateLimit = {
  /** Tokens a key may spend at once. */
  burst: number;
  /** Tokens added back per second. */
  perSecond: number;
};

export type TakeResult = { ok: true } | { ok: false; retryAfterS: number };

type Bucket = { tokens: number; updatedMs: number };

/** Most keys kept; the least recently used bucket goes first (a forgotten bucket is full again). */
const DEFAULT_MAX_KEYS = 10_000;

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly clock: () => number,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {
    if (!(limit.burst >= 1) || !(limit.perSecond > 0)) throw new Error("rate limit: burst ≥ 1 and perSecond > 0");
  }

  take(key: string): TakeResult {
    const now = this.clock();
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.buckets.delete(key); // re-inserted below: Map order is the recency order
      const elapsedS = Math.max(0, now - bucket.updatedMs) / 1000;
      bucket.tokens = Math.min(this.limit.burst, bucket.tokens + elapsedS * this.limit.perSecond);
      bucket.updatedMs = now;
    } else {
      bucket = { tokens: this.limit.burst, updatedMs: now };
      if (this.buckets.size >= this.maxKeys) {
        const oldest = this.buckets.keys().next().value;
        if (oldest !== undefined) this.buckets.delete(oldest);
      }
    }
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - bucket.tokens) / this.limit.perSecond)) };
  }

  get size(): number {
    return this.buckets.size;
  }
}

/** Rate-limit settings of buildApp; `false` turns a limit off. */
export type RateLimits = {
  /** Per client key on the client API (/v1). A shop's visitors all share one key. */
  clientKey?: RateLimit | false;
  /** Per secret key on the admin API. */
  secretKey?: RateLimit | false;
  /** Sign-in attempts per email address (slows password guessing). */
  signIn?: RateLimit | false;
};

/** Defaults per node; main.ts reads CLIENT_RATE_LIMIT_PER_S for the client-key rate. */
export const DEFAULT_RATE_LIMITS: Required<RateLimits> = {
  clientKey: { burst: 2000, perSecond: 1000 },
  secretKey: { burst: 100, perSecond: 20 },
  signIn: { burst: 10, perSecond: 10 / 60 },
};
