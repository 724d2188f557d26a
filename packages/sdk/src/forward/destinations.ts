// The analytics destinations by their name in `settings.integrations` (product.md §2), by kind
// (spec §1): the web analytics suite; heatmap and session-replay tools; customer-data and
// product-analytics platforms; engagement platforms. HubSpot is not here: it is a contact-form
// integration (forward/hubspot.ts), not a destination.

import type { IntegrationName } from "@storefit/contract";
import type { Destination } from "./destination.js";
import { amplitude } from "./amplitude.js";
import { clarity } from "./clarity.js";
import { clevertap } from "./clevertap.js";
import { googleAnalytics } from "./google-analytics.js";
import { heap } from "./heap.js";
import { hotjar } from "./hotjar.js";
import { klaviyo } from "./klaviyo.js";
import { mixpanel } from "./mixpanel.js";
import { moengage } from "./moengage.js";
import { segment } from "./segment.js";

export const DESTINATIONS: readonly (readonly [Exclude<IntegrationName, "hubspot">, Destination])[] = [
  ["google_analytics", googleAnalytics],
  ["hotjar", hotjar],
  ["clarity", clarity],
  ["segment", segment],
  ["mixpanel", mixpanel],
  ["amplitude", amplitude],
  ["heap", heap],
  ["klaviyo", klaviyo],
  ["moengage", moengage],
  ["clevertap", clevertap],
];
