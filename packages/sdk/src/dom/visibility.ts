// Flicker control (spec §4 "Document visibility"): the page is hidden by an invisible-block style
// until personalization is applied, fails, or the time-out fires; then it is revealed, once.

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
  }, undefined);
}

let revealed = false;

/** Removes the hiding style. Safe to call any number of times; the event fires once. */
export function revealPage(): void {
  safe(() => doc.getElementById(HIDE_STYLE_ID)?.remove(), undefined);
  if (!revealed) {
    revealed = true;
    emit(DOCUMENT_EVENTS.revealed);
  }
}
