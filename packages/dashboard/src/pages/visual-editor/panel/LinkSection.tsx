// "Link": where the link goes (href_target.href) and where it opens (href_target.target).
import { useId } from "react";
import { Section, TextField } from "./Section";
import type { SectionProps } from "./Section";

export function LinkSection({ selection, variation: v, onEdit }: SectionProps) {
  const targetField = useId();
  return (
    <Section title="Link">
      <TextField
        label="Link address (href)"
        mono
        value={v.href_target?.href ?? ""}
        placeholder={selection.attributes.href}
        onChange={(href) =>
          onEdit("href", (x) => ({
            ...x,
            href_target: { ...x.href_target, href: href || undefined },
          }))
        }
      />
      <div className="ve-field">
        <label className="ve-field__label" htmlFor={targetField}>
          Opens in
        </label>
        <select
          id={targetField}
          className="field__input ve-input"
          value={v.href_target?.target ?? ""}
          onChange={(e) => {
            const target = e.target.value || undefined;
            onEdit(null, (x) => ({ ...x, href_target: { ...x.href_target, target } }));
          }}
        >
          <option value="">As on the shop</option>
          <option value="_self">The same tab</option>
          <option value="_blank">A new tab</option>
        </select>
      </div>
    </Section>
  );
}
