// MoEngage (engagement): `Moengage.track_event(name, attributes)`.

import type { Destination } from "./destination.js";
import { SEEN_EVENT, invoke, seenProperties } from "./destination.js";

export const moengage: Destination = {
  seen: (x, w) => invoke(w, "Moengage.track_event", SEEN_EVENT, seenProperties(x)),
  event: (e, w) => void invoke(w, "Moengage.track_event", e.name, e.properties),
};
