import { type UseFormReturn, useFieldArray } from "react-hook-form";
import type { AccountView, ActivePage } from "@storefit/contract";
import { TextField } from "./fields";
import { ListRows } from "./ListRows";
import { type SectionProps, SettingsSection, useSettingsForm } from "./SettingsSection";
import { hostProblem } from "./validation";

type Values = { goal_pages: ActivePage[]; rule_pages: ActivePage[] };

const toForm = (a: AccountView): Values => ({ goal_pages: a.settings.goal_pages, rule_pages: a.settings.rule_pages });
const clean = (rows: ActivePage[]) => rows.map((r) => ({ domain: r.domain.trim().toLowerCase(), page_path: r.page_path.trim() }));

export function ActivePagesSection({ account, canEdit }: SectionProps) {
  const { form, mutation, onSubmit } = useSettingsForm(account, toForm, (v) => ({
    settings: { goal_pages: clean(v.goal_pages), rule_pages: clean(v.rule_pages) },
  }));
  return (
    <SettingsSection
      id="active-pages"
      title="Goal and rule pages"
      description="With rule pages listed, the script asks the service only on rule and configured pages; visits to goal pages are counted as goals."
      canEdit={canEdit}
      form={form}
      mutation={mutation}
      onSubmit={onSubmit}
    >
      <h3 className="settings-subtitle">Goal pages</h3>
      <PageRows form={form} name="goal_pages" noun="goal page" canEdit={canEdit} defaultDomain={account.settings.domain} />
      <h3 className="settings-subtitle">Rule pages</h3>
      <PageRows form={form} name="rule_pages" noun="rule page" canEdit={canEdit} defaultDomain={account.settings.domain} />
    </SettingsSection>
  );
}

function PageRows({ form, name, noun, canEdit, defaultDomain }: { form: UseFormReturn<Values>; name: keyof Values; noun: string; canEdit: boolean; defaultDomain: string }) {
  const rows = useFieldArray({ control: form.control, name });
  return (
    <ListRows
      noun={noun}
      keys={rows.fields.map((f) => f.id)}
      canEdit={canEdit}
      empty={`No ${noun}s.`}
      onAdd={() => rows.append({ domain: defaultDomain, page_path: "" })}
      onRemove={(i) => rows.remove(i)}
      renderRow={(i) => (
        <>
          <TextField form={form} name={`${name}.${i}.domain`} label="Domain" mono rules={{ validate: (v: string) => hostProblem(v) }} />
          <TextField form={form} name={`${name}.${i}.page_path`} label="Page path" mono rules={{ validate: (v: string) => (v.trim() === "" ? "Enter a path." : true) }} />
        </>
      )}
    />
  );
}
