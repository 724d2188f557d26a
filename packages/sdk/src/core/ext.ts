// The lazy extension (storefit-ext.js): what the page needs only after it is shown — automatic
// form capture, scroll depth, page updates, revenue rules, the devices call, popup templates.
// Keeping it out of storefit.js keeps the file on the shop's first paint small (conventions,
// habit 1); it is fetched after the page is revealed, from the same host as the script, and
// started again on every (single-page) initialization with that initialization's context.

import type { Config, StorefitSettings } from "@storefit/contract";
import type { Scope } from "./scope.js";
import type { Visitor } from "./visitor.js";
import type { Tracker } from "../track/tracker.js";
import type { Endpoint, post } from "../track/transport.js";
import type { Engine } from "../dom/engine.js";
import type { storageGet, storageSet, whenConsented } from "../env/globals.js";
import { doc, win } from "../env/globals.js";

declare const __DEBUG__: boolean;

export type ExtContext = {
  settings: StorefitSettings;
  scope: Scope;
  visitor: Visitor;
  tracker: Tracker;
  ep: Endpoint;
  domain: string;
  pagePath: string;
  /** The configs applied on this page (templates among them). */
  configs: Config[];
  /** False in preview mode and on blacklisted pages. */
  tracking: boolean;
  /** Preview mode: templates show, but their scripts do not run (spec §4). */
  preview: boolean;
  /** Storage key prefix (spec §9). */
  prefix: string;
  // The core's transport and storage. The extension is a separate bundle: state such as consent
  // and the in-memory storage fallback lives in storefit.js, so the extension must go through it.
  post: typeof post;
  storageGet: typeof storageGet;
  storageSet: typeof storageSet;
  /** Runs now with consent, once consent is granted, or never (env/globals.ts). */
  whenConsented: typeof whenConsented;
  /**
   * Applies one config's page changes through the core's apply engine, in this initialization's
   * scope (undone by its teardown): a template config's element changes, which the core leaves to
   * the template's display rules (ext/templates.ts). Optional: an older core lacks it.
   */
  applyConfig?: (config: Config) => Pick<Engine, "revert" | "owns">;
};

export type Extension = (ctx: ExtContext) => void;

declare global {
  interface Window {
    /** Set by storefit-ext.js when it has loaded. */
    storefitExt?: Extension;
  }
}

let loading: Promise<Extension | null> | null = null;

export const EXT_FILE = __DEBUG__ ? "storefit-ext.debug.js" : "storefit-ext.js";

/** Appends `${apiHost}/sdk/${file}` as an async script; true once it ran, false when it could not load. */
export const loadScript = (apiHost: string, file: string): Promise<boolean> =>
  new Promise((resolve) => {
    try {
      const s = doc.createElement("script");
      s.async = true;
      s.src = `${apiHost.replace(/\/+$/, "")}/sdk/${file}`;
      s.onload = () => resolve(true);
      s.onerror = () => resolve(false);
      (doc.head || doc.documentElement).appendChild(s);
    } catch {
      resolve(false);
    }
  });

/** Loads storefit-ext.js once per page; null when it cannot be loaded (the core keeps working). */
export function loadExtension(apiHost: string): Promise<Extension | null> {
  return (loading ??= win.storefitExt ? Promise.resolve(win.storefitExt) : loadScript(apiHost, EXT_FILE).then(() => win.storefitExt ?? null));
}
