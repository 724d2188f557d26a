// JSON Schemas of the live events API (docs/api.md "Events"; packages/contract/src/admin.ts
// EventListResponse, VisitorTimelineResponse).

import { obj, str } from "./common.js";

const timestamp = { type: "string", description: "ISO 8601" };
/** Query values are strings; the validator does not coerce types. */
const LIMIT = { type: "string", pattern: "^(?:[1-9][0-9]?|[1-4][0-9]{2}|500)$", description: "1–500, default 50" };
const CURSOR = { type: "string", pattern: "^[0-9]{1,15}$" };
const VISITOR = {
  type: "string",
  maxLength: 256,
  description: "A visitor: the user id the service answers (`u_…`) or the shop's customer id (user_customer_id)",
};

export const eventsQuery = obj({
  limit: LIMIT,
  type: { type: "string", maxLength: 64, description: "Only events of this type (any case: PAGE, CLICK, TRACK, …; empty: all)" },
  domain: { type: "string", maxLength: 253, description: "Only events of this domain, whole, any case (empty: all)" },
  q: { type: "string", maxLength: 200, description: "Only events whose page path or name contains this text, any ASCII case (empty: all)" },
  visitor: { ...VISITOR, description: `Only this visitor's events. ${VISITOR.description} (empty: all)` },
  experience: { type: "string", maxLength: 128, description: "Only events of visitors exposed to this experience (its id; empty: all)" },
  before: { ...CURSOR, description: "A page's `older` cursor: the newest events stored before it" },
  after: { ...CURSOR, description: "A page's `newer` cursor: the oldest events stored after it (still listed newest first)" },
});

const scalar = { type: ["string", "number", "boolean"] };

export const storedEventSchema = obj(
  {
    seq: { type: "integer", description: "The event's place in the account's stream: the paging cursor" },
    insert_id: str(128),
    event_type: str(64),
    event_customer_id: str(512),
    name: { type: "string", description: "Its `name`, else what follows `|` in event_customer_id" },
    domain: str(253),
    page_path: { type: ["string", "null"] },
    user_id: str(64),
    session_id: { type: ["string", "null"] },
    event_timestamp: { type: "number" },
    received_at: timestamp,
    properties: { type: "object", additionalProperties: scalar, description: "Its properties with text, number or boolean values" },
    template_experience: {
      anyOf: [
        obj(
          {
            experience_id: { type: "string" },
            experience_name: { type: "string" },
            variation_id: { type: ["string", "null"], description: "null: several variations of the experience hold the config" },
            variation_name: { type: ["string", "null"] },
          },
          ["experience_id", "experience_name", "variation_id", "variation_name"],
        ),
        { type: "null" },
      ],
      description:
        "A popup's view or button click: the experience and variation holding the config its properties.config_id names; null for other events and for a config no experience of the account holds",
    },
  },
  [
    "seq",
    "insert_id",
    "event_type",
    "event_customer_id",
    "name",
    "domain",
    "page_path",
    "user_id",
    "session_id",
    "event_timestamp",
    "received_at",
    "properties",
    "template_experience",
  ],
);

export const eventListSchema = obj(
  {
    total: { type: "integer", description: "The events matching the filters, on every page; with total_exact false, at least this many" },
    total_exact: {
      type: "boolean",
      description: "false: a filtered count stopped at 10,000 or after the newest 50,000 events (or the visitor's) without reaching the oldest",
    },
    events: { type: "array", items: storedEventSchema },
    older: { type: ["integer", "null"], description: "`before` of the next older page; null: none" },
    newer: { type: ["integer", "null"], description: "`after` of the next newer page; null: this page holds the newest" },
    searched: {
      type: ["integer", "null"],
      description:
        "The page is not full because its search stopped after this many events (50,000, the most one request looks at); the cursor in the paging direction (older, or newer for an after page) continues it. null: not cut",
    },
  },
  ["total", "total_exact", "events", "older", "newer", "searched"],
);

export const timelineParams = obj({ visitor: { ...VISITOR, minLength: 1 } }, ["visitor"]);
export const timelineQuery = obj({ limit: { ...LIMIT, description: "1–500 of each kind, default 200" } });

const exposureItem = obj(
  {
    kind: { const: "exposure" },
    at: { type: "number", description: "When the page showed it, in milliseconds (the visitor's clock)" },
    experience_id: { type: ["string", "null"] },
    experience_name: { type: ["string", "null"], description: "null: the experience was deleted" },
    variation_id: str(128),
    variation_name: { type: ["string", "null"] },
    session_id: { type: ["string", "null"] },
    forced: { type: "boolean", description: "Not drawn at random (preview, forced): left out of the results" },
  },
  ["kind", "at", "experience_id", "experience_name", "variation_id", "variation_name", "session_id", "forced"],
);
const eventItem = obj({ kind: { const: "event" }, at: { type: "number" }, event: storedEventSchema }, ["kind", "at", "event"]);

export const timelineSchema = obj(
  {
    visitor: obj(
      {
        user_id: str(64),
        user_customer_id: { type: ["string", "null"] },
        first_seen: { type: ["string", "null"] },
        last_seen: { type: ["string", "null"] },
      },
      ["user_id", "user_customer_id", "first_seen", "last_seen"],
    ),
    items: { type: "array", items: { anyOf: [eventItem, exposureItem] }, description: "Oldest first" },
    truncated: { type: "boolean", description: "Older events or exposures were left out" },
  },
  ["visitor", "items", "truncated"],
);
