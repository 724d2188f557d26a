// "Content": the element's text (HTML-escaped into innerHTML) and its HTML. Typing the element's
// own content back takes the change away.
import { escapeHtml, textOf } from "../model";
import { Section, TextField } from "./Section";
import type { SectionProps } from "./Section";

export function ContentSection({ selection, variation: v, onEdit }: SectionProps) {
  // The element's own content, as the shop has it: what the bridge read may be a preview of this
  // very change (a saved variation), and typing that value again must keep the change.
  const own = selection.original ?? selection;
  return (
    <Section title="Content">
      <TextField
        label="Text"
        value={v.innerHTML !== undefined ? textOf(v.innerHTML) : own.text}
        onChange={(text) =>
          onEdit("innerHTML", (x) => ({
            ...x,
            innerHTML: text === own.text ? undefined : escapeHtml(text),
          }))
        }
      />
      <TextField
        label="HTML"
        multiline
        mono
        value={v.innerHTML ?? own.html}
        onChange={(html) =>
          onEdit("innerHTML", (x) => ({
            ...x,
            innerHTML: html === own.html ? undefined : html,
          }))
        }
      />
      {selection.htmlTruncated ? (
        <p className="ve-hint">The element's HTML is long: only its start is shown.</p>
      ) : null}
    </Section>
  );
}
