// The event names the account has received, by type (docs/api.md "Event names"): a click, form or
// custom-event goal counts only the events whose name is exactly its own, so the goal editor offers
// the names the shop actually sends and says when a typed one is not among them.

import type { FastifyInstance } from "fastify";
import type { Store } from "../store/types.js";
import { NAMED_TYPES } from "../store/event-fields.js";
import { requireAccess } from "../auth/access.js";
import type { AccessOptions } from "../auth/access.js";
import { ADMIN_SECURITY, enumOf, errorResponses, obj, str } from "../schemas/common.js";

/**
 * The account's newest events one call looks at, at most, whatever the account holds: the same
 * bound as Live events' search. At 1M events a call costs about what one filtered Live events
 * page does (docs/api.md "Event names").
 */
export const EVENT_NAMES_WINDOW = 50_000;
/** The names answered, at most: the most recently received first. */
export const EVENT_NAMES_LIMIT = 100;

/** GET /api/events/names' answer. */
export type EventNamesResponse = {
  type: string;
  /** Distinct names, the most recently received first, with their events among those looked at. */
  names: { name: string; events: number }[];
  /** How many of the account's newest events were looked at, at most. */
  window: number;
  /** true: the window held every event of the account, so a name not listed was never received. */
  complete: boolean;
};

export function eventNameRoutes(app: FastifyInstance, opts: AccessOptions & { store: Store }): void {
  app.get<{ Querystring: { type: string } }>(
    "/api/events/names",
    {
      onRequest: requireAccess(opts, "viewer"),
      schema: {
        summary: "The names of the events of one type the account received recently, the newest first (for click, form and custom-event goals)",
        tags: ["events"],
        security: ADMIN_SECURITY,
        querystring: obj({ type: enumOf(NAMED_TYPES) }, ["type"]),
        response: {
          200: obj(
            {
              type: str(16),
              names: { type: "array", items: obj({ name: str(256), events: { type: "integer" } }, ["name", "events"]) },
              window: { type: "integer" },
              complete: { type: "boolean" },
            },
            ["type", "names", "window", "complete"],
          ),
          ...errorResponses(400, 401),
        },
      },
    },
    async (req): Promise<EventNamesResponse> => {
      const { type } = req.query;
      const found = await opts.store.recentEventNames(req.caller!.account.id, type, EVENT_NAMES_WINDOW, EVENT_NAMES_LIMIT);
      return { type, ...found, window: EVENT_NAMES_WINDOW };
    },
  );
}
