// Labelled inputs bound to a react-hook-form form, with the error beside the field.
import { type ReactNode, useId } from "react";
import type { FieldValues, Path, RegisterOptions, UseFormReturn } from "react-hook-form";

/** Checks of one field; number inputs pass their value as a number (valueAsNumber). */
export type FieldRules = {
  validate?: (value: string) => string | true;
  maxLength?: { value: number; message: string };
};

type FieldProps<V extends FieldValues> = {
  form: UseFormReturn<V>;
  name: Path<V>;
  label: ReactNode;
  hint?: ReactNode;
  rules?: FieldRules;
  type?: "text" | "number" | "email" | "password";
  placeholder?: string;
  className?: string;
  mono?: boolean;
  autoComplete?: string;
};

function errorAt(errors: unknown, name: string): string | undefined {
  let node: unknown = errors;
  for (const part of name.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : undefined;
}

export function useFieldError<V extends FieldValues>(form: UseFormReturn<V>, name: Path<V>): string | undefined {
  return errorAt(form.formState.errors, name);
}

/** The hint and the error under a field, with the ids its aria-describedby names. */
function Message({ id, hint, error }: { id: string; hint?: ReactNode; error: string | undefined }) {
  return (
    <>
      {hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

const describedBy = (id: string, hint: ReactNode, error: string | undefined) =>
  [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;

export function TextField<V extends FieldValues>({ form, name, label, hint, rules, type = "text", placeholder, className, mono, autoComplete }: FieldProps<V>) {
  const id = useId();
  const error = useFieldError(form, name);
  return (
    <div className={`field ${className ?? ""}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type={type}
        className={mono ? "field__input mono" : "field__input"}
        placeholder={placeholder}
        autoComplete={autoComplete}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...form.register(name, (type === "number" ? { ...rules, valueAsNumber: true } : rules) as RegisterOptions<V, Path<V>>)}
      />
      <Message id={id} hint={hint} error={error} />
    </div>
  );
}

export function TextAreaField<V extends FieldValues>({ form, name, label, hint, rules, placeholder }: Omit<FieldProps<V>, "type">) {
  const id = useId();
  const error = useFieldError(form, name);
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="field__input mono"
        rows={4}
        placeholder={placeholder}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...form.register(name, rules as RegisterOptions<V, Path<V>>)}
      />
      <Message id={id} hint={hint} error={error} />
    </div>
  );
}

export function SelectField<V extends FieldValues>({
  form,
  name,
  label,
  options,
}: {
  form: UseFormReturn<V>;
  name: Path<V>;
  label: ReactNode;
  options: readonly { value: string; label: string }[];
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="field__input" {...form.register(name)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function CheckboxField<V extends FieldValues>({
  form,
  name,
  label,
  hint,
}: {
  form: UseFormReturn<V>;
  name: Path<V>;
  label: ReactNode;
  hint?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="checkbox-field">
      <input id={id} type="checkbox" aria-describedby={hint ? `${id}-hint` : undefined} {...form.register(name)} />
      <div>
        <label htmlFor={id} className="checkbox-field__label">
          {label}
        </label>
        {hint ? (
          <p className="field__hint" id={`${id}-hint`}>
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
