// JSON Schemas of spec §3 "Config" and everything inside it (variation fields, customfit_meta,
// custom_template), in the shapes product.md Appendix A spells out (packages/contract types.ts).
// Operators save these through the admin API; the decision answers them to the script as saved.

import type { JsonSchema } from "./common.js";
import { bool, enumOf, id, notReserved, num, obj, str, strArray } from "./common.js";

const CSS_PATH = str(2048);
const HTML = str(200_000);
const SCRIPT = str(200_000);

/** A list of class names; a space-separated string is accepted (Appendix A). */
const classList: JsonSchema = { anyOf: [strArray(200, 256), str(4096)] };

const seconds: JsonSchema = { anyOf: [{ type: "number" }, { type: "string", maxLength: 32 }] };

export const templateSettingsSchema = obj(
  {
    config_selected: enumOf(["on_entry", "on_click", "at_exit", "timerbased", "on_scroll"]),
    elements: strArray(100, 2048),
    delay: seconds,
    timeout: seconds,
    scroll_percentage: { type: "number", minimum: 0, maximum: 100 },
    visibility_selected: enumOf(["", "hide_template", "desktop_only", "mobile_only"]),
    close_settings: obj(
      {
        close_config_selected: enumOf(["next_session", "duration"]),
        expiry: { type: "number", minimum: 0 },
      },
      ["close_config_selected"],
    ),
  },
  ["config_selected"],
  "When the template shows, for whom, and how a close is remembered (delays in seconds)",
);

/** spec §3 "Template (custom_template)". */
export const templateSchema = obj(
  {
    id: str(256, 1),
    parentElement: CSS_PATH,
    nextSibling: CSS_PATH,
    html: HTML,
    properties: obj({
      template_properties: obj({ root_style: str(100_000), js_script: SCRIPT }),
      settings: templateSettingsSchema,
    }),
  },
  ["id"],
  "A popup or custom block inserted into the page",
);

const scriptAction = obj(
  {
    action_type: enumOf(["track_click", "execute_javascript", "track_click_and_execute_javascript"]),
    action_txt: obj({ goal_name: str(256), js_code: SCRIPT }),
  },
  ["action_type"],
);

/** spec §3 "customfit_meta". */
export const customfitMetaSchema = obj(
  {
    move_action: obj(
      { target: CSS_PATH, first_element: CSS_PATH, position: enumOf(["above", "below"]), order: num },
      ["target", "position"],
    ),
    swap_action: obj({ target: CSS_PATH }, ["target"]),
    edit_elem_action: obj(
      {
        action_type: enumOf(["replace_html", "insert_before_html", "insert_after_html", "append_html"]),
        action_txt: HTML,
      },
      ["action_type", "action_txt"],
    ),
    advanced_click_actions: {
      type: "array",
      maxItems: 20,
      items: obj(
        {
          action_type: enumOf(["scroll_to_element", "redirect_to_page", "hide_element", "unhide_element"]),
          target: CSS_PATH,
          redirect_url: str(4096),
          retain_params: bool,
          open_in_new_tab: bool,
        },
        ["action_type"],
      ),
    },
    duplicate_actions: {
      type: "array",
      maxItems: 20,
      items: obj({ position: enumOf(["above", "below"]), cloned_elem_id: str(256) }, ["position"]),
    },
    onclick_action: scriptAction,
    onload_action: scriptAction,
    global_actions: obj({
      css: str(200_000),
      query_params: {
        type: "array",
        maxItems: 50,
        items: obj({ key: str(256, 1), value: str(2048), operation: enumOf(["add", "remove"]) }, ["key", "operation"]),
      },
      js: obj({ script: SCRIPT, execution_type: enumOf(["asap", "document_ready", "document_load"]) }, [
        "script",
        "execution_type",
      ]),
      redirection: obj({ url: str(4096, 1), retain_params: bool }, ["url"]),
    }),
    is_default: bool,
    experience: { type: "object" },
    custom_template: templateSchema,
  },
  [],
  "Actions beyond the element's own properties (moves, clicks, scripts, templates)",
);

