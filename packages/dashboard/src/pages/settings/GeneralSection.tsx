import type { AccountView } from "@storefit/contract";
import { Select, TextArea, TextInput } from "../../components/form";
import { type SectionProps, SettingsSection, useSettingsForm } from "./SettingsSection";
import { hostProblem, lines, linesProblem } from "./validation";

type Values = { name: string; domain: string; subdomains: string; siteOrigins: string; environment: "prod" | "stage" };

/** A shop address: http or https, a host, an optional port, nothing after. */
const ORIGIN = /^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?$/i;

function originProblem(line: string): string | true {
  return ORIGIN.test(line.replace(/\/+$/, "")) ? true : `“${line}” is not a shop address: write it as https://shop.example.com, with :port after the host when the shop uses one.`;
}

const toForm = (a: AccountView): Values => ({
  name: a.name,
  domain: a.settings.domain,
  subdomains: a.settings.subdomains.join("\n"),
  siteOrigins: (a.settings.site_origins ?? []).join("\n"),
  environment: a.settings.environment,
});

export function GeneralSection({ account, canEdit }: SectionProps) {
  const { form, section } = useSettingsForm(account, toForm, (v) => ({
    name: v.name.trim(),
    settings: { domain: v.domain.trim().toLowerCase(), subdomains: lines(v.subdomains).map((s) => s.toLowerCase()), site_origins: lines(v.siteOrigins).map((o) => o.replace(/\/+$/, "").toLowerCase()), environment: v.environment },
  }));
  return (
    <SettingsSection
      {...section}
      id="general"
      title="Shop and domains"
      description="The shop's name, its main domain and the other domains the script runs on. Events from any other address are refused."
      canEdit={canEdit}
    >
      <div className="settings-grid">
        <TextInput control={form.control} name="name" label="Account name" rules={{ validate: (v: string) => (v.trim() === "" ? "Enter a name." : v.length > 200 ? "At most 200 characters." : true) }} />
        <TextInput control={form.control} name="domain" label="Main domain" mono placeholder="shop.example.com" rules={{ validate: (v: string) => hostProblem(v) }} />
        <Select
          control={form.control}
          name="environment"
          label="Environment"
          options={[
            { value: "prod", label: "Production" },
            { value: "stage", label: "Staging" },
          ]}
        />
      </div>
      <TextArea
        control={form.control}
        name="subdomains"
        label="Other domains and subdomains"
        rows={4}
        mono
        hint="One per line. Start with *. for every subdomain, e.g. *.shop.example.com."
        placeholder={"shop-uk.example.com\n*.example.com"}
        rules={{ validate: (v: string) => linesProblem(v, 100, (line) => hostProblem(line, { wildcard: true })) }}
      />
      <TextArea
        control={form.control}
        name="siteOrigins"
        label="Shop addresses"
        rows={4}
        mono
        hint="Where shoppers open each domain, one per line, with http:// or https:// and the port if the shop has one. The visual editor, preview links and the install check open pages there; a domain not listed opens at https:// and its name."
        placeholder={"https://shop.example.com\nhttp://localhost:3000"}
        rules={{ validate: (v: string) => linesProblem(v, 100, originProblem) }}
      />
    </SettingsSection>
  );
}
