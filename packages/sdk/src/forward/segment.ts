// Segment (customer-data platform): `analytics.track(name, properties)`, on the object its snippet
// or analytics-next puts on the page. What a visitor saw is Segment's A/B-testing event,
// "Experiment Viewed", which Segment's own destinations understand.

import type { Destination } from "./destination.js";
import { SEEN_EVENT, invoke, seenProperties } from "./destination.js";

export const segment: Destination = {
  seen: (x, w) => invoke(w, "analytics.track", SEEN_EVENT, seenProperties(x)),
  event: (e, w) => void invoke(w, "analytics.track", e.name, e.properties),
};
