// The visual editor's `postMessage` protocol (docs/visual-editor.md). The dashboard opens a shop
// page in a frame with `utm_customfit_edit=<dashboard origin>`; storefit.js, in edit mode (spec §2
// "Modes", §4), reveals the page and loads the editor bridge (storefit-editor.js), and the two
// sides talk with the messages below. Every message names its side (`source`) and the protocol
// version (`v`); each side checks the other's origin (`editorOrigin`) and posts only to it.
// Pure: no DOM, no URL API, so the server, the dashboard and the script share it.

import type { Config } from "./types.js";

export const EDITOR_PROTOCOL_VERSION = 1;

/** The URL parameter that puts the script in edit mode; its value is the dashboard's origin. */
export const EDITOR_PARAM = "utm_customfit_edit";

/** A frame whose `window.name` starts with this is an editor frame too (docs/decisions.md, "Edit mode"). */
export const EDITOR_FRAME_NAME = "storefit-editor";

export const EDITOR_SOURCES = {
  dashboard: "storefit-dashboard",
  bridge: "storefit-bridge",
} as const;

/** A box in CSS pixels relative to the frame's viewport (getBoundingClientRect). */
export type EditorRect = { x: number; y: number; width: number; height: number };

export type SelectionDirection = "parent" | "child" | "next" | "previous";
export const SELECTION_DIRECTIONS: readonly SelectionDirection[] = [
  "parent",
  "child",
  "next",
  "previous",
];

/** Which sub-variation (`mobile` / `desktop`, Appendix A) a preview applies. */
export type EditorDevice = "desktop" | "mobile";

/** What the bridge reports of the selected element. */
export type ElementInfo = {
  /** The CSS path: unique on the page when the bridge made it; as given for `select-path`. */
  path: string;
  /** How many elements `path` matches on the page now. */
  matchCount: number;
  /** The local name (`div`, `svg`, `my-card`). */
  tagName: string;
  /** Its text, whitespace collapsed, at most 200 characters. */
  text: string;
  /** Its innerHTML, at most 10 000 characters (`htmlTruncated` says when cut). */
  html: string;
  htmlTruncated: boolean;
  /**
   * Its text and innerHTML (same limits) as the page had them before the preview, when the
   * preview replaced its content; absent otherwise. The panel compares an edit with these to
   * tell "no change" apart from "the saved change, typed again".
   */
  original?: { text: string; html: string };
  /** Its attributes (values at most 500 characters), without the script's own marker. */
  attributes: Record<string, string>;
  rect: EditorRect;
  /** A subset of its computed style: the properties the panel edits. */
  styles: Record<string, string>;
  /** Which `navigate-selection` moves lead somewhere. */
  can: Record<SelectionDirection, boolean>;
  /**
   * Unique paths of the previous and next selectable siblings (null: none), so the panel can
   * write a move (`move_action.target`) or a swap (`swap_action.target`) without moving the
   * selection. Absent from bridges older than this field.
   */
  siblings?: { previous: string | null; next: string | null };
};

type FromDashboard = {
  source: typeof EDITOR_SOURCES.dashboard;
  v: typeof EDITOR_PROTOCOL_VERSION;
  /** Echoed as `re` in the bridge's answer to this message. */
  id?: string;
};

/** The dashboard's requests, each with what it asks. */
export type DashboardRequest =
  /** Asks for `ready` (the bridge also sends it unasked once it has started). */
  | { type: "hello" }
  /** Pointer selection on or off (on at start): while on, clicks select instead of acting. */
  | { type: "select-mode"; on: boolean }
  /** Highlights what `path` matches (a layer list, a path being typed); null clears it. */
  | { type: "hover-path"; path: string | null }
  /** Selects the first element `path` matches and highlights them all. */
  | { type: "select-path"; path: string }
  /** Moves the selection to its parent, first child, or next or previous sibling. */
  | { type: "navigate-selection"; direction: SelectionDirection }
  | { type: "clear-selection" }
  /** Reverts the previous preview, then applies these configs (a variation's, as saved). */
  | { type: "preview"; configs: Config[]; device?: EditorDevice }
  | { type: "clear-preview" }
  /** Stops the bridge: preview reverted, highlight removed, listeners gone. */
  | { type: "teardown" };

