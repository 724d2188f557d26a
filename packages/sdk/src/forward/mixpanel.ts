// Mixpanel (product analytics): `mixpanel.track(name, properties)`. What a visitor saw is sent as
// Mixpanel's exposure event, `$experiment_started` with "Experiment name" and "Variant name",
// which its Experiments report reads; the variation id names the variant, so the arms of an A/B
// test inside one behaviour stay apart.

import type { Destination } from "./destination.js";
import { invoke, seenProperties } from "./destination.js";

export const mixpanel: Destination = {
  seen: (x, w) =>
    invoke(w, "mixpanel.track", "$experiment_started", {
      "Experiment name": x.experience_name,
      "Variant name": x.variation_id,
      ...seenProperties(x),
    }),
  event: (e, w) => void invoke(w, "mixpanel.track", e.name, e.properties),
};
