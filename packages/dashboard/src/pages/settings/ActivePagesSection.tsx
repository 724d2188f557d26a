import { type Control, useFieldArray } from "react-hook-form";
import type { AccountView, ActivePage } from "@storefit/contract";
import { TextInput } from "../../components/form";
import { ListRows } from "./ListRows";
import { type SectionProps, SettingsSection, useSettingsForm } from "./SettingsSection";
import { hostProblem } from "./validation";

type Values = { goal_pages: ActivePage[]; rule_pages: ActivePage[] };

const toForm = (a: AccountView): Values => ({ goal_pages: a.settings.goal_pages, rule_pages: a.settings.rule_pages });
const clean = (rows: ActivePage[]) => rows.map((r) => ({ domain: r.domain.trim().toLowerCase(), page_path: r.page_path.trim() }));

export function ActivePagesSection({ account, canEdit }: SectionProps) {
  const { form, section } = useSettingsForm(account, toForm, (v) => ({
    settings: { goal_pages: clean(v.goal_pages), rule_pages: clean(v.rule_pages) },
  }));
  return (
    <SettingsSection
      {...section}
      id="active-pages"
      title="Goal and rule pages"
      description="With rule pages listed, the script asks the service only on rule and configured pages; visits to goal pages are counted as goals."
      canEdit={canEdit}
    >
      <h3 className="settings-subtitle">Goal pages</h3>
      <PageRows control={form.control} name="goal_pages" noun="goal page" canEdit={canEdit} defaultDomain={account.settings.domain} />
      <h3 className="settings-subtitle">Rule pages</h3>
      <PageRows control={form.control} name="rule_pages" noun="rule page" canEdit={canEdit} defaultDomain={account.settings.domain} />
    </SettingsSection>
  );
}

function PageRows({ control, name, noun, canEdit, defaultDomain }: { control: Control<Values>; name: keyof Values; noun: string; canEdit: boolean; defaultDomain: string }) {
  const rows = useFieldArray({ control, name });
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
          <TextInput control={control} name={`${name}.${i}.domain`} label="Domain" mono rules={{ validate: (v: string) => hostProblem(v) }} />
          <TextInput control={control} name={`${name}.${i}.page_path`} label="Page path" mono rules={{ validate: (v: string) => (v.trim() === "" ? "Enter a path." : true) }} />
        </>
      )}
    />
  );
}
