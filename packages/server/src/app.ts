// The app factory (conventions, habit 8): `buildApp({ store, clock, log })` returns the Fastify
// app; `main.ts` reads the environment and listens. Tests call it without a socket (`inject`).

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Fastify from "fastify";
import { isStoreBusy } from "./store/errors.js";
import type { FastifyError, FastifyInstance } from "fastify";
import cookie from "@fastify/cookie";
import { MAX_BODY_BYTES } from "@storefit/contract";
import type { Store } from "./store/types.js";
import { AccountSnapshots } from "./decide/snapshots.js";
import { HttpError, sendError, sendRateLimited } from "./http/errors.js";
import { RESERVED_ID_MESSAGE } from "./schemas/common.js";
import {
  CLIENT_BODY_LIMIT,
  DASHBOARD_CSP,
  DEFAULT_SERVER_LIMITS,
  bodyLimitFor,
  capConnectionsPerAddress,
  clientErrorAnswer,
  closeIdleNearCap,
  formatBytes,
  jsonLimitsFor,
  trustedProxies,
} from "./http/edge.js";
import type { ServerLimits } from "./http/edge.js";
import { jsonLimitProblem } from "./http/json-limits.js";
import { openApiRoutes } from "./http/openapi.js";
import { AdminLimiter } from "./http/admin-limit.js";
import { DEFAULT_RATE_LIMITS, SignInLimiter, TokenBuckets, addressKey } from "./http/rate-limit.js";
import type { RateLimit, RateLimits } from "./http/rate-limit.js";
import { clientRoutes } from "./routes/client.js";
import { adminRoutes } from "./routes/admin.js";
import { assetRoutes, dashboardRoutes } from "./routes/assets.js";

/** The service's version, in the OpenAPI document. */
export const SERVICE_VERSION = "0.1.0";

export type AppOptions = {
  store: Store;
  /** Milliseconds since the epoch; tests pass a fixed clock. */
  clock?: () => number;
  /** Log to stdout (true), not at all (false, the default), or to a stream of the caller's (tests). */
  log?: boolean | { stream: { write(line: string): void }; level?: string };
  /** Where storefit.js lives (default: packages/sdk/dist). */
  sdkDir?: string;
  /** The dashboard's built files (default: packages/dashboard/dist); absent → not served. */
  dashboardDir?: string;
  /** The public origin of the service, used as api_host in snippets (default: from the request). */
  publicUrl?: string;
  /**
   * Without publicUrl: the origins (`scheme://host[:port]`) whose Host header the snippet may name
   * as api_host; another Host gets the first of them (docs/security.md). Loopback hosts always may.
   */
  publicOrigins?: string[];
  /** Time-outs and caps of the node HTTP server (defaults: DEFAULT_SERVER_LIMITS). */
  serverLimits?: Partial<ServerLimits>;
  /** Token-bucket rate limits per key and client address (defaults: DEFAULT_RATE_LIMITS); `false` turns one off. */
  rateLimits?: RateLimits;
  /**
   * Fastify's trustProxy: whether (or from which proxies) X-Forwarded-For names the client whose
   * address the per-address limits count. Off by default: the header is then ignored, as any
   * client can send it (docs/security.md "Behind a reverse proxy").
   */
  trustProxy?: boolean | string | string[];
};

/**
 * The longest path parameter the router takes, decoded, in UTF-16 units. The schemas allow up to
 * 256 characters (a visitor's customer id in /api/visitors/:visitor/timeline, a client key), twice
 * that in units for characters outside the BMP; Fastify's default, 100, refused longer valid ones.
 */
const MAX_PARAM_LENGTH = 512;

/** Every file of the dashboard (docs/security.md "Headers"). */
const DASHBOARD_HEADERS = {
  "content-security-policy": DASHBOARD_CSP,
  "x-content-type-options": "nosniff",
  // The shop pages the visual editor frames never learn the dashboard's addresses.
  "referrer-policy": "same-origin",
} as const;

/** `RangeError: message (at file:line:col)`, newlines folded: one log line per failure. */
function oneLine(err: Error): string {
  const at = err.stack?.split("\n").find((l) => /^\s+at /.test(l))?.trim().replace(/^at /, "");
  return `${err.name}: ${err.message}${at ? ` (at ${at})` : ""}`.replace(/\s*\n\s*/g, " ");
}

