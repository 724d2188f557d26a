// JSON Schemas of the client API bodies (spec §7). Validated at the edge: a body that does not
// fit gets 400 with the first problem, and nothing is stored. Top-level unknown keys are refused
// so that a typo in a client is seen at once; the nested user object stays open because the
// script adds derived properties over time.

const str = (maxLength = 1024) => ({ type: "string", maxLength }) as const;
const strArray = { type: "array", maxItems: 100, items: str(256) } as const;

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
    requested_time: { type: "number" },
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
        required: ["event_type", "event_customer_id", "insert_id", "event_timestamp"],
        additionalProperties: false,
        properties: {
          properties: { type: "object", maxProperties: 500 },
          event_type: { type: "string", minLength: 1, maxLength: 64 },
          event_customer_id: { type: "string", minLength: 1, maxLength: 512 },
          domain: str(253),
          name: str(512),
          insert_id: { type: "string", minLength: 1, maxLength: 128 },
          event_timestamp: { type: "number" },
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

export const alertBody = { type: "object", maxProperties: 50 } as const;
