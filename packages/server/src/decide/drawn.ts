// The assignment a visitor draws at random in an experience's rule, recomputed without the
// request: the same steps as decide.ts's 0 and 3 (exclusion group, traffic, weighted variation),
// all a stable hash of (experience, rule, visitor). The config call answers before its assignment
// is committed (routes/client.ts), so an exposure can reach a node that cannot read it yet; this
// tells that node whether the exposure can be a drawn assignment still being committed (then it
// reads again), or was forced. test/drawn.test.ts checks it against decide() for many visitors,
// so the two cannot drift apart unnoticed.

import type { Assignment, Experience } from "../store/types.js";
import { pickVariation, splitOf } from "./decide.js";
import { unitHash } from "./hash.js";

/**
 * The random assignment of `visitorId` (the customer id decide() buckets by) in the experience's
 * rule, when it is to `variationId`; null when the draw gives no such assignment (outside the
 * group's slice or the traffic, or another variation).
 */
export function drawnAssignment(exp: Experience, ruleId: string, variationId: string, visitorId: string): Assignment | null {
  const rule = exp.rules.find((r) => r.id === ruleId);
  if (!rule) return null;
  const group = exp.exclusion_group;
  let groupShare = 1;
  if (group) {
    const place = unitHash("group", group.name, visitorId);
    if (place < group.start || place >= group.end) return null;
    groupShare = group.end - group.start;
  }
  const behaviour = rule.behaviour;
  const traffic = Math.min(1, Math.max(0, behaviour.traffic_allocation));
  if (unitHash("traffic", exp.id, rule.id, visitorId) >= traffic) return null;
  const picked = pickVariation(behaviour.variations, unitHash("variation", exp.id, rule.id, visitorId));
  if (!picked || picked.variation.id !== variationId) return null;
  return {
    experience_id: exp.id,
    rule_id: rule.id,
    behaviour_id: behaviour.id,
    variation_id: variationId,
    probability: groupShare * traffic * picked.share,
    split: splitOf(behaviour, groupShare),
  };
}