/** A client API body over its address's byte budget (rate-limit.ts `clientIpBytes`): a 429. */
class BodyBytesLimited extends Error {
  constructor(readonly retryAfterS: number) {
    super("rate_limited");
  }
}

// src/ and dist/ both sit one level below packages/server, so one relative path serves both.
const defaultDir = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const clock = opts.clock ?? Date.now;
  const limits = { ...DEFAULT_RATE_LIMITS, ...opts.rateLimits };
  const limiter = (limit: RateLimit | false) => (limit ? new TokenBuckets(limit, clock) : null);
  const server = { ...DEFAULT_SERVER_LIMITS, ...opts.serverLimits };
  const log = opts.log ?? false;
  const app = Fastify({
    logger: log,
    trustProxy: opts.trustProxy ?? false,
    bodyLimit: MAX_BODY_BYTES,
    // Slow and idle clients (issue #17): a request that never finishes is answered 408 and closed.
    requestTimeout: server.requestTimeoutMs,
    keepAliveTimeout: server.keepAliveTimeoutMs,
    maxRequestsPerSocket: server.maxRequestsPerSocket,
    http: { headersTimeout: server.headersTimeoutMs, connectionsCheckingInterval: server.checkIntervalMs },
    // What Node's HTTP parser refuses (malformed, headers too large, too slow) in our error shape.
    clientErrorHandler: clientErrorAnswer,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // A path the router cannot read (bad percent-encoding, a segment over maxParamLength) in our
    // error shape and headers; Fastify's own answer echoes the path and lacks nosniff.
    frameworkErrors: (err, _req, reply) => {
      if (err.code === "FST_ERR_MAX_PARAM_LENGTH") {
        return sendError(reply, 414, "bad_request", `A part of the path is longer than ${MAX_PARAM_LENGTH} characters`);
      }
      if (err.code === "FST_ERR_BAD_URL") return sendError(reply, 400, "bad_request", "The path is not valid percent-encoded UTF-8");
      return sendError(reply, 500, "internal");
    },
    // Validate, never repair: no coercion and no silent removal of unknown keys.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: false } },
  });

  // Connections: the node's cap, one address's share of it, idle ones closed near it (http/edge.ts).
  if (server.maxConnectionsPerAddress > 0) capConnectionsPerAddress(app.server, server.maxConnectionsPerAddress, trustedProxies(opts.trustProxy));
  if (server.maxConnections > 0) {
    app.server.maxConnections = server.maxConnections;
    closeIdleNearCap(app.server, server.maxConnections);
  }

  // Each route's body limit by its family (http/edge.ts), set as routes are added.
  app.addHook("onRoute", (route) => {
    route.bodyLimit ??= bodyLimitFor(route.url ?? "");
  });

  // Bodies are JSON text under any of these content types (spec §7: "JSON text sent with a
  // form-encoded content type"); beacons arrive as text/plain.
  if (limits.clientIpBytes && limits.clientIpBytes.burst < CLIENT_BODY_LIMIT) {
    throw new Error(`the client byte budget's burst (${limits.clientIpBytes.burst}) must hold the largest client body (${CLIENT_BODY_LIMIT} bytes)`);
  }
  const bodyBytes = limiter(limits.clientIpBytes);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ["application/json", "text/plain", "application/x-www-form-urlencoded"],
    { parseAs: "string" },
    (req, body, done) => {
      const text = typeof body === "string" ? body : body.toString("utf8");
      // The address's byte budget, before the body costs any parsing (after the request's tokens,
      // taken when it arrived: routes/client.ts).
      const address = bodyBytes && req.url.startsWith("/v1/") ? addressKey(req.ip) : null;
      if (bodyBytes && address !== null) {
        const taken = bodyBytes.take(address, Buffer.byteLength(text));
        if (!taken.ok) return done(new BodyBytesLimited(taken.retryAfterS), undefined);
      }
      // Depth and string lengths are counted on the text before JSON.parse runs (http/json-limits.ts).
      const tooMuch = jsonLimitProblem(text, jsonLimitsFor(req.routeOptions.url));
      if (tooMuch) return done(new HttpError(400, "invalid_body", tooMuch), undefined);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Only a body that fails to parse is looked at again (trimming every body cost a copy).
        return done(new HttpError(400, "invalid_json", /^\s*$/.test(text) ? "The body is empty" : undefined), undefined);
      }
      done(null, parsed);
    },
  );

  // Response schemas document the answers (in /api/openapi.json); they do not filter them.
  // Fastify would otherwise compile them into serializers that drop undeclared fields, and a
  // config's variation is open-ended (spec §3).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.setErrorHandler((err: FastifyError | HttpError | BodyBytesLimited, req, reply) => {
    if (err instanceof HttpError) return sendError(reply, err.statusCode, err.code, err.message);
    if (err instanceof BodyBytesLimited) return sendRateLimited(reply, err.retryAfterS);
    if ("validation" in err && err.validation) {
      // `not` is only used to refuse reserved ids (schemas/common.ts).
      const message = err.message.replace(/^(body|querystring|params)/, "").replace(/must NOT be valid$/, RESERVED_ID_MESSAGE);
      return sendError(reply, 400, "invalid_body", `${err.validationContext ?? "body"}${message}`);
    }
    switch (err.code) {
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        return sendError(reply, 413, "payload_too_large", `The body is larger than ${formatBytes(req.routeOptions.bodyLimit)}`);
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return sendError(reply, 415, "unsupported_media_type");
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
      case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
        return sendError(reply, 400, "invalid_json", err.message);
    }
    // The database is busy (another node held a lock too long) or out of reach: nothing was
    // written; the caller may retry.
    if (isStoreBusy(err)) {
      reply.header("retry-after", "1");
      return sendError(reply, 503, "busy");
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendError(reply, status, "invalid_body", err.message);
    // One line with the request id (the logger adds reqId), the error and where it was thrown:
    // enough to find it, without a stack trace per failed request filling the log.
    req.log.error(`unhandled error: ${oneLine(err)}`);
    return sendError(reply, 500, "internal");
  });

  // First, so that it sees every route registered after it.
  openApiRoutes(app, SERVICE_VERSION);

  app.get(
    "/healthz",
    { schema: { summary: "Liveness", tags: ["files"], security: [], response: { 200: { type: "object", properties: { ok: { const: true } } } } } },
    async () => ({ ok: true }),
  );
  clientRoutes(app, {
    store: opts.store,
    clock,
    snapshots: new AccountSnapshots(opts.store),
    limiter: limiter(limits.clientKey),
    ipLimiter: limiter(limits.clientIp),
  });
  // The admin API in its own plugin context: only it reads and sets cookies, so the client API's
  // hot path does not pay for the cookie plugin's hooks.
  await app.register(async (admin) => {
    admin.addHook("onRequest", async (_req, reply) => {
      reply.header("x-content-type-options", "nosniff");
    });
    await admin.register(cookie);
    adminRoutes(admin, {
      store: opts.store,
      clock,
      secureCookies: opts.publicUrl?.startsWith("https:") ?? false,
      limiter:
        limits.secretKey || limits.adminSession || limits.adminHeavy
          ? new AdminLimiter({ operator: limits.adminSession, secretKey: limits.secretKey, heavy: limits.adminHeavy }, clock)
          : null,
      signInLimiter: limits.signIn || limits.signInIp ? new SignInLimiter(limits.signIn, limits.signInIp, clock) : null,
    });
  });
  assetRoutes(app, {
    store: opts.store,
    sdkDir: opts.sdkDir ?? defaultDir("../../sdk/dist/"),
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    publicOrigins: opts.publicOrigins ?? [],
    trustsProxy: Array.isArray(opts.trustProxy) ? opts.trustProxy.length > 0 : Boolean(opts.trustProxy),
  });

  const dashboardDir = opts.dashboardDir ?? defaultDir("../../dashboard/dist/");
  // From memory, never through the thread pool that password hashing uses (routes/assets.ts).
  const dashboard = existsSync(`${dashboardDir}/index.html`) ? dashboardRoutes(app, { dir: dashboardDir, headers: DASHBOARD_HEADERS }) : null;

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split("?")[0] ?? "";
    // The dashboard is a single-page app: its routes fall back to index.html.
    if (dashboard && req.method === "GET" && !/^\/(api|v1|sdk)(\/|$)/.test(path)) return dashboard.sendIndex(reply);
    return sendError(reply, 404, "not_found", `No route for ${req.method} ${path}`);
  });

  return app;
}
