// The visual editor's data, as pure functions: which configs of a variation belong to the page in
// the frame, the config of the selected element and how a panel edit changes it, the templates,
// and the per-variation undo/redo history. Configs are the ConfigDefinition the service stores
// (packages/server/src/schemas/config.ts); the bridge previews them as the script will apply them.
import type {
  Config,
  ConfigDefinition,
  CustomfitMeta,
  EditorDevice,
  HtmlElementVariation,
  PageTarget,
  Template,
  TemplateSettings,
} from "@storefit/contract";
import { configMatchesPage, matchPage } from "@storefit/contract";

/**
 * The page in the frame, as the script sees it (hostname without port), with the account's main
 * domain when known: a page or config without a domain belongs to it, as the service decides
 * (contract `configMatchesPage`).
 */
export type FrameLocation = { hostname: string; pathname: string; search: string; mainDomain?: string };

/** Where a new config applies: this page only, or every page the experience targets. */
export type ChangeScope = "page" | "experience";

export function locationOf(url: string): FrameLocation | null {
  try {
    const u = new URL(url);
    return { hostname: u.hostname, pathname: u.pathname, search: u.search };
  } catch {
    return null;
  }
}

/** A config bound to a page (properties.page_path) applies only there; others wherever the experience does. */
export function configOnPage(c: ConfigDefinition, location: FrameLocation): boolean {
  return configMatchesPage(c, location, location.mainDomain);
}

export function pageTargeted(pages: PageTarget[], location: FrameLocation): boolean {
  return pages.some((p) => matchPage(p, location, location.mainDomain));
}

/** The variation's place in the experience, as the config call answers it with each config. */
export type VariationContext = {
  experienceId: string;
  behaviourId: string;
  /** spec §3 config_modifications.device_specific: the script applies `mobile` / `desktop`. */
  deviceSpecific: boolean;
};

/** What the bridge previews: the variation's configs on this page, as the config call answers them. */
export function previewConfigs(
  configs: ConfigDefinition[],
  variationId: string,
  context: VariationContext,
  location: FrameLocation,
): Config[] {
  return configs
    .filter((c) => configOnPage(c, location))
    .map((c) => ({
      ...c,
      variation_id: variationId,
      // The apply engine picks a device's sub-variation only when the behaviour says so.
      experience_behaviour_response: {
        experience_id: context.experienceId,
        behaviour_id: context.behaviourId,
        config_modifications: { device_specific: context.deviceSpecific },
      },
    }));
}

const ELEMENT_KEYS_OUTSIDE_DEVICE = new Set(["mobile", "desktop", "customfit_meta"]);

/**
 * An edit made while previewing one device of a device-specific behaviour: the panel sees the
 * element's changes as that device gets them (`{...base, ...variation[device]}`), and what the
 * edit changes among the element fields goes to `variation[device]`; customfit_meta (moves,
 * clicks, templates) stays shared, as the script applies it for both.
 */
export function deviceEdit(
  device: EditorDevice,
  edit: (v: HtmlElementVariation) => HtmlElementVariation,
): (v: HtmlElementVariation) => HtmlElementVariation {
  return (v) => {
    const merged = deviceView(v, device);
    const out = edit(merged);
    const sub: Record<string, unknown> = {};
    for (const [k, value] of Object.entries(out))
      if (
        !ELEMENT_KEYS_OUTSIDE_DEVICE.has(k) &&
        JSON.stringify(value) !== JSON.stringify(v[k as keyof HtmlElementVariation])
      )
        sub[k] = value;
    const cleaned = tidy(sub as HtmlElementVariation);
    const next: HtmlElementVariation = { ...v, customfit_meta: out.customfit_meta };
    if (Object.keys(cleaned).length) next[device] = cleaned;
    else delete next[device];
    return next;
  };
}

/** The element's changes as `device` gets them in a device-specific behaviour. */
export function deviceView(v: HtmlElementVariation, device: EditorDevice): HtmlElementVariation {
  const { mobile: _m, desktop: _d, ...base } = v;
  return { ...base, ...(v[device] ?? {}) };
}

const isHtmlElement = (c: ConfigDefinition) =>
  c.variation_data_type === "HTML_ELEMENT" &&
  !!c.variation &&
  typeof c.variation === "object" &&
  !Array.isArray(c.variation);

