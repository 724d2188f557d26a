// "Insert HTML": HTML to put before, after, at the end of or instead of the element
// (edit_elem_action). Where it goes is chosen first and kept while the HTML is empty.
import { useId, useState } from "react";
import type { CustomfitMeta } from "@storefit/contract";
import { setMeta } from "../model";
import { Section, TextField } from "./Section";
import type { SectionProps } from "./Section";

const INSERT_KINDS = [
  ["insert_before_html", "Before the element"],
  ["insert_after_html", "After the element"],
  ["append_html", "At the end, inside it"],
  ["replace_html", "Instead of the element"],
] as const;
type InsertKind = (typeof INSERT_KINDS)[number][0];

export function InsertHtmlSection({ variation: v, onEdit }: SectionProps) {
  const m: CustomfitMeta = v.customfit_meta ?? {};
  const [insertKind, setInsertKind] = useState<InsertKind>(
    m.edit_elem_action?.action_type ?? "insert_after_html",
  );
  const whereField = useId();
  return (
    <Section title="Insert HTML">
      <div className="ve-field">
        <label className="ve-field__label" htmlFor={whereField}>
          Where
        </label>
        <select
          id={whereField}
          className="field__input ve-input"
          value={insertKind}
          onChange={(e) => {
            const kind = e.target.value as InsertKind;
            setInsertKind(kind);
            if (m.edit_elem_action)
              onEdit(
                null,
                setMeta("edit_elem_action", { ...m.edit_elem_action, action_type: kind }),
              );
          }}
        >
          {INSERT_KINDS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <TextField
        label="HTML to insert"
        multiline
        mono
        value={m.edit_elem_action?.action_txt ?? ""}
        onChange={(html) =>
          onEdit(
            "insert",
            setMeta(
              "edit_elem_action",
              html ? { action_type: insertKind, action_txt: html } : undefined,
            ),
          )
        }
      />
    </Section>
  );
}
