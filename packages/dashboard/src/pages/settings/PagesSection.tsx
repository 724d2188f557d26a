import { useFieldArray } from "react-hook-form";
import type { AccountView, PageConfiguration } from "@storefit/contract";
import { Select, TextInput } from "../../components/form";
import { ListRows } from "./ListRows";
import { type SectionProps, SettingsSection, useSettingsForm } from "./SettingsSection";
import { hostProblem, regexProblem, required } from "./validation";

type Row = { domain: string; page_path: string; page_match: PageConfiguration["page_match"]; element_path: string; element_hint: string; config_id: string };
type Values = { pages: Row[] };

const MATCHES = [
  { value: "exact_match", label: "is exactly" },
  { value: "contains", label: "contains" },
  { value: "regex", label: "matches the pattern" },
] as const;

const toForm = (a: AccountView): Values => ({
  pages: a.settings.pages.map((p) => ({ ...p, element_hint: p.element_hint ?? "" })),
});

const toSettings = (rows: Row[]): PageConfiguration[] =>
  rows.map(({ element_hint, ...p }) => ({
    ...p,
    domain: p.domain.trim().toLowerCase(),
    page_path: p.page_path.trim(),
    element_path: p.element_path.trim(),
    config_id: p.config_id.trim(),
    ...(element_hint.trim() ? { element_hint: element_hint.trim() } : {}),
  }));

export function PagesSection({ account, canEdit }: SectionProps) {
  const { form, section } = useSettingsForm(account, toForm, (v) => ({ settings: { pages: toSettings(v.pages) } }));
  const rows = useFieldArray({ control: form.control, name: "pages" });
  return (
    <SettingsSection
      {...section}
      id="pages"
      title="Page configurations"
      description="Pages and the element on each that the script prepares before Storefit answers, so that changes show without a flash of the original."
      canEdit={canEdit}
    >
      <ListRows
        noun="page"
        keys={rows.fields.map((f) => f.id)}
        canEdit={canEdit}
        empty="No configured pages."
        onAdd={() => rows.append({ domain: account.settings.domain, page_path: "/", page_match: "exact_match", element_path: "", element_hint: "", config_id: "" })}
        onRemove={(i) => rows.remove(i)}
        renderRow={(i) => (
          <>
            <TextInput control={form.control} name={`pages.${i}.domain`} label="Domain" mono rules={{ validate: (v: string) => hostProblem(v) }} />
            <Select control={form.control} name={`pages.${i}.page_match`} label="Path" options={MATCHES} />
            <TextInput
              control={form.control}
              name={`pages.${i}.page_path`}
              label="Page path"
              mono
              rules={{
                validate: (v: string) => {
                  if (v.trim() === "") return "Enter a path, such as /products/.";
                  return form.getValues(`pages.${i}.page_match`) === "regex" ? regexProblem(v) : true;
                },
              }}
            />
            <TextInput control={form.control} name={`pages.${i}.element_path`} label="Element (CSS path)" mono rules={{ maxLength: { value: 2048, message: "At most 2048 characters." } }} />
            <TextInput control={form.control} name={`pages.${i}.element_hint`} label="Element hint (optional)" mono placeholder="media" />
            <TextInput control={form.control} name={`pages.${i}.config_id`} label="Config id" mono rules={{ validate: required("the config id") }} />
          </>
        )}
      />
    </SettingsSection>
  );
}
