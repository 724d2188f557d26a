// The visual editor's bar: back to the experience (asking first when edits are unsaved), the
// variation switcher, the preview width, and for an editor undo/redo, the save status and Save;
// a viewer's bar says "View only" instead.
import { useId } from "react";
import { Link } from "react-router";
import type { EditorDevice, ExperienceDetail } from "@storefit/contract";
import { paths } from "../../paths";
import type { EditorSave } from "./useEditorSave";
import type { EditorVariations } from "./useEditorVariations";

export function EditorBar({
  experience,
  variations: v,
  save,
  device,
  onDevice,
  canEdit,
}: {
  experience: ExperienceDetail;
  variations: EditorVariations;
  save: EditorSave;
  device: EditorDevice;
  onDevice: (device: EditorDevice) => void;
  canEdit: boolean;
}) {
  const variationField = useId();
  return (
    <header className="ve-bar">
      <Link
        className="ve-bar__back"
        to={paths.experience(experience.id)}
        onClick={(e) => {
          if (
            v.anyUnsaved &&
            !window.confirm("Leave the visual editor without saving your changes?")
          )
            e.preventDefault();
        }}
      >
        ← {experience.name}
      </Link>
      <div className="ve-field ve-field--inline">
        <label className="ve-field__label" htmlFor={variationField}>
          Variation
        </label>
        <select
          id={variationField}
          className="field__input ve-input"
          value={v.variationId}
          onChange={(e) => v.switchVariation(e.target.value)}
        >
          {v.variations.map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
              {v.unsaved(option.id) ? " (unsaved)" : ""}
            </option>
          ))}
        </select>
      </div>
      <div className="ve-toggle" role="group" aria-label="Preview width">
        {(["desktop", "mobile"] as const).map((d) => (
          <button
            key={d}
            type="button"
            className="button button--secondary button--small"
            aria-pressed={device === d}
            onClick={() => onDevice(d)}
          >
            {d === "desktop" ? "Desktop" : "Mobile"}
          </button>
        ))}
      </div>
      {canEdit ? (
        <>
          <div className="ve-toggle" role="group" aria-label="History">
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={v.undo}
              disabled={!v.canUndo}
              title="Undo (Ctrl+Z)"
            >
              Undo
            </button>
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={v.redo}
              disabled={!v.canRedo}
              title="Redo (Ctrl+Shift+Z)"
            >
              Redo
            </button>
          </div>
          <span className="ve-bar__status" role="status" data-testid="save-status">
            {save.saving
              ? "Saving…"
              : v.dirty
                ? "Unsaved changes"
                : save.saved
                  ? "Saved"
                  : "No unsaved changes"}
          </span>
          <button
            type="button"
            className="button button--primary"
            onClick={save.save}
            disabled={save.saving || !v.dirty}
          >
            Save variation
          </button>
        </>
      ) : (
        <span className="ve-bar__status" role="status" data-testid="read-only">
          View only: your role can look at the variations, not change them.
        </span>
      )}
    </header>
  );
}