export type DashboardMessage = FromDashboard & DashboardRequest;

export type DashboardMessageType = DashboardMessage["type"];

type FromBridge = {
  source: typeof EDITOR_SOURCES.bridge;
  v: typeof EDITOR_PROTOCOL_VERSION;
  /** The `id` of the dashboard message this answers, when it had one. */
  re?: string;
};

export type EditorErrorCode =
  "unsupported-version" | "invalid-message" | "invalid-path" | "no-match" | "no-selection";

/** What the bridge reports. */
export type BridgeReport =
  /** The bridge listens: sent at start, on `hello`, and when the frame's URL changes. */
  | { type: "ready"; url: string; title: string; viewport: { width: number; height: number } }
  /** The element under the pointer (select mode), or what `hover-path` matches; null when none. */
  | {
      type: "hover";
      path: string | null;
      matchCount: number;
      tagName: string | null;
      rect: EditorRect | null;
    }
  /** The selection (click, keys, `select-path`, `navigate-selection`); null when cleared. */
  | { type: "selected"; selection: ElementInfo | null }
  /**
   * Config ids: applied; waiting for an element that never came; waiting for the load event or a
   * delay; and those whose global redirection was left out (it would take the frame off the page).
   */
  | {
      type: "preview-applied";
      applied: string[];
      missing: string[];
      pending: string[];
      skipped: string[];
    }
  | { type: "preview-cleared" }
  | { type: "error"; code: EditorErrorCode; message: string };

export type BridgeMessage = FromBridge & BridgeReport;

export type BridgeMessageType = BridgeMessage["type"];

const isObject = (x: unknown): x is Record<string, unknown> =>
  !!x && typeof x === "object" && !Array.isArray(x);
const isString = (x: unknown): x is string => typeof x === "string";
const isNumber = (x: unknown): x is number => typeof x === "number" && isFinite(x);
const optional = (x: unknown, test: (x: unknown) => boolean) => x === undefined || test(x);
const isRect = (x: unknown): boolean =>
  isObject(x) && ["x", "y", "width", "height"].every((k) => isNumber(x[k]));
const isStrings = (x: unknown): boolean => Array.isArray(x) && x.every(isString);
const isStringMap = (x: unknown): boolean => isObject(x) && Object.values(x).every(isString);
const isConfig = (x: unknown): boolean =>
  isObject(x) && isString(x.config_id) && isString(x.variation_data_type);

/** Checks of each dashboard message's own fields. */
const DASHBOARD_FIELDS: Record<DashboardMessageType, (m: Record<string, unknown>) => boolean> = {
  hello: () => true,
  "select-mode": (m) => typeof m.on === "boolean",
  "hover-path": (m) => m.path === null || isString(m.path),
  "select-path": (m) => isString(m.path),
  "navigate-selection": (m) => SELECTION_DIRECTIONS.includes(m.direction as SelectionDirection),
  "clear-selection": () => true,
  preview: (m) =>
    Array.isArray(m.configs) &&
    m.configs.every(isConfig) &&
    optional(m.device, (d) => d === "desktop" || d === "mobile"),
  "clear-preview": () => true,
  teardown: () => true,
};

const isElementInfo = (x: unknown): boolean =>
  isObject(x) &&
  isString(x.path) &&
  isNumber(x.matchCount) &&
  isString(x.tagName) &&
  isString(x.text) &&
  isString(x.html) &&
  typeof x.htmlTruncated === "boolean" &&
  optional(x.original, (o) => isObject(o) && isString(o.text) && isString(o.html)) &&
  isStringMap(x.attributes) &&
  isRect(x.rect) &&
  isStringMap(x.styles) &&
  isObject(x.can) &&
  SELECTION_DIRECTIONS.every((d) => typeof (x.can as Record<string, unknown>)[d] === "boolean") &&
  optional(
    x.siblings,
    (s) =>
      isObject(s) &&
      (s.previous === null || isString(s.previous)) &&
      (s.next === null || isString(s.next)),
  );

