import type { ExperienceStatus, ExperienceSummary } from "@storefit/contract";
import { Field } from "../../components/form";
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

export function ExperienceFilters({
  value,
  onChange,
}: {
  value: Filters;
  onChange: (next: Filters) => void;
}) {
  return (
    <div className="exp-filters" role="search">
      <Field label="Find">
        {(control) => (
          <input
            {...control}
            className="field__input"
            type="search"
            placeholder="Name or page"
            value={value.text}
            onChange={(e) => onChange({ ...value, text: e.target.value })}
          />
        )}
      </Field>
      <Field label="Status">
        {(control) => (
          <select
            {...control}
            className="field__input"
            value={value.status}
            onChange={(e) => onChange({ ...value, status: e.target.value as Filters["status"] })}
          >
            <option value="">All</option>
            {(Object.keys(EXPERIENCE_STATUS_LABELS) as ExperienceStatus[]).map((s) => (
              <option key={s} value={s}>
                {EXPERIENCE_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}
