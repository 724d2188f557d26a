import type { AccountView } from "@storefit/contract";
import { SelectField, TextAreaField, TextField } from "./fields";
import { type SectionProps, SettingsSection, useSettingsForm } from "./SettingsSection";
import { hostProblem, lines, linesProblem } from "./validation";

type Values = { name: string; domain: string; subdomains: string; environment: "prod" | "stage" };

const toForm = (a: AccountView): Values => ({
  name: a.name,
  domain: a.settings.domain,
  subdomains: a.settings.subdomains.join("\n"),
  environment: a.settings.environment,
});

export function GeneralSection({ account, canEdit }: SectionProps) {
  const { form, mutation, onSubmit } = useSettingsForm(account, toForm, (v) => ({
    name: v.name.trim(),
    settings: { domain: v.domain.trim().toLowerCase(), subdomains: lines(v.subdomains).map((s) => s.toLowerCase()), environment: v.environment },
  }));
  return (
    <SettingsSection
      id="general"
      title="Shop and domains"
      description="The shop's name, its main domain and the other domains the script runs on (spec §5, §6: events from other hosts are refused)."
      canEdit={canEdit}
      form={form}
      mutation={mutation}
      onSubmit={onSubmit}
    >
      <div className="settings-grid">
        <TextField form={form} name="name" label="Account name" rules={{ validate: (v: string) => (v.trim() === "" ? "Enter a name." : v.length > 200 ? "At most 200 characters." : true) }} />
        <TextField form={form} name="domain" label="Main domain" mono placeholder="shop.example.com" rules={{ validate: (v: string) => hostProblem(v) }} />
        <SelectField
          form={form}
          name="environment"
          label="Environment"
          options={[
            { value: "prod", label: "Production" },
            { value: "stage", label: "Staging" },
          ]}
        />
      </div>
      <TextAreaField
        form={form}
        name="subdomains"
        label="Other domains and subdomains"
        hint="One per line. Start with *. for every subdomain, e.g. *.shop.example.com."
        placeholder={"shop-uk.example.com\n*.example.com"}
        rules={{ validate: (v: string) => linesProblem(v, 100, (line) => hostProblem(line, { wildcard: true })) }}
      />
    </SettingsSection>
  );
}
