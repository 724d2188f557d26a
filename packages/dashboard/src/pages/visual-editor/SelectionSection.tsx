// The side panel's "Selected element" section: selection by clicking on or off, the selection's
// CSS path (typing one highlights and counts what it matches; Select selects it), how many
// elements it matches, the bridge's errors, the moves of the selection, and for an editor where
// new changes apply.
import { useId } from "react";
import type { FormEvent } from "react";
import type { EditorDevice } from "@storefit/contract";
import type { ChangeScope } from "./model";
import type { EditorFrame } from "./useEditorFrame";
import { SELECTION_KEYS } from "./useEditorKeys";

const matches = (n: number) => `${n} ${n === 1 ? "element matches" : "elements match"}`;

export function SelectionSection({
  frame,
  selectMode,
  onSelectMode,
  deviceSpecific,
  device,
  scope,
  onScope,
  canEdit,
}: {
  frame: EditorFrame;
  selectMode: boolean;
  onSelectMode: (on: boolean) => void;
  /** The variation changes elements per device (the edits go to the width shown). */
  deviceSpecific: boolean;
  device: EditorDevice;
  scope: ChangeScope;
  onScope: (scope: ChangeScope) => void;
  canEdit: boolean;
}) {
  const { ready, selection, hover, pathText, bridgeError, send } = frame;
  const ids = { path: useId(), scope: useId() };
  const typed = pathText.trim();
  const onPath = (e: FormEvent) => {
    e.preventDefault();
    if (typed) send({ type: "select-path", path: typed });
  };

  return (
    <section className="ve-selection" aria-label="Selected element">
      <div className="ve-check">
        <input
          id={`${ids.path}-mode`}
          type="checkbox"
          checked={selectMode}
          onChange={(e) => onSelectMode(e.target.checked)}
        />
        <label htmlFor={`${ids.path}-mode`}>Select elements by clicking in the page</label>
      </div>
      <form className="ve-path" onSubmit={onPath}>
        <label className="ve-field__label" htmlFor={ids.path}>
          CSS path
        </label>
        <div className="ve-row">
          <input
            id={ids.path}
            className="field__input ve-input mono"
            value={pathText}
            placeholder={hover?.path ?? "Click an element in the page"}
            onChange={(e) => {
              frame.typePath(e.target.value);
              // Highlight what the typed path matches, and count it (the bridge's `hover`).
              if (ready) send({ type: "hover-path", path: e.target.value.trim() || null });
            }}
            onBlur={() => ready && send({ type: "hover-path", path: null })}
            data-testid="selected-path"
          />
          <button
            type="submit"
            className="button button--secondary button--small"
            disabled={!ready}
          >
            Select
          </button>
        </div>
      </form>
      <p className="ve-hint" data-testid="match-count" aria-live="polite">
        {typed && typed !== selection?.path && hover?.path === typed
          ? `${matches(hover.matchCount)} the typed path`
          : selection && typed && typed !== selection.path
            ? // The panel below still edits the old selection until the page answers Select.
              `Still selected: ${selection.path}`
            : selection
              ? `<${selection.tagName}> · ${matches(selection.matchCount)}`
              : hover
                ? `Pointer on ${hover.path}`
                : "Nothing selected"}
      </p>
      {selection && selection.matchCount > 1 ? (
        <p className="notice notice--warning">
          This path matches {selection.matchCount} elements: a change applies to every one of them.
        </p>
      ) : null}
      {bridgeError ? (
        <p className="form__error" role="alert">
          {bridgeError}
        </p>
      ) : null}
      <div className="ve-row" role="group" aria-label="Move the selection">
        {SELECTION_KEYS.map(([key, arrow, direction, label]) => (
          <button
            key={direction}
            type="button"
            className="button button--secondary button--small"
            disabled={!selection?.can[direction]}
            onClick={() => send({ type: "navigate-selection", direction })}
            title={`Alt+${arrow}`}
            aria-keyshortcuts={`Alt+${key}`}
          >
            {label}
          </button>
        ))}
      </div>
      {deviceSpecific ? (
        <p className="notice" data-testid="device-note">
          This variation changes elements per device: content, image, link, style and class edits
          apply to the {device} width shown; other changes apply to both.
        </p>
      ) : null}
      {canEdit ? (
        <div className="ve-field ve-field--inline">
          <label className="ve-field__label" htmlFor={ids.scope}>
            New changes apply on
          </label>
          <select
            id={ids.scope}
            className="field__input ve-input"
            value={scope}
            onChange={(e) => onScope(e.target.value as ChangeScope)}
          >
            <option value="page">This page only</option>
            <option value="experience">Every page the experience targets</option>
          </select>
        </div>
      ) : null}
    </section>
  );
}
