// The config decision (product.md §3 "Decisions"): which configs a visitor gets on a page.
// A pure function of the account's running experiences and the request, so it is the same on
// every node. This is the walking-skeleton version: page targeting, the first rule (audience
// evaluation arrives with issue 6), traffic allocation, weighted variations, element priority.

import { matchPage } from "@storefit/contract";
import type { Config, ConfigsRequest } from "@storefit/contract";
import type { Experience, VariationDefinition } from "../store/types.js";
import { unitHash } from "./hash.js";

export type Decision = {
  configs: Record<string, Config>;
  page_paths: string[];
};

export type DecisionInput = {
  request: ConfigsRequest;
  /** The stable visitor id used for bucketing. */
  visitorId: string;
  experiences: readonly Experience[];
  now: number;
};

function pickVariation(
  variations: readonly VariationDefinition[],
  point: number,
): { variation: VariationDefinition; probability: number } | null {
  const total = variations.reduce((sum, v) => sum + Math.max(0, v.weight), 0);
  if (total <= 0) return null;
  let acc = 0;
  for (const v of variations) {
    const w = Math.max(0, v.weight);
    acc += w / total;
    if (point < acc) return { variation: v, probability: w / total };
  }
  const last = variations[variations.length - 1];
  return last ? { variation: last, probability: Math.max(0, last.weight) / total } : null;
}

function splitPath(path: string): { pathname: string; search: string } {
  const q = path.indexOf("?");
  return q < 0 ? { pathname: path, search: "" } : { pathname: path.slice(0, q), search: path.slice(q) };
}

export function decide(input: DecisionInput): Decision {
  const { request, visitorId, now } = input;
  const location = { hostname: request.current_domain, ...splitPath(request.current_page_path) };
  const configs: Record<string, Config> = {};
  const pagePaths = new Set<string>();
  // Experiences come sorted by priority (highest first): an element claimed by a higher-priority
  // experience is not changed again by a lower one.
  const claimed = new Set<string>();
  const sorted = [...input.experiences].sort((a, b) => b.priority - a.priority);

  for (const exp of sorted) {
    if (!exp.pages.some((p) => matchPage(p, location))) continue;
    for (const p of exp.pages) pagePaths.add(p.page_path);
    const rule = exp.rules[0];
    if (!rule) continue;
    const b = rule.behaviour;
    if (unitHash("traffic", exp.id, rule.id, visitorId) >= b.traffic_allocation) continue;
    const picked = pickVariation(b.variations, unitHash("variation", exp.id, rule.id, visitorId));
    if (!picked) continue;
    const { variation } = picked;
    for (const c of variation.configs) {
      const props = c.properties ?? {};
      // A config bound to a page must match this page too (one variation may carry per-page configs).
      if (props.page_path && !matchPage({ domain: props.domain ?? "", page_path: props.page_path, page_match: props.page_match ?? "exact_match" }, location)) {
        continue;
      }
      const element = props.element_path ? `${props.domain ?? ""} ${props.element_path}` : null;
      if (element && claimed.has(element)) continue;
      if (element) claimed.add(element);
      configs[c.config_customer_id] = {
        config_customer_id: c.config_customer_id,
        config_id: c.config_id,
        version: c.version ?? 1,
        config_created_at: Date.parse(exp.created_at) || now,
        variation_id: variation.id,
        variation: c.variation,
        variation_data_type: c.variation_data_type,
        properties: props,
        experience_behaviour_response: {
          experience_id: exp.id,
          behaviour_id: b.id,
          rule_id: rule.id,
          audience_name: rule.audience_name ?? "",
          experience_name: exp.name,
          behaviour_name: b.name,
          priority: exp.priority,
          experience_created_time: Date.parse(exp.created_at) || now,
        },
      };
    }
  }
  return { configs, page_paths: [...pagePaths] };
}
