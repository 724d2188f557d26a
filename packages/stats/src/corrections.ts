// Multiple-comparison corrections of a family of p-values, returned in the order given.
//   holm: Holm (1979) step-down, controls the family-wise error rate;
//   bh:   Benjamini & Hochberg (1995) step-up, controls the false discovery rate.
import type { PValueAdjustment } from "./types.js";

export function adjustPValues(pValues: number[], method: PValueAdjustment): number[] {
  if (method !== "holm" && method !== "bh") {
    throw new RangeError(`@storefit/stats: unknown p-value adjustment ${String(method)}`);
  }
  pValues.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) {
      throw new RangeError(`@storefit/stats: p-value ${i} is not in [0, 1]: ${p}`);
    }
  });
  const m = pValues.length;
  // Indices by ascending p-value; ties keep their input order (stable sort).
  const order = pValues.map((_, i) => i).sort((i, j) => (pValues[i] ?? 0) - (pValues[j] ?? 0));
  const adjusted = new Array<number>(m).fill(1);
  if (method === "holm") {
    // p̃(k) = min(1, max_{j ≤ k} (m − j + 1)·p(j)), ranks from 1.
    let running = 0;
    order.forEach((index, k) => {
      running = Math.max(running, Math.min(1, (m - k) * (pValues[index] ?? 1)));
      adjusted[index] = running;
    });
  } else {
    // p̃(k) = min_{j ≥ k} min(1, m·p(j) / j), ranks from 1.
    let running = 1;
    for (let k = m - 1; k >= 0; k--) {
      const index = order[k] ?? 0;
      const p = pValues[index] ?? 1;
      // m/rank ≥ 1, so the adjusted value is never below p; max() keeps that true under rounding.
      running = Math.min(running, p * (m / (k + 1)));
      adjusted[index] = Math.max(p, running);
    }
  }
  return adjusted;
}
