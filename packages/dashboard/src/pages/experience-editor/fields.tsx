// Labelled inputs bound to the editor's form by name (react-hook-form context). Each shows its
// validation message under the input, tied to it with aria-describedby.
import { useId, useState } from "react";
import type { ReactNode } from "react";
import { get, useFieldArray, useFormContext, useFormState, useWatch } from "react-hook-form";
import type { FieldArrayPath, FieldError, Path } from "react-hook-form";
import type { ExperienceForm } from "./model";

/** A dotted field name of the form ("rules.0.behaviour.name"); built from indices at run time. */
export type FieldName = string;

const asPath = (name: FieldName) => name as Path<ExperienceForm>;

/** The current value of a field, re-rendering on its changes. */
export function useValue<T>(name: FieldName): T {
  const { control } = useFormContext<ExperienceForm>();
  return useWatch({ control, name: asPath(name) }) as T;
}

/** `register` for a run-time field name (radio buttons, hidden inputs). */
export function useRegister() {
  const { register } = useFormContext<ExperienceForm>();
  return (name: FieldName) => register(asPath(name));
}

export type ArrayOf<Item> = {
  fields: (Item & { id: string })[];
  append: (value: Item) => void;
  insert: (index: number, value: Item) => void;
  remove: (index: number) => void;
  move: (from: number, to: number) => void;
};

/** useFieldArray for a run-time name; `Item` is the element type at that name. */
export function useArray<Item>(name: FieldName): ArrayOf<Item> {
  const { control } = useFormContext<ExperienceForm>();
  return useFieldArray({
    control,
    name: name as FieldArrayPath<ExperienceForm>,
  }) as unknown as ArrayOf<Item>;
}

export function useFieldError(name: FieldName): string | undefined {
  const { errors } = useFormState<ExperienceForm>({ name: asPath(name) });
  const error = get(errors, name) as FieldError | undefined;
  return typeof error?.message === "string" ? error.message : undefined;
}

function Message({ id, error, hint }: { id: string; error: string | undefined; hint?: ReactNode }) {
  return (
    <>
      {hint ? (
        <span className="ed-hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="ed-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </>
  );
}

const describedBy = (id: string, error: string | undefined, hint: ReactNode) =>
  [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;

type BaseProps = { name: FieldName; label: string; hint?: ReactNode; className?: string };

export function TextField({
  name,
  label,
  hint,
  className,
  type = "text",
  placeholder,
  inputMode,
  mono,
  list,
}: BaseProps & {
  type?: "text" | "url" | "number";
  placeholder?: string;
  inputMode?: "decimal" | "numeric" | "text" | "url";
  mono?: boolean;
  list?: string;
}) {
  const id = useId();
  const { register } = useFormContext<ExperienceForm>();
  const error = useFieldError(name);
  return (
    <div className={`field ${className ?? ""}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className={`field__input ${mono ? "mono" : ""}`}
        type={type === "number" ? "text" : type}
        inputMode={inputMode ?? (type === "number" ? "decimal" : undefined)}
        placeholder={placeholder}
        list={list}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...register(asPath(name))}
      />
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

export function TextArea({
  name,
  label,
  hint,
  className,
  rows = 3,
  mono,
}: BaseProps & { rows?: number; mono?: boolean }) {
  const id = useId();
  const { register } = useFormContext<ExperienceForm>();
  const error = useFieldError(name);
  return (
    <div className={`field ${className ?? ""}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        rows={rows}
        className={`field__input ${mono ? "mono" : ""}`}
        spellCheck={mono ? false : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...register(asPath(name))}
      />
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

export function SelectField({
  name,
  label,
  hint,
  className,
  options,
}: BaseProps & { options: readonly { value: string; label: string }[] }) {
  const id = useId();
  const { register } = useFormContext<ExperienceForm>();
  const error = useFieldError(name);
  return (
    <div className={`field ${className ?? ""}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...register(asPath(name))}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

export function CheckboxField({ name, label, hint, className }: BaseProps) {
  const id = useId();
  const { register } = useFormContext<ExperienceForm>();
  return (
    <div className={`ed-check ${className ?? ""}`}>
      <input
        id={id}
        type="checkbox"
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...register(asPath(name))}
      />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span className="ed-hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}

/** A color input that writes "#rrggbb" into a text field, for colors typed or picked. */
export function ColorPicker({ name, label }: { name: FieldName; label: string }) {
  const id = useId();
  const { setValue } = useFormContext<ExperienceForm>();
  const value = useValue<string>(name);
  const hex = /^#[0-9a-f]{6}$/i.test(value ?? "") ? value : "#000000";
  return (
    <div className="field ed-color-field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type="color"
        className="ed-color"
        value={hex}
        onChange={(e) =>
          setValue(asPath(name), e.target.value, { shouldDirty: true, shouldValidate: true })
        }
      />
    </div>
  );
}

/** A collapsible group; it opens itself when an input inside has an error. */
export function Section({
  title,
  prefix,
  children,
  defaultOpen = false,
  summary,
}: {
  title: string;
  /** Field-name prefix of the inputs inside, to open the section on their errors. */
  prefix?: FieldName | FieldName[];
  children: ReactNode;
  defaultOpen?: boolean;
  summary?: ReactNode;
}) {
  const { errors } = useFormState<ExperienceForm>();
  const prefixes = prefix === undefined ? [] : Array.isArray(prefix) ? prefix : [prefix];
  const hasError = prefixes.some((p) => get(errors, p) !== undefined);
  // Once opened for an error it stays open: closing it while the operator fixes the input
  // (validation re-runs on each change) would pull the input away from under them.
  const [forcedOpen, setForcedOpen] = useState(defaultOpen);
  if (hasError && !forcedOpen) setForcedOpen(true);
  return (
    <details className="ed-section" open={forcedOpen || undefined}>
      <summary className="ed-section__summary">
        <span className="ed-section__title">{title}</span>
        {summary ? <span className="ed-section__note">{summary}</span> : null}
      </summary>
      <div className="ed-section__body">{children}</div>
    </details>
  );
}
