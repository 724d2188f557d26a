// The editor's form model and its two conversions: ExperienceDetail → form values (what the
// inputs show) and form values → ExperienceInput (what the service accepts). Pure, so the
// round trip and the validation are tested without a browser (test/experience-editor).
//
// Inputs hold strings (numbers are parsed on save, with a message when they are not numbers),
// lists are field arrays, and each config can fall back to raw JSON: a config whose fields the
// form cannot show (an `experience` map, template_info, a version…) opens as JSON, so saving
// the form never drops what another tool or the API wrote.

import type {
  AdvancedClickAction,
  ClassesEditOption,
  ConfigDefinition,
  CustomfitMeta,
  ElementChanges,
  ExclusionGroup,
  ExperienceDetail,
  ExperienceInput,
  ExperienceKind,
  GoalInput,
  GoalKind,
  HtmlElementVariation,
  Json,
  PageMatch,
  RuleInput,
  ScriptAction,
  Template,
  TemplateSettings,
  VariationDataType,
} from "@storefit/contract";

// ---- Form shapes ----

export type StyleRow = { property: string; value: string };

export type ElementForm = {
  /** "text": innerHTML is written as plain text and escaped on save; "html": as markup. */
  innerHTMLKind: "text" | "html";
  innerHTML: string;
  value: string;
  src: string;
  srcset: string;
  href: string;
  target: string;
  styles: StyleRow[];
  retain: boolean;
  defer: boolean;
  /** cf_delay_apply_time, milliseconds. */
  delayMs: string;
  evtLoadTime: boolean;
  performClick: boolean;
  classOption: "" | ClassesEditOption;
  classesAdd: string;
  classesRemove: string;
  classesOverwrite: string;
};

export type ScriptActionForm = {
  enabled: boolean;
  action_type: ScriptAction["action_type"];
  goal_name: string;
  js_code: string;
};

export type ClickActionForm = {
  action_type: AdvancedClickAction["action_type"];
  target: string;
  redirect_url: string;
  retain_params: boolean;
  open_in_new_tab: boolean;
};

export type TemplateForm = {
  enabled: boolean;
  /** Mirror the template in the config's properties too (product.md Appendix A). */
  mirror: boolean;
  id: string;
  parentElement: string;
  nextSibling: string;
  html: string;
  root_style: string;
  js_script: string;
  trigger: TemplateSettings["config_selected"];
  /** on_click: CSS paths, one per line. */
  elements: string;
  /** at_exit delay and timerbased time-out, seconds. */
  delay: string;
  timeout: string;
  scroll_percentage: string;
  visibility: NonNullable<TemplateSettings["visibility_selected"]>;
  closeEnabled: boolean;
  close: "next_session" | "duration";
  expiry: string;
};

export type MetaForm = {
  isDefault: boolean;
  move: {
    enabled: boolean;
    target: string;
    first_element: string;
    position: "above" | "below";
    order: string;
  };
  swap: { enabled: boolean; target: string };
  edit: {
    enabled: boolean;
    action_type: NonNullable<CustomfitMeta["edit_elem_action"]>["action_type"];
    action_txt: string;
  };
  clickActions: ClickActionForm[];
  duplicates: { position: "above" | "below"; cloned_elem_id: string }[];
  onclick: ScriptActionForm;
  onload: ScriptActionForm;
  css: string;
  queryParams: { key: string; value: string; operation: "add" | "remove" }[];
  js: {
    enabled: boolean;
    script: string;
    execution_type: "asap" | "document_ready" | "document_load";
  };
  redirection: { enabled: boolean; url: string; retain_params: boolean };
  template: TemplateForm;
};

export type ConfigForm = {
  /** "json": the config is edited as raw JSON in `json`; the other fields are ignored. */
  mode: "form" | "json";
  json: string;
  config_customer_id: string;
  config_id: string;
  variation_data_type: VariationDataType;
  page_path: string;
  page_match: PageMatch;
  domain: string;
  element_path: string;
  element_hint: string;
  /** STRING, RICHTEXT, COLOR, NUMBER (as typed), LIST (one item per line), JSON (text). */
  scalar: string;
  bool: boolean;
  listKind: "string" | "number";
  element: ElementForm;
  hasMobile: boolean;
  mobile: ElementForm;
  hasDesktop: boolean;
  desktop: ElementForm;
  meta: MetaForm;
};

export type VariationForm = { id: string; name: string; weight: string; configs: ConfigForm[] };

export type RuleForm = {
  id: string;
  /** "" is everyone. */
  audience_id: string;
  audience_name: string;
  behaviour: {
    id: string;
    name: string;
    /** Percent, 0–100. */
    traffic: string;
    /**
     * The stored share `traffic` was shown from (null for a new rule). While `traffic` still reads
     * as shown, this exact number is saved back: the text is rounded (1/3 shows as 33.333), and
     * saving the rounding would move bucketing thresholds on an edit of an unrelated field.
     */
    storedTraffic: { share: number; text: string } | null;
    device_specific: boolean;
    ga_measurement_id: string;
    variations: VariationForm[];
  };
};

export type PageForm = { domain: string; page_path: string; page_match: PageMatch };

export type GoalForm = {
  id: string;
  name: string;
  kind: GoalKind;
  page_path: string;
  page_match: PageMatch;
  domain: string;
  event_name: string;
  revenue_cap: string;
};

/**
 * The mutually exclusive group: a name (empty: none), this experience's share in percent as typed,
 * and where its slice starts, computed by the group section from the other members' slices
 * (pages/experiences/overlaps.ts placeSlice; null: the share does not fit). `stored` is the group
 * as loaded, saved back exactly while nothing of it is changed.
 */
export type GroupForm = {
  name: string;
  share: string;
  start: number | null;
  stored: ExclusionGroup | null;
};

