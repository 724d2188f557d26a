// JSON Schemas of the client API bodies (spec §7). Validated at the edge: a body that does not
// fit gets 400 with the first problem, and nothing is stored. Top-level unknown keys are refused
// so that a typo in a client is seen at once; the nested user object stays open because the
// script adds derived properties over time.

import type { SecurityRequirement } from "../schemas/common.js";
import { configAnswerSchema } from "../schemas/config.js";
import { PREVIEW_TOKEN_MAX_LENGTH } from "../auth/preview-token.js";

const str = (maxLength = 1024) => ({ type: "string", maxLength }) as const;
const strArray = { type: "array", maxItems: 100, items: str(256) } as const;
/** The last millisecond a JavaScript Date can hold (ECMA-262 §21.4.1.1): later "times" are no dates. */
const MAX_DATE_MS = 8.64e15;

/**
 * A time as the script sends it (epoch milliseconds) or as looser clients do (ISO 8601 text):
 * product.md Appendix A asks to accept the looser form. routes/client.ts turns text into
 * milliseconds (epochMs) and refuses text that is no date.
 */
const time = { anyOf: [{ type: "number", minimum: 0, maximum: MAX_DATE_MS }, { type: "string", minLength: 1, maxLength: 64 }] } as const;

const user = {
  type: "object",
  required: ["user_customer_id"],
  properties: {
    user_customer_id: { type: "string", minLength: 1, maxLength: 256 },
    user_id: str(256),
    device_id: str(256),
    anonymous: { type: "boolean" },
    tags: strArray,
    properties: { type: "object", maxProperties: 500 },
  },
} as const;

const configSummary = {
  type: "object",
  required: ["config_id", "user_customer_id", "requested_time"],
  additionalProperties: false,
  properties: {
    config_id: { type: "string", minLength: 1, maxLength: 256 },
    version: { type: "number" },
    user_id: str(256),
    requested_time: time,
    variation_id: str(256),
    user_customer_id: { type: "string", minLength: 1, maxLength: 256 },
    session_id: str(256),
    behaviour_id: str(256),
    experience_id: str(256),
    rule_id: str(256),
    is_template_config: { type: "boolean" },
  },
} as const;

export const configsBody = {
  type: "object",
  required: ["user", "current_page_path", "current_domain"],
  additionalProperties: false,
  properties: {
    user,
    desired_experiences: strArray,
    preferred_experiences: strArray,
    cfid: str(256),
    preview_mode: { type: "boolean" },
    preview_token: { type: "string", maxLength: PREVIEW_TOKEN_MAX_LENGTH },
    current_page_path: str(4096),
    current_domain: { type: "string", minLength: 1, maxLength: 253 },
    session_id: str(256),
  },
} as const;

export const eventsBody = {
  type: "object",
  required: ["user", "events"],
  additionalProperties: false,
  properties: {
    user,
    cf_client_sdk_version: str(32),
    events: {
      type: "array",
      minItems: 1,
      maxItems: 500,
      items: {
        type: "object",
        required: ["event_type", "insert_id", "event_timestamp"],
        // Without event_customer_id it is derived from domain and name (spec §3 `domain|name`):
        // a beacon cannot read a 400, so refusing a field the service can derive would lose data.
        anyOf: [{ required: ["event_customer_id"] }, { required: ["name"] }],
        additionalProperties: false,
        properties: {
          properties: { type: "object", maxProperties: 500 },
          event_type: { type: "string", minLength: 1, maxLength: 64 },
          event_customer_id: { type: "string", minLength: 1, maxLength: 512 },
          domain: str(253),
          name: str(512),
          insert_id: { type: "string", minLength: 1, maxLength: 128 },
          event_timestamp: time,
          session_id: str(256),
          last_page_duration: { type: "number" },
          pageview_seq_number: { type: "number" },
          config_summary: { type: "array", maxItems: 200, items: configSummary },
          configs: strArray,
        },
      },
    },
  },
} as const;

export const summariesBody = {
  type: "object",
  required: ["user", "summaries"],
  additionalProperties: false,
  properties: {
    user,
    summaries: { type: "array", minItems: 1, maxItems: 200, items: configSummary },
  },
} as const;

export const devicesBody = {
  type: "object",
  required: ["add_devices"],
  additionalProperties: false,
  properties: {
    anonymous: { type: "boolean" },
    add_devices: {
      type: "array",
      minItems: 1,
      maxItems: 20,
      items: {
        type: "object",
        required: ["device_customer_id", "device_type", "user_id"],
        additionalProperties: false,
        properties: {
          device_customer_id: { type: "string", minLength: 1, maxLength: 256 },
          device_type: { const: "WEB" },
          user_id: { type: "string", minLength: 1, maxLength: 256 },
        },
      },
    },
  },
} as const;

export const alertBody = { type: "object", maxProperties: 50, description: "An error object (spec §8)" } as const;

// ---- documentation of the calls (served in /api/openapi.json) ----

/** spec §7: JSON text under a form-encoded content type (CORS-simple), text/plain (beacons), or JSON. */
export const CLIENT_CONTENT_TYPES = ["application/x-www-form-urlencoded", "text/plain", "application/json"];

/** The client key travels as cfenc, in the query or a header (spec §7). */
export const CLIENT_SECURITY: SecurityRequirement[] = [{ cfencQuery: [] }, { cfencHeader: [] }];

/** Left open: a beacon or proxy may add parameters of its own. */
export const cfencQuery = {
  type: "object",
  properties: { cfenc: { type: "string", maxLength: 256, description: "The client key (or send it as a cfenc header)" } },
} as const;

export const devicesParams = {
  type: "object",
  required: ["userId"],
  additionalProperties: false,
  properties: { userId: { type: "string", minLength: 1, maxLength: 256 } },
} as const;

export const configsAnswer = {
  type: "object",
  description: "product.md Appendix A config call answer",
  required: ["configs", "user_id"],
  properties: {
    configs: { type: "object", additionalProperties: configAnswerSchema, description: "Keyed by config_customer_id" },
    user_id: { type: "string", description: "u_ + sha256(account id:customer id), the same on every node" },
    page_paths: { type: "array", items: { type: "string" }, description: "Paths this account personalizes on the current domain" },
    long_url: { type: "string", description: "The full URL of the page decided for" },
    cache: {
      type: "object",
      description: "Present when the script may keep this answer for the visitor's repeat views of the page (docs/api.md \"Answer cache\")",
      required: ["revision", "attributes"],
      properties: {
        revision: { type: "integer", description: "The account revision the answer was decided at" },
        attributes: { type: "array", items: { type: "string" }, description: "Visitor attributes (top-level names) the answer depends on" },
      },
    },
  },
} as const;

export const acceptedAnswer = {
  type: "object",
  required: ["accepted"],
  properties: {
    accepted: { type: "integer", description: "Stored now" },
    duplicates: { type: "integer", description: "Already stored before (a retry)" },
  },
} as const;

export const devicesAnswer = {
  type: "object",
  required: ["accepted", "duplicates", "device_ids"],
  properties: { ...acceptedAnswer.properties, device_ids: { type: "array", items: { type: "string" } } },
} as const;
