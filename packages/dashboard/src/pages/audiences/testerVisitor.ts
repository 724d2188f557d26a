// The tester's form and the visitor it describes, as the storefront script would send it (spec §3
// User): derived properties under `properties`, campaign parameters and tags at the top level,
// private and session fields in their own objects. The service derives the attributes from it
// exactly as the config call does (conditions.ts attributesOf), so every attribute the builder
// offers can be given a value here.
import type { Json } from "@storefit/contract";

export type TesterValues = {
  device: string;
  browser: string;
  browserVersion: string;
  os: string;
  firstTime: "" | "true" | "false";
  url: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  utmTerm: string;
  utmContent: string;
  utmAdgroup: string;
  gclid: string;
  fbclid: string;
  tags: string;
  properties: string;
  privateFields: string;
  sessionFields: string;
};

export const TESTER_DEFAULTS: TesterValues = {
  device: "desktop",
  browser: "Chrome",
  browserVersion: "131",
  os: "",
  firstTime: "true",
  url: "",
  utmSource: "",
  utmMedium: "",
  utmCampaign: "",
  utmTerm: "",
  utmContent: "",
  utmAdgroup: "",
  gclid: "",
  fbclid: "",
  tags: "",
  properties: "",
  privateFields: "",
  sessionFields: "",
};

/** Campaign parameters: top-level User fields under their wire names (spec §3). */
export const CAMPAIGN_FIELDS = [
  ["utmSource", "utm_source"],
  ["utmMedium", "utm_medium"],
  ["utmCampaign", "utm_campaign"],
  ["utmTerm", "utm_term"],
  ["utmContent", "utm_content"],
  ["utmAdgroup", "utm_adgroup"],
  ["gclid", "gclid"],
  ["fbclid", "fbclid"],
] as const satisfies readonly (readonly [keyof TesterValues, string])[];

/** The JSON fields of the form, with what to call them when they do not parse. */
export const JSON_FIELDS = [
  ["properties", "Other properties", '{ "tier": "gold" }'],
  ["privateFields", "Private fields", '{ "tier": "gold", "tags": ["vip"] }'],
  ["sessionFields", "Session fields", '{ "cart_value": 40, "tags": ["promo"] }'],
] as const satisfies readonly (readonly [keyof TesterValues, string, string])[];

export type JsonField = (typeof JSON_FIELDS)[number][0];

/** A JSON object typed by the operator ("" is none), or the message to show beside its field. */
export function parseObject(text: string, name: string, example: string): Record<string, Json> | string {
  if (text.trim() === "") return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, Json>;
  } catch {
    // reported below
  }
  return `${name} must be a JSON object, such as ${example}.`;
}

/** Private or session fields as the script sends them: a "tags" list apart, the rest properties. */
function scopedFields(fields: Record<string, Json>): Record<string, Json> | undefined {
  const { tags, ...properties } = fields;
  if (tags === undefined && Object.keys(properties).length === 0) return undefined;
  return Array.isArray(tags) ? { properties, tags } : { properties: fields };
}

const splitTags = (text: string) =>
  text
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);

/** The visitor of the form, with its JSON fields already parsed. */
export function visitorOf(values: TesterValues, json: Record<JsonField, Record<string, Json>>): { user: Record<string, Json>; url?: string } {
  const props: Record<string, Json> = { ...json.properties };
  if (values.device) props.cf_device_type = values.device;
  if (values.browser.trim()) props.cf_browser_name = values.browser.trim();
  if (values.browserVersion.trim()) props.cf_browser_version = values.browserVersion.trim();
  if (values.os.trim()) props.cf_os_name = values.os.trim();
  if (values.firstTime) props.is_first_time_visitor = values.firstTime === "true";
  const user: Record<string, Json> = { user_customer_id: "dashboard-tester", anonymous: true, properties: props };
  const tags = splitTags(values.tags);
  if (tags.length) user.tags = tags;
  for (const [field, wire] of CAMPAIGN_FIELDS) {
    if (values[field].trim()) user[wire] = values[field].trim();
  }
  const privateFields = scopedFields(json.privateFields);
  if (privateFields) user.private_fields = privateFields;
  const sessionFields = scopedFields(json.sessionFields);
  if (sessionFields) user.session_fields = sessionFields;
  return values.url.trim() ? { user, url: values.url.trim() } : { user };
}
