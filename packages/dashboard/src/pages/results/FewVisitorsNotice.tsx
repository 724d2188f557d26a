// Why a running experience has few visitors, as the service found it (docs/results.md "Few visitors").
import type { ResultsDiagnostics } from "@storefit/contract";
import { diagnosisText } from "./diagnosis";

export function FewVisitorsNotice({
  diagnostics,
  rangeFrom = null,
  rangeTo = null,
  totalVisitors = 0,
}: {
  diagnostics: ResultsDiagnostics;
  /** The date range's first day, when it has one (the answer's `range.from`). */
  rangeFrom?: string | null;
  /** The date range's last day, when it has one (the answer's `range.to`). */
  rangeTo?: string | null;
  /** The answer's `total_visitors`: with a range, the visitors first shown it there. */
  totalVisitors?: number;
}) {
  const { title, detail } = diagnosisText(
    diagnostics,
    rangeTo,
    rangeFrom ? { from: rangeFrom, visitors: totalVisitors } : null,
  );
  return (
    <div className="notice few-visitors" data-testid="few-visitors" data-cause={diagnostics.cause}>
      <p className="few-visitors__title">
        <strong>{title}</strong>
      </p>
      <p>{detail}</p>
    </div>
  );
}
