// The date range of the results: a preset counted back from today (UTC) or custom days. The
// custom days are native date inputs; an unfinished day (cleared, half typed) leaves that side
// open rather than asking the service for a day that does not exist.
import { useId } from "react";
import { RANGE_OPTIONS, isDay } from "./range";
import type { RangeChoice, RangePreset } from "./range";

export function DateRangeControl({
  range,
  onChange,
}: {
  range: RangeChoice;
  onChange: (range: RangeChoice) => void;
}) {
  const presetId = useId();
  const fromId = useId();
  const toId = useId();
  const day = (value: string) => (isDay(value) ? value : "");

  return (
    <div className="results-controls__range">
      <label className="field__label" htmlFor={presetId}>
        Date range
      </label>
      <select
        id={presetId}
        className="field__input"
        value={range.preset}
        onChange={(e) => onChange({ ...range, preset: e.target.value as RangePreset })}
      >
        {RANGE_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {range.preset === "custom" ? (
        <div className="results-controls__days">
          <label htmlFor={fromId}>From</label>
          <input
            id={fromId}
            type="date"
            className="field__input"
            value={range.from}
            max={range.to || undefined}
            onChange={(e) => onChange({ ...range, from: day(e.target.value) })}
          />
          <label htmlFor={toId}>To</label>
          <input
            id={toId}
            type="date"
            className="field__input"
            value={range.to}
            min={range.from || undefined}
            onChange={(e) => onChange({ ...range, to: day(e.target.value) })}
          />
        </div>
      ) : null}
      <p className="results-controls__hint muted">
        Visitors first shown the experience on these days (UTC), and their conversions up to the last one.
      </p>
    </div>
  );
}
