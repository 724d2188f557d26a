// Rate limits of the admin API (docs/security.md "Rate limits and sign-in"): every caller, signed-in
// operator or secret key, has two token buckets on each node. The expensive reads take from a
// small one, so a member of the team (or whoever holds their cookie) cannot keep a node's database
// busy with searches and ranged results; everything else takes from a generous one that the
// dashboard's own polling never empties.
//
// A session's budget is its operator's: signing in again (sign-in allows ten at once) gives no
// fresh budget.

import { RESULTS_DEFAULTS } from "../results/compute.js";
import { TokenBuckets } from "./rate-limit.js";
import type { RateLimit, TakeResult } from "./rate-limit.js";

export type AdminCallerKey = { kind: "operator"; id: string } | { kind: "secret_key"; id: string };

export class AdminLimiter {
  private readonly operator: TokenBuckets | null;
  private readonly secretKey: TokenBuckets | null;
  private readonly heavy: TokenBuckets | null;

  constructor(limits: { operator: RateLimit | false; secretKey: RateLimit | false; heavy: RateLimit | false }, clock: () => number) {
    this.operator = limits.operator ? new TokenBuckets(limits.operator, clock) : null;
    this.secretKey = limits.secretKey ? new TokenBuckets(limits.secretKey, clock) : null;
    this.heavy = limits.heavy ? new TokenBuckets(limits.heavy, clock) : null;
  }

  /** One request of `caller`: from the heavy budget when `heavy`, else from the caller's own. */
  take(caller: AdminCallerKey, heavy: boolean): TakeResult {
    const buckets = heavy ? this.heavy : caller.kind === "operator" ? this.operator : this.secretKey;
    return buckets ? buckets.take(`${caller.kind}:${caller.id}`) : { ok: true };
  }
}

const filled = (value: unknown) => typeof value === "string" && value.trim() !== "";

/**
 * Whether an admin request is one of the expensive reads: it reads many rows, a remote page or runs
 * an operator's conditions, and nothing answers it from memory. Decided from the route and the
 * query alone, before anything is read. The results screen's default answer comes from the
 * results cache or the state folded since the last call (docs/results.md); a date range or another
 * engine, correction or alpha is computed again. (The CSV export is built in the browser from the
 * results on screen: it sends no request.)
 */
export function isHeavyRead(method: string, route: string | undefined, query: unknown): boolean {
  const q = (typeof query === "object" && query !== null ? query : {}) as Record<string, unknown>;
  switch (`${method} ${route ?? ""}`) {
    case "GET /api/results/:experienceId":
      return (
        filled(q.from) ||
        filled(q.to) ||
        (q.engine !== undefined && q.engine !== RESULTS_DEFAULTS.engine) ||
        (q.correction !== undefined && q.correction !== RESULTS_DEFAULTS.correction) ||
        (q.alpha !== undefined && Number(q.alpha) !== RESULTS_DEFAULTS.alpha)
      );
    case "GET /api/events":
      // A cursor alone pages by the events' order (an index range); a filter searches a window.
      return filled(q.type) || filled(q.domain) || filled(q.q) || filled(q.visitor) || filled(q.experience);
    case "GET /api/events/names":
    case "GET /api/experiences/:id/overlaps":
    case "GET /api/visitors/:visitor/timeline":
    case "POST /api/audiences/evaluate":
    case "POST /api/page-check":
      return true;
    default:
      return false;
  }
}
