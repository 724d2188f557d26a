import { Link } from "react-router";
import type { ExperienceSummary } from "@storefit/contract";
import { type Column, Table } from "../../components/Table";
import { formatDateTime } from "../../format";
import { paths } from "../../paths";
import { HeadlineResult } from "../results/HeadlineResult";
import { ExperienceActions } from "./ExperienceActions";
import { EXPERIENCE_KIND_LABELS, PAGE_MATCH_LABELS } from "./labels";
import { StatusBadge } from "./StatusBadge";
import { TrafficCell } from "./TrafficCell";
import { groupBadge, percentLabel } from "./overlaps";
import "./experiences.css";
import "./overlaps.css";
import type { PrioritySort } from "./priority-sort";

/** How many targeted pages a row lists before summarising the rest as "+N more". */
const PAGES_SHOWN = 2;

function PagesCell({ pages }: { pages: ExperienceSummary["pages"] }) {
  if (pages.length === 0) return <span className="muted">No pages</span>;
  const shown = pages.slice(0, PAGES_SHOWN);
  const rest = pages.length - shown.length;
  return (
    <ul className="page-list exp-pages">
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

/**
 * Whether a row's experience can have results. Each HeadlineResult computes the experience's
 * whole results (GET /api/results/{id}), so drafts — never shown to a visitor — skip it. An
 * archived experience may have run before: the list does not say whether it has visitors, so it
 * is asked like a running or paused one.
 */
export const mayHaveResults = (status: ExperienceSummary["status"]): boolean => status !== "draft";

const columns = (
  canEdit: boolean,
  sort: PrioritySort,
  onSort: () => void,
): readonly Column<ExperienceSummary>[] => [
  {
    key: "name",
    header: "Name",
    cell: (e) => (
      <div className="exp-name-cell">
        <Link className="cell-strong exp-name" to={paths.experience(e.id)}>
          {e.name}
        </Link>
        <span className="muted exp-updated">
          Updated{" "}
          <time dateTime={e.updated_at} title={e.updated_at}>
            {formatDateTime(e.updated_at)}
          </time>
        </span>
      </div>
    ),
  },
  {
    key: "status",
    header: "Status · kind",
    cell: (e) => (
      <div className="exp-status-cell">
        <StatusBadge status={e.status} />
        <span data-testid="experience-kind">{EXPERIENCE_KIND_LABELS[e.kind] ?? e.kind}</span>
      </div>
    ),
  },
  {
    key: "priority",
    header: "Priority",
    className: "numeric",
    sort: { direction: sort, onSort },
    cell: (e) => <span data-testid="priority">{e.priority}</span>,
  },
  { key: "pages", header: "Pages", cell: (e) => <PagesCell pages={e.pages} /> },
  {
    key: "traffic",
    header: "Traffic · split",
    cell: (e) => (
      <>
        <TrafficCell traffic={e.traffic} />
        {e.exclusion_group ? (
          <span
            className="group-badge"
            data-testid="group-badge"
            title={`A mutually exclusive group: this experience gets ${percentLabel(e.exclusion_group.end - e.exclusion_group.start)} of the group's visitors, and no visitor is in two of its members.`}
          >
            {groupBadge(e.exclusion_group)}
          </span>
        ) : null}
      </>
    ),
  },
  {
    key: "result",
    header: "Headline result",
    cell: (e) =>
      mayHaveResults(e.status) ? (
        <HeadlineResult experienceId={e.id} />
      ) : (
        <span className="muted" data-testid="headline-none" title="A draft has no results">
          —
        </span>
      ),
  },
  {
    key: "actions",
    header: "Actions",
    cell: (e) => <ExperienceActions experience={e} canEdit={canEdit} />,
  },
];

export function ExperiencesTable({
  experiences,
  canEdit,
  sort = "none",
  onSort = () => {},
}: {
  experiences: readonly ExperienceSummary[];
  canEdit: boolean;
  sort?: PrioritySort;
  onSort?: () => void;
}) {
  return (
    <Table
      caption="Experiences"
      columns={columns(canEdit, sort, onSort)}
      rows={experiences}
      rowKey={(e) => e.id}
      rowProps={() => ({ "data-testid": "experience-row" })}
    />
  );
}
