// A labelled field: the label tied to its control, the hint and the error under it, and the
// control told of both (aria-describedby, aria-invalid). The bound inputs (inputs.tsx) are built
// on it; a control kept in component state (a filter, the JSON of a condition) uses it directly.
import { useId } from "react";
import type { ReactNode } from "react";

/** What a field's control spreads: its id (the label's target) and its accessible state. */
export type ControlProps = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
};

export type FieldProps = {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  /** More classes on the field, e.g. to size it in a row. */
  className?: string | undefined;
  /** Smaller, muted label and tighter spacing: fields in a dense row (the audience builder). */
  compact?: boolean;
  /** More ids the control is described by (a message of the whole form). */
  describedBy?: string | undefined;
  /** Marks the control invalid though it has no error of its own. */
  invalid?: boolean | undefined;
  /** Announces the error as it appears (role="alert"): for one that comes while typing. */
  alert?: boolean;
  children: (control: ControlProps) => ReactNode;
};

export function Field({
  label,
  hint,
  error,
  className,
  compact,
  describedBy,
  invalid,
  alert,
  children,
}: FieldProps) {
  const id = useId();
  const classes = ["field", compact ? "field--compact" : "", className ?? ""]
    .filter(Boolean)
    .join(" ");
  const describers = [
    hint ? `${id}-hint` : "",
    error ? `${id}-error` : "",
    describedBy ?? "",
  ].filter(Boolean);
  return (
    <div className={classes}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({
        id,
        "aria-invalid": error || invalid ? true : undefined,
        "aria-describedby": describers.join(" ") || undefined,
      })}
      <FieldHint id={`${id}-hint`}>{hint}</FieldHint>
      <FieldError id={`${id}-error`} alert={alert}>
        {error}
      </FieldError>
    </div>
  );
}

export function FieldHint({ id, children }: { id?: string; children: ReactNode }) {
  return children ? (
    <p className="field__hint" id={id}>
      {children}
    </p>
  ) : null;
}

/**
 * A field's error, under it; nothing when there is none. `alert` announces it at once: for an
 * error that appears while typing elsewhere (the JSON of a condition), not for every field.
 */
export function FieldError({
  id,
  alert,
  children,
}: {
  id?: string;
  alert?: boolean | undefined;
  children: ReactNode;
}) {
  return children ? (
    <p className="field__error" id={id} role={alert ? "alert" : undefined}>
      {children}
    </p>
  ) : null;
}
