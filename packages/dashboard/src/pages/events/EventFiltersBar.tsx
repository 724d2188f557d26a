import { useEffect, useId, useRef, useState } from "react";
import type { ExperienceSummary } from "@storefit/contract";
import { StateInput, StateSelect } from "../../components/form";
import { EVENT_TYPE_LABELS, EVENT_TYPES } from "./labels";
import { type EventFilters, isFiltered, NO_FILTERS } from "./filters";

type Props = {
  filters: EventFilters;
  domains: readonly string[];
  experiences: readonly ExperienceSummary[];
  onChange: (next: EventFilters) => void;
};

const STATUS_NOTE: Record<ExperienceSummary["status"], string> = { running: "", draft: " (draft)", paused: " (paused)", archived: " (archived)" };

/** How long typing in a text filter pauses before the list is asked again. */
export const TYPING_PAUSE_MS = 300;

/**
 * A text filter as typed, handed on once typing pauses: a filtered search is one of the service's
 * expensive reads (its own rate limit, docs/security.md), and a request per keystroke spent that
 * budget on searches nobody waited for. A value set from outside (Clear filters, the address) wins.
 */
function useTypedText(value: string, commit: (text: string) => void): [string, (text: string) => void] {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(commit);
  latest.current = commit;
  useEffect(() => {
    // While typing waits to be handed on, only a clear from outside replaces it.
    if (timer.current !== undefined && value !== "") return;
    clearTimeout(timer.current);
    timer.current = undefined;
    setText(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const type = (next: string) => {
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latest.current(next);
    }, TYPING_PAUSE_MS);
  };
  return [text, type];
}

export function EventFiltersBar({ filters, domains, experiences, onChange }: Props) {
  const experienceHintId = useId();
  const set = (patch: Partial<EventFilters>) => onChange({ ...filters, ...patch });
  const [visitor, typeVisitor] = useTypedText(filters.visitor, (v) => set({ visitor: v }));
  const [q, typeQ] = useTypedText(filters.q, (v) => set({ q: v }));
  // An experience in the address that the list no longer has (deleted) stays selectable by id.
  const known = filters.experience === "" || experiences.some((x) => x.id === filters.experience);
  const typeOptions = [{ value: "", label: "All types" }, ...EVENT_TYPES.map((t) => ({ value: t, label: EVENT_TYPE_LABELS[t] }))];
  const domainOptions = [{ value: "", label: "All domains" }, ...domains.map((d) => ({ value: d, label: d }))];
  const experienceOptions = [
    { value: "", label: "All experiences" },
    ...experiences.map((x) => ({ value: x.id, label: `${x.name}${STATUS_NOTE[x.status]}` })),
    ...(known ? [] : [{ value: filters.experience, label: `Experience ${filters.experience}` }]),
  ];
  return (
    <form className="event-filters" role="search" aria-label="Filter events" onSubmit={(e) => e.preventDefault()}>
      <StateSelect label="Event type" value={filters.type} onChange={(type) => set({ type })} options={typeOptions} />
      <StateSelect label="Domain" value={filters.domain} onChange={(domain) => set({ domain })} options={domainOptions} />
      <StateSelect
        label="Experience"
        value={filters.experience}
        onChange={(experience) => set({ experience })}
        options={experienceOptions}
        describedBy={experienceHintId}
      />
      <span className="visually-hidden" id={experienceHintId}>
        Only the events of visitors who saw this experience
      </span>
      <StateInput
        label="Visitor"
        type="search"
        value={visitor}
        onChange={typeVisitor}
        placeholder="Visitor or customer id"
        spellCheck={false}
      />
      <StateInput
        label="Page path or event name contains"
        className="event-filters__search"
        type="search"
        value={q}
        onChange={typeQ}
        placeholder="/products/"
      />
      {isFiltered(filters) ? (
        <button type="button" className="button button--secondary event-filters__clear" onClick={() => onChange(NO_FILTERS)}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
