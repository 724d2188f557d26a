// The admin API under /api/ (product.md §3 "Admin API and auth"): what the dashboard and
// server-to-server callers use. Who may do what is in auth/access.ts; each resource has its file.
// Every body is JSON (`application/json`): unlike the client API, nothing here needs to be
// CORS-simple, and a JSON-only rule keeps HTML forms of other sites out even before CSRF.

import type { FastifyInstance } from "fastify";
import type { Store } from "../store/types.js";
import type { AccessOptions } from "../auth/access.js";
import { sendError } from "../http/errors.js";
import type { SignInLimiter } from "../http/rate-limit.js";
import { sessionRoutes } from "./admin-session.js";
import { accountRoutes } from "./admin-account.js";
import { experienceRoutes } from "./admin-experiences.js";
import { audienceRoutes } from "./admin-audiences.js";
import { eventRoutes } from "./admin-events.js";
import { eventNameRoutes } from "./admin-event-names.js";
import { previewRoutes } from "./admin-preview.js";
import { pageCheckRoutes } from "./admin-page-check.js";

export type AdminOptions = AccessOptions & {
  store: Store;
  clock: () => number;
  secureCookies: boolean;
  signInLimiter: SignInLimiter | null;
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
  pageCheckRoutes(app, opts);
  eventRoutes(app, opts);
  eventNameRoutes(app, opts);
}
