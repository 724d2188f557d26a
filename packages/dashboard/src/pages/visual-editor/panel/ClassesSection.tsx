// "Classes": classes to add and to remove (cf_classes_edit_option "add_remove_classes").
import { classList, toClassList } from "../model";
import { Section, TextField } from "./Section";
import type { SectionProps } from "./Section";

export function ClassesSection({ selection, variation: v, onEdit }: SectionProps) {
  return (
    <Section title="Classes">
      <TextField
        label="Add classes"
        mono
        value={classList(v.cf_classes_add)}
        placeholder="space-separated"
        onChange={(text) =>
          onEdit("classes-add", (x) => ({
            ...x,
            cf_classes_edit_option: "add_remove_classes",
            cf_classes_add: toClassList(text),
            cf_classes_remove: x.cf_classes_remove ?? [],
          }))
        }
      />
      <TextField
        label="Remove classes"
        mono
        value={classList(v.cf_classes_remove)}
        placeholder={selection.attributes.class}
        onChange={(text) =>
          onEdit("classes-remove", (x) => ({
            ...x,
            cf_classes_edit_option: "add_remove_classes",
            cf_classes_add: x.cf_classes_add ?? [],
            cf_classes_remove: toClassList(text),
          }))
        }
      />
    </Section>
  );
}
