// Why a running experience has few visitors, as the service found it (docs/results.md "Few visitors").
import type { ResultsDiagnostics } from "@storefit/contract";
import { diagnosisText } from "./diagnosis";

export function FewVisitorsNotice({
  diagnostics,
  rangeTo = null,
}: {
  diagnostics: ResultsDiagnostics;
  /** The date range's last day, when it has one (the answer's `range.to`). */
  rangeTo?: string | null;
}) {
  const { title, detail } = diagnosisText(diagnostics, rangeTo);
  return (
    <div className="notice few-visitors" data-testid="few-visitors" data-cause={diagnostics.cause}>
      <p className="few-visitors__title">
        <strong>{title}</strong>
      </p>
      <p>{detail}</p>
    </div>
  );
}
