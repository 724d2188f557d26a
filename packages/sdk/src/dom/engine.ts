// The apply engine's entry point (spec §3 Variation, §4 "Config replacement"). The boot code
// creates one engine per initialization, hands it the configs that match the page, waits for
// `apply` (every config applied or given up), reveals the page, and calls `revert` on teardown.
// Walking-skeleton version: innerHTML and src, applied once the document is parsed.

import type { Config, EventType, Properties, StorefitSettings } from "@storefit/contract";
import type { Scope } from "../core/scope.js";
import { doc } from "../env/globals.js";
import { applyConfig } from "./apply.js";

export type EngineContext = {
  scope: Scope;
  settings: StorefitSettings;
  device: "mobile" | "desktop";
  /** Sends an event through the script's tracking (click goals, load-time events). */
  track: (type: EventType, name: string, properties?: Properties) => void;
};

export type ApplyResult = { applied: string[]; missing: string[] };

export type Engine = {
  apply: (configs: readonly Config[]) => Promise<ApplyResult>;
  revert: () => void;
};

const domReady = () =>
  new Promise<void>((resolve) => {
    if (doc.readyState !== "loading") resolve();
    else doc.addEventListener("DOMContentLoaded", () => resolve(), { once: true });
  });

export function createEngine(_ctx: EngineContext): Engine {
  return {
    apply: async (configs) => {
      await domReady();
      const result: ApplyResult = { applied: [], missing: [] };
      for (const c of configs) (applyConfig(c) ? result.applied : result.missing).push(c.config_id);
      return result;
    },
    revert: () => {},
  };
}
