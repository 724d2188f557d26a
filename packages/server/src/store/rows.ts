// Rows as both stores answer them, field for field. SQLite hands JSON columns over as text and
// booleans as 0/1; PostgreSQL hands jsonb/json columns over parsed, booleans as booleans and
// bigints as numbers (postgres/db.ts): `json` and `flag` read either.

import type { Account, AccountSettings, Audience, Experience, Operator, SecretKeyRecord, StoredEvent, StoredExposure } from "./types.js";
import { parseStoredEvent } from "./event-fields.js";

export type Row = Record<string, unknown>;

const json = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);
const flag = (value: unknown): boolean => value === true || value === 1;

export const accountFromRow = (row: Row): Account => ({
  id: row.id as string,
  name: row.name as string,
  client_key: row.client_key as string,
  settings: json(row.settings_json) as AccountSettings,
  revision: row.revision as number,
  created_at: row.created_at as string,
  updated_at: row.updated_at as string,
});

export const operatorFromRow = (row: Row): Operator => ({
  id: row.id as string,
  account_id: row.account_id as string,
  email: row.email as string,
  password_hash: row.password_hash as string,
  role: row.role as Operator["role"],
});

export const secretKeyFromRow = (row: Row): SecretKeyRecord => ({
  id: row.id as string,
  account_id: row.account_id as string,
  name: row.name as string,
  prefix: row.prefix as string,
  created_at: row.created_at as string,
  last_used_at: (row.last_used_at as string | null) ?? null,
});

export const experienceFromRow = (row: Row): Experience => ({
  id: row.id as string,
  account_id: row.account_id as string,
  name: row.name as string,
  status: row.status as Experience["status"],
  kind: row.kind as Experience["kind"],
  priority: row.priority as number,
  pages: json(row.pages_json) as Experience["pages"],
  rules: json(row.rules_json) as Experience["rules"],
  goals: json(row.goals_json) as Experience["goals"],
  exclusion_group: (json(row.exclusion_group_json) as Experience["exclusion_group"] | null) ?? null,
  created_at: row.created_at as string,
  updated_at: row.updated_at as string,
});

export const audienceFromRow = (row: Row): Audience => ({
  id: row.id as string,
  name: row.name as string,
  description: row.description as string,
  condition: json(row.condition_json) as Audience["condition"],
  created_at: row.created_at as string,
  updated_at: row.updated_at as string,
});

export const exposureFromRow = (r: Row): StoredExposure => ({
  config_id: r.config_id as string,
  user_customer_id: r.user_customer_id as string,
  user_id: (r.user_id as string | null) ?? null,
  session_id: r.session_id as string,
  requested_time: r.requested_time as number,
  variation_id: r.variation_id as string,
  ...(r.experience_id != null ? { experience_id: r.experience_id as string } : {}),
  ...(r.rule_id != null ? { rule_id: r.rule_id as string } : {}),
  ...(r.behaviour_id != null ? { behaviour_id: r.behaviour_id as string } : {}),
  is_template_config: flag(r.is_template_config),
  probability: (r.probability as number | null) ?? null,
  split: (r.split as string | null) ?? null,
  forced: flag(r.forced),
});

export const storedEventFromRow = (r: Row): StoredEvent => ({
  seq: r.seq as number,
  account_id: r.account_id as string,
  insert_id: r.insert_id as string,
  event_type: r.event_type as string,
  event_customer_id: r.event_customer_id as string,
  domain: r.domain as string,
  page_path: (r.page_path as string | null) ?? null,
  user_id: r.user_id as string,
  session_id: (r.session_id as string | null) ?? null,
  event_timestamp: r.event_timestamp as number,
  received_at: r.received_at as string,
  event: parseStoredEvent(r),
});