export const variationOf = (c: ConfigDefinition | undefined): HtmlElementVariation =>
  c && isHtmlElement(c) ? (c.variation as HtmlElementVariation) : {};

export const templateOf = (c: ConfigDefinition): Template | null =>
  c.properties?.custom_template ?? variationOf(c).customfit_meta?.custom_template ?? null;

/** The index of the config that changes the element at `path` on this page, or -1. */
export function elementConfigIndex(
  configs: ConfigDefinition[],
  path: string,
  location: FrameLocation,
): number {
  return configs.findIndex(
    (c) =>
      isHtmlElement(c) &&
      !templateOf(c) &&
      c.properties?.element_path === path &&
      configOnPage(c, location),
  );
}

function newId(prefix: string): string {
  const random =
    typeof crypto !== "undefined" && "randomUUID" in crypto
      ? crypto.randomUUID().replace(/-/g, "").slice(0, 12)
      : Math.random().toString(36).slice(2, 14);
  return `${prefix}_${random}`;
}

function pageProperties(location: FrameLocation, scope: ChangeScope) {
  return scope === "page"
    ? {
        page_path: location.pathname,
        page_match: "exact_match" as const,
        domain: location.hostname,
      }
    : {};
}

/** Drops what an edit emptied, so that a change taken back leaves no trace in the config. */
export function tidy(v: HtmlElementVariation): HtmlElementVariation {
  const out: HtmlElementVariation = { ...v };
  if (out.style && Object.keys(out.style).length === 0) delete out.style;
  if (out.href_target && !out.href_target.href && !out.href_target.target) delete out.href_target;
  if (out.cf_classes_edit_option === "add_remove_classes") {
    const empty = (x: string[] | string | undefined) => !x || x.length === 0;
    if (empty(out.cf_classes_add) && empty(out.cf_classes_remove)) {
      delete out.cf_classes_edit_option;
      delete out.cf_classes_add;
      delete out.cf_classes_remove;
    }
  }
  for (const d of ["mobile", "desktop"] as const) {
    const sub = out[d];
    if (sub && Object.keys(sub).length === 0) delete out[d];
  }
  if (out.customfit_meta) {
    const m: CustomfitMeta = { ...out.customfit_meta };
    if (m.duplicate_actions && m.duplicate_actions.length === 0) delete m.duplicate_actions;
    if (m.advanced_click_actions && m.advanced_click_actions.length === 0)
      delete m.advanced_click_actions;
    for (const k of Object.keys(m) as (keyof CustomfitMeta)[]) if (m[k] === undefined) delete m[k];
    if (Object.keys(m).length === 0) delete out.customfit_meta;
    else out.customfit_meta = m;
  }
  for (const k of Object.keys(out) as (keyof HtmlElementVariation)[])
    if (out[k] === undefined) delete out[k];
  return out;
}

/**
 * The configs with the element at `path` changed by `edit`: its config is updated, created (bound
 * to this page or to the experience's pages, per `scope`), or removed when nothing is left.
 */
export function editElement(
  configs: ConfigDefinition[],
  path: string,
  location: FrameLocation,
  scope: ChangeScope,
  edit: (v: HtmlElementVariation) => HtmlElementVariation,
): ConfigDefinition[] {
  const i = elementConfigIndex(configs, path, location);
  const current = i >= 0 ? configs[i] : undefined;
  const variation = tidy(edit(variationOf(current)));
  const empty = Object.keys(variation).length === 0;
  if (current) {
    return empty
      ? configs.filter((_, j) => j !== i)
      : configs.map((c, j) => (j === i ? { ...c, variation } : c));
  }
  if (empty) return configs;
  const id = newId("ve");
  return [
    ...configs,
    {
      config_customer_id: id,
      config_id: `cfg_${id}`,
      variation_data_type: "HTML_ELEMENT",
      variation,
      properties: { ...pageProperties(location, scope), element_path: path },
    },
  ];
}

export const setStyle =
  (prop: string, value: string) =>
  (v: HtmlElementVariation): HtmlElementVariation => {
    const style = { ...(v.style ?? {}) };
    if (value.trim()) style[prop] = value;
    else delete style[prop];
    return { ...v, style };
  };

