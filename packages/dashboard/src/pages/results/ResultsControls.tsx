// The statistics choices: engine (radio buttons: all three visible, arrow keys move between them)
// and the multiple-testing correction. Both live in the URL query.
import { useId } from "react";
import type { ReactNode } from "react";
import type { ResultsCorrection, ResultsEngine } from "@storefit/contract";
import { CORRECTION_OPTIONS, ENGINE_OPTIONS } from "./options";
import type { ResultsChoice } from "./options";

export function ResultsControls({
  choice,
  onChange,
  children,
}: {
  choice: ResultsChoice;
  onChange: (choice: ResultsChoice) => void;
  /** More choices in the same panel (the date range). */
  children?: ReactNode;
}) {
  const correctionId = useId();
  const hintId = useId();
  const engine = ENGINE_OPTIONS.find((o) => o.value === choice.engine);
  const bayesian = choice.engine === "bayesian";

  return (
    <div className="results-controls">
      <fieldset className="results-controls__engine" aria-describedby={hintId}>
        <legend className="field__label">Statistics engine</legend>
        <div className="segmented">
          {ENGINE_OPTIONS.map((option) => (
            <label
              key={option.value}
              className={`segmented__option${option.value === choice.engine ? " segmented__option--checked" : ""}`}
            >
              <input
                type="radio"
                name="results-engine"
                value={option.value}
                checked={option.value === choice.engine}
                onChange={() => onChange({ ...choice, engine: option.value as ResultsEngine })}
              />
              <span>{option.label}</span>
            </label>
          ))}
        </div>
        <p className="results-controls__hint muted" id={hintId}>
          {engine?.hint}
        </p>
      </fieldset>
      <div className="results-controls__correction">
        <label className="field__label" htmlFor={correctionId}>
          Correction across goals
        </label>
        <select
          id={correctionId}
          className="field__input"
          value={choice.correction}
          disabled={bayesian}
          onChange={(e) => onChange({ ...choice, correction: e.target.value as ResultsCorrection })}
        >
          {CORRECTION_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        {bayesian ? (
          <p className="results-controls__hint muted">Applies to p-values only.</p>
        ) : null}
      </div>
      {children}
    </div>
  );
}
