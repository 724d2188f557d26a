// The rules of the builder: "Visitors who match all/any of these", then one row per rule —
// attribute, comparison, value — with the value input fitting the attribute's kind.
import { useId } from "react";
import { type UseFieldArrayReturn, useFormContext } from "react-hook-form";
import type { AudienceFormValues } from "./AudienceEditor";
import {
  ATTRIBUTES,
  CUSTOM_PREFIXES,
  type Rule,
  attributeOption,
  kindOf,
  operatorsFor,
} from "./conditionModel";
import { Field, Select, TextInput } from "../../components/form";

type Props = { fields: UseFieldArrayReturn<AudienceFormValues, "rules">; newRule: Rule };

const GROUPS = [...new Set(ATTRIBUTES.map((a) => a.group))];

const YES_NO = [
  { value: "true", label: "yes" },
  { value: "false", label: "no" },
];

/** The attribute select's value: a known attribute's key, or "custom:<prefix>". */
function choiceOf(attribute: string): string {
  if (attributeOption(attribute)) return attribute;
  const custom = CUSTOM_PREFIXES.find((c) => c.prefix !== "" && attribute.startsWith(c.prefix));
  return `custom:${custom?.prefix ?? ""}`;
}

export function ConditionBuilder({ fields, newRule }: Props) {
  const id = useId();
  const { register } = useFormContext<AudienceFormValues>();
  return (
    <div className="builder" data-testid="condition-builder">
      <div className="builder__combinator">
        <label htmlFor={`${id}-combinator`}>Visitors who match</label>
        <select id={`${id}-combinator`} className="field__input field__input--inline" {...register("combinator")}>
          <option value="all">all of these rules</option>
          <option value="any">any of these rules</option>
        </select>
      </div>
      {fields.fields.length === 0 ? (
        <p className="builder__empty">No rules: everyone is in this audience.</p>
      ) : (
        <ol className="builder__rules">
          {fields.fields.map((field, index) => (
            <RuleRow key={field.id} index={index} onRemove={() => fields.remove(index)} />
          ))}
        </ol>
      )}
      <button type="button" className="button button--secondary button--small" onClick={() => fields.append({ ...newRule, value: "" })}>
        Add a rule
      </button>
    </div>
  );
}

function RuleRow({ index, onRemove }: { index: number; onRemove: () => void }) {
  const valuesId = useId();
  const { watch, setValue } = useFormContext<AudienceFormValues>();
  const attribute = watch(`rules.${index}.attribute`);
  const operator = watch(`rules.${index}.operator`);
  const choice = choiceOf(attribute);
  const kind = kindOf(attribute);
  const operators = operatorsFor(kind);
  const option = attributeOption(attribute);
  const takesValue = operators.find((o) => o.id === operator)?.takesValue ?? true;
  const n = index + 1;
  const valueLabel = `Value of rule ${n}${operator === "in" || operator === "not_in" || operator === "has_all" ? " (comma-separated)" : ""}`;

  const onChoice = (next: string) => {
    const key = next.startsWith("custom:") ? next.slice("custom:".length) : next;
    setValue(`rules.${index}.attribute`, key, { shouldDirty: true });
    const nextOps = operatorsFor(kindOf(key));
    if (!nextOps.some((o) => o.id === operator)) setValue(`rules.${index}.operator`, nextOps[0]!.id, { shouldDirty: true });
    if (kindOf(key) === "boolean") setValue(`rules.${index}.value`, "true", { shouldDirty: true });
  };

  const customPrefix = choice.startsWith("custom:") ? choice.slice("custom:".length) : null;

  return (
    <li className="rule" data-testid="condition-rule">
      <Field label={`Attribute of rule ${n}`} compact>
        {(control) => (
          <select {...control} className="field__input" value={choice} onChange={(e) => onChoice(e.target.value)}>
            {GROUPS.map((group) => (
              <optgroup key={group} label={group}>
                {ATTRIBUTES.filter((a) => a.group === group).map((a) => (
                  <option key={a.key} value={a.key}>
                    {a.label}
                  </option>
                ))}
              </optgroup>
            ))}
            <optgroup label="Custom">
              {CUSTOM_PREFIXES.map((c) => (
                <option key={c.prefix} value={`custom:${c.prefix}`}>
                  {c.label}
                </option>
              ))}
            </optgroup>
          </select>
        )}
      </Field>
      {customPrefix !== null ? (
        <Field label={customPrefix === "" ? `Attribute path of rule ${n}` : `Name of rule ${n}'s ${customPrefix.slice(0, -1)} field`} compact>
          {(control) => (
            <input
              {...control}
              className="field__input mono"
              placeholder={customPrefix === "" ? "e.g. cf_os_version" : "e.g. tier"}
              value={attribute.slice(customPrefix.length)}
              onChange={(e) => setValue(`rules.${index}.attribute`, customPrefix + e.target.value.trim(), { shouldDirty: true })}
            />
          )}
        </Field>
      ) : null}
      <Select name={`rules.${index}.operator`} label={`Comparison of rule ${n}`} compact options={operators.map((o) => ({ value: o.id, label: o.label }))} />
      {!takesValue ? null : kind === "boolean" ? (
        <Select name={`rules.${index}.value`} label={valueLabel} compact options={YES_NO} />
      ) : (
        <TextInput
          name={`rules.${index}.value`}
          label={valueLabel}
          compact
          inputMode={kind === "number" ? "decimal" : undefined}
          list={option?.values ? valuesId : undefined}
        />
      )}
      {takesValue && kind !== "boolean" && option?.values ? (
        <datalist id={valuesId}>
          {option.values.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      ) : null}
      <button type="button" className="button button--secondary button--small rule__remove" onClick={onRemove} aria-label={`Remove rule ${n}`}>
        Remove
      </button>
    </li>
  );
}
