// Files the service serves: the storefront script (product.md §2), the account's generated
// snippet (settings global + script in one cacheable response), and the dashboard's static files.

import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { StorefitSettings } from "@storefit/contract";
import type { Account, Store } from "../store/types.js";
import { sendError } from "../http/errors.js";
import { errorResponses } from "../schemas/common.js";

const JS = "application/javascript; charset=utf-8";

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

/** The settings global of product.md §2 for one account. */
export function settingsFor(account: Account, apiHost: string): StorefitSettings {
  return {
    ...account.settings,
    client_key: account.client_key,
    api_host: apiHost,
    cdn_host: `${apiHost}/cdn`,
    dimension_id: account.id,
  };
}

/** `<` escaped so the settings can also be inlined in an HTML script tag safely. */
function jsLiteral(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

export function assetRoutes(
  app: FastifyInstance,
  opts: { store: Store; sdkDir: string; publicUrl?: string },
): void {
  const script = cachedFile(join(opts.sdkDir, "storefit.js"));
  const debugScript = cachedFile(join(opts.sdkDir, "storefit.debug.js"));

  const apiHostOf = (req: FastifyRequest) =>
    opts.publicUrl?.replace(/\/+$/, "") ?? `${req.protocol}://${req.host}`;

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

  for (const [path, file, summary] of [
    ["/sdk/storefit.js", script, "The storefront script (product.md §2)"],
    ["/sdk/storefit.debug.js", debugScript, "The storefront script with its log messages"],
  ] as const) {
    app.get(path, { schema: fileDoc(summary) }, async (req, reply) => {
      const f = file();
      if (!f) return sendError(reply, 404, "not_found", "The storefront script is not built (npm run build)");
      const etag = etagOf(f.text);
      reply.header("etag", etag).header("cache-control", "public, max-age=300");
      if (req.headers["if-none-match"] === etag) return reply.code(304).send();
      return reply.type(JS).send(f.text);
    });
  }

  app.get<{ Params: { clientKey: string } }>(
    "/v1/accounts/:clientKey/snippet.js",
    {
      schema: {
        ...fileDoc("The account's snippet: its settings global, then the storefront script"),
        params: { type: "object", required: ["clientKey"], properties: { clientKey: { type: "string", maxLength: 256 } } },
      },
    },
    async (req, reply) => {
      const account = opts.store.getAccountByClientKey(req.params.clientKey);
      if (!account) return sendError(reply, 404, "unknown_client_key");
      const f = script();
      if (!f) return sendError(reply, 404, "not_found", "The storefront script is not built (npm run build)");
      // Generated per request from the stored account: a change (PATCH /api/account) shows at
      // once, and the ETag — a hash of the whole answer — lets browsers and CDNs revalidate cheaply.
      const body = `window.storefitSettings=${jsLiteral(settingsFor(account, apiHostOf(req)))};\n${f.text}`;
      const etag = etagOf(body);
      reply.header("etag", etag).header("cache-control", "public, max-age=60");
      if (req.headers["if-none-match"] === etag) return reply.code(304).send();
      return reply.type(JS).send(body);
    },
  );
}
