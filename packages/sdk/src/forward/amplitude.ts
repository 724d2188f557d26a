// Amplitude (product analytics): `amplitude.track(name, properties)` on the object of its browser
// SDK or snippet.

import type { Destination } from "./destination.js";
import { SEEN_EVENT, invoke, seenProperties } from "./destination.js";

export const amplitude: Destination = {
  seen: (x, w) => invoke(w, "amplitude.track", SEEN_EVENT, seenProperties(x)),
  event: (e, w) => void invoke(w, "amplitude.track", e.name, e.properties),
};
