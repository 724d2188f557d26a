// The rate axis of the daily chart. Left to recharts, a series of zeros got a 0–400 % axis; rates
// are never negative and rarely near 100 %, so the axis runs from 0 to a round value a little
// above the highest rate drawn, with a small minimum so that a 0 % line sits on a sane scale.

/** The smallest top of the axis (1 %): the scale of zero rates and of the first few conversions. */
export const MIN_AXIS_TOP = 0.01;
/** Room above the highest point, so a line does not run along the frame. */
const HEADROOM = 1.1;
const TICK_COUNT = 4;

/** The smallest "round" step (1, 2 or 5 × a power of ten) at or above `raw`. */
function roundStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw - 1e-12) return m * power;
  return 10 * power;
}

/** The axis for these rates (fractions; nulls and non-numbers are skipped): [0, top] and its ticks. */
export function rateAxis(values: readonly unknown[]): { domain: [number, number]; ticks: number[] } {
  let max = 0;
  for (const v of values) if (typeof v === "number" && Number.isFinite(v) && v > max) max = v;
  const wanted = Math.max(MIN_AXIS_TOP, Math.min(1, max * HEADROOM));
  const step = roundStep(wanted / TICK_COUNT);
  // Rounded to drop float noise (3 × 0.2 = 0.6000000000000001).
  const round = (x: number) => Math.round(x * 1e9) / 1e9;
  const top = Math.min(1, round(Math.ceil(wanted / step - 1e-9) * step));
  const ticks: number[] = [];
  for (let i = 0; i * step <= top + 1e-12; i++) ticks.push(round(i * step));
  return { domain: [0, top], ticks };
}
