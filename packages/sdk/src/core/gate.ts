// Whether the script runs at all, and in which mode (spec §4 "Modes", §6, §8 "Initialization
// stops"). A pure function of data, tested from a table; only the boot code reads globals.

import { OUTBOUND_MARKER_VALIDITY_S, isConfiguredDomain } from "@storefit/contract";
import type { ErrorCode, StorefitSettings } from "@storefit/contract";
import { isBot } from "./bot.js";

export type GateInput = {
  settings: StorefitSettings | null;
  hostname: string;
  userAgent: string;
  /** The document has a <head> (or root element) the script can attach its hiding style to. */
  hasInitElement: boolean;
  /** Another copy of the script already initialized on this page. */
  alreadyInitialized: boolean;
  /** Inside the visual editor's frame, or `utm_customfit_edit` in the URL. */
  editMode: boolean;
  /** `customfit_preview` in the URL, or the preview flag kept in the session. */
  previewMode: boolean;
  /** A long-URL parameter or tiny id is in the URL (outbound links). */
  outboundParam: boolean;
  /** When the outbound marker was set (ms since epoch), if it is stored. */
  outboundMarkerAt: number | null;
  now: number;
};

export type GateResult =
  | { stop: ErrorCode; silent?: true }
  | { mode: "normal" | "preview"; setOutboundMarker: boolean };

/**
 * The checks run in this order: without settings or a key nothing can be done; then the
 * account's own switches; then who is visiting and where; then the modes. Bots stop silently.
 */
export function gate(i: GateInput): GateResult {
  const s = i.settings;
  if (!s || !s.client_key) return { stop: "CFINIT006" };
  if (!s.account_enabled) return { stop: "CFINIT010" };
  if (s.skip) return { stop: "CFINIT011" };
  if (s.subscription_expired) return { stop: "CFINIT001" };
  if (s.sdk_powered_off) return { stop: "CFINIT002" };
  if (isBot(i.userAgent)) return { stop: "CFINIT003", silent: true };
  if (!i.hasInitElement) return { stop: "CFINIT004" };
  if (!isConfiguredDomain(i.hostname, s.domain, s.subdomains)) return { stop: "CFINIT005" };
  if (i.alreadyInitialized) return { stop: "CFINIT007" };
  if (i.editMode) return { stop: "CFINIT008" };
  let setOutboundMarker = false;
  if (s.outbound_only) {
    const markerValid =
      i.outboundMarkerAt !== null &&
      i.now - i.outboundMarkerAt < OUTBOUND_MARKER_VALIDITY_S * 1000 &&
      i.outboundMarkerAt <= i.now;
    if (i.outboundParam) setOutboundMarker = true;
    else if (!markerValid) return { stop: "CFINIT009" };
  }
  return { mode: i.previewMode ? "preview" : "normal", setOutboundMarker };
}
