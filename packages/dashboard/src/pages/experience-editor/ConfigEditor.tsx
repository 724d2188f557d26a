// One config of a variation (spec §3 "Config"): where it applies, its data type, a value editor
// fitting the type, and for page elements the element changes, the mobile and desktop
// sub-variations and customfit_meta. "Edit as JSON" is the escape hatch for rare fields.
import { useState } from "react";
import { useFormContext } from "react-hook-form";
import type { Path } from "react-hook-form";
import type { VariationDataType } from "@storefit/contract";
import { configFromForm, configToForm, DATA_TYPE_LABELS, PAGE_MATCH_OPTIONS } from "./model";
import type { ConfigForm, ExperienceForm } from "./model";
import { ElementFields } from "./ElementFields";
import {
  Checkbox,
  ColorInput,
  FieldError,
  FormSection,
  Select,
  TextArea,
  TextInput,
  useFieldValue,
  useOpenOnError,
} from "../../components/form";
import { MetaFields } from "./MetaFields";

const DATA_TYPE_OPTIONS = (Object.keys(DATA_TYPE_LABELS) as VariationDataType[]).map((value) => ({
  value,
  label: DATA_TYPE_LABELS[value],
}));

function ColorEditor({ name }: { name: string }) {
  return (
    <div className="ed-row">
      <TextInput name={name} label="Color (any CSS color)" mono placeholder="#2f6b4f" />
      <ColorInput name={name} label="Pick a color" />
    </div>
  );
}

function RichTextEditor({ name }: { name: string }) {
  const html = useFieldValue<string>(name);
  return (
    <div className="ed-richtext">
      <TextArea name={name} label="Rich text (HTML)" mono rows={5} />
      {/* sandbox="" runs no script of the operator's HTML inside the dashboard. */}
      <iframe
        className="ed-richtext__preview"
        title="Rich text preview"
        sandbox=""
        srcDoc={html ?? ""}
      />
    </div>
  );
}

function ValueEditor({ prefix, type }: { prefix: string; type: VariationDataType }) {
  const listKind = useFieldValue<string>(`${prefix}listKind`);
  switch (type) {
    case "STRING":
      return <TextArea name={`${prefix}scalar`} label="Text value" rows={2} />;
    case "RICHTEXT":
      return <RichTextEditor name={`${prefix}scalar`} />;
    case "COLOR":
      return <ColorEditor name={`${prefix}scalar`} />;
    case "NUMBER":
      return <TextInput name={`${prefix}scalar`} label="Number value" inputMode="decimal" />;
    case "BOOLEAN":
      return <Checkbox name={`${prefix}bool`} label="On (true)" />;
    case "LIST":
      return (
        <>
          <Select
            name={`${prefix}listKind`}
            label="Items are"
            options={[
              { value: "string", label: "Text" },
              { value: "number", label: "Numbers" },
            ]}
          />
          <TextArea
            name={`${prefix}scalar`}
            label={`List items (${listKind === "number" ? "numbers" : "text"}, one per line)`}
            rows={4}
          />
        </>
      );
    case "JSON":
      return <TextArea name={`${prefix}scalar`} label="JSON value" mono rows={6} />;
    default:
      return null;
  }
}

