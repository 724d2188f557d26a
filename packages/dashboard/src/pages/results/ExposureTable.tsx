// Visitors per variation over the whole experience, against the share the weights aim at.
import type { VariationExposure } from "@storefit/contract";
import { Table } from "../../components/Table";
import type { Column } from "../../components/Table";
import { formatCount, formatPercent } from "./format";
import { variationLabel } from "./MetricTable";

const columns: Column<VariationExposure>[] = [
  { key: "variation", header: "Variation", cell: (v) => variationLabel(v) },
  {
    key: "visitors",
    header: "Visitors",
    className: "numeric",
    cell: (v) => formatCount(v.visitors),
  },
  { key: "share", header: "Share", className: "numeric", cell: (v) => formatPercent(v.share) },
  {
    key: "expected",
    header: "Target share",
    className: "numeric",
    cell: (v) => (v.expected_share === null ? "—" : formatPercent(v.expected_share)),
  },
];

export function ExposureTable({ variations }: { variations: readonly VariationExposure[] }) {
  return (
    <div className="table-frame">
      <Table
        caption="Visitors exposed per variation"
        columns={columns}
        rows={variations}
        rowKey={(v) => v.variation_id}
        rowProps={() => ({ "data-testid": "exposure-row" })}
      />
    </div>
  );
}
