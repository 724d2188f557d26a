// Shop platform (product.md §2 "Shop platform (Shopify)", spec §1): with the integration on and
// Shopify's `Shopify.analytics.publish` on the page, the ready event `storefit:ready` is published
// as a Shopify custom event carrying `{ user, key, session_id, settings }`. Shopify hands it to
// every web pixel as `event.customData`; ours (shopify/pixel.ts) keeps it, so on checkout pages —
// closed to page scripts — it still knows the visitor, session and account. It lives here, in
// storefit-ext.js, rather than in storefit.js: it costs the first paint nothing, and by the time
// the extension runs Shopify's own analytics script has usually defined `publish`; if not, it is
// tried once more when the page has loaded. Nothing is published in preview (no tracking).

import { DOCUMENT_EVENTS } from "@storefit/contract";
import type { ExtContext } from "../core/ext.js";
import { doc, safe, win } from "../env/globals.js";
import type { Globals } from "./destination.js";
import { invoke } from "./destination.js";

/** What the pixel receives as `customData`. */
export type ReadyData = { user: ExtContext["visitor"]["user"]; key: string; session_id: string; settings: ExtContext["settings"] };

export function publishReady(ctx: ExtContext): void {
  const data: ReadyData = { user: ctx.visitor.user, key: ctx.settings.client_key, session_id: ctx.visitor.sessionId, settings: ctx.settings };
  const publish = () => safe(() => invoke(win as unknown as Globals, "Shopify.analytics.publish", DOCUMENT_EVENTS.ready, data), true);
  if (!publish() && doc.readyState !== "complete") ctx.scope.listen(win, "load", publish, { once: true });
}