export type ExperienceForm = {
  name: string;
  kind: ExperienceKind;
  priority: string;
  group: GroupForm;
  pages: PageForm[];
  rules: RuleForm[];
  goals: GoalForm[];
};

// ---- Labels shared by the inputs and the docs ----

export const DATA_TYPE_LABELS: Record<VariationDataType, string> = {
  HTML_ELEMENT: "Page element (text, HTML, image, style, link, actions)",
  STRING: "Text value",
  RICHTEXT: "Rich text (HTML)",
  COLOR: "Color",
  NUMBER: "Number",
  BOOLEAN: "On / off",
  LIST: "List",
  JSON: "JSON",
};

export const PAGE_MATCH_OPTIONS: { value: PageMatch; label: string }[] = [
  { value: "exact_match", label: "Is exactly" },
  { value: "contains", label: "Contains" },
  { value: "regex", label: "Matches regex" },
];

/** The browsing contexts of a link's `target` (spec §3 href_target), for the "Opens in" select. */
export const LINK_TARGET_OPTIONS: readonly { value: string; label: string }[] = [
  { value: "", label: "Unchanged" },
  { value: "_self", label: "Same tab (_self)" },
  { value: "_blank", label: "New tab (_blank)" },
  { value: "_parent", label: "Parent frame (_parent)" },
  { value: "_top", label: "Whole window (_top)" },
];

/**
 * The "Opens in" choices for a link whose target is `current`: a stored value the list does not
 * name (a frame's name) is kept as a choice of its own, so the select shows it instead of a blank.
 */
export function linkTargetOptions(current: string): { value: string; label: string }[] {
  return current === "" || LINK_TARGET_OPTIONS.some((o) => o.value === current)
    ? [...LINK_TARGET_OPTIONS]
    : [...LINK_TARGET_OPTIONS, { value: current, label: `Frame named “${current}”` }];
}

export const GOAL_KIND_LABELS: Record<GoalKind, string> = {
  page_view: "Page view",
  click: "Click",
  form_submit: "Form submit",
  track: "Custom event",
  revenue: "Revenue",
};

// ---- Empty values ----

const randomSuffix = () => Math.random().toString(36).slice(2, 10);

export function emptyElement(): ElementForm {
  return {
    innerHTMLKind: "text",
    innerHTML: "",
    value: "",
    src: "",
    srcset: "",
    href: "",
    target: "",
    styles: [],
    retain: false,
    defer: false,
    delayMs: "",
    evtLoadTime: false,
    performClick: false,
    classOption: "",
    classesAdd: "",
    classesRemove: "",
    classesOverwrite: "",
  };
}

const emptyScriptAction = (): ScriptActionForm => ({
  enabled: false,
  action_type: "track_click",
  goal_name: "",
  js_code: "",
});

export function emptyTemplate(): TemplateForm {
  return {
    enabled: false,
    mirror: true,
    id: "",
    parentElement: "body",
    nextSibling: "",
    html: "",
    root_style: "",
    js_script: "",
    trigger: "on_entry",
    elements: "",
    delay: "",
    timeout: "",
    scroll_percentage: "",
    visibility: "",
    closeEnabled: false,
    close: "next_session",
    expiry: "",
  };
}

export function emptyMeta(): MetaForm {
  return {
    isDefault: false,
    move: { enabled: false, target: "", first_element: "", position: "above", order: "" },
    swap: { enabled: false, target: "" },
    edit: { enabled: false, action_type: "replace_html", action_txt: "" },
    clickActions: [],
    duplicates: [],
    onclick: emptyScriptAction(),
    onload: emptyScriptAction(),
    css: "",
    queryParams: [],
    js: { enabled: false, script: "", execution_type: "document_ready" },
    redirection: { enabled: false, url: "", retain_params: true },
    template: emptyTemplate(),
  };
}

export function emptyConfig(): ConfigForm {
  const key = `cfg_${randomSuffix()}`;
  return {
    mode: "form",
    json: "",
    config_customer_id: key,
    config_id: key,
    variation_data_type: "HTML_ELEMENT",
    page_path: "",
    page_match: "exact_match",
    domain: "",
    element_path: "",
    element_hint: "",
    scalar: "",
    bool: false,
    listKind: "string",
    element: emptyElement(),
    hasMobile: false,
    mobile: emptyElement(),
    hasDesktop: false,
    desktop: emptyElement(),
    meta: emptyMeta(),
  };
}

export function emptyVariation(name: string, weight = "50"): VariationForm {
  return { id: "", name, weight, configs: [] };
}

export function emptyRule(): RuleForm {
  return {
    id: "",
    audience_id: "",
    audience_name: "",
    behaviour: {
      id: "",
      name: "Main behaviour",
      traffic: "100",
      storedTraffic: null,
      device_specific: false,
      ga_measurement_id: "",
      variations: [emptyVariation("Control"), emptyVariation("Variation B")],
    },
  };
}

export function emptyGoal(): GoalForm {
  return {
    id: "",
    name: "",
    kind: "click",
    page_path: "",
    page_match: "exact_match",
    domain: "",
    event_name: "",
    revenue_cap: "",
  };
}

export const emptyGroup = (): GroupForm => ({ name: "", share: "50", start: null, stored: null });

export function groupToForm(g: ExclusionGroup | null): GroupForm {
  if (!g) return emptyGroup();
  return { name: g.name, share: percentText(g.end - g.start), start: g.start, stored: g };
}

export function emptyExperience(): ExperienceForm {
  return {
    name: "",
    kind: "ab_test",
    priority: "0",
    group: emptyGroup(),
    pages: [],
    rules: [emptyRule()],
    goals: [],
  };
}

