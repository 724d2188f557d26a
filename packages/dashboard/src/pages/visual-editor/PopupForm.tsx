// Inserting a popup template (spec §3 "Template (custom_template)"): the operator's HTML, and
// when it shows. The preview shows it at once, whatever its trigger (docs/visual-editor.md).
import { useId, useState } from "react";
import type { FormEvent } from "react";
import type { ConfigDefinition, TemplateSettings } from "@storefit/contract";
import type { ChangeScope, FrameLocation } from "./model";
import { DEFAULT_POPUP_HTML, popupConfig } from "./model";

const TRIGGERS: readonly (readonly [TemplateSettings["config_selected"], string])[] = [
  ["on_entry", "When the page opens"],
  ["timerbased", "After a delay"],
  ["on_scroll", "After scrolling"],
  ["at_exit", "When the visitor is about to leave"],
];

export function PopupForm({
  disabled,
  onInsert,
}: {
  disabled: boolean;
  onInsert: (make: (location: FrameLocation, scope: ChangeScope) => ConfigDefinition) => void;
}) {
  const [html, setHtml] = useState(DEFAULT_POPUP_HTML);
  const [trigger, setTrigger] = useState<TemplateSettings["config_selected"]>("on_entry");
  const [delay, setDelay] = useState(5);
  const [scroll, setScroll] = useState(50);
  const id = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onInsert((location, scope) =>
      popupConfig({ html, trigger, delay, scrollPercentage: scroll }, location, scope),
    );
  };

  return (
    <form className="ve-section" onSubmit={submit} aria-label="Insert a popup">
      <h2 className="ve-section__title">Insert a popup</h2>
      <div className="ve-field">
        <label className="ve-field__label" htmlFor={`${id}-html`}>
          Popup HTML
        </label>
        <textarea
          id={`${id}-html`}
          className="field__input ve-input mono"
          rows={4}
          value={html}
          onChange={(e) => setHtml(e.target.value)}
        />
      </div>
      <div className="ve-field">
        <label className="ve-field__label" htmlFor={`${id}-trigger`}>
          Show it
        </label>
        <select
          id={`${id}-trigger`}
          className="field__input ve-input"
          value={trigger}
          onChange={(e) => setTrigger(e.target.value as TemplateSettings["config_selected"])}
        >
          {TRIGGERS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {trigger === "timerbased" ? (
        <div className="ve-field">
          <label className="ve-field__label" htmlFor={`${id}-delay`}>
            Delay (seconds)
          </label>
          <input
            id={`${id}-delay`}
            className="field__input ve-input"
            type="number"
            min={0}
            value={delay}
            onChange={(e) => setDelay(Number(e.target.value))}
          />
        </div>
      ) : null}
      {trigger === "on_scroll" ? (
        <div className="ve-field">
          <label className="ve-field__label" htmlFor={`${id}-scroll`}>
            Scrolled (percent of the page)
          </label>
          <input
            id={`${id}-scroll`}
            className="field__input ve-input"
            type="number"
            min={0}
            max={100}
            value={scroll}
            onChange={(e) => setScroll(Number(e.target.value))}
          />
        </div>
      ) : null}
      <button
        type="submit"
        className="button button--secondary button--small"
        disabled={disabled || !html.trim()}
      >
        Insert popup
      </button>
    </form>
  );
}
