// CleverTap (engagement): `clevertap.event.push(name, properties)` — `event` is the queue its
// snippet creates and its SDK takes over.

import type { Destination } from "./destination.js";
import { SEEN_EVENT, invoke, seenProperties } from "./destination.js";

export const clevertap: Destination = {
  seen: (x, w) => invoke(w, "clevertap.event.push", SEEN_EVENT, seenProperties(x)),
  event: (e, w) => void invoke(w, "clevertap.event.push", e.name, e.properties),
};
