// Inputs whose value lives in component state, not in a form: filters, a page address to test or
// preview on. The same Field (label, hint, error) as the bound inputs, with `value` and `onChange`.
import { Field } from "./Field";
import type { FieldProps } from "./Field";
import { Options } from "./inputs";
import type { Option } from "./inputs";

type StateProps = Omit<FieldProps, "children"> & {
  value: string;
  onChange: (value: string) => void;
};

export function StateInput({
  value,
  onChange,
  type = "text",
  placeholder,
  mono,
  spellCheck,
  ...field
}: StateProps & {
  type?: "text" | "url" | "search";
  placeholder?: string;
  mono?: boolean;
  spellCheck?: boolean;
}) {
  return (
    <Field {...field}>
      {(control) => (
        <input
          {...control}
          className={mono ? "field__input mono" : "field__input"}
          type={type}
          value={value}
          placeholder={placeholder}
          spellCheck={spellCheck}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

export function StateSelect({
  value,
  onChange,
  options,
  ...field
}: StateProps & { options: readonly Option[] }) {
  return (
    <Field {...field}>
      {(control) => (
        <select
          {...control}
          className="field__input"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        >
          <Options options={options} />
        </select>
      )}
    </Field>
  );
}
