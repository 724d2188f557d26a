// Entry of storefit-editor.js, the visual editor's bridge (docs/visual-editor.md). storefit.js
// loads it in edit mode (spec §2 "Modes", §4), after revealing the page and without a config call
// (editor/load.ts). It is a separate file with its own budget: no visitor ever downloads it.
//
// The bridge starts only inside a frame, and only for a dashboard origin it can trust: the value
// of `utm_customfit_edit` when it equals the origin of the settings' api_host. In a frame named
// `storefit-editor…` whose URL lost the parameter (the operator followed a link inside the frame),
// api_host's origin is the dashboard's. Otherwise it does nothing, silently.

import { EDITOR_FRAME_NAME, EDITOR_PARAM, editorOrigin, originOf } from "@storefit/contract";
import { readSettings } from "../core/settings.js";
import { safe, win } from "../env/globals.js";
import { startBridge } from "./bridge.js";
import type { Bridge } from "./bridge.js";

declare global {
  interface Window {
    /** The running bridge (one per page). */
    storefitEditor?: Bridge;
  }
}

safe(() => {
  if (win.storefitEditor || win.parent === win) return;
  const s = readSettings(win.storefitSettings);
  if (!s || typeof s.api_host !== "string") return;
  const param = new URLSearchParams(win.location.search).get(EDITOR_PARAM);
  const named = String(win.name).startsWith(EDITOR_FRAME_NAME);
  const origin = editorOrigin(param ?? (named ? originOf(s.api_host) : null), s.api_host);
  if (origin) win.storefitEditor = startBridge(s, origin);
}, undefined);
