// The settings global of product.md §2 (`window.storefitSettings`), and its defaults (spec §9).

import type { ActivePage, EventMergeRule, PageConfiguration, RevenuePageRule } from "./types.js";
import {
  ELEMENT_TIMEOUT_MS,
  INITIAL_DELAY_MS,
  REAPPLY_TIMER_MS,
  SDK_TIMEOUT_MS,
  TRACK_QUEUE_SIZE_DEFAULT,
} from "./constants.js";

export type IntegrationName =
  | "google_analytics"
  | "hotjar"
  | "clarity"
  | "segment"
  | "mixpanel"
  | "amplitude"
  | "heap"
  | "klaviyo"
  | "moengage"
  | "clevertap"
  | "hubspot";

export type AccountFlags = {
  account_enabled: boolean;
  subscription_expired: boolean;
  sdk_powered_off: boolean;
  skip: boolean;
  intelligent_code: boolean;
  page_update: boolean;
  personalized_users_limit_exceeded: boolean;
  personalize_after_timeout: boolean;
  error_reporting: boolean;
  spa_mode: boolean;
  auto_url_change_detection: boolean;
  outbound_only: boolean;
  event_analyzer: boolean;
  shop_platform_integration: boolean;
  /** Hold storage, cookies and tracking until the visitor consents (off by default). */
  consent_required: boolean;
};

export type StorefitSettings = AccountFlags & {
  client_key: string;
  api_host: string;
  cdn_host?: string;
  dimension_id?: string;
  domain: string;
  subdomains: string[];
  integrations: Partial<Record<IntegrationName, boolean>>;
  ga_setup: { mode: "gtm" | "gtag"; data_variable: string };
  sdk_timeout_ms: number;
  element_timeout_ms: number;
  reapply_timer_ms: number;
  initial_delay_ms: number;
  track_queue_size: number;
  pages: PageConfiguration[];
  goal_pages: ActivePage[];
  rule_pages: ActivePage[];
  revenue_pages: RevenuePageRule[];
  event_merge: EventMergeRule[];
  page_blacklist: string[];
  referrer_blacklist: string[];
  environment: "prod" | "stage";
  /**
   * The account's revision when the snippet was made: a kept config answer of the same revision
   * may be applied on a repeat view without waiting (docs/api.md "Answer cache"). Absent (settings
   * set by the page itself): every view waits for the config call.
   */
  revision?: number;
};

/** spec §9 "Storage and defaults". `client_key`, `api_host` and `domain` have no default. */
export const SETTINGS_DEFAULTS: Omit<StorefitSettings, "client_key" | "api_host" | "domain"> = {
  account_enabled: true,
  subscription_expired: false,
  sdk_powered_off: false,
  skip: false,
  intelligent_code: true,
  page_update: true,
  personalized_users_limit_exceeded: false,
  personalize_after_timeout: true,
  error_reporting: false,
  spa_mode: false,
  auto_url_change_detection: false,
  outbound_only: false,
  event_analyzer: true,
  shop_platform_integration: false,
  consent_required: false,
  subdomains: [],
  integrations: {},
  ga_setup: { mode: "gtm", data_variable: "dataLayer" },
  sdk_timeout_ms: SDK_TIMEOUT_MS,
  element_timeout_ms: ELEMENT_TIMEOUT_MS,
  reapply_timer_ms: REAPPLY_TIMER_MS,
  initial_delay_ms: INITIAL_DELAY_MS,
  track_queue_size: TRACK_QUEUE_SIZE_DEFAULT,
  pages: [],
  goal_pages: [],
  rule_pages: [],
  revenue_pages: [],
  event_merge: [],
  page_blacklist: [],
  referrer_blacklist: [],
  environment: "prod",
};

/** Document events the script dispatches (product.md §2). */
export const DOCUMENT_EVENTS = {
  ready: "storefit:ready",
  applied: "storefit:applied",
  revealed: "storefit:revealed",
  error: "storefit:error",
} as const;