export function ConfigEditor({
  prefix,
  index,
  defaultOpen,
  onRemove,
  onReplace,
}: {
  /** "rules.0.behaviour.variations.1.configs.2." */
  prefix: string;
  index: number;
  /** Variations with many configs (one per product page) start with them folded. */
  defaultOpen: boolean;
  onRemove: () => void;
  onReplace: (config: ConfigForm) => void;
}) {
  const { getValues } = useFormContext<ExperienceForm>();
  // A folded config renders no inputs (react-hook-form keeps their values); it unfolds itself
  // when one of them has an error, so every message can be seen and fixed.
  const [open, setOpen] = useOpenOnError([prefix.slice(0, -1)], defaultOpen);
  const pagePath = useFieldValue<string>(`${prefix}page_path`);
  const mode = useFieldValue<ConfigForm["mode"]>(`${prefix}mode`);
  const type = useFieldValue<VariationDataType>(`${prefix}variation_data_type`);
  const elementPath = useFieldValue<string>(`${prefix}element_path`);
  const hasMobile = useFieldValue<boolean>(`${prefix}hasMobile`);
  const hasDesktop = useFieldValue<boolean>(`${prefix}hasDesktop`);
  const [switchError, setSwitchError] = useState<string | null>(null);
  const current = () => getValues(prefix.slice(0, -1) as Path<ExperienceForm>) as ConfigForm;

  const toJson = () => {
    const result = configFromForm(current());
    if (!result.ok) {
      setSwitchError(`Fix the config first: ${result.problems[0]?.message ?? ""}`);
      return;
    }
    setSwitchError(null);
    onReplace({ ...current(), mode: "json", json: JSON.stringify(result.value, null, 2) });
  };
  const toForm = () => {
    const result = configFromForm(current());
    if (!result.ok) {
      setSwitchError(`Fix the JSON first: ${result.problems[0]?.message ?? ""}`);
      return;
    }
    const form = configToForm(result.value);
    if (form.mode === "json") {
      setSwitchError(
        "This config has fields the form cannot show; keep editing it as JSON so nothing is lost.",
      );
      return;
    }
    setSwitchError(null);
    onReplace(form);
  };

  const title = `Config ${index + 1}${elementPath ? `: ${elementPath}` : ""}`;
  // The fold is a <details>, not a button: the editor sits in a fieldset that is disabled for
  // viewers, which disables every button in it, and a viewer must still unfold a config to read it.
  return (
    <section className="ed-config" aria-label={title}>
      <details
        className="ed-config__fold"
        open={open}
        onToggle={(e) => setOpen(e.currentTarget.open)}
      >
        <summary className="ed-config__summary">
          <h5 className="ed-config__title">
            {title}
            {pagePath ? <span className="form-section__note"> on {pagePath}</span> : null}
          </h5>
        </summary>
        {!open ? null : (
          <div className="ed-config__body">
            <div className="ed-config__tools">
              {mode === "json" ? (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  onClick={toForm}
                >
                  Edit in the form
                </button>
              ) : (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  onClick={toJson}
                >
                  Edit as JSON
                </button>
              )}
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={onRemove}
              >
                Remove config
              </button>
            </div>
            {switchError ? <FieldError alert>{switchError}</FieldError> : null}
            {mode === "json" ? (
              <TextArea
                name={`${prefix}json`}
                label="Config (JSON)"
                mono
                rows={14}
                hint="The whole config as the service stores it."
              />
            ) : (
              <>
                <div className="ed-row">
                  <TextInput
                    name={`${prefix}element_path`}
                    label="Element (CSS path)"
                    mono
                    placeholder="#product-price"
                  />
                  <Select
                    name={`${prefix}variation_data_type`}
                    label="Data type"
                    options={DATA_TYPE_OPTIONS}
                  />
                </div>
                {type === "HTML_ELEMENT" ? (
                  <>
                    <ElementFields prefix={`${prefix}element.`} />
                    <FormSection
                      title="Mobile and desktop sub-variations"
                      fields={[`${prefix}mobile`, `${prefix}desktop`]}
                    >
                      <p className="ed-hint">
                        Applied instead of the changes above by the visitor&apos;s device when the
                        behaviour is device-specific.
                      </p>
                      <Checkbox name={`${prefix}hasMobile`} label="Mobile sub-variation" />
                      {hasMobile ? <ElementFields prefix={`${prefix}mobile.`} /> : null}
                      <Checkbox name={`${prefix}hasDesktop`} label="Desktop sub-variation" />
                      {hasDesktop ? <ElementFields prefix={`${prefix}desktop.`} /> : null}
                    </FormSection>
                    <MetaFields prefix={`${prefix}meta.`} />
                  </>
                ) : (
                  <ValueEditor prefix={prefix} type={type} />
                )}
                <FormSection
                  title="Page, keys and hint"
                  fields={[
                    `${prefix}config_customer_id`,
                    `${prefix}config_id`,
                    `${prefix}page_path`,
                  ]}
                >
                  <div className="ed-row">
                    <TextInput
                      name={`${prefix}page_path`}
                      label="Only on page (optional)"
                      mono
                      placeholder="/products/gentle-baby-wash"
                    />
                    <Select
                      name={`${prefix}page_match`}
                      label="Page match"
                      options={PAGE_MATCH_OPTIONS}
                    />
                    <TextInput name={`${prefix}domain`} label="Domain (optional)" mono />
                  </div>
                  <div className="ed-row">
                    <TextInput
                      name={`${prefix}config_customer_id`}
                      label="Config key"
                      mono
                      hint="Unique in the variation; the script's getters read it."
                    />
                    <TextInput name={`${prefix}config_id`} label="Config id" mono />
                    <TextInput
                      name={`${prefix}element_hint`}
                      label="Element hint"
                      mono
                      placeholder="media"
                    />
                  </div>
                </FormSection>
              </>
            )}
          </div>
        )}
      </details>
    </section>
  );
}