// ---- Small helpers ----

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const str = (v: unknown): string =>
  typeof v === "string" ? v : v === undefined || v === null ? "" : String(v);

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const unescapeHtml = (s: string) =>
  s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** Plain text has no tags and no entities but the three we escape ourselves. */
const isPlainText = (html: string) => !/[<>]/.test(html) && !/&(?!amp;|lt;|gt;)/.test(html);

const splitClasses = (v: string) => v.split(/[\s,]+/).filter(Boolean);
const classText = (v: unknown) => (Array.isArray(v) ? v.join(" ") : str(v));
const lines = (v: string) =>
  v
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);

/** A number typed by the operator: "" is absent, anything else must be finite. */
export function parseNumber(text: string): number | undefined {
  const t = text.trim();
  if (t === "") return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : Number.NaN;
}

const numberText = (v: unknown) => (typeof v === "number" ? String(v) : str(v));

/** Percent as typed (0–100) from a share 0..1, without float noise (0.3 → "30"). */
const percentText = (share: number) => String(Math.round(share * 100_000) / 1000);

/**
 * A typed percent as a share, parsed as the decimal it is ("33.3" → 0.333, not 33.3 / 100 =
 * 0.33299999999999996): the text with its point moved two places, where the text allows.
 */
export function percentToShare(text: string, percent: number): number {
  const shifted = Number(`${text.trim()}e-2`);
  return Number.isFinite(shifted) ? shifted : percent / 100;
}

// ---- Form values from a stored experience ----

export function elementToForm(v: ElementChanges | undefined): ElementForm {
  const e = emptyElement();
  if (!v) return e;
  const html = str(v.innerHTML);
  const plain = isPlainText(html);
  return {
    ...e,
    innerHTMLKind: plain ? "text" : "html",
    innerHTML: plain ? unescapeHtml(html) : html,
    value: str(v.value),
    src: str(v.src),
    srcset: str(v.srcset),
    href: str(v.href_target?.href),
    target: str(v.href_target?.target),
    styles: Object.entries(v.style ?? {}).map(([property, value]) => ({
      property,
      value: str(value),
    })),
    retain: v.cf_retain_value === true,
    defer: v.cf_defer_apply === true,
    delayMs: numberText(v.cf_delay_apply_time),
    evtLoadTime: v.cf_evt_load_time === true,
    performClick: v.cf_perform_click_action === true,
    classOption: v.cf_classes_edit_option ?? "",
    classesAdd: classText(v.cf_classes_add),
    classesRemove: classText(v.cf_classes_remove),
    classesOverwrite: classText(v.cf_classes_overwrite),
  };
}

function scriptToForm(a: ScriptAction | undefined): ScriptActionForm {
  if (!a) return emptyScriptAction();
  return {
    enabled: true,
    action_type: a.action_type,
    goal_name: str(a.action_txt?.goal_name),
    js_code: str(a.action_txt?.js_code),
  };
}

function templateToForm(t: Template | undefined, mirrored: boolean): TemplateForm {
  if (!t) return emptyTemplate();
  const s = t.properties?.settings;
  return {
    enabled: true,
    mirror: mirrored,
    id: t.id,
    parentElement: str(t.parentElement),
    nextSibling: str(t.nextSibling),
    html: str(t.html),
    root_style: str(t.properties?.template_properties?.root_style),
    js_script: str(t.properties?.template_properties?.js_script),
    trigger: s?.config_selected ?? "on_entry",
    elements: (s?.elements ?? []).join("\n"),
    delay: numberText(s?.delay),
    timeout: numberText(s?.timeout),
    scroll_percentage: numberText(s?.scroll_percentage),
    visibility: s?.visibility_selected ?? "",
    closeEnabled: !!s?.close_settings,
    close: s?.close_settings?.close_config_selected ?? "next_session",
    expiry: numberText(s?.close_settings?.expiry),
  };
}

function metaToForm(m: CustomfitMeta | undefined, mirrored: boolean): MetaForm {
  const f = emptyMeta();
  if (!m) return f;
  const g = m.global_actions;
  return {
    isDefault: m.is_default === true,
    move: m.move_action
      ? {
          enabled: true,
          target: m.move_action.target,
          first_element: str(m.move_action.first_element),
          position: m.move_action.position,
          order: numberText(m.move_action.order),
        }
      : f.move,
    swap: m.swap_action ? { enabled: true, target: m.swap_action.target } : f.swap,
    edit: m.edit_elem_action ? { enabled: true, ...m.edit_elem_action } : f.edit,
    clickActions: (m.advanced_click_actions ?? []).map((a) => ({
      action_type: a.action_type,
      target: str(a.target),
      redirect_url: str(a.redirect_url),
      retain_params: a.retain_params !== false,
      open_in_new_tab: a.open_in_new_tab === true,
    })),
    duplicates: (m.duplicate_actions ?? []).map((d) => ({
      position: d.position,
      cloned_elem_id: str(d.cloned_elem_id),
    })),
    onclick: scriptToForm(m.onclick_action),
    onload: scriptToForm(m.onload_action),
    css: str(g?.css),
    queryParams: (g?.query_params ?? []).map((q) => ({
      key: q.key,
      value: str(q.value),
      operation: q.operation,
    })),
    js: g?.js ? { enabled: true, ...g.js } : f.js,
    redirection: g?.redirection
      ? {
          enabled: true,
          url: g.redirection.url,
          retain_params: g.redirection.retain_params !== false,
        }
      : f.redirection,
    template: templateToForm(m.custom_template, mirrored),
  };
}

/** The form of one config, or JSON mode when the form would lose something of it. */
export function configToForm(c: ConfigDefinition): ConfigForm {
  const asJson = (): ConfigForm => ({
    ...emptyConfig(),
    ...idsOf(c),
    mode: "json",
    json: JSON.stringify(c, null, 2),
  });
  let form: ConfigForm;
  try {
    form = configToFormUnchecked(c);
  } catch {
    return asJson();
  }
  const back = configFromForm(form);
  return back.ok && sameMeaning(c, back.value) ? form : asJson();
}

