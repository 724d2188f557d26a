// The rows of the exposures table (docs/results-screen.md "Exposures"). The service's `share` is
// of every visitor of the experience, while `expected_share` is what the weights aim at within the
// variation's rule: with one rule the two compare, with several they do not (a rule's control at
// 17 % of all visitors against a target of 50 % looks like a broken split when it is half of its
// own rule), and the rules' variations often share names ("Control", "Variation B"). So with
// several rules each row names its rule's audience and its share is of its rule's visitors.
import type { RuleDefinition, RuleResults, VariationExposure } from "@storefit/contract";

export type ExposureRow = VariationExposure & {
  /** The rule's audience, with several rules; null with one rule, or for a removed variation. */
  audience: string | null;
  /** The share to read against `expected_share`; null when there is none (a removed variation among several rules). */
  shown_share: number | null;
};

export function exposureRows(
  variations: readonly VariationExposure[],
  rules: readonly RuleDefinition[] | undefined,
  ruleResults: readonly Pick<RuleResults, "rule_id" | "audience_name">[],
): { rows: ExposureRow[]; byRule: boolean } {
  if (!rules || rules.length <= 1) {
    return {
      rows: variations.map((v) => ({ ...v, audience: null, shown_share: v.share })),
      byRule: false,
    };
  }
  const answered = new Map(ruleResults.map((r) => [r.rule_id, r.audience_name]));
  const visitors = new Map(variations.map((v) => [v.variation_id, v.visitors]));
  const ruleOf = new Map<string, { audience: string; total: number }>();
  for (const rule of rules) {
    const ids = rule.behaviour.variations.map((v) => v.id);
    const total = ids.reduce((sum, id) => sum + (visitors.get(id) ?? 0), 0);
    const audience = answered.get(rule.id) || rule.audience_name || "Everyone";
    for (const id of ids) ruleOf.set(id, { audience, total });
  }
  const rows = variations.map((v) => {
    const rule = ruleOf.get(v.variation_id);
    if (!rule) return { ...v, audience: null, shown_share: null };
    return {
      ...v,
      audience: rule.audience,
      shown_share: rule.total > 0 ? v.visitors / rule.total : 0,
    };
  });
  return { rows, byRule: true };
}
