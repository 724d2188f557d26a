// The admin API under /api/ (product.md §3): what the dashboard calls. Sessions live in an
// httpOnly SameSite=Strict cookie; every write also needs the session's CSRF token in the
// `x-csrf-token` header. Client keys do not work here: only a signed-in operator.

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type {
  EventListResponse,
  ExperienceListResponse,
  SessionInfo,
  SignInRequest,
} from "@storefit/contract";
import type { Account, Operator, Store } from "../store/types.js";
import { verifyPassword } from "../auth/password.js";
import { sendError } from "../http/errors.js";

export const SESSION_COOKIE = "storefit_session";
const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

declare module "fastify" {
  interface FastifyRequest {
    operator?: Operator;
    operatorAccount?: Account;
    csrfToken?: string;
  }
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function sessionInfo(operator: Operator, account: Account, csrf: string): SessionInfo {
  return {
    user: { id: operator.id, email: operator.email, role: operator.role },
    account: { id: account.id, name: account.name, client_key: account.client_key },
    csrf_token: csrf,
  };
}

const signInBody = {
  type: "object",
  required: ["email", "password"],
  additionalProperties: false,
  properties: {
    email: { type: "string", minLength: 3, maxLength: 254 },
    password: { type: "string", minLength: 1, maxLength: 1024 },
  },
} as const;

export function adminRoutes(
  app: FastifyInstance,
  opts: { store: Store; clock: () => number; secureCookies: boolean },
): void {
  const { store, clock } = opts;

  // Every /api route but sign-in requires a session; writes also require the CSRF header.
  const requireSession = async (req: FastifyRequest, reply: FastifyReply) => {
    const token = req.cookies[SESSION_COOKIE];
    const session = token ? store.getSession(sha256(token), clock()) : null;
    const operator = session ? store.getOperator(session.operator_id) : null;
    const account = operator ? store.getAccount(operator.account_id) : null;
    if (!session || !operator || !account) return sendError(reply, 401, "unauthorized");
    if (WRITE_METHODS.has(req.method)) {
      const header = req.headers["x-csrf-token"];
      if (typeof header !== "string" || !safeEqual(header, session.csrf_token)) {
        return sendError(reply, 403, "csrf");
      }
    }
    req.operator = operator;
    req.operatorAccount = account;
    req.csrfToken = session.csrf_token;
  };

  app.post<{ Body: SignInRequest }>(
    "/api/session",
    { schema: { body: signInBody } },
    async (req, reply) => {
      const operator = store.getOperatorByEmail(req.body.email.trim());
      const ok = operator ? await verifyPassword(req.body.password, operator.password_hash) : false;
      const account = operator && ok ? store.getAccount(operator.account_id) : null;
      if (!operator || !account) return sendError(reply, 401, "invalid_credentials");
      const token = randomBytes(32).toString("base64url");
      const csrf = randomBytes(24).toString("base64url");
      store.createSession(sha256(token), operator.id, csrf, clock() + SESSION_TTL_MS);
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

  app.get("/api/session", { onRequest: requireSession }, async (req) =>
    sessionInfo(req.operator!, req.operatorAccount!, req.csrfToken!),
  );

  app.delete("/api/session", { onRequest: requireSession }, async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (token) store.deleteSession(sha256(token));
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return reply.code(204).send();
  });

  app.get("/api/experiences", { onRequest: requireSession }, async (req): Promise<ExperienceListResponse> => ({
    experiences: store.listExperiences(req.operatorAccount!.id).map((e) => ({
      id: e.id,
      name: e.name,
      status: e.status,
      kind: e.kind,
      priority: e.priority,
      pages: e.pages,
      variation_count: e.rules.reduce((n, r) => n + r.behaviour.variations.length, 0),
      updated_at: e.updated_at,
    })),
  }));

  app.get<{ Querystring: { limit?: string } }>(
    "/api/events",
    {
      onRequest: requireSession,
      schema: {
        querystring: {
          type: "object",
          additionalProperties: false,
          // Query values are strings; the body validator does not coerce types.
          properties: { limit: { type: "string", pattern: "^(?:[1-9][0-9]?|[1-4][0-9]{2}|500)$" } },
        },
      },
    },
    async (req): Promise<EventListResponse> => {
      const accountId = req.operatorAccount!.id;
      return {
        total: store.countEvents(accountId),
        events: store.listEvents(accountId, Number(req.query.limit ?? 50)).map((e) => ({
          insert_id: e.insert_id,
          event_type: e.event_type,
          event_customer_id: e.event_customer_id,
          domain: e.domain,
          page_path: e.page_path,
          user_id: e.user_id,
          session_id: e.session_id,
          event_timestamp: e.event_timestamp,
          received_at: e.received_at,
        })),
      };
    },
  );
}
