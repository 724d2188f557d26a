// The OpenAPI 3.1 document at /api/openapi.json, generated from the routes as registered: the
// JSON Schemas Fastify validates each request with, and the route's summary and answers. There
// is no second copy to keep in step, so the document cannot drift from what the service checks.

import type { FastifyInstance, RouteOptions } from "fastify";
import type { JsonSchema } from "../schemas/common.js";

// The documentation keys every route's schema may carry (the convention @fastify/swagger uses;
// Fastify ignores keys it does not validate with).
declare module "fastify" {
  interface FastifySchema {
    summary?: string;
    description?: string;
    tags?: readonly string[];
    security?: readonly Record<string, readonly string[]>[];
    /** Content types the body may arrive under (default application/json). */
    consumes?: readonly string[];
  }
}

type RouteSchema = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  consumes?: string[];
  body?: JsonSchema;
  querystring?: JsonSchema;
  params?: JsonSchema;
  response?: Record<string, JsonSchema>;
};

type CollectedRoute = { method: string; url: string; schema: RouteSchema };

/** Routes of the service itself (the dashboard's static files are not part of the API). */
const DOCUMENTED = /^\/(api|v1|sdk)\/|^\/healthz$/;

/** "/api/experiences/:id" → "/api/experiences/{id}"; a trailing "*" → "{path}". */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\*$/, "{path}");

function parameters(schema: JsonSchema | undefined, where: "query" | "path"): JsonSchema[] {
  const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema?.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    ...(typeof s.description === "string" ? { description: s.description } : {}),
    schema: s,
  }));
}

function operation(route: CollectedRoute, info: { title: string }): JsonSchema {
  const s = route.schema;
  const pathParams = parameters(s.params, "path");
  // A wildcard route has a path parameter Fastify calls "*".
  if (route.url.endsWith("*")) pathParams.push({ name: "path", in: "path", required: true, schema: { type: "string" } });
  const responses: Record<string, JsonSchema> = {};
  for (const [status, schema] of Object.entries(s.response ?? { 200: { description: "OK" } })) {
    const { description, ...body } = schema;
    const empty = status === "204" || body.type === "null" || Object.keys(body).length === 0;
    responses[status] = {
      description: typeof description === "string" ? description : "OK",
      ...(empty ? {} : { content: { "application/json": { schema: body } } }),
    };
  }
  return {
    operationId: `${route.method.toLowerCase()} ${route.url}`,
    summary: s.summary ?? `${route.method} ${route.url} (${info.title})`,
    ...(s.description ? { description: s.description } : {}),
    ...(s.tags ? { tags: s.tags } : {}),
    ...(s.security ? { security: s.security } : {}),
    parameters: [...pathParams, ...parameters(s.querystring, "query")],
    ...(s.body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries((s.consumes ?? ["application/json"]).map((type) => [type, { schema: s.body }])),
          },
        }
      : {}),
    responses,
  };
}

export function buildOpenApi(routes: readonly CollectedRoute[], version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const info = { title: "Storefit provider service", version };
  for (const r of routes) {
    if (r.method === "HEAD" || !DOCUMENTED.test(r.url)) continue;
    const path = openApiPath(r.url);
    (paths[path] ??= {})[r.method.toLowerCase()] = operation(r, info);
  }
  return {
    openapi: "3.1.0",
    info: {
      ...info,
      description:
        "The client API of the storefront script (spec §7, under /v1) and the admin API (under /api). Errors are always { error: { code, message } }.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    tags: [
      { name: "client", description: "The storefront script's calls (spec §7); the client key travels as cfenc" },
      { name: "session", description: "Operator sign-in (httpOnly SameSite cookie; CSRF token on writes)" },
      { name: "account" },
      { name: "members" },
      { name: "keys" },
      { name: "experiences" },
      { name: "audiences" },
      { name: "results" },
      { name: "events" },
      { name: "files" },
    ],
    components: {
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: "storefit_session",
          description: "Set by POST /api/session; writes also need the x-csrf-token header",
        },
        secretKey: { type: "http", scheme: "bearer", description: "A secret key sk_… (editor rights on its account)" },
        cfencQuery: { type: "apiKey", in: "query", name: "cfenc", description: "The client key" },
        cfencHeader: { type: "apiKey", in: "header", name: "cfenc", description: "The client key" },
      },
    },
    paths,
  };
}

/**
 * Collects every route registered after this call (Fastify's onRoute hook), and answers the
 * document built from them, once, on first request.
 */
export function openApiRoutes(app: FastifyInstance, version: string): void {
  const routes: CollectedRoute[] = [];
  app.addHook("onRoute", (r: RouteOptions) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const method of methods) routes.push({ method, url: r.url, schema: (r.schema ?? {}) as RouteSchema });
  });
  let document: JsonSchema | null = null;
  app.get(
    "/api/openapi.json",
    { schema: { summary: "This document (OpenAPI 3.1)", tags: ["files"], security: [] } },
    async () => (document ??= buildOpenApi(routes, version)),
  );
}