const idsOf = (c: ConfigDefinition) => ({
  config_customer_id: c.config_customer_id,
  config_id: c.config_id,
  variation_data_type: c.variation_data_type,
});

function configToFormUnchecked(c: ConfigDefinition): ConfigForm {
  const f = emptyConfig();
  const p = c.properties ?? {};
  const out: ConfigForm = {
    ...f,
    ...idsOf(c),
    page_path: str(p.page_path),
    page_match: p.page_match ?? "exact_match",
    domain: str(p.domain),
    element_path: str(p.element_path),
    element_hint: str(p.element_hint),
  };
  const v = c.variation;
  switch (c.variation_data_type) {
    case "HTML_ELEMENT": {
      if (!isObject(v)) throw new Error("not an object");
      const h = v as HtmlElementVariation;
      const { mobile, desktop, customfit_meta, ...own } = h;
      out.element = elementToForm(own);
      out.hasMobile = mobile !== undefined;
      out.mobile = elementToForm(mobile);
      out.hasDesktop = desktop !== undefined;
      out.desktop = elementToForm(desktop);
      out.meta = metaToForm(customfit_meta, p.custom_template !== undefined);
      break;
    }
    case "BOOLEAN":
      out.bool = v === true;
      break;
    case "LIST": {
      if (!Array.isArray(v)) throw new Error("not a list");
      out.listKind = v.length > 0 && v.every((x) => typeof x === "number") ? "number" : "string";
      out.scalar = v.map((x) => str(x)).join("\n");
      break;
    }
    case "JSON":
      out.scalar = JSON.stringify(v, null, 2);
      break;
    case "NUMBER":
      out.scalar = numberText(v);
      break;
    default:
      out.scalar = str(v);
  }
  return out;
}

/**
 * Equal as the storefront script reads them: a `false` flag, an empty list or map, or an empty
 * setting text (a template's js_script, visibility_selected "") is the same as none; a class
 * list string the same as its words; `retain_params: true` the default. Empty content
 * (innerHTML, value, an HTML edit) is kept: it clears the element.
 */
export function sameMeaning(a: unknown, b: unknown): boolean {
  return deepEqual(normalize(a), normalize(b));
}

const CLASS_KEYS = new Set(["cf_classes_add", "cf_classes_remove", "cf_classes_overwrite"]);
const EMPTY_MEANS_SOMETHING = new Set(["innerHTML", "value", "action_txt"]);

function normalize(v: unknown, key = ""): unknown {
  if (Array.isArray(v)) return v.map((x) => normalize(x));
  if (!isObject(v)) return CLASS_KEYS.has(key) && typeof v === "string" ? splitClasses(v) : v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    // retain_params defaults to true (spec §5 "Redirects"): there `true` is the default, not `false`.
    if (x === undefined || (k === "retain_params" ? x === true : x === false)) continue;
    if (x === "" && !EMPTY_MEANS_SOMETHING.has(k)) continue;
    const n = normalize(x, k);
    if (Array.isArray(n) && n.length === 0) continue;
    if (isObject(n) && Object.keys(n).length === 0) continue;
    out[k] = n;
  }
  return out;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

export function experienceToForm(e: ExperienceDetail): ExperienceForm {
  return {
    name: e.name,
    kind: e.kind,
    priority: String(e.priority),
    group: groupToForm(e.exclusion_group),
    pages: e.pages.map((p) => ({ ...p })),
    rules: e.rules.map((r) => ({
      id: r.id,
      audience_id: r.audience_id ?? "",
      audience_name: str(r.audience_name),
      behaviour: {
        id: r.behaviour.id,
        name: r.behaviour.name,
        traffic: percentText(r.behaviour.traffic_allocation),
        storedTraffic: {
          share: r.behaviour.traffic_allocation,
          text: percentText(r.behaviour.traffic_allocation),
        },
        device_specific: r.behaviour.config_modifications?.device_specific === true,
        ga_measurement_id: str(r.behaviour.ga_measurement_id),
        variations: r.behaviour.variations.map((v) => ({
          id: v.id,
          name: v.name,
          weight: String(v.weight),
          configs: v.configs.map(configToForm),
        })),
      },
    })),
    goals: e.goals.map((g) => ({
      id: g.id,
      name: g.name,
      kind: g.kind,
      page_path: str(g.page?.page_path),
      page_match: g.page?.page_match ?? "exact_match",
      domain: str(g.page?.domain),
      event_name: str(g.event_name),
      revenue_cap: g.revenue_cap === undefined ? "" : String(g.revenue_cap),
    })),
  };
}

// ---- Validation and the input from form values ----

/** A problem with one input: `path` is the field's name in the form (react-hook-form's dotted path). */
export type FormProblem = { path: string; message: string };

type Result<T> = { ok: true; value: T } | { ok: false; problems: FormProblem[] };

const ID_RE = /^[A-Za-z0-9_.-]{1,128}$/;

