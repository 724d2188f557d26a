// Single-page mode (spec §2, §4): detect URL changes made through history.pushState,
// history.replaceState and back/forward navigation. Only a change of the path (query and
// fragment ignored, spec §2 normalization) counts; a query-only change does nothing.

import { normalizePagePath } from "@storefit/contract";
import { safe, win } from "../env/globals.js";

type HistoryMethod = "pushState" | "replaceState";

/** Calls `onPathChange` after each path change; returns the function that stops watching. */
export function watchPath(onPathChange: () => void): () => void {
  const path = () => safe(() => normalizePagePath(win.location.pathname), "/");
  let last = path();
  const check = () => {
    const p = path();
    if (p !== last) {
      last = p;
      onPathChange();
    }
  };
  const h = win.history;
  const originals = {} as Record<HistoryMethod, History[HistoryMethod]>;
  const wrappers = {} as Record<HistoryMethod, History[HistoryMethod]>;
  for (const m of ["pushState", "replaceState"] as const) {
    const original = (originals[m] = h[m]);
    wrappers[m] = h[m] = function (this: History, ...args: Parameters<History[HistoryMethod]>) {
      const r = original.apply(this, args);
      safe(check);
      return r;
    };
  }
  const onPop = () => safe(check);
  win.addEventListener("popstate", onPop);
  return () => {
    win.removeEventListener("popstate", onPop);
    for (const m of ["pushState", "replaceState"] as const) {
      // Only put the original back if nobody wrapped ours since; otherwise theirs would be lost.
      if (h[m] === wrappers[m]) h[m] = originals[m];
    }
  };
}
