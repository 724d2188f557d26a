import type { AccountView } from "@storefit/contract";
import { NumberInput } from "../../components/form";
import { type SectionProps, SettingsSection, useSettingsForm } from "./SettingsSection";
import { integerProblem } from "./validation";

type Values = {
  sdk_timeout_ms: number;
  element_timeout_ms: number;
  reapply_timer_ms: number;
  initial_delay_ms: number;
  track_queue_size: number;
};

const FIELDS: readonly { name: keyof Values; label: string; hint: string; min: number; max: number }[] = [
  { name: "sdk_timeout_ms", label: "Service time-out (ms)", hint: "How long the page stays hidden waiting for Storefit's answer; then the original shows.", min: 0, max: 60_000 },
  { name: "element_timeout_ms", label: "Element time-out (ms)", hint: "How long to wait for a changed element to appear.", min: 0, max: 60_000 },
  { name: "reapply_timer_ms", label: "Re-apply timer (ms)", hint: "How often changes are checked again on re-rendering pages.", min: 0, max: 60_000 },
  { name: "initial_delay_ms", label: "Initial delay (ms)", hint: "Wait before the first run, for slow themes.", min: 0, max: 60_000 },
  { name: "track_queue_size", label: "Track queue size (events)", hint: "How many events the script sends together; at least 5.", min: 5, max: 500 },
];

const toForm = (a: AccountView): Values => Object.fromEntries(FIELDS.map((f) => [f.name, a.settings[f.name]])) as Values;

export function TimeoutsSection({ account, canEdit }: SectionProps) {
  const { form, section } = useSettingsForm(account, toForm, (v) => ({ settings: { ...v } }));
  return (
    <SettingsSection
      {...section}
      id="timeouts"
      title="Time-outs"
      description="Limits of the script, in milliseconds, and the size of its event batches."
      canEdit={canEdit}
    >
      <div className="settings-grid">
        {FIELDS.map((f) => (
          <NumberInput key={f.name} control={form.control} name={f.name} label={f.label} hint={f.hint} rules={{ validate: (v: unknown) => integerProblem(v, f.min, f.max) }} />
        ))}
      </div>
    </SettingsSection>
  );
}
