import type { AccountFlags, AccountView } from "@storefit/contract";
import type { ProviderState } from "./AccountStatus";
import { Checkbox } from "../../components/form";
import { type SectionProps, SettingsSection, useSettingsForm } from "./SettingsSection";

/**
 * The script flags an owner changes (packages/server/src/schemas/settings.ts), with what each does
 * to the script, and our consent flag (docs/embedding.md). The states Storefit sets — account
 * enabled, subscription expired, visitor limit reached — are not here: AccountStatus shows them.
 */
export const FLAGS: readonly { name: Exclude<keyof AccountFlags, ProviderState>; label: string; hint: string }[] = [
  { name: "sdk_powered_off", label: "Script powered off", hint: "Stops the script at once on every page, without removing the snippet." },
  { name: "skip", label: "Skip", hint: "The script does nothing on any page, e.g. while checking an install." },
  { name: "intelligent_code", label: "Intelligent code", hint: "Ask the service on every page; off, the answer is cached per visitor for the session." },
  { name: "page_update", label: "Page updates", hint: "Sends an event when watched content on the page changes." },
  { name: "personalize_after_timeout", label: "Personalize after a time-out", hint: "Apply late answers of the service instead of giving up at the time-out." },
  { name: "error_reporting", label: "Error reporting", hint: "Send the script's errors to the service." },
  { name: "spa_mode", label: "Single-page-app mode", hint: "The shop changes pages without reloading: run again on each route." },
  { name: "auto_url_change_detection", label: "Detect URL changes automatically", hint: "Watch history changes instead of waiting for the shop to call the script." },
  { name: "outbound_only", label: "Outbound only", hint: "Run only for visitors who arrive through an outbound link (its marker lasts 7 days)." },
  { name: "event_analyzer", label: "Event analyzer", hint: "Track clicks, forms and scroll depth automatically." },
  { name: "shop_platform_integration", label: "Shop platform integration (Shopify)", hint: "Tell Shopify's analytics when Storefit is ready, so the web pixel reports orders." },
  { name: "consent_required", label: "Wait for visitor consent", hint: "Hold storage, cookies and tracking until the shop's consent banner grants consent." },
];

type Values = Record<(typeof FLAGS)[number]["name"], boolean>;

const toForm = (a: AccountView): Values => Object.fromEntries(FLAGS.map((f) => [f.name, a.settings[f.name] ?? false])) as Values;

export function FlagsSection({ account, canEdit }: SectionProps) {
  const { form, section } = useSettingsForm(account, toForm, (v) => ({ settings: { ...v } }));
  return (
    <SettingsSection
      {...section}
      id="flags"
      title="Script flags"
      description="What the storefront script does on the shop's pages. Changes reach the snippet at once."
      canEdit={canEdit}
    >
      <div className="checkbox-grid">
        {FLAGS.map((f) => (
          <Checkbox key={f.name} control={form.control} name={f.name} label={f.label} hint={f.hint} />
        ))}
      </div>
    </SettingsSection>
  );
}
