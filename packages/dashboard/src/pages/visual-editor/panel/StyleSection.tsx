// "Style": the styles the panel offers (the element's computed values as placeholders, a color
// picker for the two colors), and hiding the element.
import { useId } from "react";
import { HIDDEN_DISPLAY, isHidden, setStyle, toHexColor } from "../model";
import { Section, TextField } from "./Section";
import type { SectionProps } from "./Section";

/** The styles the panel offers, with their labels; the placeholder is the computed value. */
const STYLE_FIELDS: readonly (readonly [prop: string, label: string])[] = [
  ["color", "Text color"],
  ["background-color", "Background color"],
  ["font-size", "Font size"],
  ["font-weight", "Font weight"],
  ["font-style", "Font style"],
  ["text-align", "Text align"],
  ["text-decoration", "Text decoration"],
  ["line-height", "Line height"],
  ["padding", "Padding"],
  ["margin", "Margin"],
  ["border", "Border"],
  ["border-radius", "Border radius"],
  ["width", "Width"],
  ["height", "Height"],
  ["opacity", "Opacity"],
];

const COLOR_PROPS = new Set(["color", "background-color"]);

/** A computed style worth showing as a placeholder (not the browser's defaults for "nothing"). */
const shown = (value: string | undefined) =>
  value && value !== "none" && value !== "normal" ? value : "";

export function StyleSection({ selection, variation: v, onEdit }: SectionProps) {
  const hideField = useId();
  return (
    <Section title="Style">
      <div className="ve-grid">
        {STYLE_FIELDS.map(([prop, label]) => (
          <div key={prop} className={COLOR_PROPS.has(prop) ? "ve-color" : undefined}>
            <TextField
              label={label}
              value={v.style?.[prop] ?? ""}
              placeholder={shown(
                selection.styles[prop] ??
                  (prop === "text-decoration"
                    ? selection.styles["text-decoration-line"]
                    : undefined),
              )}
              onChange={(value) => onEdit(`style:${prop}`, setStyle(prop, value))}
            />
            {COLOR_PROPS.has(prop) ? (
              <input
                type="color"
                className="ve-color__picker"
                aria-label={`${label} picker`}
                value={toHexColor(v.style?.[prop] ?? selection.styles[prop] ?? "") ?? "#000000"}
                onChange={(e) => onEdit(`style:${prop}`, setStyle(prop, e.target.value))}
              />
            ) : null}
          </div>
        ))}
      </div>
      <div className="ve-check">
        <input
          id={hideField}
          type="checkbox"
          checked={isHidden(v)}
          onChange={(e) =>
            onEdit(null, setStyle("display", e.target.checked ? HIDDEN_DISPLAY : ""))
          }
        />
        <label htmlFor={hideField}>Hide this element</label>
      </div>
    </Section>
  );
}