export const setMeta =
  <K extends keyof CustomfitMeta>(key: K, value: CustomfitMeta[K] | undefined) =>
  (v: HtmlElementVariation): HtmlElementVariation => ({
    ...v,
    customfit_meta: { ...(v.customfit_meta ?? {}), [key]: value },
  });

/** Hidden the way the script hides: an inline `display: none` that beats the shop's CSS. */
export const HIDDEN_DISPLAY = "none !important";
export const isHidden = (v: HtmlElementVariation) => /^none\b/.test(v.style?.display ?? "");

export const classList = (x: string[] | string | undefined): string =>
  Array.isArray(x) ? x.join(" ") : (x ?? "");
export const toClassList = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** `#rrggbb` for a hex or rgb()/rgba() color (what a color input takes), or null. */
export function toHexColor(value: string): string | null {
  const v = value.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(v)) return v;
  if (/^#[0-9a-f]{3}$/.test(v)) return "#" + [...v.slice(1)].map((c) => c + c).join("");
  const m = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/.exec(v);
  if (!m) return null;
  return (
    "#" +
    m
      .slice(1, 4)
      .map((n) => Math.min(255, Number(n)).toString(16).padStart(2, "0"))
      .join("")
  );
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );
}

/** The text a piece of HTML shows (whitespace collapsed), parsed inertly. */
export function textOf(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  return (doc.body.textContent ?? "").replace(/\s+/g, " ").trim();
}

// ---- popup templates (spec §3 "Template (custom_template)") ----

export type PopupInput = {
  html: string;
  trigger: TemplateSettings["config_selected"];
  /** Seconds, for `timerbased` (its `timeout`). */
  delay: number;
  /** 0..100, for `on_scroll`. */
  scrollPercentage: number;
};

/** An overlay that centers the popup; the operator's HTML is the card. */
export const POPUP_ROOT_STYLE =
  "position:fixed;inset:0;z-index:2147483000;display:flex;align-items:center;justify-content:center;background:rgba(0,0,0,.45)";

export const DEFAULT_POPUP_HTML =
  '<div role="dialog" aria-label="Offer" style="max-width:22rem;padding:1.5rem;border-radius:12px;background:#fff;text-align:center">' +
  '<button type="button" data-storefit-close aria-label="Close" style="float:right;border:0;background:none;font-size:1.25rem;cursor:pointer">×</button>' +
  "<p><strong>Welcome!</strong> Take 10% off your first order.</p></div>";

/** A config that inserts a popup into the page (mirrored in properties, as Appendix A asks). */
export function popupConfig(
  input: PopupInput,
  location: FrameLocation,
  scope: ChangeScope,
): ConfigDefinition {
  const id = newId("ve_popup");
  const settings: TemplateSettings = { config_selected: input.trigger };
  // spec §3: timerbased shows after `timeout` seconds (`delay` is at_exit's arming delay).
  if (input.trigger === "timerbased") settings.timeout = input.delay;
  if (input.trigger === "on_scroll") settings.scroll_percentage = input.scrollPercentage;
  const template: Template = {
    id: `tpl_${id}`,
    parentElement: "body",
    html: input.html,
    properties: { template_properties: { root_style: POPUP_ROOT_STYLE }, settings },
  };
  return {
    config_customer_id: id,
    config_id: `cfg_${id}`,
    variation_data_type: "HTML_ELEMENT",
    variation: { customfit_meta: { custom_template: template } },
    properties: { ...pageProperties(location, scope), custom_template: template },
  };
}

/** A few words on what a config does, for the list of changes. */
export function describeConfig(c: ConfigDefinition): string {
  const t = templateOf(c);
  if (t) return `Popup (${t.properties?.settings?.config_selected ?? "on_entry"})`;
  if (!isHtmlElement(c)) return c.variation_data_type;
  const v = variationOf(c);
  const m = v.customfit_meta ?? {};
  const parts: string[] = [];
  if (v.innerHTML !== undefined) parts.push("content");
  if (v.src !== undefined || v.srcset !== undefined) parts.push("image");
  if (isHidden(v)) parts.push("hidden");
  else if (v.style) parts.push("style");
  if (v.href_target) parts.push("link");
  if (v.cf_classes_edit_option && v.cf_classes_edit_option !== "no_changes") parts.push("classes");
  if (m.move_action) parts.push("moved");
  if (m.swap_action) parts.push("swapped");
  if (m.duplicate_actions) parts.push("duplicated");
  if (m.edit_elem_action) parts.push("HTML inserted");
  if (m.onclick_action || m.advanced_click_actions) parts.push("click action");
  if (m.is_default) parts.push("unchanged (control)");
  return parts.join(", ") || "no change";
}

