// Business constants and limits of spec §9. Names carry their units; the storefront script, the
// service and the tests all read them from here so the numbers live in one place.

/** spec §9 "SDK version" */
export const SDK_VERSION = "0.0.21";
/** spec §9: time the page may stay hidden before it is revealed regardless (generated config). */
export const SDK_TIMEOUT_MS = 5000;
/** spec §9: how long a missing page element is waited for. */
export const ELEMENT_TIMEOUT_MS = 3000;
/** spec §9: re-apply timer for replaced configs. */
export const REAPPLY_TIMER_MS = 2000;
/** spec §9: initial delay before personalization starts. */
export const INITIAL_DELAY_MS = 0;
/** spec §9: periodic PAGE_UPDATE timer. */
export const PAGE_UPDATE_INTERVAL_MS = 20_000;
/** spec §9: a page duration longer than this is not added to page updates. */
export const PAGE_DURATION_CAP_MS = 1_800_000;
/** spec §5/§9: scroll depth is sent only when it grew by at least this many percent. */
export const SCROLL_GROWTH_THRESHOLD_PERCENT = 5;
/** spec §4/§9: how long re-added elements are watched after a config was replaced. */
export const READDED_ELEMENT_WATCH_MS = 20_000;
/** spec §9: text observer re-applies at most this many times. */
export const TEXT_OBSERVER_MAX_REPLACEMENTS = 3;
/** spec §9: a template is re-inserted at most this many times. */
export const TEMPLATE_REINSERT_LIMIT = 5;
/** spec §9: the contact-platform (HubSpot) tracking id is checked after this delay. */
export const CONTACT_PLATFORM_ID_CHECK_MS = 3000;
/** spec §9: automatic form capture retries once after this delay when the page has no forms. */
export const FORM_CAPTURE_RETRY_MS = 5000;
/** spec §9: viewed products kept in local storage, most recent first. */
export const VIEWED_PRODUCTS_MAX = 10;
/** spec §9: default cookie lifetime. */
export const COOKIE_LIFETIME_DAYS = 400;
/** spec §9: track queue size, default and minimum (spec §5 forces it to at least 5). */
export const TRACK_QUEUE_SIZE_DEFAULT = 5;
export const TRACK_QUEUE_SIZE_MIN = 5;
/** spec §9: the config-summary queue flushes after every summary. */
export const SUMMARY_QUEUE_SIZE = 1;
/** spec §8/§9: attempts for a call that got no response, and the pause between them. */
export const CALL_MAX_ATTEMPTS = 3;
export const CALL_RETRY_DELAY_MS = 500;
/** spec §4/§9: outbound-only gate marker validity. */
export const OUTBOUND_MARKER_VALIDITY_S = 604_800;
/** spec §9: storage keys start with this prefix, followed by a hash of the client key. */
export const STORAGE_KEY_PREFIX = "cf_";

/** product.md §3: the largest request body the service accepts (answers 413 above). */
export const MAX_BODY_BYTES = 1_048_576;

/** The client API paths of spec §7 (they end with a trailing slash). */
export const CLIENT_PATHS = {
  configs: "/v1/users/configs/",
  events: "/v1/cfe/",
  summaries: "/v1/config/request/summary/",
  devices: (userId: string) => `/v1/users/${encodeURIComponent(userId)}/devices/`,
  alerts: "/v1/alerts/",
} as const;

/**
 * Issue #16, exposure-only configs: when a visitor is assigned to a variation that changes nothing
 * on the page (a plain control), the config answer carries one config for the experience whose
 * config_customer_id and config_id are this prefix followed by the experience id, with
 * `variation: null`, `variation_data_type: "JSON"`, `properties: { system_created: true }` and the
 * experience_behaviour_response of the assignment. A spec-compliant script applies nothing for it
 * (no element_path) and sends its config summary like any other config, so both arms of a test
 * are exposed. docs/embedding.md "Exposure-only configs".
 */
export const EXPOSURE_CONFIG_PREFIX = "cf_exposure_";

/** Whether a config is an exposure-only config (by its config_id, the id summaries carry). */
export const isExposureConfig = (config: { config_id?: unknown } | null | undefined): boolean =>
  !!config && typeof config.config_id === "string" && config.config_id.startsWith(EXPOSURE_CONFIG_PREFIX);

/**
 * docs/results.md "Currencies": how many of the account's newest events the results answer's
 * `revenue_currencies` looks at, at most (the bound of the goal editor's event names).
 */
export const REVENUE_CURRENCY_WINDOW = 50_000;
