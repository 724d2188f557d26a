// Flicker control (spec §4 "Document visibility"): the page is hidden by an invisible-block style
// until personalization is applied, fails, or the time-out fires; then it is revealed, once.
// Elements still waiting for their change are hidden one by one (spec §4 "Other states"), which
// lets the engine reveal a page still being parsed (docs/decisions.md "When the page is revealed").

import { doc, safe } from "../env/globals.js";
import { DOCUMENT_EVENTS } from "@storefit/contract";
import { emit } from "../core/emit.js";

const HIDE_STYLE_ID = "storefit-hide";

export function hidePage(): void {
  safe(() => {
    if (doc.getElementById(HIDE_STYLE_ID)) return;
    const style = doc.createElement("style");
    style.id = HIDE_STYLE_ID;
    style.textContent = "html{visibility:hidden!important}";
    (doc.head || doc.documentElement).appendChild(style);
  });
}

let revealed = false;

/** Removes the hiding style. Safe to call any number of times; the event fires once. */
export function revealPage(): void {
  safe(() => {
    const style = doc.getElementById(HIDE_STYLE_ID);
    if (style) style.remove();
  });
  if (!revealed) {
    revealed = true;
    emit(DOCUMENT_EVENTS.revealed);
  }
}

/**
 * The CSS rule that hides the elements of `selector` until their change is applied or given up:
 * opacity 0, or a blur for media (element_hint "media", or a selector ending in img, video or
 * picture) so the layout keeps its image. A rule, not an inline style, so it also covers elements
 * that do not exist yet. The engine inserts each rule on its own with CSSOM `insertRule`, which
 * refuses anything that is not exactly one valid rule: a broken selector from the service ("div[",
 * "a/*", "p{}body") loses its own rule and can never swallow or inject others.
 */
export function hideRule(selector: string, hint?: string): string {
  const last = selector.split(/[\s>+~]+/).pop() || "";
  return selector + (hint === "media" || /^(img|video|picture)\b/i.test(last) ? "{filter:blur(10px)!important}" : "{opacity:0!important}");
}