// ---- undo and redo, one history per variation ----

export type History = {
  past: ConfigDefinition[][];
  present: ConfigDefinition[];
  future: ConfigDefinition[][];
  /** The last edit's key: more keystrokes in the same field extend that edit (one undo step). */
  lastKey: string | null;
};

export type EditorState = {
  histories: Record<string, History>;
  /** The configs as last saved (or loaded), per variation: tells unsaved changes apart. */
  saved: Record<string, ConfigDefinition[]>;
};

export type EditorAction =
  | { type: "load"; variations: Record<string, ConfigDefinition[]> }
  | {
      type: "edit";
      variationId: string;
      /** Same key as the previous edit: merged into it (typing in one field). */
      key: string | null;
      change: (configs: ConfigDefinition[]) => ConfigDefinition[];
    }
  | { type: "undo"; variationId: string }
  | { type: "redo"; variationId: string }
  | { type: "saved"; variationId: string; configs: ConfigDefinition[] }
  /** The stored configs of one variation replace its edits and history (after a conflict). */
  | { type: "reload"; variationId: string; configs: ConfigDefinition[] };

export const HISTORY_LIMIT = 100;

const fresh = (configs: ConfigDefinition[]): History => ({
  past: [],
  present: configs,
  future: [],
  lastKey: null,
});

/**
 * A variation's entry in one of the state's records, own properties only: ids are the operator's
 * (`__proto__`, `toString` were accepted before the service refused them), and an inherited
 * member is no variation's history.
 */
const own = <T>(record: Record<string, T>, id: string): T | undefined => (Object.hasOwn(record, id) ? record[id] : undefined);

export const historyOf = (state: EditorState, variationId: string): History | undefined => own(state.histories, variationId);

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  if (action.type === "load") {
    // Object.fromEntries and spreads make own properties; `histories[id] = …` on `{}` did not for `__proto__`.
    const histories = Object.fromEntries(Object.entries(action.variations).map(([id, configs]) => [id, fresh(configs)]));
    return { histories, saved: { ...action.variations } };
  }
  if (action.type === "reload")
    return {
      histories: { ...state.histories, [action.variationId]: fresh(action.configs) },
      saved: { ...state.saved, [action.variationId]: action.configs },
    };
  const h = historyOf(state, action.variationId);
  if (!h) return state;
  const put = (next: History): EditorState => ({
    ...state,
    histories: { ...state.histories, [action.variationId]: next },
  });
  switch (action.type) {
    case "edit": {
      const present = action.change(h.present);
      if (present === h.present || JSON.stringify(present) === JSON.stringify(h.present))
        return state;
      const merge = action.key !== null && action.key === h.lastKey && h.past.length > 0;
      const past = merge ? h.past : [...h.past, h.present].slice(-HISTORY_LIMIT);
      return put({ past, present, future: [], lastKey: action.key });
    }
    case "undo": {
      const previous = h.past[h.past.length - 1];
      if (!previous) return state;
      return put({
        past: h.past.slice(0, -1),
        present: previous,
        future: [h.present, ...h.future],
        lastKey: null,
      });
    }
    case "redo": {
      const [next, ...future] = h.future;
      if (!next) return state;
      return put({ past: [...h.past, h.present], present: next, future, lastKey: null });
    }
    case "saved":
      return {
        histories: { ...state.histories, [action.variationId]: { ...h, lastKey: null } },
        saved: { ...state.saved, [action.variationId]: action.configs },
      };
  }
}

export const isDirty = (state: EditorState, variationId: string): boolean => {
  const h = historyOf(state, variationId);
  return !!h && JSON.stringify(h.present) !== JSON.stringify(own(state.saved, variationId) ?? []);
};
