// Where a lift and its interval sit on the bars of one table. All rows share one scale, so bars
// compare at a glance; the scale is symmetric around zero so the zero line is always in the middle.
import type { Comparison } from "@storefit/contract";

/** Below this half-width the bars of tiny effects would be drawn as if they were huge. */
export const MIN_HALF_WIDTH = 0.05;
/** An interval reaching past this (±500 %) is clipped and drawn with an open end. */
export const MAX_HALF_WIDTH = 5;

/** The half-width of the shared scale: the largest finite interval end, within the bounds above. */
export function liftHalfWidth(comparisons: readonly (Comparison | null)[]): number {
  let max = 0;
  for (const c of comparisons) {
    if (!c) continue;
    for (const x of [c.ci[0], c.ci[1], c.effect]) {
      if (Number.isFinite(x)) max = Math.max(max, Math.abs(x));
    }
  }
  return Math.min(MAX_HALF_WIDTH, Math.max(MIN_HALF_WIDTH, max));
}

export type LiftBarGeometry = {
  /** Positions in 0..1 of the bar's width; 0.5 is no change. */
  low: number;
  high: number;
  effect: number;
  /** Interval ends beyond the scale, drawn open. */
  clippedLow: boolean;
  clippedHigh: boolean;
  tone: "positive" | "negative" | "neutral";
};

export function liftBarGeometry(comparison: Comparison, halfWidth: number): LiftBarGeometry {
  const position = (x: number) => {
    if (Number.isNaN(x)) return 0.5;
    return Math.min(1, Math.max(0, 0.5 + x / (2 * halfWidth)));
  };
  const [low, high] = comparison.ci;
  return {
    low: position(low),
    high: position(high),
    effect: position(comparison.effect),
    clippedLow: !(low >= -halfWidth),
    clippedHigh: !(high <= halfWidth),
    tone: comparison.significant ? (comparison.effect >= 0 ? "positive" : "negative") : "neutral",
  };
}
