// "Image": the element's src and srcset (the element's own as placeholders).
import { Section, TextField } from "./Section";
import type { SectionProps } from "./Section";

export function ImageSection({ selection, variation: v, onEdit }: SectionProps) {
  return (
    <Section title="Image">
      <TextField
        label="Image address (src)"
        mono
        value={v.src ?? ""}
        placeholder={selection.attributes.src}
        onChange={(src) => onEdit("src", (x) => ({ ...x, src: src || undefined }))}
      />
      <TextField
        label="Responsive sources (srcset)"
        mono
        value={v.srcset ?? ""}
        placeholder={selection.attributes.srcset}
        onChange={(srcset) => onEdit("srcset", (x) => ({ ...x, srcset: srcset || undefined }))}
      />
    </Section>
  );
}
