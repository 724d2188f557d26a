// Who is calling the admin API, and what they may do (product.md §3 "Admin API and auth").
//
// Two ways in:
// - an operator's session: a random token in an httpOnly SameSite=Strict cookie, stored hashed;
//   every write also needs the session's CSRF token in `x-csrf-token`;
// - a secret key, `Authorization: Bearer sk_…`, for server-to-server calls: stored hashed, acts
//   with editor rights on its account, and needs no CSRF token (a browser never attaches it on
//   its own, so a cross-site request cannot carry it).
// A client key (access level "client", spec §6) opens nothing here.
//
// Roles are ordered: viewer reads; editor also edits experiences and audiences; owner also edits
// account settings, team members and secret keys.

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Role } from "@storefit/contract";
import type { Account, Operator, Store } from "../store/types.js";
import { sendError, sendRateLimited } from "../http/errors.js";
import { isHeavyRead } from "../http/admin-limit.js";
import type { AdminCallerKey, AdminLimiter } from "../http/admin-limit.js";

export const SESSION_COOKIE = "storefit_session";
export const SECRET_KEY_PREFIX = "sk_";
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const ROLE_RANK: Readonly<Record<Role, number>> = { viewer: 0, editor: 1, owner: 2 };

/** The role a secret key acts with (the issue: "a secret key acts with editor rights"). */
export const SECRET_KEY_ROLE: Role = "editor";

export type Caller = {
  account: Account;
  role: Role;
  /** Set for a session; absent for a secret key. */
  operator?: Operator;
  csrfToken?: string;
  secretKeyId?: string;
};

declare module "fastify" {
  interface FastifyRequest {
    caller?: Caller;
  }
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A new secret key: 32 random bytes, so a fast hash (SHA-256) is enough to store it. */
export function newSecretKey(): { secret: string; hash: string; prefix: string } {
  const secret = SECRET_KEY_PREFIX + randomBytes(32).toString("base64url");
  return { secret, hash: sha256(secret), prefix: secret.slice(0, SECRET_KEY_PREFIX.length + 6) };
}

export const hasRole = (role: Role, atLeast: Role) => ROLE_RANK[role] >= ROLE_RANK[atLeast];

export type AccessOptions = {
  store: Store;
  clock: () => number;
  /** Per operator and per secret key, with a tighter budget for the expensive reads; null: none. */
  limiter: AdminLimiter | null;
};

/**
 * An onRequest hook: the caller must be signed in (or hold a secret key, unless `sessionOnly`)
 * with at least `role`. Runs before the body is read, so an anonymous caller learns nothing of
 * the body's validation and nothing is parsed for them.
 */
export function requireAccess(opts: AccessOptions, role: Role, sessionOnly = false) {
  const { store, clock } = opts;
  /** Whether the caller is within its budget for this request; if not, answers the 429. */
  const withinLimit = (req: FastifyRequest, reply: FastifyReply, caller: AdminCallerKey): boolean => {
    if (!opts.limiter) return true;
    const taken = opts.limiter.take(caller, isHeavyRead(req.method, req.routeOptions.url, req.query));
    if (taken.ok) return true;
    sendRateLimited(reply, taken.retryAfterS);
    return false;
  };
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const m = /^Bearer\s+(\S+)$/i.exec(authorization);
      const secret = m?.[1];
      if (sessionOnly || !secret || !secret.startsWith(SECRET_KEY_PREFIX)) {
        return sendError(reply, 401, "unauthorized", "A secret key (Bearer sk_…) or a session is needed");
      }
      const key = await store.useSecretKey(sha256(secret), new Date(clock()).toISOString());
      const account = key ? await store.getAccount(key.account_id) : null;
      if (!key || !account) return sendError(reply, 401, "unauthorized", "Unknown or revoked secret key");
      if (!withinLimit(req, reply, { kind: "secret_key", id: key.id })) return reply;
      if (!hasRole(SECRET_KEY_ROLE, role)) return sendError(reply, 403, "forbidden");
      req.caller = { account, role: SECRET_KEY_ROLE, secretKeyId: key.id };
      return;
    }

    const token = req.cookies[SESSION_COOKIE];
    const session = token ? await store.getSession(sha256(token), clock()) : null;
    const operator = session ? await store.getOperator(session.operator_id) : null;
    const account = operator ? await store.getAccount(operator.account_id) : null;
    if (!session || !operator || !account) return sendError(reply, 401, "unauthorized");
    if (!withinLimit(req, reply, { kind: "operator", id: operator.id })) return reply;
    if (WRITE_METHODS.has(req.method)) {
      const header = req.headers["x-csrf-token"];
      if (typeof header !== "string" || !safeEqual(header, session.csrf_token)) {
        return sendError(reply, 403, "csrf");
      }
    }
    if (!hasRole(operator.role, role)) {
      return sendError(reply, 403, "forbidden", `This needs the ${role} role; you are ${operator.role}`);
    }
    req.caller = { account, role: operator.role, operator, csrfToken: session.csrf_token };
  };
}
