// The sample-ratio-mismatch warning of one rule: the split of visitors is not what the weights
// ask for, more than chance explains. Every other number of the rule is then suspect, so the
// warning says so plainly, shows the counts, and lists what usually causes it.
import type { RuleResults } from "@storefit/contract";
import { formatCount, formatPStatement, formatPercent } from "./format";
import { SRM_THRESHOLD_TEXT } from "./srm-text";

export function SrmWarning({
  srm,
  variationNames,
}: {
  srm: RuleResults["srm"];
  /** Names in the order of `srm.observed`. */
  variationNames: readonly string[];
}) {
  const observedTotal = srm.observed.reduce((a, b) => a + b, 0);
  const expectedTotal = srm.expected.reduce((a, b) => a + b, 0);
  return (
    <div className="srm-warning" role="alert" data-testid="srm-warning">
      <p className="srm-warning__title">
        Sample ratio mismatch: the traffic split does not match the variation weights
      </p>
      <p>
        Visitors were not divided the way the weights say, by more than chance explains ({formatPStatement(srm.p_value)}). Something is losing or adding visitors in some variations, so
        the results below may be biased: do not act on them until the cause is found.{" "}
        {SRM_THRESHOLD_TEXT}
      </p>
      <table className="srm-warning__table">
        <caption className="visually-hidden">Observed and expected visitors per variation</caption>
        <thead>
          <tr>
            <th scope="col">Variation</th>
            <th scope="col" className="numeric">
              Observed
            </th>
            <th scope="col" className="numeric">
              Expected
            </th>
          </tr>
        </thead>
        <tbody>
          {srm.observed.map((observed, i) => {
            const expected = srm.expected[i] ?? 0;
            return (
              <tr key={i} data-testid="srm-row">
                <th scope="row">{variationNames[i] ?? `Variation ${i + 1}`}</th>
                <td className="numeric">
                  {formatCount(observed)}{" "}
                  <span className="muted">
                    ({formatPercent(observedTotal > 0 ? observed / observedTotal : 0)})
                  </span>
                </td>
                <td className="numeric">
                  {formatCount(Math.round(expected))}{" "}
                  <span className="muted">
                    ({formatPercent(expectedTotal > 0 ? expected / expectedTotal : 0)})
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="srm-warning__checks-title">What to check:</p>
      <ul className="srm-warning__checks">
        <li>Weights or traffic allocation changed while the experience was running.</li>
        <li>
          A variation that breaks, redirects or slows its page, so some visitors leave before they
          are counted.
        </li>
        <li>Page caching or a CDN serving one variation to visitors assigned to another.</li>
        <li>Bots or internal traffic reaching one variation more than the others.</li>
      </ul>
    </div>
  );
}
