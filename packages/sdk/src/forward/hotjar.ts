// Hotjar (heatmaps and session replay): its Events API, `hj("event", name)`, takes a name only,
// so the experience and behaviour travel in the name; recordings and heatmaps can then be
// filtered by what the visitor saw.

import type { Destination } from "./destination.js";
import { cleanName, invoke, seenLabel } from "./destination.js";

export const hotjar: Destination = {
  seen: (x, w) => invoke(w, "hj", "event", seenLabel(x)),
  event: (e, w) => void invoke(w, "hj", "event", cleanName(e.name)),
};
