// A lift and its interval as a small inline SVG: a zero line in the middle, the interval as a bar,
// the estimate as a tick; green or red when significant, grey when not. The numbers are also
// given as text next to it and as the image's accessible name, so nothing rests on color alone.
// An interval the engine ran below −100 % is drawn and written from −100 % (lift.ts), with a note.
import type { Comparison } from "@storefit/contract";
import { formatInterval, formatLift } from "./format";
import { shownLift } from "./lift";
import { liftBarGeometry } from "./lift-scale";

const WIDTH = 140;
const HEIGHT = 18;
const PAD = 4;

export function LiftBar({
  comparison,
  halfWidth,
  intervalLabel,
  quantity,
  valueLift,
}: {
  comparison: Comparison;
  /** What the lift is of, in words: "conversion rate", "revenue per visitor". */
  quantity: string;
  /**
   * With CUPED: the lift of the values shown ("Rates shown: +166.7%"), given under the adjusted
   * one so the table's own numbers can be checked (lift.ts `valueLift`).
   */
  valueLift?: { label: string; lift: number };
  /** The shared scale of the table (lift-scale.ts). */
  halfWidth: number;
  /** "95% CI", "95% credible interval". */
  intervalLabel: string;
}) {
  const shown = shownLift(comparison);
  const g = liftBarGeometry({ ...comparison, effect: shown.effect, ci: shown.ci }, halfWidth);
  const x = (position: number) => PAD + position * (WIDTH - 2 * PAD);
  const clampNote = shown.clamped
    ? `The interval computed starts at ${formatLift(shown.rawLow)}, but a ${quantity} cannot ` +
      "fall by more than 100%: it is shown from \u2212100%. An interval this wide means too few " +
      "data to tell."
    : undefined;
  const label = `Lift ${formatLift(shown.effect)}, ${intervalLabel} ${
    shown.clamped ? "from " : ""
  }${formatLift(shown.ci[0])} to ${formatLift(shown.ci[1])}, ${
    comparison.significant ? "significant" : "not significant"
  }`;

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
          {formatLift(shown.effect)}
        </span>
        <span
          className={`lift__interval-text${shown.clamped ? " lift__interval-text--clamped" : ""}`}
          data-testid="lift-interval"
          data-clamped={shown.clamped || undefined}
          title={clampNote}
        >
          {formatInterval(shown.ci)}
        </span>
        {valueLift ? (
          <span className="lift__unadjusted" data-testid="value-lift">
            {valueLift.label}: {formatLift(valueLift.lift)}
          </span>
        ) : null}
      </span>
    </span>
  );
}
