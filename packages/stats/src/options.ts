// Option checks shared by the tests. A bad option is the caller's mistake and throws a RangeError;
// bad or thin data never throws (it gives the uninformative result, see README).
import type { Difference } from "./types.js";

export const DEFAULT_ALPHA = 0.05;

/** gbstats' default N* for the sequential test (`SequentialConfig.sequential_tuning_parameter`). */
export const DEFAULT_SEQUENTIAL_TUNING = 5000;

export function checkAlpha(alpha: number | undefined): number {
  const a = alpha ?? DEFAULT_ALPHA;
  if (!(a > 0 && a < 1)) throw new RangeError(`@storefit/stats: alpha must be in (0, 1), got ${a}`);
  return a;
}

export function checkDifference(difference: Difference | undefined): Difference {
  const d = difference ?? "relative";
  if (d !== "relative" && d !== "absolute") {
    throw new RangeError(
      `@storefit/stats: difference must be "relative" or "absolute", got ${String(d)}`,
    );
  }
  return d;
}

export function checkPositive(name: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`@storefit/stats: ${name} must be a finite number > 0, got ${value}`);
  }
  return value;
}
