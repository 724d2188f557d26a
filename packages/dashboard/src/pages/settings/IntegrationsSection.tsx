import type { AccountView, IntegrationName } from "@storefit/contract";
import { Checkbox, Select, TextInput } from "../../components/form";
import { type SectionProps, SettingsSection, useSettingsForm } from "./SettingsSection";

const INTEGRATIONS: readonly { name: IntegrationName; label: string }[] = [
  { name: "google_analytics", label: "Google Analytics" },
  { name: "hotjar", label: "Hotjar" },
  { name: "clarity", label: "Microsoft Clarity" },
  { name: "segment", label: "Segment" },
  { name: "mixpanel", label: "Mixpanel" },
  { name: "amplitude", label: "Amplitude" },
  { name: "heap", label: "Heap" },
  { name: "klaviyo", label: "Klaviyo" },
  { name: "moengage", label: "MoEngage" },
  { name: "clevertap", label: "CleverTap" },
  { name: "hubspot", label: "HubSpot" },
];

type Values = { integrations: Record<IntegrationName, boolean>; ga_mode: "gtm" | "gtag"; ga_data_variable: string };

const toForm = (a: AccountView): Values => ({
  integrations: Object.fromEntries(INTEGRATIONS.map((i) => [i.name, a.settings.integrations[i.name] === true])) as Record<IntegrationName, boolean>,
  ga_mode: a.settings.ga_setup.mode,
  ga_data_variable: a.settings.ga_setup.data_variable,
});

export function IntegrationsSection({ account, canEdit }: SectionProps) {
  const { form, section } = useSettingsForm(account, toForm, (v) => ({
    settings: {
      integrations: v.integrations,
      ga_setup: { mode: v.ga_mode, data_variable: v.ga_data_variable.trim() },
    },
  }));
  return (
    <SettingsSection
      {...section}
      id="integrations"
      title="Integrations"
      description="Analytics tools the script tells which experience and variation each visitor saw."
      canEdit={canEdit}
    >
      <div className="checkbox-grid checkbox-grid--compact">
        {INTEGRATIONS.map((i) => (
          <Checkbox key={i.name} control={form.control} name={`integrations.${i.name}`} label={i.label} />
        ))}
      </div>
      <h3 className="settings-subtitle">Google Analytics set-up</h3>
      <div className="settings-grid">
        <Select
          control={form.control}
          name="ga_mode"
          label="How GA is loaded"
          options={[
            { value: "gtm", label: "Google Tag Manager (data layer)" },
            { value: "gtag", label: "gtag.js" },
          ]}
        />
        <TextInput
          control={form.control}
          name="ga_data_variable"
          label="Data layer variable"
          mono
          rules={{ validate: (v: string) => (v.trim() === "" ? "Enter the variable, usually dataLayer." : v.length > 128 ? "At most 128 characters." : true) }}
        />
      </div>
    </SettingsSection>
  );
}
