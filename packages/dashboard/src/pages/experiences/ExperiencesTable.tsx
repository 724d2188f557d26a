import type { ExperienceSummary } from "@storefit/contract";
import { type Column, Table } from "../../components/Table";
import { formatDateTime } from "../../format";
import { EXPERIENCE_KIND_LABELS, PAGE_MATCH_LABELS } from "./labels";
import { StatusBadge } from "./StatusBadge";

/** How many targeted pages a row lists before summarising the rest as "+N more". */
const PAGES_SHOWN = 2;

function PagesCell({ pages }: { pages: ExperienceSummary["pages"] }) {
  if (pages.length === 0) return <span className="muted">No pages</span>;
  const shown = pages.slice(0, PAGES_SHOWN);
  const rest = pages.length - shown.length;
  return (
    <ul className="page-list">
      {shown.map((page) => (
        <li key={`${page.domain}|${page.page_path}|${page.page_match}`}>
          <span className="page-list__path">
            {page.domain}
            {page.page_path}
          </span>{" "}
          <span className="page-list__match">
            {PAGE_MATCH_LABELS[page.page_match] ?? page.page_match}
          </span>
        </li>
      ))}
      {rest > 0 ? <li className="muted">+{rest} more</li> : null}
    </ul>
  );
}

const columns: readonly Column<ExperienceSummary>[] = [
  { key: "name", header: "Name", cell: (e) => <span className="cell-strong">{e.name}</span> },
  { key: "kind", header: "Kind", cell: (e) => EXPERIENCE_KIND_LABELS[e.kind] ?? e.kind },
  { key: "status", header: "Status", cell: (e) => <StatusBadge status={e.status} /> },
  { key: "pages", header: "Pages", cell: (e) => <PagesCell pages={e.pages} /> },
  { key: "variations", header: "Variations", cell: (e) => e.variation_count, className: "numeric" },
  {
    key: "updated",
    header: "Updated",
    cell: (e) => (
      <time dateTime={e.updated_at} title={e.updated_at}>
        {formatDateTime(e.updated_at)}
      </time>
    ),
  },
];

export function ExperiencesTable({ experiences }: { experiences: readonly ExperienceSummary[] }) {
  return (
    <Table
      caption="Experiences"
      columns={columns}
      rows={experiences}
      rowKey={(e) => e.id}
      rowProps={() => ({ "data-testid": "experience-row" })}
    />
  );
}
