// The apply engine, walking-skeleton version: HTML_ELEMENT configs set innerHTML and src on the
// element at the config's element_path. The full engine (every variation field, customfit_meta
// actions, re-apply and revert) is issue 4.

import type { Config, HtmlElementVariation } from "@storefit/contract";
import { doc, safe } from "../env/globals.js";

/** Applies one config; returns whether the page changed. Never throws. */
export function applyConfig(config: Config): boolean {
  return safe(() => {
    const path = config.properties?.element_path;
    if (config.variation_data_type !== "HTML_ELEMENT" || !path) return false;
    const v = config.variation as HtmlElementVariation;
    if (!v || typeof v !== "object") return false;
    const el = doc.querySelector(path);
    if (!el) return false;
    let changed = false;
    if (typeof v.innerHTML === "string") {
      el.innerHTML = v.innerHTML;
      changed = true;
    }
    if (typeof v.src === "string" && "src" in el) {
      (el as HTMLImageElement).src = v.src;
      changed = true;
    }
    return changed;
  }, false);
}
