// The admin API under /api/ (product.md §3 "Admin API and auth"): what the dashboard and
// server-to-server callers use. Who may do what is in auth/access.ts; each resource has its file.
// Every body is JSON (`application/json`): unlike the client API, nothing here needs to be
// CORS-simple, and a JSON-only rule keeps HTML forms of other sites out even before CSRF.

import type { FastifyInstance } from "fastify";
import type { EventListResponse } from "@storefit/contract";
import type { EventFilter, Store } from "../store/types.js";
import { requireAccess } from "../auth/access.js";
import type { AccessOptions } from "../auth/access.js";
import { sendError } from "../http/errors.js";
import type { TokenBuckets } from "../http/rate-limit.js";
import { ADMIN_SECURITY, errorResponses } from "../schemas/common.js";
import { eventListSchema, eventsQuery } from "../schemas/admin.js";
import { sessionRoutes } from "./admin-session.js";
import { accountRoutes } from "./admin-account.js";
import { experienceRoutes } from "./admin-experiences.js";
import { audienceRoutes } from "./admin-audiences.js";
import { previewRoutes } from "./admin-preview.js";

export type AdminOptions = AccessOptions & {
  store: Store;
  clock: () => number;
  secureCookies: boolean;
  signInLimiter: TokenBuckets | null;
};


export function adminRoutes(app: FastifyInstance, opts: AdminOptions): void {
  app.addHook("onRequest", async (req, reply) => {
    if (!req.url.startsWith("/api/")) return;
    const type = req.headers["content-type"];
    const hasBody = req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0";
    if ((hasBody || req.headers["transfer-encoding"]) && !(type ?? "").toLowerCase().startsWith("application/json")) {
      return sendError(reply, 415, "unsupported_media_type", "The admin API takes application/json bodies");
    }
  });

  sessionRoutes(app, opts);
  accountRoutes(app, opts);
  experienceRoutes(app, opts);
  audienceRoutes(app, opts);
  previewRoutes(app, opts);

  app.get<{ Querystring: { limit?: string; type?: string; domain?: string; q?: string } }>(
    "/api/events",
    {
      onRequest: requireAccess(opts, "viewer"),
      schema: {
        summary: "The latest stored events, newest first, with the total",
        tags: ["events"],
        security: ADMIN_SECURITY,
        querystring: eventsQuery,
        response: { 200: eventListSchema, ...errorResponses(400, 401) },
      },
    },
    async (req): Promise<EventListResponse> => {
      const accountId = req.caller!.account.id;
      // Filters (docs/api.md "Events"); `total` counts the matching events. Stored types are
      // spec §3's, upper case (the client API stores an unknown one as TRACK).
      const { type, domain, q } = req.query;
      const filter: EventFilter = {
        ...(type?.trim() ? { type: type.trim().toUpperCase() } : {}),
        ...(domain?.trim() ? { domain: domain.trim() } : {}),
        ...(q?.trim() ? { q: q.trim() } : {}),
      };
      return {
        total: await opts.store.countEvents(accountId, filter),
        events: (await opts.store.listEvents(accountId, Number(req.query.limit ?? 50), filter)).map((e) => ({
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
