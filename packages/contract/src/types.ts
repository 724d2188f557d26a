// Wire types of spec §3 (entities) and §7 (calls), with the shapes product.md Appendix A spells
// out. The storefront script sends these, the service stores and answers them, the dashboard
// edits them. Field names are the wire names (snake_case), never renamed.

import type { EventType } from "./events.js";

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A property value (spec §5): number, string, boolean, date (ISO string on the wire), geo point. */
export type PropertyValue =
  | string
  | number
  | boolean
  | { lat: number; lon: number }
  | string[]
  | number[]
  | boolean[]
  | Json;

export type Properties = Record<string, PropertyValue>;

/** The three field groups the private, session and CRM-sync scopes share (spec §3 User). */
export type ScopedFields = {
  user_fields?: Record<string, PropertyValue>;
  properties?: Properties;
  tags?: string[];
};

export type CampaignFields = {
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
  utm_term?: string;
  utm_content?: string;
  utm_adgroup?: string;
  fbclid?: string;
  gclid?: string;
};

/** spec §3 "User". Derived `cf_*` properties live in `properties`. */
export type User = CampaignFields & {
  user_customer_id: string;
  user_id?: string;
  device_id?: string;
  anonymous: boolean;
  tags?: string[];
  properties?: Properties;
  private_fields?: ScopedFields;
  session_fields?: ScopedFields;
  hs_fields?: { properties?: Properties; email?: string; phone?: string };
  sdk_generated_user_customer_id?: boolean;
  latest_session_id?: string;
  form_update_detected?: boolean;
  /** The contact platform's tracking id (HubSpot `hubspotutk`). */
  hubspotutk?: string;
};

/** spec §3 "Config summary": one exposure of a visitor to a config. */
export type ConfigSummary = {
  config_id: string;
  version?: number;
  user_id?: string;
  requested_time: number;
  variation_id?: string;
  user_customer_id: string;
  session_id?: string;
  behaviour_id?: string;
  experience_id?: string;
  rule_id?: string;
  is_template_config?: boolean;
};

/** spec §3 "Event". */
export type TrackedEvent = {
  properties?: Properties;
  event_type: EventType | string;
  /** `domain|name` (spec §5). */
  event_customer_id: string;
  domain?: string;
  name?: string;
  insert_id: string;
  /** Milliseconds since the epoch. */
  event_timestamp: number;
  session_id?: string;
  last_page_duration?: number;
  /** PAGE events only. */
  pageview_seq_number?: number;
  config_summary?: ConfigSummary[];
  /** PAGE_UPDATE and FORM events only. */
  configs?: string[];
};

export type PageMatch = "exact_match" | "contains" | "regex";
export type ElementPathType = "by_id" | "by_id_and_class" | "by_class";

/** spec §3 "Page configuration" (account configuration). */
export type PageConfiguration = {
  domain: string;
  page_path: string;
  element_path: string;
  element_hint?: string;
  page_match: PageMatch;
  config_id: string;
};

export type ActivePage = { domain: string; page_path: string };

export type PathCheckType = "simple" | "starts_with" | "ends_with" | "contains" | "regex";

/** spec §3 "Revenue page rule". */
export type RevenuePageRule = {
  domain: string;
  path_check_type: PathCheckType;
  pattern_value: string;
  revenue_event_customer_id: string;
  revenue_amount: number;
};

/** spec §3 "Event merge rule": maps matching paths to one final path. */
export type EventMergeRule = {
  domain?: string;
  path_check_type: PathCheckType;
  pattern_value: string;
  final_path: string;
};

export type VariationDataType =
  | "HTML_ELEMENT"
  | "NUMBER"
  | "STRING"
  | "BOOLEAN"
  | "LIST"
  | "COLOR"
  | "RICHTEXT"
  | "JSON";

export type ClassesEditOption = "no_changes" | "add_remove_classes" | "overwrite_classes";

/** Template display settings (product.md Appendix A). Delays and time-outs are in seconds. */
export type TemplateSettings = {
  config_selected: "on_entry" | "on_click" | "at_exit" | "timerbased" | "on_scroll";
  elements?: string[];
  delay?: number | string;
  timeout?: number | string;
  scroll_percentage?: number;
  visibility_selected?: "" | "hide_template" | "desktop_only" | "mobile_only";
  close_settings?: { close_config_selected: "next_session" | "duration"; expiry?: number };
};

/** spec §3 "Template (custom_template)". */
export type Template = {
  id: string;
  parentElement?: string;
  nextSibling?: string;
  html?: string;
  properties?: {
    template_properties?: { root_style?: string; js_script?: string };
    settings?: TemplateSettings;
  };
};

export type ClickActionType =
  | "scroll_to_element"
  | "redirect_to_page"
  | "hide_element"
  | "unhide_element";

export type AdvancedClickAction = {
  action_type: ClickActionType;
  target?: string;
  redirect_url?: string;
  retain_params?: boolean;
  open_in_new_tab?: boolean;
};

