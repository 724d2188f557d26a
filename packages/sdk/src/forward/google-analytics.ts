// Google Analytics 4, the web analytics suite (spec §1, §5; product.md §2 `ga_setup`): through
// Google Tag Manager's data layer (`mode: "gtm"`, the variable named by `data_variable`, default
// `dataLayer`) or through `gtag` (`mode: "gtag"`), sent to the experience's `ga_measurement_id`
// when it has one. What a visitor saw is GA4's documented event for third-party experiment tools,
// `experience_impression` with `exp_variant_string` = tool-experience-variant ("SF-…-…"), from
// which GA4 audiences per variant are built. spec §5: sent only when the audience name is
// non-empty. GA4 event names allow letters, digits and underscores: tracked names are cleaned.

import type { Properties, StorefitSettings } from "@storefit/contract";
import type { Destination, Globals } from "./destination.js";
import { cleanName, invoke } from "./destination.js";

function send(w: Globals, s: StorefitSettings, name: string, params: Properties, sendTo?: string): boolean {
  return s.ga_setup?.mode === "gtag"
    ? invoke(w, "gtag", "event", name, sendTo ? { ...params, send_to: sendTo } : params)
    : invoke(w, `${s.ga_setup?.data_variable || "dataLayer"}.push`, { event: name, ...params });
}

export const googleAnalytics: Destination = {
  seen: (x, w, s) =>
    !x.audience_name ||
    send(
      w,
      s,
      "experience_impression",
      {
        exp_variant_string: `SF-${x.experience_id}-${x.variation_id}`,
        experience_name: x.experience_name,
        behaviour_name: x.behaviour_name,
      },
      x.ga_measurement_id,
    ),
  event: (e, w, s) => void send(w, s, cleanName(e.name), e.properties),
};
