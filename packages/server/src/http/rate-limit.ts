// Rate limits per key (product.md §3, the "rate limits per key") and per client address
// (issue #17; docs/security.md): a token bucket per key, in this process's memory. Each bucket holds up to `burst` tokens and refills at `perSecond`;
// a request takes one token (the byte budget: one per body byte) or is refused with how long
// until there are enough.
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

  /** Takes `cost` tokens; a refusal takes none. A cost over the burst is always refused. */
  take(key: string, cost = 1): TakeResult {
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
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return { ok: true };
    }
    return { ok: false, retryAfterS: Math.max(1, Math.ceil((cost - bucket.tokens) / this.limit.perSecond)) };
  }

  get size(): number {
    return this.buckets.size;
  }
}

/** Rate-limit settings of buildApp; `false` turns a limit off. */
export type RateLimits = {
  /** Per client key on the client API (/v1). A shop's visitors all share one key. */
  clientKey?: RateLimit | false;
  /**
   * Per client address on the client API, taken before the key's token: one sender spends its
   * own bucket long before the shop's, so it cannot use up the key's limit for everyone.
   */
  clientIp?: RateLimit | false;
  /**
   * Body bytes per client address on the client API, taken as the body is parsed (after the
   * request's tokens): the request limits count requests, and a few large batches a second cost a
   * node far more than many small calls. The burst must hold the largest client body.
   */
  clientIpBytes?: RateLimit | false;
  /** Per secret key on the admin API, every request but the expensive reads (http/admin-limit.ts). */
  secretKey?: RateLimit | false;
  /** Per signed-in operator (all their sessions) on the admin API, every request but the expensive reads. */
  adminSession?: RateLimit | false;
  /**
   * The admin API's expensive reads (http/admin-limit.ts `isHeavyRead`: filtered events, the
   * visitor timeline, ranged or re-parameterised results…), per operator and per secret key.
   */
  adminHeavy?: RateLimit | false;
  /**
   * Sign-in attempts per email address and client address (slows password guessing): an
   * attacker's wrong guesses lock out their own address, not the owner signing in from another.
   */
  signIn?: RateLimit | false;
  /** Sign-in attempts per client address, whatever the email (a flood of fresh emails). */
  signInIp?: RateLimit | false;
};

/**
 * Defaults per node; main.ts reads CLIENT_RATE_LIMIT_PER_S, CLIENT_IP_RATE_LIMIT_PER_S,
 * CLIENT_IP_BYTES_PER_S, ADMIN_RATE_LIMIT_PER_S and ADMIN_HEAVY_RATE_LIMIT_PER_S.
 */
export const DEFAULT_RATE_LIMITS: Required<RateLimits> = {
  clientKey: { burst: 2000, perSecond: 1000 },
  // A page view makes a handful of calls; a tenth of the key's rate is many shoppers behind one NAT.
  clientIp: { burst: 200, perSecond: 100 },
  // The script's largest body is 64 KiB (a keep-alive fetch or beacon cannot carry more, and the
  // service refuses more: http/edge.ts); a page view sends a few KB. 256 KiB/s is 100 requests/s of
  // 2.6 KB each, many shoppers behind one NAT; the burst holds 16 of the largest bodies.
  clientIpBytes: { burst: 1024 * 1024, perSecond: 256 * 1024 },
  secretKey: { burst: 100, perSecond: 20 },
  // The dashboard in normal use (docs/security.md): Live events polls one or two light reads every
  // 2 s (under 1 a second); a screen loads with under 10 calls, and the experiences list asks one
  // results call per experience that is not a draft, all at once. 400 at once holds a list of 300
  // experiences with a hundred calls to spare; 40 a second is 40 times the polling.
  adminSession: { burst: 400, perSecond: 40 },
  // Live events at its busiest polls a filtered page and a visitor's timeline every 2 s: 1 a
  // second, half the refill. Typing a search sends one filtered read per keystroke (the dashboard
  // does not wait for a pause): the burst of 30 holds a 30-character search typed at once, and
  // more while the refill runs. Ten such reads a second held /health at p95 0.6-1.9 s on SQLite.
  adminHeavy: { burst: 30, perSecond: 2 },
  signIn: { burst: 10, perSecond: 10 / 60 },
  signInIp: { burst: 30, perSecond: 30 / 60 },
};

/**
 * The bucket key of a client address (Fastify's `req.ip`: the socket's peer, or with the
 * trustProxy setting the client named by X-Forwarded-For). IPv6 addresses are grouped by their
 * /64, the block one subscriber gets; IPv4-mapped ones are read as IPv4. null for loopback (and
 * an unknown address): every request then comes from this machine, a reverse proxy that was not
 * declared trusted, or local tooling, and one bucket for all of them would limit every client
 * together (docs/security.md: set TRUST_PROXY behind a proxy).
 */
export function addressKey(ip: string | undefined): string | null {
  if (!ip || ip === "::1" || ip === "::") return null;
  const group = addressGroup(ip);
  return group.startsWith("127.") ? null : group;
}

/**
 * An address as one client: IPv4 as it is (IPv4-mapped IPv6 too), IPv6 by its /64
 * (`2001:db8:0:1::/64`).
 */
export function addressGroup(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)?.[1];
  if (v4) return v4;
  const lower = ip.toLowerCase();
  const [head = "", tail] = lower.split("::");
  const groups = head ? head.split(":") : [];
  if (tail !== undefined) {
    const rest = tail ? tail.split(":") : [];
    while (groups.length + rest.length < 8) groups.push("0");
    groups.push(...rest);
  }
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/** Sign-in attempts: per (email, address), then per address; each attempt takes one of each. */
export class SignInLimiter {
  private readonly perEmail: TokenBuckets | null;
  private readonly perAddress: TokenBuckets | null;

  constructor(perEmail: RateLimit | false, perAddress: RateLimit | false, clock: () => number) {
    this.perEmail = perEmail ? new TokenBuckets(perEmail, clock) : null;
    this.perAddress = perAddress ? new TokenBuckets(perAddress, clock) : null;
  }

  take(email: string, ip: string | undefined): TakeResult {
    const address = addressKey(ip);
    if (address !== null && this.perAddress) {
      const taken = this.perAddress.take(address);
      if (!taken.ok) return taken;
    }
    return this.perEmail ? this.perEmail.take(`${email}\n${address ?? "local"}`) : { ok: true };
  }
}
