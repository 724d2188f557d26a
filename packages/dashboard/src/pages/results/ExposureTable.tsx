// Visitors per variation over the whole experience, against the share the weights aim at; with
// several rules, per rule (exposure-rows.ts).
import type { RuleDefinition, RuleResults, VariationExposure } from "@storefit/contract";
import { Table } from "../../components/Table";
import type { Column } from "../../components/Table";
import { formatCount, formatPercent } from "./format";
import { variationLabel } from "./MetricTable";
import { exposureRows } from "./exposure-rows";
import type { ExposureRow } from "./exposure-rows";

const columns: Column<ExposureRow>[] = [
  { key: "variation", header: "Variation", cell: (v) => variationLabel(v) },
  {
    key: "visitors",
    header: "Visitors",
    className: "numeric",
    cell: (v) => formatCount(v.visitors),
  },
  {
    key: "share",
    header: "Share",
    className: "numeric",
    cell: (v) => (v.shown_share === null ? "—" : formatPercent(v.shown_share)),
  },
  {
    key: "expected",
    header: "Target share",
    className: "numeric",
    cell: (v) => (v.expected_share === null ? "—" : formatPercent(v.expected_share)),
  },
];

const byRuleColumns: Column<ExposureRow>[] = [
  { key: "audience", header: "Audience", cell: (v) => v.audience ?? "—" },
  ...columns.map((c) => (c.key === "share" ? { ...c, header: "Share of its audience" } : c)),
];

export function ExposureTable({
  variations,
  rules,
  ruleResults,
}: {
  variations: readonly VariationExposure[];
  /** The experience's rules as defined now (undefined while they load). */
  rules: readonly RuleDefinition[] | undefined;
  ruleResults: readonly Pick<RuleResults, "rule_id" | "audience_name">[];
}) {
  const { rows, byRule } = exposureRows(variations, rules, ruleResults);
  return (
    <div className="table-frame">
      <Table
        caption="Visitors exposed per variation"
        columns={byRule ? byRuleColumns : columns}
        rows={rows}
        rowKey={(v) => v.variation_id}
        rowProps={() => ({ "data-testid": "exposure-row" })}
      />
    </div>
  );
}
