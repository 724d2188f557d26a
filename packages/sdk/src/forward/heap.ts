// Heap (product analytics): `heap.track(name, properties)`.

import type { Destination } from "./destination.js";
import { SEEN_EVENT, invoke, seenProperties } from "./destination.js";

export const heap: Destination = {
  seen: (x, w) => invoke(w, "heap.track", SEEN_EVENT, seenProperties(x)),
  event: (e, w) => void invoke(w, "heap.track", e.name, e.properties),
};
