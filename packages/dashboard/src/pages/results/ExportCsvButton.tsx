// Downloads the results on screen as CSV, built in the browser: no second request, and the file
// matches what the operator is looking at.
import type { ExperienceResults } from "@storefit/contract";
import { buildResultsCsv, csvFileName } from "./csv";

export function ExportCsvButton({ results }: { results: ExperienceResults }) {
  const onExport = () => {
    // The BOM makes spreadsheet apps read the names as UTF-8.
    const blob = new Blob(["\uFEFF", buildResultsCsv(results)], { type: "text/csv;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = csvFileName(results);
    document.body.append(link);
    link.click();
    link.remove();
    // Revoked later: some browsers start reading the blob after click() returns.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  const empty = results.rules.every((r) => r.metrics.length === 0);
  return (
    <button
      type="button"
      className="button button--secondary"
      onClick={onExport}
      disabled={empty}
      title={empty ? "No metrics to export yet" : undefined}
    >
      Export CSV
    </button>
  );
}
