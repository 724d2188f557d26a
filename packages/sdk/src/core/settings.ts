// Reads `window.storefitSettings` once and applies the defaults of spec §9 (product.md §2).

import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { StorefitSettings } from "@storefit/contract";

/** The settings with defaults applied; null when the global is missing or not an object. */
export function readSettings(raw: unknown): StorefitSettings | null {
  if (!raw || typeof raw !== "object") return null;
  return { ...SETTINGS_DEFAULTS, ...(raw as Partial<StorefitSettings>) } as StorefitSettings;
}

/** spec §9: "Storage key prefix is cf_ plus a hash of the client key." */
export function storagePrefix(clientKey: string): string {
  let h = 5381;
  for (let i = 0; i < clientKey.length; i++) h = (Math.imul(h, 33) ^ clientKey.charCodeAt(i)) >>> 0;
  return "cf_" + h.toString(36) + "_";
}
