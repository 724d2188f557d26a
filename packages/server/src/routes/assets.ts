// Files the service serves: the storefront script (product.md §2), the account's generated
// snippet (settings global + script in one cacheable response), and the dashboard's static files.

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { StorefitSettings } from "@storefit/contract";
import type { Account, Store } from "../store/types.js";
import { sendError } from "../http/errors.js";
import { errorResponses } from "../schemas/common.js";

const JS = "application/javascript; charset=utf-8";

/** Names of the SDK's built files: lower-case words and dashes, optionally ".debug", then ".js". */
export const SDK_FILE_PATTERN = "^[a-z][a-z-]{0,63}(\\.debug)?\\.js$";

/** Reads a file once per change of its mtime, so a rebuilt script is served without a restart. */
function cachedFile(path: string): () => { text: string; mtimeMs: number } | null {
  let cache: { text: string; mtimeMs: number } | null = null;
  return () => {
    try {
      const { mtimeMs } = statSync(path);
      if (!cache || cache.mtimeMs !== mtimeMs) cache = { text: readFileSync(path, "utf8"), mtimeMs };
      return cache;
    } catch {
      return null;
    }
  };
}

function etagOf(text: string): string {
  return `"${createHash("sha1").update(text).digest("base64url")}"`;
}

/** The snippet's caching: always revalidated, in the background while a week-old copy is used. */
export const SNIPPET_CACHE_CONTROL = "public, max-age=0, stale-while-revalidate=604800";

/**
 * The snippet's text: the settings line, then the script. A compile hint that starts the script
 * (packages/sdk/compile-hint.mjs) starts the snippet instead: V8 reads it as the file's first line.
 */
export function snippetOf(settingsLine: string, script: string): string {
  const hint = /^\/\/# allFunctionsCalledOnLoad\n/.exec(script)?.[0] ?? "";
  return `${hint}${settingsLine}\n${script.slice(hint.length)}`;
}

/** The settings global of product.md §2 for one account. */
export function settingsFor(account: Account, apiHost: string): StorefitSettings {
  return {
    ...account.settings,
    client_key: account.client_key,
    api_host: apiHost,
    cdn_host: `${apiHost}/cdn`,
    dimension_id: account.id,
    revision: account.revision,
  };
}

