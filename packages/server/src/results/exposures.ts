// Exposure counts per variation (product.md §3 "Results", first part): distinct visitors who
// were shown each variation, from the stored config summaries. The statistics (packages/stats)
// build on these sufficient statistics in a later issue.

import type { ExperienceResults, VariationExposure } from "@storefit/contract";
import type { Experience, VariationVisitors } from "../store/types.js";

/**
 * `share` is a variation's visitors over the sum over variations (a visitor reassigned after a
 * variation was removed counts in both); `total_visitors` counts each visitor once.
 */
export function exposureResults(
  experience: Experience,
  exposed: { distinct: number; byVariation: readonly VariationVisitors[] },
): ExperienceResults {
  const rows = exposed.byVariation;
  const visitorsOf = new Map(rows.map((r) => [r.variation_id, r.visitors]));
  const sum = rows.reduce((acc, r) => acc + r.visitors, 0);
  const share = (n: number) => (sum > 0 ? n / sum : 0);

  const variations: VariationExposure[] = [];
  const known = new Set<string>();
  for (const rule of experience.rules) {
    const weights = rule.behaviour.variations.reduce((sum, v) => sum + Math.max(0, v.weight), 0);
    for (const v of rule.behaviour.variations) {
      known.add(v.id);
      const visitors = visitorsOf.get(v.id) ?? 0;
      variations.push({
        variation_id: v.id,
        name: v.name,
        visitors,
        share: share(visitors),
        expected_share: weights > 0 ? Math.max(0, v.weight) / weights : 0,
      });
    }
  }
  // Exposures of variations removed since still happened: report them, unnamed.
  for (const r of rows) {
    if (known.has(r.variation_id)) continue;
    variations.push({ variation_id: r.variation_id, name: null, visitors: r.visitors, share: share(r.visitors), expected_share: null });
  }
  // TODO(#7, in progress this session): per-rule metrics replace this exposure-only answer.
  return {
    experience_id: experience.id,
    engine: "sequential",
    correction: "holm",
    alpha: 0.05,
    computed_at: new Date().toISOString(),
    total_visitors: exposed.distinct,
    variations,
    rules: [],
  };
}
