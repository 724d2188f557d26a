// Sign-in, the current session, sign-out (product.md §3). Passwords are checked with scrypt
// (auth/password.ts, at most two at once); sign-in attempts are rate-limited per email address
// and client address, and per client address (http/rate-limit.ts SignInLimiter) to slow guessing
// without letting an attacker's guesses lock the owner out.

import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { SessionInfo, SignInRequest } from "@storefit/contract";
import type { Account, Operator } from "../store/types.js";
import { HashingBusy, unknownOperatorHash, verifyPassword } from "../auth/password.js";
import { SESSION_COOKIE, requireAccess, sha256 } from "../auth/access.js";
import { sendError, sendRateLimited } from "../http/errors.js";
import { errorResponses } from "../schemas/common.js";
import type { SecurityRequirement } from "../schemas/common.js";
import { sessionInfoSchema, signInBody } from "../schemas/admin.js";
import type { AdminOptions } from "./admin.js";

const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
const SESSION_SECURITY: SecurityRequirement[] = [{ session: [] }];

function sessionInfo(operator: Operator, account: Account, csrf: string): SessionInfo {
  return {
    user: { id: operator.id, email: operator.email, role: operator.role },
    account: { id: account.id, name: account.name, client_key: account.client_key },
    csrf_token: csrf,
  };
}

export function sessionRoutes(app: FastifyInstance, opts: AdminOptions): void {
  const { store, clock } = opts;
  // Made now (once per process), so the first unknown email does not pay for it on top.
  unknownOperatorHash().catch(() => undefined);

  app.post<{ Body: SignInRequest }>(
    "/api/session",
    {
      schema: {
        summary: "Sign in: sets the httpOnly session cookie and answers the CSRF token",
        tags: ["session"],
        security: [],
        body: signInBody,
        response: { 200: sessionInfoSchema, ...errorResponses(400, 401, 413, 415, 429, 503) },
      },
    },
    async (req, reply) => {
      const email = req.body.email.trim().toLowerCase();
      if (opts.signInLimiter) {
        const taken = opts.signInLimiter.take(email, req.ip);
        if (!taken.ok) return sendRateLimited(reply, taken.retryAfterS);
      }
      const operator = await store.getOperatorByEmail(email);
      // An unknown email costs the same scrypt as a known one (password.ts unknownOperatorHash).
      let ok: boolean;
      try {
        ok = await verifyPassword(req.body.password, operator ? operator.password_hash : await unknownOperatorHash());
      } catch (error) {
        if (!(error instanceof HashingBusy)) throw error;
        reply.header("retry-after", "1");
        return sendError(reply, 503, "busy", "Too many sign-ins at once; retry in a moment");
      }
      const account = operator && ok ? await store.getAccount(operator.account_id) : null;
      if (!operator || !account) return sendError(reply, 401, "invalid_credentials");
      const token = randomBytes(32).toString("base64url");
      const csrf = randomBytes(24).toString("base64url");
      await store.createSession(sha256(token), operator.id, csrf, clock() + SESSION_TTL_MS);
      reply.setCookie(SESSION_COOKIE, token, {
        path: "/",
        httpOnly: true,
        sameSite: "strict",
        secure: opts.secureCookies,
        maxAge: SESSION_TTL_MS / 1000,
      });
      return sessionInfo(operator, account, csrf);
    },
  );

  app.get(
    "/api/session",
    {
      onRequest: requireAccess(opts, "viewer", true),
      schema: {
        summary: "The signed-in operator, account and CSRF token",
        tags: ["session"],
        security: SESSION_SECURITY,
        response: { 200: sessionInfoSchema, ...errorResponses(401) },
      },
    },
    async (req) => {
      const c = req.caller!;
      return sessionInfo(c.operator!, c.account, c.csrfToken!);
    },
  );

  app.delete(
    "/api/session",
    {
      onRequest: requireAccess(opts, "viewer", true),
      schema: {
        summary: "Sign out (needs the CSRF token)",
        tags: ["session"],
        security: SESSION_SECURITY,
        response: { 204: { description: "Signed out", type: "null" }, ...errorResponses(401, 403) },
      },
    },
    async (req, reply) => {
      const token = req.cookies[SESSION_COOKIE];
      if (token) await store.deleteSession(sha256(token));
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return reply.code(204).send();
    },
  );
}