/** spec §3 "Variation fields": what to set on the element. */
const elementChangeProperties: Record<string, JsonSchema> = {
  innerHTML: HTML,
  value: str(100_000),
  src: str(4096),
  srcset: str(8192),
  style: { type: "object", maxProperties: 200, additionalProperties: str(4096) },
  href_target: obj({ href: str(4096), target: str(64) }),
  cf_retain_value: bool,
  cf_defer_apply: bool,
  cf_delay_apply_time: { type: "number", minimum: 0 },
  cf_evt_load_time: bool,
  cf_perform_click_action: bool,
  cf_classes_edit_option: enumOf(["no_changes", "add_remove_classes", "overwrite_classes"]),
  cf_classes_add: classList,
  cf_classes_remove: classList,
  cf_classes_overwrite: classList,
};

const elementChanges = obj(elementChangeProperties);

/** The variation of an HTML_ELEMENT config (Appendix A): element changes, device sub-variations, meta. */
export const htmlElementVariationSchema = obj(
  {
    ...elementChangeProperties,
    mobile: elementChanges,
    desktop: elementChanges,
    customfit_meta: customfitMetaSchema,
  },
  [],
  "Element changes; mobile/desktop apply when the behaviour's config_modifications.device_specific is true",
);

export const configPropertiesSchema = obj({
  page_path: str(2048),
  page_match: enumOf(["exact_match", "contains", "regex"]),
  element_path: CSS_PATH,
  element_hint: str(64),
  domain: str(253),
  system_created: bool,
  url_redirection_logic: {},
  custom_template: templateSchema,
});

const VARIATION_BY_TYPE: Record<string, JsonSchema> = {
  HTML_ELEMENT: htmlElementVariationSchema,
  NUMBER: { type: "number" },
  STRING: str(100_000),
  RICHTEXT: str(200_000),
  COLOR: str(64),
  BOOLEAN: { type: "boolean" },
  LIST: { type: "array", maxItems: 1000 },
  JSON: {},
};

/** A config as saved inside a variation (the service adds the rest per answer). */
export const configDefinitionSchema: JsonSchema = {
  ...obj(
    {
      // Keys of the config call's answer (spec §3) and of maps in the service and the script.
      config_customer_id: { type: "string", minLength: 1, maxLength: 256, ...notReserved },
      config_id: { type: "string", minLength: 1, maxLength: 256, ...notReserved },
      version: { type: "integer", minimum: 1 },
      variation_data_type: enumOf(Object.keys(VARIATION_BY_TYPE)),
      variation: {},
      properties: configPropertiesSchema,
      template_info: {},
    },
    ["config_customer_id", "config_id", "variation_data_type", "variation"],
    "spec §3 Config: what to change, where",
  ),
  // The variation's shape follows its data type (spec §3 variation_data_type).
  allOf: Object.entries(VARIATION_BY_TYPE).map(([type, schema]) => ({
    if: { properties: { variation_data_type: { const: type } }, required: ["variation_data_type"] },
    then: { properties: { variation: schema } },
  })),
};

/** A Config as the config call answers it (spec §3, keyed by config_customer_id). */
export const configAnswerSchema: JsonSchema = {
  type: "object",
  required: ["config_customer_id", "config_id", "variation_id", "variation", "variation_data_type"],
  properties: {
    config_customer_id: str(256),
    config_id: str(256),
    version: num,
    config_created_at: num,
    variation_id: id,
    variation: {},
    variation_data_type: enumOf(Object.keys(VARIATION_BY_TYPE)),
    properties: configPropertiesSchema,
    experience_behaviour_response: {
      type: "object",
      properties: {
        experience_id: str(128),
        behaviour_id: str(128),
        rule_id: str(128),
        audience_name: str(256),
        experience_name: str(256),
        behaviour_name: str(256),
        ga_measurement_id: str(64),
        priority: num,
        experience_created_time: num,
        config_modifications: obj({ device_specific: bool }),
      },
    },
    template_info: {},
  },
};
