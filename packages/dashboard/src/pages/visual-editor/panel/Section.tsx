// What the element panel's sections share: the props each gets, the titled fieldset a section is,
// and the text field most of them use (a label and an input or a textarea).
import { useId } from "react";
import type { ReactNode } from "react";
import type { ElementInfo, HtmlElementVariation } from "@storefit/contract";

export type Edit = (v: HtmlElementVariation) => HtmlElementVariation;

export type SectionProps = {
  selection: ElementInfo;
  /** The variation's change of this element ({} when it has none yet). */
  variation: HtmlElementVariation;
  /** `key` names the field: edits with the same key in a row are one undo step. */
  onEdit: (key: string | null, edit: Edit) => void;
  /** A viewer's panel: values shown, nothing editable, no action buttons. */
  readOnly: boolean;
};

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="ve-section">
      <legend className="ve-section__title">{title}</legend>
      {children}
    </fieldset>
  );
}

export function TextField({
  label,
  value,
  placeholder,
  onChange,
  multiline,
  mono,
}: {
  label: string;
  value: string;
  placeholder?: string | undefined;
  onChange: (value: string) => void;
  multiline?: boolean;
  mono?: boolean;
}) {
  const id = useId();
  const className = `field__input ve-input${mono ? " mono" : ""}`;
  return (
    <div className="ve-field">
      <label className="ve-field__label" htmlFor={id}>
        {label}
      </label>
      {multiline ? (
        <textarea
          id={id}
          className={className}
          rows={4}
          value={value}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          id={id}
          className={className}
          value={value}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </div>
  );
}