const ERROR_CODES: readonly EditorErrorCode[] = [
  "unsupported-version",
  "invalid-message",
  "invalid-path",
  "no-match",
  "no-selection",
];

const BRIDGE_FIELDS: Record<BridgeMessageType, (m: Record<string, unknown>) => boolean> = {
  ready: (m) =>
    isString(m.url) &&
    isString(m.title) &&
    isObject(m.viewport) &&
    isNumber(m.viewport.width) &&
    isNumber(m.viewport.height),
  hover: (m) =>
    (m.path === null || isString(m.path)) &&
    isNumber(m.matchCount) &&
    (m.tagName === null || isString(m.tagName)) &&
    (m.rect === null || isRect(m.rect)),
  selected: (m) => m.selection === null || isElementInfo(m.selection),
  "preview-applied": (m) =>
    isStrings(m.applied) && isStrings(m.missing) && isStrings(m.pending) && isStrings(m.skipped),
  "preview-cleared": () => true,
  error: (m) => ERROR_CODES.includes(m.code as EditorErrorCode) && isString(m.message),
};

function check<T extends string>(
  x: unknown,
  source: string,
  fields: Record<T, (m: Record<string, unknown>) => boolean>,
  idKey: string,
): boolean {
  if (
    !isObject(x) ||
    x.source !== source ||
    x.v !== EDITOR_PROTOCOL_VERSION ||
    !optional(x[idKey], isString)
  )
    return false;
  const test = Object.prototype.hasOwnProperty.call(fields, x.type as string)
    ? fields[x.type as T]
    : undefined;
  return !!test && test(x);
}

/** A well-formed message from the dashboard, of this protocol version. */
export const isDashboardMessage = (x: unknown): x is DashboardMessage =>
  check(x, EDITOR_SOURCES.dashboard, DASHBOARD_FIELDS, "id");

/** A well-formed message from the bridge, of this protocol version. */
export const isBridgeMessage = (x: unknown): x is BridgeMessage =>
  check(x, EDITOR_SOURCES.bridge, BRIDGE_FIELDS, "re");

/**
 * The origin of an http(s) URL as browsers serialize it (`MessageEvent.origin`): scheme and host
 * in lower case, the default port dropped. Null for anything else (other schemes, user info,
 * a bad port). Hosts are compared as written: an internationalized api_host must be given in
 * its ASCII (punycode) form.
 */
export function originOf(url: string): string | null {
  const m = /^(https?):\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?(?:[/?#]|$)/i.exec(
    url.trim(),
  );
  if (!m) return null;
  const scheme = m[1]!.toLowerCase();
  const port = m[3] === undefined ? null : Number(m[3]);
  if (port !== null && port > 65535) return null;
  const keep = port !== null && port !== (scheme === "https" ? 443 : 80);
  return `${scheme}://${m[2]!.toLowerCase()}${keep ? ":" + port : ""}`;
}

/**
 * The dashboard origin the bridge accepts messages from and posts to: the `utm_customfit_edit`
 * value when it is exactly an origin (a trailing "/" allowed) AND equals the origin of the
 * settings' `api_host` — the dashboard is served by the service at api_host, and the shop's own
 * settings, not the URL, are what the bridge trusts. Null otherwise: the bridge then stays silent.
 */
export function editorOrigin(param: string | null | undefined, apiHost: string): string | null {
  if (!param) return null;
  const origin = originOf(param);
  const bare = param.trim().replace(/\/$/, "");
  if (!origin || !/^https?:\/\/[^/?#]+$/i.test(bare) || originOf(apiHost) !== origin) return null;
  return origin;
}

/** The address the dashboard opens in its frame: `pageUrl` with `utm_customfit_edit` added. */
export function editorFrameUrl(pageUrl: string, dashboardOrigin: string): string {
  const hash = pageUrl.indexOf("#");
  const base = hash < 0 ? pageUrl : pageUrl.slice(0, hash);
  const fragment = hash < 0 ? "" : pageUrl.slice(hash);
  const sep = base.includes("?") ? (/[?&]$/.test(base) ? "" : "&") : "?";
  return `${base}${sep}${EDITOR_PARAM}=${encodeURIComponent(dashboardOrigin)}${fragment}`;
}