/** Collects problems while building a value; `at` prefixes the paths of nested builders. */
class Problems {
  readonly list: FormProblem[] = [];
  constructor(private readonly prefix = "") {}
  add(path: string, message: string) {
    this.list.push({ path: this.prefix + path, message });
  }
  /** Non-empty, at most `max` characters. */
  required(path: string, value: string, what: string, max = 200) {
    if (value.trim() === "") this.add(path, `${what} is required.`);
    else if (value.length > max) this.add(path, `${what} must be at most ${max} characters.`);
  }
  number(
    path: string,
    text: string,
    what: string,
    opts: { min?: number; max?: number; integer?: boolean } = {},
  ): number | undefined {
    const n = parseNumber(text);
    if (n === undefined) return undefined;
    if (Number.isNaN(n)) this.add(path, `${what} must be a number.`);
    else if (opts.integer && !Number.isInteger(n))
      this.add(path, `${what} must be a whole number.`);
    else if (opts.min !== undefined && n < opts.min)
      this.add(path, `${what} must be at least ${opts.min}.`);
    else if (opts.max !== undefined && n > opts.max)
      this.add(path, `${what} must be at most ${opts.max}.`);
    else return n;
    return undefined;
  }
  /** A CSS path the browser can parse (checked only where there is a DOM: the dashboard). */
  selector(path: string, value: string, what: string) {
    const doc = (globalThis as { document?: Document }).document;
    if (!doc || value.trim() === "") return;
    try {
      doc.createDocumentFragment().querySelector(value);
    } catch {
      this.add(path, `${what} is not a valid CSS path: "${value.trim()}".`);
    }
  }
  regex(path: string, pattern: string, what: string) {
    try {
      new RegExp(pattern);
    } catch (error) {
      this.add(path, `${what} is not a valid regular expression: ${(error as Error).message}`);
    }
  }
}

function elementFromForm(f: ElementForm, p: Problems, at: string): ElementChanges {
  const out: ElementChanges = {};
  if (f.innerHTML !== "")
    out.innerHTML = f.innerHTMLKind === "text" ? escapeHtml(f.innerHTML) : f.innerHTML;
  if (f.value !== "") out.value = f.value;
  if (f.src.trim() !== "") out.src = f.src.trim();
  if (f.srcset.trim() !== "") out.srcset = f.srcset.trim();
  if (f.href.trim() !== "" || f.target.trim() !== "") {
    out.href_target = {};
    if (f.href.trim() !== "") out.href_target.href = f.href.trim();
    if (f.target.trim() !== "") out.href_target.target = f.target.trim();
  }
  const style: Record<string, string> = {};
  f.styles.forEach((s, i) => {
    const prop = s.property.trim();
    if (prop === "") {
      p.add(`${at}styles.${i}.property`, "A style needs a property name, such as color.");
      return;
    }
    if (prop in style) p.add(`${at}styles.${i}.property`, `The style "${prop}" is set twice.`);
    style[prop] = s.value;
  });
  if (Object.keys(style).length > 0) out.style = style;
  if (f.retain) out.cf_retain_value = true;
  if (f.defer) out.cf_defer_apply = true;
  const delay = p.number(`${at}delayMs`, f.delayMs, "The delay", { min: 0 });
  if (delay !== undefined) out.cf_delay_apply_time = delay;
  if (f.evtLoadTime) out.cf_evt_load_time = true;
  if (f.performClick) out.cf_perform_click_action = true;
  if (f.classOption !== "") {
    out.cf_classes_edit_option = f.classOption;
    if (f.classOption === "add_remove_classes") {
      const add = splitClasses(f.classesAdd);
      const remove = splitClasses(f.classesRemove);
      if (add.length) out.cf_classes_add = add;
      if (remove.length) out.cf_classes_remove = remove;
      if (!add.length && !remove.length)
        p.add(`${at}classesAdd`, "Name the classes to add or remove.");
    } else if (f.classOption === "overwrite_classes") {
      out.cf_classes_overwrite = splitClasses(f.classesOverwrite);
    }
  }
  return out;
}

function scriptFromForm(f: ScriptActionForm, p: Problems, at: string): ScriptAction | undefined {
  if (!f.enabled) return undefined;
  const tracks = f.action_type !== "execute_javascript";
  const runs = f.action_type !== "track_click";
  const txt: NonNullable<ScriptAction["action_txt"]> = {};
  if (tracks) {
    p.required(`${at}goal_name`, f.goal_name, "The goal name", 256);
    txt.goal_name = f.goal_name.trim();
  }
  if (runs) {
    if (f.js_code.trim() === "") p.add(`${at}js_code`, "Write the JavaScript to run.");
    txt.js_code = f.js_code;
  }
  return { action_type: f.action_type, action_txt: txt };
}

function templateFromForm(f: TemplateForm, p: Problems, at: string): Template {
  p.required(`${at}id`, f.id, "The template id", 256);
  p.selector(`${at}parentElement`, f.parentElement, "The parent element");
  p.selector(`${at}nextSibling`, f.nextSibling, "The next element");
  const settings: TemplateSettings = { config_selected: f.trigger };
  if (f.trigger === "on_click") {
    const elements = lines(f.elements);
    if (!elements.length) p.add(`${at}elements`, "List the elements whose click opens the popup.");
    elements.forEach((e) => p.selector(`${at}elements`, e, "An element"));
    settings.elements = elements;
  }
  if (f.trigger === "at_exit") {
    const d = p.number(`${at}delay`, f.delay, "The delay", { min: 0 });
    if (d !== undefined) settings.delay = d;
  }
  if (f.trigger === "timerbased") {
    const t = p.number(`${at}timeout`, f.timeout, "The time", { min: 0 });
    if (t === undefined && f.timeout.trim() === "")
      p.add(`${at}timeout`, "Say after how many seconds the popup shows.");
    if (t !== undefined) settings.timeout = t;
  }
  if (f.trigger === "on_scroll") {
    const s = p.number(`${at}scroll_percentage`, f.scroll_percentage, "The scroll depth", {
      min: 0,
      max: 100,
    });
    if (s === undefined && f.scroll_percentage.trim() === "")
      p.add(`${at}scroll_percentage`, "Say at what scroll depth (0–100 %) the popup shows.");
    if (s !== undefined) settings.scroll_percentage = s;
  }
  if (f.visibility !== "") settings.visibility_selected = f.visibility;
  if (f.closeEnabled) {
    settings.close_settings = { close_config_selected: f.close };
    if (f.close === "duration") {
      const e = p.number(`${at}expiry`, f.expiry, "The duration", { min: 0 });
      if (e === undefined && f.expiry.trim() === "")
        p.add(`${at}expiry`, "Say how long a close is remembered.");
      if (e !== undefined) settings.close_settings.expiry = e;
    } else {
      const e = p.number(`${at}expiry`, f.expiry, "The expiry", { min: 0 });
      if (e !== undefined) settings.close_settings.expiry = e;
    }
  }
  const t: Template = { id: f.id.trim() };
  if (f.parentElement.trim()) t.parentElement = f.parentElement.trim();
  if (f.nextSibling.trim()) t.nextSibling = f.nextSibling.trim();
  if (f.html !== "") t.html = f.html;
  const tp: { root_style?: string; js_script?: string } = {};
  if (f.root_style !== "") tp.root_style = f.root_style;
  if (f.js_script !== "") tp.js_script = f.js_script;
  t.properties = { ...(Object.keys(tp).length ? { template_properties: tp } : {}), settings };
  return t;
}

