// Inputs bound to a react-hook-form form by name. Each is a Field (label, hint, error); the
// error is the form's validation message for that name. `control` types the name against the
// form's values; without it the input joins the enclosing <Form>.
import { useId } from "react";
import type { ReactNode } from "react";
import { useFormContext } from "react-hook-form";
import type {
  Control,
  FieldPath,
  FieldValues,
  RegisterOptions,
  UseFormRegisterReturn,
} from "react-hook-form";
import { Field, FieldHint } from "./Field";
import type { ControlProps, FieldProps } from "./Field";
import { useFieldError, useFieldValue } from "./hooks";

type BoundProps<V extends FieldValues, N extends FieldPath<V>> = Omit<
  FieldProps,
  "children" | "error"
> & {
  name: N;
  control?: Control<V>;
  /** Checks of this field when the form has no resolver (the settings, the member form). */
  rules?: Pick<RegisterOptions<V, N>, "validate" | "maxLength">;
};

function useRegister<V extends FieldValues>(control: Control<V> | undefined) {
  const context = useFormContext<V>();
  return (control ?? context.control).register;
}

/** What a bound control spreads: its id and accessible state, and the form's registration. */
type BoundControl<N extends string> = ControlProps & UseFormRegisterReturn<N>;

/** Every bound input: the field around the control, registered under the name, with its error. */
function BoundField<V extends FieldValues, N extends FieldPath<V>>({
  name,
  control,
  rules,
  valueAsNumber,
  render,
  ...field
}: BoundProps<V, N> & {
  valueAsNumber?: boolean;
  render: (props: BoundControl<N>) => ReactNode;
}) {
  const register = useRegister(control);
  const error = useFieldError(name, control);
  const registration = register(name, valueAsNumber ? { ...rules, valueAsNumber } : rules);
  return (
    <Field {...field} error={error}>
      {(props) => render({ ...props, ...registration })}
    </Field>
  );
}

const inputClass = (mono: boolean | undefined) => (mono ? "field__input mono" : "field__input");

type TextProps<V extends FieldValues, N extends FieldPath<V>> = BoundProps<V, N> & {
  type?: "text" | "url" | "email" | "password" | "search";
  placeholder?: string;
  /** Numbers typed as text (kept as typed, parsed on save), with the matching keyboard. */
  inputMode?: "decimal" | "numeric" | "url";
  mono?: boolean;
  /** The id of a <datalist> of suggestions. */
  list?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean;
};

export function TextInput<V extends FieldValues, N extends FieldPath<V>>({
  type = "text",
  mono,
  placeholder,
  inputMode,
  list,
  autoComplete,
  autoFocus,
  required,
  ...bound
}: TextProps<V, N>) {
  const attributes = { type, placeholder, inputMode, list, autoComplete, autoFocus, required };
  return (
    <BoundField
      {...bound}
      render={(props) => <input {...props} {...attributes} className={inputClass(mono)} />}
    />
  );
}

/** A number input whose value is a number (NaN when empty): the settings' limits. */
export function NumberInput<V extends FieldValues, N extends FieldPath<V>>(
  bound: BoundProps<V, N>,
) {
  return (
    <BoundField
      {...bound}
      valueAsNumber
      render={(props) => <input {...props} className="field__input" type="number" />}
    />
  );
}

export function TextArea<V extends FieldValues, N extends FieldPath<V>>({
  rows = 3,
  mono,
  placeholder,
  ...bound
}: BoundProps<V, N> & { rows?: number; mono?: boolean; placeholder?: string }) {
  const attributes = { rows, placeholder, spellCheck: mono ? false : undefined };
  return (
    <BoundField
      {...bound}
      render={(props) => <textarea {...props} {...attributes} className={inputClass(mono)} />}
    />
  );
}

export type Option = { value: string; label: string };

/** The <option>s of a select. */
export function Options({ options }: { options: readonly Option[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ));
}

export function Select<V extends FieldValues, N extends FieldPath<V>>({
  options,
  ...bound
}: BoundProps<V, N> & { options: readonly Option[] }) {
  return (
    <BoundField
      {...bound}
      render={(props) => (
        <select {...props} className="field__input">
          <Options options={options} />
        </select>
      )}
    />
  );
}

/** A checkbox with its label after it and the hint under the label. */
export function Checkbox<V extends FieldValues, N extends FieldPath<V>>({
  name,
  control,
  label,
  hint,
  className,
}: Pick<BoundProps<V, N>, "name" | "control" | "label" | "hint" | "className">) {
  const id = useId();
  const register = useRegister(control);
  return (
    <div className={className ? `checkbox-field ${className}` : "checkbox-field"}>
      <input
        id={id}
        type="checkbox"
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...register(name)}
      />
      <div>
        <label htmlFor={id} className="checkbox-field__label">
          {label}
        </label>
        <FieldHint id={`${id}-hint`}>{hint}</FieldHint>
      </div>
    </div>
  );
}

/** A color picker writing "#rrggbb" into a text field of the enclosing <Form>, typed or picked. */
export function ColorInput({ name, label }: { name: string; label: string }) {
  const { setValue } = useFormContext();
  const value = useFieldValue<string>(name);
  const hex = /^#[0-9a-f]{6}$/i.test(value ?? "") ? value : "#000000";
  return (
    <Field label={label} className="color-field">
      {(props) => (
        <input
          {...props}
          type="color"
          className="color-input"
          value={hex}
          onChange={(e) =>
            setValue(name, e.target.value, { shouldDirty: true, shouldValidate: true })
          }
        />
      )}
    </Field>
  );
}
