// JSON Schema of an account's settings (product.md §2, the settings global; spec §1 flags, §2
// pages and lists, §3 rules, §9 time-outs). PATCH /api/account takes any subset of them.

import type { AccountFlags, IntegrationName } from "@storefit/contract";
import type { JsonSchema } from "./common.js";
import { bool, enumOf, obj, str, strArray } from "./common.js";

/** A host name; subdomain entries may start with "*." (spec §5, §6). */
const HOST = "^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$";
const WILDCARD_HOST = `^(?:\\*\\.)?${HOST.slice(1)}`;
/** An origin: http or https, a host name, an optional port; no path. */
const ORIGIN = `^https?://${HOST.slice(1, -1)}(?::[0-9]{1,5})?$`;

const FLAG_NAMES: readonly (keyof AccountFlags)[] = [
  "account_enabled",
  "subscription_expired",
  "sdk_powered_off",
  "skip",
  "intelligent_code",
  "page_update",
  "personalized_users_limit_exceeded",
  "personalize_after_timeout",
  "error_reporting",
  "spa_mode",
  "auto_url_change_detection",
  "outbound_only",
  "event_analyzer",
  "shop_platform_integration",
];

const INTEGRATION_NAMES: readonly IntegrationName[] = [
  "google_analytics",
  "hotjar",
  "clarity",
  "segment",
  "mixpanel",
  "amplitude",
  "heap",
  "klaviyo",
  "moengage",
  "clevertap",
  "hubspot",
];

const PATH_CHECK = enumOf(["simple", "starts_with", "ends_with", "contains", "regex"]);
const PAGE_MATCH = enumOf(["exact_match", "contains", "regex"]);
const domainField = { type: "string", maxLength: 253 };
const millis = (max: number): JsonSchema => ({ type: "integer", minimum: 0, maximum: max });

const activePage = obj({ domain: domainField, page_path: str(2048, 1) }, ["domain", "page_path"]);

export const settingsProperties: Record<string, JsonSchema> = {
  ...Object.fromEntries(FLAG_NAMES.map((f) => [f, bool])),
  domain: { type: "string", minLength: 1, maxLength: 253, pattern: HOST },
  subdomains: { type: "array", maxItems: 100, items: { type: "string", maxLength: 253, pattern: WILDCARD_HOST } },
  integrations: obj(Object.fromEntries(INTEGRATION_NAMES.map((n) => [n, bool]))),
  ga_setup: obj({ mode: enumOf(["gtm", "gtag"]), data_variable: str(128, 1) }, ["mode", "data_variable"]),
  sdk_timeout_ms: millis(60_000),
  element_timeout_ms: millis(60_000),
  reapply_timer_ms: millis(60_000),
  initial_delay_ms: millis(60_000),
  // spec §5: "Track queue size is forced to at least 5".
  track_queue_size: { type: "integer", minimum: 5, maximum: 500 },
  pages: {
    type: "array",
    maxItems: 2000,
    items: obj(
      {
        domain: domainField,
        page_path: str(2048, 1),
        element_path: str(2048),
        element_hint: str(64),
        page_match: PAGE_MATCH,
        config_id: str(256, 1),
      },
      ["domain", "page_path", "element_path", "page_match", "config_id"],
    ),
  },
  goal_pages: { type: "array", maxItems: 500, items: activePage },
  rule_pages: { type: "array", maxItems: 500, items: activePage },
  revenue_pages: {
    type: "array",
    maxItems: 200,
    items: obj(
      {
        domain: domainField,
        path_check_type: PATH_CHECK,
        pattern_value: str(2048, 1),
        revenue_event_customer_id: str(512, 1),
        revenue_amount: { type: "number" },
      },
      ["domain", "path_check_type", "pattern_value", "revenue_event_customer_id", "revenue_amount"],
    ),
  },
  event_merge: {
    type: "array",
    maxItems: 200,
    items: obj(
      { domain: domainField, path_check_type: PATH_CHECK, pattern_value: str(2048, 1), final_path: str(2048, 1) },
      ["path_check_type", "pattern_value", "final_path"],
    ),
  },
  // Appendix A: patterns (regular expressions; an invalid one matches nothing, so it is kept).
  page_blacklist: strArray(200, 2048),
  referrer_blacklist: strArray(200, 2048),
  environment: enumOf(["prod", "stage"]),
  // Not a spec §1 flag: ours (docs/embedding.md "Consent"). Optional in the stored settings,
  // which accounts created before it do not have (absent means false).
  consent_required: bool,
  // Ours (docs/dashboard-account.md "Shop addresses"): where each domain is served, scheme and
  // port included, for the addresses the dashboard makes. Optional, as consent_required is.
  site_origins: { type: "array", maxItems: 100, items: { type: "string", maxLength: 300, pattern: ORIGIN } },
};

/** Every settings field, all optional: PATCH replaces the fields given. */
export const settingsPatchSchema = obj(settingsProperties, [], "Account settings to replace (any subset)");

/** The stored settings as GET /api/account answers them (all fields present). */
export const settingsSchema: JsonSchema = {
  type: "object",
  properties: { ...settingsProperties, dimension_id: str(128) },
  required: Object.keys(settingsProperties).filter((k) => k !== "consent_required" && k !== "site_origins"),
};