function metaFromForm(f: MetaForm, p: Problems, at: string): CustomfitMeta {
  const m: CustomfitMeta = {};
  if (f.move.enabled) {
    p.required(`${at}move.target`, f.move.target, "The element to move next to", 2048);
    p.selector(`${at}move.target`, f.move.target, "The element to move next to");
    m.move_action = { target: f.move.target.trim(), position: f.move.position };
    if (f.move.first_element.trim()) m.move_action.first_element = f.move.first_element.trim();
    const order = p.number(`${at}move.order`, f.move.order, "The order");
    if (order !== undefined) m.move_action.order = order;
  }
  if (f.swap.enabled) {
    p.required(`${at}swap.target`, f.swap.target, "The element to swap with", 2048);
    p.selector(`${at}swap.target`, f.swap.target, "The element to swap with");
    m.swap_action = { target: f.swap.target.trim() };
  }
  if (f.edit.enabled)
    m.edit_elem_action = { action_type: f.edit.action_type, action_txt: f.edit.action_txt };
  if (f.clickActions.length) {
    m.advanced_click_actions = f.clickActions.map((a, i) => {
      const out: AdvancedClickAction = { action_type: a.action_type };
      if (a.action_type === "redirect_to_page") {
        p.required(
          `${at}clickActions.${i}.redirect_url`,
          a.redirect_url,
          "The address to go to",
          4096,
        );
        out.redirect_url = a.redirect_url.trim();
        if (!a.retain_params) out.retain_params = false;
        if (a.open_in_new_tab) out.open_in_new_tab = true;
      } else {
        p.required(`${at}clickActions.${i}.target`, a.target, "The element", 2048);
        p.selector(`${at}clickActions.${i}.target`, a.target, "The element");
        out.target = a.target.trim();
      }
      return out;
    });
  }
  if (f.duplicates.length) {
    m.duplicate_actions = f.duplicates.map((d) => ({
      position: d.position,
      ...(d.cloned_elem_id.trim() ? { cloned_elem_id: d.cloned_elem_id.trim() } : {}),
    }));
  }
  const onclick = scriptFromForm(f.onclick, p, `${at}onclick.`);
  if (onclick) m.onclick_action = onclick;
  const onload = scriptFromForm(f.onload, p, `${at}onload.`);
  if (onload) m.onload_action = onload;
  const g: NonNullable<CustomfitMeta["global_actions"]> = {};
  if (f.css.trim() !== "") g.css = f.css;
  if (f.queryParams.length) {
    g.query_params = f.queryParams.map((q, i) => {
      p.required(`${at}queryParams.${i}.key`, q.key, "The parameter name", 256);
      return {
        key: q.key.trim(),
        operation: q.operation,
        ...(q.operation === "add" ? { value: q.value } : {}),
      };
    });
  }
  if (f.js.enabled) {
    if (f.js.script.trim() === "") p.add(`${at}js.script`, "Write the script to run on the page.");
    g.js = { script: f.js.script, execution_type: f.js.execution_type };
  }
  if (f.redirection.enabled) {
    p.required(`${at}redirection.url`, f.redirection.url, "The redirection address", 4096);
    g.redirection = {
      url: f.redirection.url.trim(),
      ...(f.redirection.retain_params ? {} : { retain_params: false }),
    };
  }
  if (Object.keys(g).length) m.global_actions = g;
  if (f.isDefault) m.is_default = true;
  if (f.template.enabled) m.custom_template = templateFromForm(f.template, p, `${at}template.`);
  return m;
}

const DATA_TYPES: readonly VariationDataType[] = [
  "HTML_ELEMENT",
  "NUMBER",
  "STRING",
  "BOOLEAN",
  "LIST",
  "COLOR",
  "RICHTEXT",
  "JSON",
];

/** A config typed as JSON: parsed, with the fields the service requires checked. */
function configFromJson(text: string, p: Problems): ConfigDefinition | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    p.add("json", `This is not valid JSON: ${(error as Error).message}`);
    return undefined;
  }
  if (!isObject(value)) {
    p.add("json", "A config is a JSON object.");
    return undefined;
  }
  for (const k of ["config_customer_id", "config_id"]) {
    if (typeof value[k] !== "string" || value[k] === "")
      p.add("json", `The config needs a "${k}" (text).`);
  }
  if (!DATA_TYPES.includes(value["variation_data_type"] as VariationDataType)) {
    p.add("json", `"variation_data_type" must be one of ${DATA_TYPES.join(", ")}.`);
  }
  if (!("variation" in value)) p.add("json", 'The config needs a "variation".');
  return value as ConfigDefinition;
}

