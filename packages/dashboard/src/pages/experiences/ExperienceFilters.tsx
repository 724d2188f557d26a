import type { ExperienceStatus, ExperienceSummary } from "@storefit/contract";
import { StateInput, StateSelect } from "../../components/form";
import { EXPERIENCE_STATUS_LABELS } from "./labels";

export type Filters = { status: ExperienceStatus | ""; text: string };

/** Rows whose status is the one chosen and whose name or page contains the text (any case). */
export function applyFilters(rows: readonly ExperienceSummary[], f: Filters): ExperienceSummary[] {
  const text = f.text.trim().toLowerCase();
  return rows.filter(
    (e) =>
      (f.status === "" || e.status === f.status) &&
      (text === "" ||
        e.name.toLowerCase().includes(text) ||
        e.pages.some((p) => `${p.domain}${p.page_path}`.toLowerCase().includes(text))),
  );
}

const STATUS_OPTIONS = [
  { value: "", label: "All" },
  ...(Object.keys(EXPERIENCE_STATUS_LABELS) as ExperienceStatus[]).map((s) => ({
    value: s,
    label: EXPERIENCE_STATUS_LABELS[s],
  })),
];

export function ExperienceFilters({
  value,
  onChange,
}: {
  value: Filters;
  onChange: (next: Filters) => void;
}) {
  return (
    <div className="exp-filters" role="search">
      <StateInput
        label="Find"
        type="search"
        placeholder="Name or page"
        value={value.text}
        onChange={(text) => onChange({ ...value, text })}
      />
      <StateSelect
        label="Status"
        value={value.status}
        onChange={(status) => onChange({ ...value, status: status as Filters["status"] })}
        options={STATUS_OPTIONS}
      />
    </div>
  );
}
