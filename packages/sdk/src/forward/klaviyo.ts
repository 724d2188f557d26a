// Klaviyo (engagement): `klaviyo.push(["track", name, properties])` on the current `klaviyo`
// object, or the legacy `_learnq` queue that older installs still have. Klaviyo tracks only
// browsers it already knows (its own rule), so anonymous visitors send nothing there.

import type { Destination, Globals } from "./destination.js";
import { SEEN_EVENT, invoke, seenProperties } from "./destination.js";

const track = (w: Globals, name: string, properties: object): boolean =>
  invoke(w, "klaviyo.push", ["track", name, properties]) || invoke(w, "_learnq.push", ["track", name, properties]);

export const klaviyo: Destination = {
  seen: (x, w) => track(w, SEEN_EVENT, seenProperties(x)),
  event: (e, w) => void track(w, e.name, e.properties),
};
