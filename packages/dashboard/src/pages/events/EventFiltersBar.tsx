import { useId } from "react";
import { EVENT_TYPES, type EventFilters, isFiltered } from "./filters";

type Props = { filters: EventFilters; domains: readonly string[]; onChange: (next: EventFilters) => void };

export function EventFiltersBar({ filters, domains, onChange }: Props) {
  const id = useId();
  const set = (patch: Partial<EventFilters>) => onChange({ ...filters, ...patch });
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
              {t}
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
      <div className="field event-filters__search">
        <label className="field__label" htmlFor={`${id}-q`}>
          Page path or event name contains
        </label>
        <input id={`${id}-q`} type="search" className="field__input" value={filters.q} onChange={(e) => set({ q: e.target.value })} placeholder="/products/" />
      </div>
      {isFiltered(filters) ? (
        <button type="button" className="button button--secondary event-filters__clear" onClick={() => onChange({ type: "", domain: "", q: "" })}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
