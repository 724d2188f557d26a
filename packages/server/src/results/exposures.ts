// Exposure counts per variation (product.md §3 "Results"), the answer's `variations` list: without
// a date range, the distinct visitors who were shown each variation over the whole experience;
// with one, the visitors first exposed in it, by the variation of that first exposure
// (docs/results.md "Date range").

import type { VariationExposure } from "@storefit/contract";
import type { Experience, VariationVisitors } from "../store/types.js";

/**
 * `share` is a variation's visitors over the sum over variations (a visitor reassigned after a
 * variation was removed counts in both); exposures of variations removed since are listed
 * unnamed, after the current ones.
 */
export function exposureVariations(experience: Experience, byVariation: readonly VariationVisitors[]): VariationExposure[] {
  const visitorsOf = new Map(byVariation.map((r) => [r.variation_id, r.visitors]));
  const sum = byVariation.reduce((acc, r) => acc + r.visitors, 0);
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
  for (const r of byVariation) {
    if (known.has(r.variation_id)) continue;
    variations.push({ variation_id: r.variation_id, name: null, visitors: r.visitors, share: share(r.visitors), expected_share: null });
  }
  return variations;
}
