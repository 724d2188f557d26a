import { useId } from "react";
import type { ExperienceSummary } from "@storefit/contract";
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
  const id = useId();
  const set = (patch: Partial<EventFilters>) => onChange({ ...filters, ...patch });
  // An experience in the address that the list no longer has (deleted) stays selectable by id.
  const known = filters.experience === "" || experiences.some((x) => x.id === filters.experience);
  return (
    <form className="event-filters" role="search" aria-label="Filter events" onSubmit={(e) => e.preventDefault()}>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-type`}>
          Event type
        </label>
        <select id={`${id}-type`} className="field__input" value={filters.type} onChange={(e) => set({ type: e.target.value })}>
          <option value="">All types</option>
          {EVENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {EVENT_TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-domain`}>
          Domain
        </label>
        <select id={`${id}-domain`} className="field__input" value={filters.domain} onChange={(e) => set({ domain: e.target.value })}>
          <option value="">All domains</option>
          {domains.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-experience`}>
          Experience
        </label>
        <select
          id={`${id}-experience`}
          className="field__input"
          value={filters.experience}
          onChange={(e) => set({ experience: e.target.value })}
          aria-describedby={`${id}-experience-hint`}
        >
          <option value="">All experiences</option>
          {experiences.map((x) => (
            <option key={x.id} value={x.id}>
              {x.name}
              {STATUS_NOTE[x.status]}
            </option>
          ))}
          {known ? null : <option value={filters.experience}>Experience {filters.experience}</option>}
        </select>
        <span className="visually-hidden" id={`${id}-experience-hint`}>
          Only the events of visitors who saw this experience
        </span>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-visitor`}>
          Visitor
        </label>
        <input
          id={`${id}-visitor`}
          type="search"
          className="field__input"
          value={filters.visitor}
          onChange={(e) => set({ visitor: e.target.value })}
          placeholder="Visitor or customer id"
          spellCheck={false}
        />
      </div>
      <div className="field event-filters__search">
        <label className="field__label" htmlFor={`${id}-q`}>
          Page path or event name contains
        </label>
        <input id={`${id}-q`} type="search" className="field__input" value={filters.q} onChange={(e) => set({ q: e.target.value })} placeholder="/products/" />
      </div>
      {isFiltered(filters) ? (
        <button type="button" className="button button--secondary event-filters__clear" onClick={() => onChange(NO_FILTERS)}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
