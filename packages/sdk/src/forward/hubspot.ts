// HubSpot contact forms (spec §1 "contact-form marketing integration", §3 User hubspotutk and
// hs_fields, §9 "Contact-platform id check after 3 s"). The visitor already carries HubSpot's
// tracking id (`hubspotutk` cookie → user.hubspotutk and properties.hubspotutk, core/visitor.ts)
// and the CRM-sync properties (`cfuhp_` parameters, setCrmProperty → user.hs_fields) on every
// request. Two things are left for this module:
// - HubSpot's own script sets the cookie, often after storefit.js has started. 3 s later the
//   cookie is read again; a new id updates the visitor and is tracked as a TRACK event
//   `cf_contact_platform_id`. Choosing an event over "the next request" guarantees delivery: it
//   rides in the next batch or in the beacon sent when the page is left, with the updated user,
//   even when the visitor does nothing else.
// - A FORM event carries the id in its properties (read afresh at submit time), so the service can
//   link the submission to the HubSpot contact.

import { CONTACT_PLATFORM_ID_CHECK_MS } from "@storefit/contract";
import type { TrackedEvent } from "@storefit/contract";
import type { ExtContext } from "../core/ext.js";
import { cookieGet } from "../env/globals.js";

export const CONTACT_PLATFORM_ID_EVENT = "cf_contact_platform_id";

/** Starts the late-cookie check; returns the hook that links a FORM event to the contact. */
export function hubspot(ctx: ExtContext): (e: TrackedEvent) => void {
  const user = ctx.visitor.user;
  /** Takes a new cookie value onto the visitor (not stored: the cookie is the source); returns it. */
  const adopt = (): string | undefined => {
    const utk = cookieGet("hubspotutk");
    if (!utk || utk === user.hubspotutk) return;
    user.hubspotutk = utk;
    (user.properties ??= {}).hubspotutk = utk;
    return utk;
  };
  ctx.scope.timeout(() => {
    const utk = adopt();
    if (utk) ctx.tracker.track("TRACK", CONTACT_PLATFORM_ID_EVENT, { hubspotutk: utk });
  }, CONTACT_PLATFORM_ID_CHECK_MS);
  return (e) => {
    if (e.event_type !== "FORM") return;
    adopt();
    if (user.hubspotutk) (e.properties ??= {}).hubspotutk = user.hubspotutk;
  };
}
