// The state of the editor frame and what its bridge reported (docs/visual-editor.md "The dashboard
// side"), as one pure reducer: opening a page resets in one place everything that belonged to the
// previous one, and each bridge message (packages/contract/src/editor-protocol.ts) updates what it
// reports. useEditorFrame.ts runs it.
import type { BridgeMessage, ElementInfo } from "@storefit/contract";
import type { FrameLocation } from "./model";
import { locationOf } from "./model";

/** The page framed; `n` counts the openings, so opening the same address again reloads it. */
export type OpenedPage = { url: string; page: string; origin: string; n: number };

export type FrameState = {
  /** Why the address typed was not opened. */
  addressError: string | null;
  opened: OpenedPage | null;
  /** The frame fired load (a page, or the browser's error page): the bridge is due soon. */
  frameLoaded: boolean;
  /** The page in the frame, as its bridge last said (it may have navigated). */
  location: FrameLocation | null;
  ready: boolean;
  /** Counts the bridge's `ready`s: a reloaded page has a new bridge with nothing previewed. */
  readyCount: number;
  /** The bridge did not say ready in time. */
  timedOut: boolean;
  selection: ElementInfo | null;
  hover: { path: string; matchCount: number } | null;
  bridgeError: string | null;
  preview: { missing: string[]; skipped: string[] } | null;
  /** The "CSS path" field: the selection's path, or what the operator typed. */
  pathText: string;
};

export type FrameAction =
  | { type: "refuse"; error: string }
  | { type: "open"; page: string; url: string; origin: string }
  | { type: "loaded" }
  | { type: "timed-out" }
  | { type: "type-path"; text: string }
  | { type: "message"; message: BridgeMessage };

export const initialFrame: FrameState = {
  addressError: null,
  opened: null,
  frameLoaded: false,
  location: null,
  ready: false,
  readyCount: 0,
  timedOut: false,
  selection: null,
  hover: null,
  bridgeError: null,
  preview: null,
  pathText: "",
};

function bridgeErrorText(m: Extract<BridgeMessage, { type: "error" }>): string {
  if (m.code === "no-match") return `Nothing on the page matches ${m.message}`;
  if (m.code === "invalid-path") return `Not a valid CSS path: ${m.message}`;
  return m.message;
}

function onBridgeMessage(state: FrameState, m: BridgeMessage): FrameState {
  switch (m.type) {
    case "ready": {
      const next = locationOf(m.url);
      const prev = state.location;
      // A new page: what was selected on the old one is gone.
      const samePage =
        !!prev && !!next && prev.pathname === next.pathname && prev.hostname === next.hostname;
      return {
        ...state,
        ready: true,
        readyCount: state.readyCount + 1,
        timedOut: false,
        selection: samePage ? state.selection : null,
        location: next,
      };
    }
    case "hover":
      return { ...state, hover: m.path ? { path: m.path, matchCount: m.matchCount } : null };
    case "selected":
      return {
        ...state,
        selection: m.selection,
        pathText: m.selection?.path ?? "",
        bridgeError: null,
      };
    case "preview-applied":
      return { ...state, preview: { missing: m.missing, skipped: m.skipped } };
    case "preview-cleared":
      return { ...state, preview: null };
    case "error":
      return { ...state, bridgeError: bridgeErrorText(m) };
  }
  return state;
}

export function frameReducer(state: FrameState, action: FrameAction): FrameState {
  switch (action.type) {
    case "refuse":
      return { ...state, addressError: action.error };
    case "open":
      // A new page: nothing of the previous one's bridge holds. (The path field keeps its text.)
      return {
        ...state,
        addressError: null,
        ready: false,
        timedOut: false,
        frameLoaded: false,
        selection: null,
        hover: null,
        preview: null,
        bridgeError: null,
        location: locationOf(action.page),
        opened: {
          url: action.url,
          page: action.page,
          origin: action.origin,
          n: (state.opened?.n ?? 0) + 1,
        },
      };
    case "loaded":
      return { ...state, frameLoaded: true };
    case "timed-out":
      return { ...state, timedOut: true };
    case "type-path":
      return { ...state, pathText: action.text };
    case "message":
      return onBridgeMessage(state, action.message);
  }
}
