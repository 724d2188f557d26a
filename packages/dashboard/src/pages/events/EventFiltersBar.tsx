import { useId } from "react";
import type { ExperienceSummary } from "@storefit/contract";
import { Field } from "../../components/form";
import { EVENT_TYPE_LABELS, EVENT_TYPES } from "./labels";
import { type EventFilters, isFiltered, NO_FILTERS } from "./filters";

type Props = {
  filters: EventFilters;
  domains: readonly string[];
  experiences: readonly ExperienceSummary[];
  onChange: (next: EventFilters) => void;
};

const STATUS_NOTE: Record<ExperienceSummary["status"], string> = { running: "", draft: " (draft)", paused: " (paused)", archived: " (archived)" };

export function EventFiltersBar({ filters, domains, experiences, onChange }: Props) {
  const experienceHintId = useId();
  const set = (patch: Partial<EventFilters>) => onChange({ ...filters, ...patch });
  // An experience in the address that the list no longer has (deleted) stays selectable by id.
  const known = filters.experience === "" || experiences.some((x) => x.id === filters.experience);
  return (
    <form className="event-filters" role="search" aria-label="Filter events" onSubmit={(e) => e.preventDefault()}>
      <Field label="Event type">
        {(control) => (
          <select {...control} className="field__input" value={filters.type} onChange={(e) => set({ type: e.target.value })}>
            <option value="">All types</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {EVENT_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Domain">
        {(control) => (
          <select {...control} className="field__input" value={filters.domain} onChange={(e) => set({ domain: e.target.value })}>
            <option value="">All domains</option>
            {domains.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Experience" describedBy={experienceHintId}>
        {(control) => (
          <select {...control} className="field__input" value={filters.experience} onChange={(e) => set({ experience: e.target.value })}>
            <option value="">All experiences</option>
            {experiences.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
                {STATUS_NOTE[x.status]}
              </option>
            ))}
            {known ? null : <option value={filters.experience}>Experience {filters.experience}</option>}
          </select>
        )}
      </Field>
      <span className="visually-hidden" id={experienceHintId}>
        Only the events of visitors who saw this experience
      </span>
      <Field label="Visitor">
        {(control) => (
          <input
            {...control}
            type="search"
            className="field__input"
            value={filters.visitor}
            onChange={(e) => set({ visitor: e.target.value })}
            placeholder="Visitor or customer id"
            spellCheck={false}
          />
        )}
      </Field>
      <Field label="Page path or event name contains" className="event-filters__search">
        {(control) => (
          <input {...control} type="search" className="field__input" value={filters.q} onChange={(e) => set({ q: e.target.value })} placeholder="/products/" />
        )}
      </Field>
      {isFiltered(filters) ? (
        <button type="button" className="button button--secondary event-filters__clear" onClick={() => onChange(NO_FILTERS)}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