export type ScriptAction = {
  action_type: "track_click" | "execute_javascript" | "track_click_and_execute_javascript";
  action_txt?: { goal_name?: string; js_code?: string };
};

export type GlobalActions = {
  css?: string;
  query_params?: { key: string; value?: string; operation: "add" | "remove" }[];
  js?: { script: string; execution_type: "asap" | "document_ready" | "document_load" };
  redirection?: { url: string; retain_params?: boolean };
};

/** spec §3 "customfit_meta". */
export type CustomfitMeta = {
  move_action?: {
    target: string;
    first_element?: string;
    position: "above" | "below";
    order?: number;
  };
  swap_action?: { target: string };
  edit_elem_action?: {
    action_type: "replace_html" | "insert_before_html" | "insert_after_html" | "append_html";
    action_txt: string;
  };
  advanced_click_actions?: AdvancedClickAction[];
  duplicate_actions?: { position: "above" | "below"; cloned_elem_id?: string }[];
  onclick_action?: ScriptAction;
  onload_action?: ScriptAction;
  global_actions?: GlobalActions;
  is_default?: boolean;
  experience?: Record<string, Json>;
  custom_template?: Template;
};

/** The element-level fields of an HTML_ELEMENT variation (spec §3 "Variation fields"). */
export type ElementChanges = {
  innerHTML?: string;
  value?: string;
  src?: string;
  srcset?: string;
  style?: Record<string, string>;
  href_target?: { href?: string; target?: string };
  cf_retain_value?: boolean;
  cf_defer_apply?: boolean;
  cf_delay_apply_time?: number;
  cf_evt_load_time?: boolean;
  cf_perform_click_action?: boolean;
  cf_classes_edit_option?: ClassesEditOption;
  /** Arrays of class names; a space-separated string is accepted (Appendix A). */
  cf_classes_add?: string[] | string;
  cf_classes_remove?: string[] | string;
  cf_classes_overwrite?: string[] | string;
};

export type HtmlElementVariation = ElementChanges & {
  mobile?: ElementChanges;
  desktop?: ElementChanges;
  customfit_meta?: CustomfitMeta;
};

export type VariationValue = HtmlElementVariation | string | number | boolean | Json;

export type ConfigProperties = {
  page_path?: string;
  page_match?: PageMatch;
  element_path?: string;
  element_hint?: string;
  domain?: string;
  system_created?: boolean;
  url_redirection_logic?: Json;
  custom_template?: Template;
};

export type ExperienceBehaviourResponse = {
  experience_id: string;
  behaviour_id: string;
  rule_id?: string;
  audience_name?: string;
  experience_name?: string;
  behaviour_name?: string;
  ga_measurement_id?: string;
  priority?: number;
  experience_created_time?: number;
  config_modifications?: { device_specific?: boolean };
};

/** spec §3 "Config" (service response, keyed by config_customer_id). */
export type Config = {
  config_customer_id: string;
  config_id: string;
  version?: number;
  config_created_at?: number;
  variation_id: string;
  variation: VariationValue;
  variation_data_type: VariationDataType;
  properties?: ConfigProperties;
  experience_behaviour_response?: ExperienceBehaviourResponse;
  template_info?: Json;
};

// ---- spec §7: request bodies and answers ----

export type ConfigsRequest = {
  user: User;
  desired_experiences?: string[];
  preferred_experiences?: string[];
  cfid?: string;
  preview_mode?: boolean;
  /**
   * Our addition: the operator's preview token (minted by the admin API, signed by the service).
   * `preview_mode` is honoured only with a valid, unexpired token of the account; without one the
   * call is answered as a normal visit.
   */
  preview_token?: string;
  current_page_path: string;
  current_domain: string;
  session_id?: string;
};

/** product.md Appendix A "Config call answer". */
export type ConfigsResponse = {
  configs: Record<string, Config>;
  user_id: string;
  page_paths?: string[];
  long_url?: string;
  /** Present when the script may keep the answer for the visitor's repeat views of the page. */
  cache?: AnswerCache;
};

/**
 * docs/api.md "Answer cache": the account revision the answer was decided at, and the visitor
 * attributes (top-level names, as audience conditions read them) it depends on besides the
 * visitor and the page. A repeat view of the same page by the same visitor may apply the kept
 * answer without waiting while the snippet names the same revision and these attributes hold
 * the same values.
 */
export type AnswerCache = { revision: number; attributes: readonly string[] };

export type EventsRequest = { user: User; events: TrackedEvent[]; cf_client_sdk_version?: string };

export type SummariesRequest = { user: User; summaries: ConfigSummary[] };

export type DevicesRequest = {
  add_devices: { device_customer_id: string; device_type: "WEB"; user_id: string }[];
  anonymous?: boolean;
};

export type AlertRequest = {
  code?: string;
  message?: string;
  data?: Json;
  status?: number;
  [key: string]: Json | undefined;
};

/** What the client endpoints answer when the spec says "not shown" (our choice). */
export type AcceptedResponse = { accepted: number; duplicates?: number };