/** The config of one form, or its problems (paths relative to the config). */
export function configFromForm(f: ConfigForm): Result<ConfigDefinition> {
  const p = new Problems();
  if (f.mode === "json") {
    const c = configFromJson(f.json, p);
    return p.list.length || !c ? { ok: false, problems: p.list } : { ok: true, value: c };
  }
  p.required("config_customer_id", f.config_customer_id, "The config key", 256);
  p.required("config_id", f.config_id, "The config id", 256);
  const properties: NonNullable<ConfigDefinition["properties"]> = {};
  if (f.page_path.trim() !== "") {
    properties.page_path = f.page_path.trim();
    properties.page_match = f.page_match;
    if (f.page_match === "regex") p.regex("page_path", f.page_path.trim(), "The page");
  }
  if (f.domain.trim() !== "") properties.domain = f.domain.trim();
  if (f.element_path.trim() !== "") properties.element_path = f.element_path.trim();
  p.selector("element_path", f.element_path, "The element");
  if (f.element_hint.trim() !== "") properties.element_hint = f.element_hint.trim();

  let variation: Json | HtmlElementVariation;
  switch (f.variation_data_type) {
    case "HTML_ELEMENT": {
      const v: HtmlElementVariation = elementFromForm(f.element, p, "element.");
      if (f.hasMobile) v.mobile = elementFromForm(f.mobile, p, "mobile.");
      if (f.hasDesktop) v.desktop = elementFromForm(f.desktop, p, "desktop.");
      const meta = metaFromForm(f.meta, p, "meta.");
      if (Object.keys(meta).length) v.customfit_meta = meta;
      if (meta.custom_template && f.meta.template.mirror)
        properties.custom_template = meta.custom_template;
      const touchesElement =
        Object.keys(v).some((k) => k !== "customfit_meta") ||
        !!(
          meta.move_action ||
          meta.swap_action ||
          meta.edit_elem_action ||
          meta.duplicate_actions ||
          meta.advanced_click_actions ||
          meta.onclick_action ||
          meta.onload_action
        );
      if (touchesElement && !properties.element_path) {
        p.add("element_path", "Say which element to change (a CSS path such as #product-price).");
      }
      variation = v;
      break;
    }
    case "NUMBER": {
      const n = parseNumber(f.scalar);
      if (n === undefined || Number.isNaN(n)) p.add("scalar", "Enter a number.");
      variation = n ?? 0;
      break;
    }
    case "BOOLEAN":
      variation = f.bool;
      break;
    case "LIST": {
      const items = lines(f.scalar);
      if (f.listKind === "number") {
        const nums = items.map(Number);
        if (nums.some((n) => !Number.isFinite(n)))
          p.add("scalar", "Every item of a number list must be a number.");
        variation = nums;
      } else variation = items;
      if (items.length > 1000) p.add("scalar", "A list holds at most 1000 items.");
      break;
    }
    case "JSON":
      try {
        variation = JSON.parse(f.scalar) as Json;
      } catch (error) {
        p.add("scalar", `This is not valid JSON: ${(error as Error).message}`);
        variation = null;
      }
      break;
    case "COLOR":
      p.required("scalar", f.scalar, "The color", 64);
      variation = f.scalar.trim();
      break;
    default:
      variation = f.scalar;
  }
  const config: ConfigDefinition = {
    config_customer_id: f.config_customer_id.trim(),
    config_id: f.config_id.trim(),
    variation_data_type: f.variation_data_type,
    variation: variation as ConfigDefinition["variation"],
    ...(Object.keys(properties).length ? { properties } : {}),
  };
  return p.list.length ? { ok: false, problems: p.list } : { ok: true, value: config };
}

/** Everything wrong with the form, each at its input; an empty list means it can be saved. */
export function validateExperience(form: ExperienceForm): FormProblem[] {
  const result = experienceFromForm(form);
  return result.ok ? [] : result.problems;
}

