// A lift and its interval as a small inline SVG: a zero line in the middle, the interval as a bar,
// the estimate as a tick; green or red when significant, grey when not. The numbers are also
// given as text next to it and as the image's accessible name, so nothing rests on color alone.
import type { Comparison } from "@storefit/contract";
import { formatInterval, formatLift } from "./format";
import { liftBarGeometry } from "./lift-scale";

const WIDTH = 140;
const HEIGHT = 18;
const PAD = 4;

export function LiftBar({
  comparison,
  halfWidth,
  intervalLabel,
}: {
  comparison: Comparison;
  /** The shared scale of the table (lift-scale.ts). */
  halfWidth: number;
  /** "95% CI", "95% credible interval". */
  intervalLabel: string;
}) {
  const g = liftBarGeometry(comparison, halfWidth);
  const x = (position: number) => PAD + position * (WIDTH - 2 * PAD);
  const label = `Lift ${formatLift(comparison.effect)}, ${intervalLabel} ${formatLift(
    comparison.ci[0],
  )} to ${formatLift(comparison.ci[1])}, ${comparison.significant ? "significant" : "not significant"}`;

  return (
    <span className={`lift lift--${g.tone}`}>
      <svg
        className="lift__bar"
        width={WIDTH}
        height={HEIGHT}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={label}
        data-testid="lift-bar"
        data-tone={g.tone}
      >
        <rect
          className="lift__track"
          x={PAD}
          y={HEIGHT / 2 - 1}
          width={WIDTH - 2 * PAD}
          height={2}
          rx={1}
        />
        <rect
          className="lift__interval"
          x={x(g.low)}
          y={HEIGHT / 2 - 4}
          width={Math.max(2, x(g.high) - x(g.low))}
          height={8}
          rx={g.clippedLow || g.clippedHigh ? 0 : 3}
        />
        <line className="lift__zero" x1={WIDTH / 2} x2={WIDTH / 2} y1={1} y2={HEIGHT - 1} />
        <line className="lift__effect" x1={x(g.effect)} x2={x(g.effect)} y1={2} y2={HEIGHT - 2} />
      </svg>
      <span className="lift__text">
        <span className="lift__value" data-testid="lift-value">
          {formatLift(comparison.effect)}
        </span>
        <span className="lift__interval-text">{formatInterval(comparison.ci)}</span>
      </span>
    </span>
  );
}
