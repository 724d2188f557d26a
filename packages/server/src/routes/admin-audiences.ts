// Audiences (product.md §3): named conditions over the visitor's attributes, shared by the
// rules of experiences. The condition is checked with validateCondition when saved, so a broken
// one is refused at once rather than silently matching nobody at decision time.

import type { FastifyInstance } from "fastify";
import type { Audience, AudienceInput, AudienceListResponse } from "@storefit/contract";
import { requireAccess } from "../auth/access.js";
import { newId } from "../admin/experiences.js";
import { validateCondition } from "../decide/conditions.js";
import { HttpError, sendError } from "../http/errors.js";
import { ADMIN_SECURITY, errorResponses, idParams } from "../schemas/common.js";
import { audienceBody, audienceListSchema, audienceSchema } from "../schemas/admin.js";
import type { AdminOptions } from "./admin.js";

function checkCondition(condition: unknown): void {
  const result = validateCondition(condition);
  if (!result.ok) {
    const where = result.path ? ` at ${result.path}` : "";
    throw new HttpError(400, "invalid_condition", `The condition is not valid${where}: ${result.error}`);
  }
}

export function audienceRoutes(app: FastifyInstance, opts: AdminOptions): void {
  const { store } = opts;
  const viewer = requireAccess(opts, "viewer");
  const editor = requireAccess(opts, "editor");
  const doc = (summary: string) => ({ summary, tags: ["audiences"], security: ADMIN_SECURITY });

  const load = (accountId: string, audienceId: string): Audience => {
    const a = store.getAudience(accountId, audienceId);
    if (!a) throw new HttpError(404, "not_found", `No audience "${audienceId}" in this account`);
    return a;
  };

  app.get(
    "/api/audiences",
    { onRequest: viewer, schema: { ...doc("All audiences, oldest first"), response: { 200: audienceListSchema, ...errorResponses(401) } } },
    async (req): Promise<AudienceListResponse> => ({ audiences: store.listAudiences(req.caller!.account.id) }),
  );

  app.post<{ Body: AudienceInput }>(
    "/api/audiences",
    {
      onRequest: editor,
      schema: {
        ...doc("Create an audience; the condition is validated"),
        body: audienceBody,
        response: { 201: audienceSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (req, reply) => {
      checkCondition(req.body.condition);
      const saved = store.saveAudience({
        id: newId("aud"),
        account_id: req.caller!.account.id,
        name: req.body.name,
        description: req.body.description ?? "",
        condition: req.body.condition,
      });
      return reply.code(201).send(saved);
    },
  );

  app.get<{ Params: { id: string } }>(
    "/api/audiences/:id",
    { onRequest: viewer, schema: { ...doc("One audience"), params: idParams, response: { 200: audienceSchema, ...errorResponses(400, 401, 404) } } },
    async (req) => load(req.caller!.account.id, req.params.id),
  );

  app.put<{ Params: { id: string }; Body: AudienceInput }>(
    "/api/audiences/:id",
    {
      onRequest: editor,
      schema: {
        ...doc("Replace an audience; running experiences use the new condition on the next config call"),
        params: idParams,
        body: audienceBody,
        response: { 200: audienceSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (req) => {
      const accountId = req.caller!.account.id;
      const current = load(accountId, req.params.id);
      checkCondition(req.body.condition);
      return store.saveAudience({
        id: current.id,
        account_id: accountId,
        name: req.body.name,
        description: req.body.description ?? "",
        condition: req.body.condition,
      });
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/api/audiences/:id",
    {
      onRequest: editor,
      schema: {
        ...doc("Delete an audience no experience uses"),
        params: idParams,
        response: { 204: { description: "Deleted", type: "null" }, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const accountId = req.caller!.account.id;
      const current = load(accountId, req.params.id);
      const users = store
        .listExperiences(accountId)
        .filter((e) => e.rules.some((r) => r.audience_id === current.id))
        .map((e) => e.name);
      if (users.length > 0) return sendError(reply, 409, "in_use", `Used by: ${users.join(", ")}`);
      store.deleteAudience(accountId, current.id);
      return reply.code(204).send();
    },
  );
}