/** `scheme://host[:port]` as browsers serialize it (lower case, default port dropped); null: not one. */
export function originOf(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

function isLoopback(origin: string): boolean {
  const { hostname } = new URL(origin);
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** `<` escaped so the settings can also be inlined in an HTML script tag safely. */
function jsLiteral(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

export function assetRoutes(
  app: FastifyInstance,
  opts: { store: Store; sdkDir: string; publicUrl?: string; publicOrigins?: readonly string[]; trustsProxy?: boolean },
): void {
  const script = cachedFile(join(opts.sdkDir, "storefit.js"));
  const publicUrl = opts.publicUrl?.replace(/\/+$/, "");
  const publicOrigins = (opts.publicOrigins ?? []).map(originOf).filter((o): o is string => o !== null);
  const knownOrigins = new Set(publicOrigins);
  // Behind a trusted proxy Fastify reads the host and scheme from X-Forwarded-Host and
  // X-Forwarded-Proto when they are sent, so without PUBLIC_URL the snippet depends on them too.
  const varyBy = opts.trustsProxy ? "Host, X-Forwarded-Host, X-Forwarded-Proto" : "Host";

  /**
   * The api_host a snippet names: PUBLIC_URL, else the origin the request was made to when it
   * is one of the public origins, else the first public origin. A made-up Host header never ends
   * up in a snippet a cache keeps for other visitors (issue #17). With no origin configured at
   * all (tests, the browser tests' stack) loopback hosts are taken: only a browser on this
   * machine reaches them.
   */
  const apiHostOf = (req: FastifyRequest): string | null => {
    if (publicUrl) return publicUrl;
    const asked = originOf(`${req.protocol}://${req.host}`);
    if (asked && (knownOrigins.has(asked) || (knownOrigins.size === 0 && isLoopback(asked)))) return asked;
    return publicOrigins[0] ?? null;
  };

  const fileDoc = (summary: string) => ({
    summary,
    tags: ["files"],
    security: [],
    response: {
      200: { description: "JavaScript (application/javascript), with an ETag" },
      304: { description: "Not modified (If-None-Match)", type: "null" },
      ...errorResponses(404),
    },
  });

  // Every file the SDK build emits (packages/sdk/dist): storefit.js and its lazy extension
  // storefit-ext.js (templates, forms, scroll…, loaded from `${api_host}/sdk/`), the editor
  // bridge, the Shopify pixel, and their debug twins. Names are checked against SDK_FILE_PATTERN,
  // so nothing outside the directory can be asked for.
  const files = new Map<string, ReturnType<typeof cachedFile>>();
  app.get<{ Params: { file: string } }>(
    "/sdk/:file",
    {
      schema: {
        ...fileDoc("A storefront script file: storefit.js (product.md §2), storefit-ext.js, storefit-editor.js, shopify-pixel.js, or a .debug.js twin"),
        params: { type: "object", required: ["file"], additionalProperties: false, properties: { file: { type: "string", pattern: SDK_FILE_PATTERN } } },
      },
    },
    async (req, reply) => {
      const file = files.get(req.params.file) ?? cachedFile(join(opts.sdkDir, req.params.file));
      const f = file();
      if (!f) return sendError(reply, 404, "not_found", `${req.params.file} is not built (npm run build)`);
      files.set(req.params.file, file); // only files that exist: made-up names cannot grow it
      const etag = etagOf(f.text);
      reply.header("etag", etag).header("cache-control", "public, max-age=300").header("x-content-type-options", "nosniff");
      if (req.headers["if-none-match"] === etag) return reply.code(304).send();
      return reply.type(JS).send(f.text);
    },
  );

  app.get<{ Params: { clientKey: string } }>(
    "/v1/accounts/:clientKey/snippet.js",
    {
      schema: {
        ...fileDoc("The account's snippet: its settings global, then the storefront script"),
        params: { type: "object", required: ["clientKey"], properties: { clientKey: { type: "string", maxLength: 256 } } },
      },
    },
    async (req, reply) => {
      const account = await opts.store.getAccountByClientKey(req.params.clientKey);
      if (!account) return sendError(reply, 404, "unknown_client_key");
      const f = script();
      if (!f) return sendError(reply, 404, "not_found", "The storefront script is not built (npm run build)");
      // Without PUBLIC_URL the answer depends on the Host header: a shared cache keeps one per host.
      if (!publicUrl) reply.header("vary", varyBy);
      const apiHost = apiHostOf(req);
      if (!apiHost) {
        return sendError(reply, 421, "forbidden_origin", `${req.host} is not a public origin of this service (set PUBLIC_URL or PUBLIC_ORIGINS)`);
      }
      // Generated per request from the stored account: a change (PATCH /api/account) shows at
      // once, and the ETag — a hash of the whole answer — lets browsers and CDNs revalidate cheaply.
      // Stale-while-revalidate: a page load never waits for the snippet it already has, and its
      // `revision` is at most one page view old (docs/api.md "Answer cache"): a view after a
      // publish runs the kept snippet and fetches the new one for the next view.
      const body = snippetOf(`window.storefitSettings=${jsLiteral(settingsFor(account, apiHost))};`, f.text);
      const etag = etagOf(body);
      reply.header("etag", etag).header("cache-control", SNIPPET_CACHE_CONTROL).header("x-content-type-options", "nosniff");
      if (req.headers["if-none-match"] === etag) return reply.code(304).send();
      return reply.type(JS).send(body);
    },
  );
}

const DASHBOARD_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": JS,
  ".mjs": JS,
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

type MemoryFile = { body: Buffer; etag: string; mtimeMs: number };

/**
 * The dashboard's built files, served from memory. Each is read with readFileSync on its first
 * request and again only when its mtime changes (a rebuild): neither the read nor the stat goes
 * through libuv's thread pool, where password hashing runs, so a sign-in flood never delays the
 * dashboard (issue #17: its bundle once took 17 s instead of 44 ms behind scrypt). The files
 * present at start-up get a route each, "/" is index.html; `sendIndex` answers the single-page
 * app's other routes.
 */
export function dashboardRoutes(
  app: FastifyInstance,
  opts: { dir: string; headers: Readonly<Record<string, string>> },
): { sendIndex: (reply: FastifyReply) => FastifyReply } {
  const cache = new Map<string, MemoryFile>();
  const load = (path: string): MemoryFile | null => {
    try {
      const { mtimeMs } = statSync(path);
      let f = cache.get(path);
      if (!f || f.mtimeMs !== mtimeMs) {
        const body = readFileSync(path);
        f = { body, etag: `"${createHash("sha1").update(body).digest("base64url")}"`, mtimeMs };
        cache.set(path, f);
      }
      return f;
    } catch {
      return null;
    }
  };
  const send = (req: FastifyRequest | null, reply: FastifyReply, path: string): FastifyReply => {
    const f = load(path);
    if (!f) return sendError(reply, 404, "not_found");
    reply.headers(opts.headers).header("etag", f.etag).header("cache-control", "public, max-age=0");
    if (req && req.headers["if-none-match"] === f.etag) return reply.code(304).send();
    return reply.type(DASHBOARD_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream").send(f.body);
  };
  const index = join(opts.dir, "index.html");
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
  const schema = { summary: "A file of the dashboard (the operators' app)", tags: ["files"], security: [] };
  for (const file of walk(opts.dir)) {
    const url = "/" + relative(opts.dir, file).split(sep).join("/");
    app.get(url, { schema }, (req, reply) => send(req, reply, file));
  }
  app.get("/", { schema }, (req, reply) => send(req, reply, index));
  return { sendIndex: (reply) => send(reply.request, reply, index) };
}
