// Revenue page rules and event-merge rules (spec §3 "Rules and lists").
import { useFieldArray } from "react-hook-form";
import type { AccountView, EventMergeRule, PathCheckType, RevenuePageRule } from "@storefit/contract";
import { NumberInput, Select, TextInput } from "../../components/form";
import { ListRows } from "./ListRows";
import { type SectionProps, SettingsSection, useSettingsForm } from "./SettingsSection";
import { hostProblem, regexProblem } from "./validation";

const CHECKS: readonly { value: PathCheckType; label: string }[] = [
  { value: "simple", label: "is exactly" },
  { value: "starts_with", label: "starts with" },
  { value: "ends_with", label: "ends with" },
  { value: "contains", label: "contains" },
  { value: "regex", label: "matches the pattern" },
];

const patternRule = (check: () => PathCheckType) => ({
  validate: (v: string) => (v.trim() === "" ? "Enter a pattern." : check() === "regex" ? regexProblem(v) : true),
});

type RevenueValues = { revenue_pages: (Omit<RevenuePageRule, "revenue_amount"> & { revenue_amount: number })[] };

export function RevenueSection({ account, canEdit }: SectionProps) {
  const { form, section } = useSettingsForm(
    account,
    (a: AccountView): RevenueValues => ({ revenue_pages: a.settings.revenue_pages }),
    (v) => ({
      settings: {
        revenue_pages: v.revenue_pages.map((r) => ({
          ...r,
          domain: r.domain.trim().toLowerCase(),
          pattern_value: r.pattern_value.trim(),
          revenue_event_customer_id: r.revenue_event_customer_id.trim(),
          revenue_amount: Number(r.revenue_amount),
        })),
      },
    }),
  );
  const rows = useFieldArray({ control: form.control, name: "revenue_pages" });
  return (
    <SettingsSection
      {...section}
      id="revenue"
      title="Revenue rules"
      description="Pages whose visit counts as revenue (e.g. an order confirmation), with the event name and amount sent."
      canEdit={canEdit}
    >
      <ListRows
        noun="revenue rule"
        keys={rows.fields.map((f) => f.id)}
        canEdit={canEdit}
        empty="No revenue rules."
        onAdd={() => rows.append({ domain: account.settings.domain, path_check_type: "starts_with", pattern_value: "", revenue_event_customer_id: "", revenue_amount: 0 })}
        onRemove={(i) => rows.remove(i)}
        renderRow={(i) => (
          <>
            <TextInput control={form.control} name={`revenue_pages.${i}.domain`} label="Domain" mono rules={{ validate: (v: string) => hostProblem(v) }} />
            <Select control={form.control} name={`revenue_pages.${i}.path_check_type`} label="Path" options={CHECKS} />
            <TextInput control={form.control} name={`revenue_pages.${i}.pattern_value`} label="Pattern" mono rules={patternRule(() => form.getValues(`revenue_pages.${i}.path_check_type`))} />
            <TextInput
              control={form.control}
              name={`revenue_pages.${i}.revenue_event_customer_id`}
              label="Revenue event name"
              mono
              rules={{ validate: (v: string) => (v.trim() === "" ? "Enter the event name." : true) }}
            />
            <NumberInput
              control={form.control}
              name={`revenue_pages.${i}.revenue_amount`}
              label="Amount"
              rules={{ validate: (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? true : "Enter a number.") }}
            />
          </>
        )}
      />
    </SettingsSection>
  );
}

type MergeValues = { event_merge: (Omit<EventMergeRule, "domain"> & { domain: string })[] };

export function EventMergeSection({ account, canEdit }: SectionProps) {
  const { form, section } = useSettingsForm(
    account,
    (a: AccountView): MergeValues => ({ event_merge: a.settings.event_merge.map((r) => ({ ...r, domain: r.domain ?? "" })) }),
    (v) => ({
      settings: {
        event_merge: v.event_merge.map(({ domain, ...r }) => ({
          ...r,
          pattern_value: r.pattern_value.trim(),
          final_path: r.final_path.trim(),
          ...(domain.trim() ? { domain: domain.trim().toLowerCase() } : {}),
        })),
      },
    }),
  );
  const rows = useFieldArray({ control: form.control, name: "event_merge" });
  return (
    <SettingsSection
      {...section}
      id="event-merge"
      title="Event-merge rules"
      description="Report many paths as one, e.g. every /products/… page as /products: events keep the real path and add the reported one."
      canEdit={canEdit}
    >
      <ListRows
        noun="merge rule"
        keys={rows.fields.map((f) => f.id)}
        canEdit={canEdit}
        empty="No event-merge rules."
        onAdd={() => rows.append({ domain: "", path_check_type: "starts_with", pattern_value: "", final_path: "" })}
        onRemove={(i) => rows.remove(i)}
        renderRow={(i) => (
          <>
            <TextInput
              control={form.control}
              name={`event_merge.${i}.domain`}
              label="Domain (optional)"
              mono
              rules={{ validate: (v: string) => hostProblem(v, { required: false }) }}
            />
            <Select control={form.control} name={`event_merge.${i}.path_check_type`} label="Path" options={CHECKS} />
            <TextInput control={form.control} name={`event_merge.${i}.pattern_value`} label="Pattern" mono rules={patternRule(() => form.getValues(`event_merge.${i}.path_check_type`))} />
            <TextInput
              control={form.control}
              name={`event_merge.${i}.final_path`}
              label="Reported as"
              mono
              rules={{ validate: (v: string) => (v.trim() === "" ? "Enter the path to report." : true) }}
            />
          </>
        )}
      />
    </SettingsSection>
  );
}
