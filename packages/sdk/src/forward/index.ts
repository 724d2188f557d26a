// Analytics forwarding and the platform integrations (spec §1, §5 "Analytics forwarding", §8,
// §9), run by storefit-ext.js for each initialization that tracks (not in preview, not on
// blacklisted pages). For every enabled destination in `settings.integrations`:
// - what the visitor saw on this page — each applied experience, behaviour and variation — is
//   forwarded once; a tool whose object is not on the page yet is tried again once the page has
//   loaded (tag managers load tools late), and is otherwise skipped (spec §8);
// - tracked behaviour (TRACK, CLICK, FORM, REVENUE) is forwarded as it happens, through the
//   tracker's event hook.
// Every call into a tool is guarded: a broken tool never breaks the page or the other tools.
// Adding a destination: a file beside this one and its line in destinations.ts.

import type { ExtContext } from "../core/ext.js";
import { doc, safe, win } from "../env/globals.js";
import type { Destination, Globals } from "./destination.js";
import { behaviourOf, seenOf } from "./destination.js";
import { DESTINATIONS } from "./destinations.js";
import { hubspot } from "./hubspot.js";
import { publishReady } from "./shopify.js";

export function forward(ctx: ExtContext): void {
  const s = ctx.settings;
  const w = win as unknown as Globals;
  const on = DESTINATIONS.filter(([name]) => s.integrations?.[name] === true).map(([, d]) => d);
  const linkForm = s.integrations?.hubspot === true ? hubspot(ctx) : null;
  if (s.shop_platform_integration) publishReady(ctx);

  const seen = seenOf(ctx.configs);
  // The destinations whose object was absent for an experience (spec §8: they did nothing).
  const tell = (ds: Destination[]) => ds.filter((d) => seen.filter((x) => !safe(() => d.seen(x, w, s), true)).length);
  const later = tell(on);
  if (later.length && doc.readyState !== "complete") ctx.scope.listen(win, "load", () => void tell(later), { once: true });

  ctx.tracker.onEvent?.((e) => {
    if (linkForm) safe(() => linkForm(e));
    const b = behaviourOf(e);
    if (b) for (const d of on) safe(() => d.event(b, w, s));
  });
}
