// Microsoft Clarity (heatmaps and session replay): a custom tag per experience,
// `clarity("set", key, value)`, so sessions can be filtered by the behaviour a visitor saw; tracked
// behaviour becomes a custom event, `clarity("event", name)` (a name only).

import type { Destination } from "./destination.js";
import { cleanName, invoke } from "./destination.js";

export const clarity: Destination = {
  seen: (x, w) => invoke(w, "clarity", "set", `storefit_${x.experience_name}`, x.behaviour_name),
  event: (e, w) => void invoke(w, "clarity", "event", cleanName(e.name)),
};
