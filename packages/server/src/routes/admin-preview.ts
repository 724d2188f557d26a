// Preview tokens for the dashboard's preview links (docs/security.md "Preview links"): an operator
// gets a short-lived token that makes the shop's config call honour preview mode, which shows
// draft and paused experiences (auth/preview-token.ts).

import type { FastifyInstance } from "fastify";
import { requireAccess } from "../auth/access.js";
import type { AccessOptions } from "../auth/access.js";
import { mintPreviewToken, previewTokenKey } from "../auth/preview-token.js";
import { ADMIN_SECURITY, errorResponses, obj, str } from "../schemas/common.js";

export function previewRoutes(app: FastifyInstance, opts: AccessOptions): void {
  app.post(
    "/api/preview-token",
    {
      onRequest: requireAccess(opts, "viewer"),
      schema: {
        summary: "A preview token of the account, valid for one hour",
        description:
          "Put it in a shop URL as cf_preview_token, with customfit_preview=1: the config call then shows draft and paused experiences (preview_mode). Without it, preview_mode answers running experiences only.",
        tags: ["experiences"],
        security: ADMIN_SECURITY,
        response: {
          200: obj({ token: str(128, 1), expires_at: { type: "string", format: "date-time" } }, ["token", "expires_at"]),
          ...errorResponses(401, 403),
        },
      },
    },
    async (req): Promise<{ token: string; expires_at: string }> => {
      const { token, expiresAt } = mintPreviewToken(await previewTokenKey(opts.store), req.caller!.account.id, opts.clock());
      return { token, expires_at: new Date(expiresAt).toISOString() };
    },
  );
}
