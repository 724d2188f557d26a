import { Link } from "react-router";
import type { Audience } from "@storefit/contract";
import { type Column, Table } from "../../components/Table";
import { formatDateTime } from "../../format";
import { describeCondition } from "./conditionModel";
import { audienceHref } from "./links";

const columns: readonly Column<Audience>[] = [
  {
    key: "name",
    header: "Name",
    cell: (a) => (
      <Link className="cell-strong" to={audienceHref(a.id)}>
        {a.name}
      </Link>
    ),
  },
  { key: "condition", header: "Who", cell: (a) => <span className="audience-summary">{describeCondition(a.condition)}</span> },
  { key: "description", header: "Description", cell: (a) => a.description || <span className="muted">—</span> },
  {
    key: "updated",
    header: "Updated",
    cell: (a) => <time dateTime={a.updated_at}>{formatDateTime(a.updated_at)}</time>,
  },
];

export function AudiencesTable({ audiences }: { audiences: readonly Audience[] }) {
  return (
    <Table
      caption="Audiences"
      columns={columns}
      rows={audiences}
      rowKey={(a) => a.id}
      rowProps={() => ({ "data-testid": "audience-row" })}
    />
  );
}
