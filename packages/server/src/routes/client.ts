// The client API of spec §7: the storefront script's five calls. Every route here is scoped to
// the account named by `cfenc` (query parameter or header) and answers only the account's own
// domains (CORS). Requests are CORS-simple: JSON text under a form-encoded or text content type.

import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isConfiguredDomain, normalizeEventType } from "@storefit/contract";
import type {
  AlertRequest,
  ConfigsRequest,
  ConfigsResponse,
  DevicesRequest,
  EventsRequest,
  SummariesRequest,
  User,
} from "@storefit/contract";
import type { Account, Store } from "../store/types.js";
import { decide } from "../decide/decide.js";
import { sendError } from "../http/errors.js";
import {
  alertBody,
  configsBody,
  devicesBody,
  eventsBody,
  summariesBody,
} from "./client-schemas.js";

declare module "fastify" {
  interface FastifyRequest {
    account?: Account;
  }
}

/** The visitor id the service answers with: derived, so every node agrees without a lookup. */
export function userIdFor(accountId: string, userCustomerId: string): string {
  return "u_" + createHash("sha256").update(`${accountId}:${userCustomerId}`).digest("hex").slice(0, 24);
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).hostname;
  } catch {
    return null;
  }
}

function clientKeyOf(req: FastifyRequest): string | undefined {
  const q = (req.query as Record<string, unknown> | undefined)?.cfenc;
  if (typeof q === "string" && q) return q;
  const h = req.headers.cfenc;
  return typeof h === "string" && h ? h : undefined;
}

function allowOrigin(reply: FastifyReply, origin: string): void {
  reply.header("access-control-allow-origin", origin);
  reply.header("vary", "Origin");
}

export function clientRoutes(app: FastifyInstance, opts: { store: Store; clock: () => number }): void {
  const { store, clock } = opts;

  // Preflight, needed only when a caller sends cfenc as a header or a JSON content type.
  app.options("/v1/*", async (req, reply) => {
    const origin = req.headers.origin;
    if (origin) allowOrigin(reply, origin);
    reply.header("access-control-allow-methods", "POST, GET, OPTIONS");
    reply.header("access-control-allow-headers", "content-type, cfenc");
    reply.header("access-control-max-age", "86400");
    return reply.code(204).send();
  });

  // Runs before the body is read: the key and origin decide first, so a foreign caller learns
  // nothing about body validation, and CORS headers ride on every answer the script can read.
  const resolveAccount = async (req: FastifyRequest, reply: FastifyReply) => {
    const key = clientKeyOf(req);
    if (!key) return sendError(reply, 401, "missing_client_key");
    const account = store.getAccountByClientKey(key);
    if (!account) return sendError(reply, 401, "unknown_client_key");
    const origin = req.headers.origin;
    if (origin) {
      const host = originHost(origin);
      if (!host || !isConfiguredDomain(host, account.settings.domain, account.settings.subdomains)) {
        return sendError(reply, 403, "forbidden_origin");
      }
      allowOrigin(reply, origin);
    }
    req.account = account;
  };

  const now = () => new Date(clock()).toISOString();

  const touch = (account: Account, user: User): string => {
    const userId = userIdFor(account.id, user.user_customer_id);
    store.touchVisitor(account.id, userId, user, now());
    return userId;
  };

  app.post<{ Body: ConfigsRequest }>(
    "/v1/users/configs/",
    { onRequest: resolveAccount, schema: { body: configsBody } },
    async (req): Promise<ConfigsResponse> => {
      const account = req.account!;
      const body = req.body;
      const userId = touch(account, body.user);
      const decision = decide({
        request: body,
        visitorId: body.user.user_customer_id,
        experiences: store.listRunningExperiences(account.id),
        now: clock(),
      });
      return { configs: decision.configs, user_id: userId, page_paths: decision.page_paths };
    },
  );

  app.post<{ Body: EventsRequest }>(
    "/v1/cfe/",
    { onRequest: resolveAccount, schema: { body: eventsBody } },
    async (req) => {
      const account = req.account!;
      const userId = touch(account, req.body.user);
      const events = req.body.events.map((e) => ({ ...e, event_type: normalizeEventType(e.event_type) }));
      return store.insertEvents(account.id, userId, events, now());
    },
  );

  app.post<{ Body: SummariesRequest }>(
    "/v1/config/request/summary/",
    { onRequest: resolveAccount, schema: { body: summariesBody } },
    async (req) => {
      const account = req.account!;
      const userId = touch(account, req.body.user);
      return store.insertExposures(
        account.id,
        req.body.summaries.map((s) => ({ ...s, user_id: s.user_id ?? userId })),
        now(),
      );
    },
  );

  app.post<{ Body: DevicesRequest; Params: { userId: string } }>(
    "/v1/users/:userId/devices/",
    { onRequest: resolveAccount, schema: { body: devicesBody } },
    async (req) => {
      const result = store.addDevices(req.account!.id, req.body.add_devices, now());
      return { ...result, device_ids: req.body.add_devices.map((d) => d.device_customer_id) };
    },
  );

  app.post<{ Body: AlertRequest }>(
    "/v1/alerts/",
    { onRequest: resolveAccount, schema: { body: alertBody } },
    async (req) => {
      store.addAlert(req.account!.id, req.body, now());
      return { accepted: 1 };
    },
  );
}