export function experienceFromForm(f: ExperienceForm): Result<ExperienceInput> {
  const p = new Problems();
  p.required("name", f.name, "The name");
  const priority = p.number("priority", f.priority, "The priority", {
    min: -1000,
    max: 1000,
    integer: true,
  });

  const exclusion_group = groupFromForm(f.group, p);

  f.pages.forEach((page, i) => {
    p.required(`pages.${i}.page_path`, page.page_path, "The page", 2048);
    if (page.page_match === "regex" && page.page_path.trim())
      p.regex(`pages.${i}.page_path`, page.page_path.trim(), "The page");
  });
  const pages = f.pages.map((page) => ({
    domain: page.domain.trim(),
    page_path: page.page_path.trim(),
    page_match: page.page_match,
  }));

  const rules: RuleInput[] = f.rules.map((r, ri) => {
    const at = `rules.${ri}.behaviour.`;
    const b = r.behaviour;
    p.required(`${at}name`, b.name, "The behaviour's name");
    const traffic = p.number(`${at}traffic`, b.traffic, "Traffic", { min: 0, max: 100 });
    if (b.traffic.trim() === "") p.add(`${at}traffic`, "Traffic is required (0–100 %).");
    if (b.variations.length === 0)
      p.add(`${at}variations`, "A behaviour needs at least one variation.");
    if (b.ga_measurement_id.length > 64)
      p.add(`${at}ga_measurement_id`, "The measurement id must be at most 64 characters.");
    const variations = b.variations.map((v, vi) => {
      const vat = `${at}variations.${vi}.`;
      p.required(`${vat}name`, v.name, "The variation's name");
      const weight = p.number(`${vat}weight`, v.weight, "The weight", { min: 0, max: 1_000_000 });
      if (v.weight.trim() === "")
        p.add(`${vat}weight`, "The weight is required (0 keeps the variation out).");
      const keys = new Set<string>();
      const configs = v.configs.flatMap((c, ci) => {
        const r2 = configFromForm(c);
        const cat = `${vat}configs.${ci}.`;
        if (!r2.ok) {
          r2.problems.forEach((x) => p.add(cat + x.path, x.message));
          return [];
        }
        if (keys.has(r2.value.config_customer_id)) {
          p.add(
            `${cat}${c.mode === "json" ? "json" : "config_customer_id"}`,
            `The config key "${r2.value.config_customer_id}" is used twice in this variation.`,
          );
        }
        keys.add(r2.value.config_customer_id);
        return [r2.value];
      });
      return { ...(v.id ? { id: v.id } : {}), name: v.name.trim(), weight: weight ?? 0, configs };
    });
    return {
      ...(r.id ? { id: r.id } : {}),
      audience_id: r.audience_id === "" ? null : r.audience_id,
      ...(r.audience_name.trim() ? { audience_name: r.audience_name.trim() } : {}),
      behaviour: {
        ...(b.id ? { id: b.id } : {}),
        name: b.name.trim(),
        traffic_allocation:
          b.storedTraffic && b.traffic === b.storedTraffic.text
            ? b.storedTraffic.share
            : percentToShare(b.traffic, traffic ?? 0),
        variations,
        ...(b.device_specific ? { config_modifications: { device_specific: true } } : {}),
        ...(b.ga_measurement_id.trim() ? { ga_measurement_id: b.ga_measurement_id.trim() } : {}),
      },
    };
  });

  const goals: GoalInput[] = f.goals.map((g, i) => {
    const at = `goals.${i}.`;
    p.required(`${at}name`, g.name, "The goal's name");
    const goal: GoalInput = { ...(g.id ? { id: g.id } : {}), name: g.name.trim(), kind: g.kind };
    if (g.kind === "page_view") {
      p.required(`${at}page_path`, g.page_path, "The goal page", 2048);
      if (g.page_match === "regex" && g.page_path.trim())
        p.regex(`${at}page_path`, g.page_path.trim(), "The goal page");
      goal.page = {
        page_path: g.page_path.trim(),
        page_match: g.page_match,
        ...(g.domain.trim() ? { domain: g.domain.trim() } : {}),
      };
    }
    if (g.kind === "click" || g.kind === "form_submit" || g.kind === "track") {
      if (g.event_name.length > 200)
        p.add(`${at}event_name`, "The event name must be at most 200 characters.");
      if (g.event_name.trim()) goal.event_name = g.event_name.trim();
      else if (g.kind === "track")
        p.add(`${at}event_name`, "Name the custom event this goal counts.");
    }
    if (g.kind === "revenue" && g.revenue_cap.trim() !== "") {
      const cap = p.number(`${at}revenue_cap`, g.revenue_cap, "The revenue cap");
      if (cap !== undefined && cap <= 0)
        p.add(`${at}revenue_cap`, "The revenue cap must be more than 0.");
      else if (cap !== undefined) goal.revenue_cap = cap;
    }
    return goal;
  });

  // Ids the service keeps must stay valid and unique (desired experiences name "exp:variation").
  const seen = new Set<string>();
  f.rules.forEach((r, ri) =>
    r.behaviour.variations.forEach((v, vi) => {
      if (!v.id) return;
      if (!ID_RE.test(v.id) || seen.has(v.id))
        p.add(
          `rules.${ri}.behaviour.variations.${vi}.name`,
          `The variation id "${v.id}" is invalid or used twice.`,
        );
      seen.add(v.id);
    }),
  );

  if (p.list.length) return { ok: false, problems: p.list };
  return {
    ok: true,
    value: {
      name: f.name.trim(),
      kind: f.kind,
      priority: priority ?? 0,
      exclusion_group,
      pages,
      rules,
      goals,
    },
  };
}

/** Units of a share: 100 000 are the whole group (0.001 %), so slices add up without float noise. */
const GROUP_UNITS = 100_000;

function groupFromForm(g: GroupForm | undefined, p: Problems): ExclusionGroup | null {
  if (!g || g.name.trim() === "") return null;
  const name = g.name.trim();
  p.required("group.name", name, "The group's name", 100);
  const share = p.number("group.share", g.share, "The share", { min: 0, max: 100 });
  if (g.share.trim() === "")
    p.add("group.share", "The share is required (more than 0 %, at most 100 %).");
  else if (share === 0) p.add("group.share", "The share must be more than 0 %.");
  if (share === undefined || share === 0) return null;
  const stored = g.stored;
  if (
    stored &&
    stored.name === name &&
    g.start === stored.start &&
    g.share === percentText(stored.end - stored.start)
  )
    return stored;
  if (g.start === null) {
    p.add(
      "group.share",
      "This share does not fit in the group: the other members' shares leave less free.",
    );
    return null;
  }
  const start = Math.round(g.start * GROUP_UNITS);
  const end = start + Math.round(percentToShare(g.share, share) * GROUP_UNITS);
  if (end > GROUP_UNITS) {
    p.add(
      "group.share",
      "This share does not fit in the group: the other members' shares leave less free.",
    );
    return null;
  }
  return { name, start: start / GROUP_UNITS, end: end / GROUP_UNITS };
}

/** A copy to save as a new experience: same content, new name, ids left to the service. */
export function duplicateInput(e: ExperienceDetail): ExperienceInput {
  return {
    name: `Copy of ${e.name}`.slice(0, 200),
    kind: e.kind,
    priority: e.priority,
    pages: e.pages,
    rules: e.rules.map(({ id: _r, behaviour: { id: _b, variations, ...behaviour }, ...rule }) => ({
      ...rule,
      behaviour: { ...behaviour, variations: variations.map(({ id: _v, ...v }) => v) },
    })),
    goals: e.goals.map(({ id: _g, ...g }) => g),
  };
}
