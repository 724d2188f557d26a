// A react-hook-form form: the inputs inside join it by name (FormProvider), submitting runs its
// validation first, and the browser's own checks are off (noValidate) unless asked for: each
// field shows its message in the page's words instead.
import type { ComponentPropsWithoutRef, ReactNode } from "react";
import { FormProvider } from "react-hook-form";
import type {
  FieldValues,
  SubmitErrorHandler,
  SubmitHandler,
  UseFormReturn,
} from "react-hook-form";
import { useOpenOnError } from "./hooks";

type FormProps<V extends FieldValues> = Omit<
  ComponentPropsWithoutRef<"form">,
  "onSubmit" | "onInvalid"
> & {
  form: UseFormReturn<V>;
  /** Runs with the values once they pass validation. */
  onSubmit: SubmitHandler<V>;
  /** Runs instead when they do not. */
  onInvalid?: SubmitErrorHandler<V>;
};

export function Form<V extends FieldValues>({
  form,
  onSubmit,
  onInvalid,
  noValidate = true,
  children,
  ...props
}: FormProps<V>) {
  return (
    <FormProvider {...form}>
      <form
        {...props}
        noValidate={noValidate}
        onSubmit={(e) => void form.handleSubmit(onSubmit, onInvalid)(e)}
      >
        {children}
      </form>
    </FormProvider>
  );
}

/** The form's main button: disabled and saying so (`pendingLabel`) while the save runs. */
export function SubmitButton({
  pending,
  pendingLabel,
  disabled,
  className,
  children,
}: {
  pending: boolean;
  pendingLabel?: string;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      className={`button button--primary${className ? ` ${className}` : ""}`}
      disabled={pending || disabled}
    >
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}

/** A message about the whole form (the service refused it, it could not be sent), announced. */
export function FormError({
  id,
  testId,
  children,
}: {
  id?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <p className="form__error" role="alert" id={id} data-testid={testId}>
      {children}
    </p>
  );
}

/** A fold of a long form; it opens itself when a field inside (under `fields`) has an error. */
export function FormSection({
  title,
  fields = [],
  summary,
  defaultOpen = false,
  children,
}: {
  title: string;
  /** Field-name prefixes of the inputs inside. */
  fields?: readonly string[];
  summary?: ReactNode;
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  const [open] = useOpenOnError(fields, defaultOpen);
  return (
    <details className="form-section" open={open || undefined}>
      <summary className="form-section__summary">
        <span className="form-section__title">{title}</span>
        {summary ? <span className="form-section__note">{summary}</span> : null}
      </summary>
      <div className="form-section__body">{children}</div>
    </details>
  );
}
