// The frame every settings section shares: its own react-hook-form form, its own Save (a PATCH
// of the fields it edits only, so two sections never overwrite each other), the service's 4xx
// message on failure, and a disabled fieldset for anyone who is not an owner.
import type { ReactNode } from "react";
import { type DefaultValues, type FieldValues, type UseFormReturn, useForm } from "react-hook-form";
import type { AccountPatch, AccountSettings, AccountView } from "@storefit/contract";
import { useUpdateAccount } from "../../api/account";
import { Form, FormError, SubmitButton } from "../../components/form";
import { useUnsavedWarning } from "../../components/useUnsavedWarning";

export type SectionProps = { account: AccountView; canEdit: boolean };

export function useSettingsForm<V extends FieldValues>(
  account: AccountView,
  toForm: (account: AccountView) => V,
  toPatch: (values: V) => AccountPatch,
) {
  const form = useForm<V>({ defaultValues: toForm(account) as DefaultValues<V>, mode: "onTouched" });
  const mutation = useUpdateAccount();
  const save = (values: V) => {
    mutation.mutate(toPatch(values), {
      onSuccess: (updated) => form.reset(toForm(updated)),
    });
  };
  /** `section` is what SettingsSection takes: `<SettingsSection {...section} …>`. */
  return { form, section: { form, mutation, save } };
}

type ShellProps<V extends FieldValues> = {
  id: string;
  title: string;
  description: ReactNode;
  canEdit: boolean;
  form: UseFormReturn<V>;
  mutation: ReturnType<typeof useUpdateAccount>;
  save: (values: V) => void;
  children: ReactNode;
};

export function SettingsSection<V extends FieldValues>({ id, title, description, canEdit, form, mutation, save, children }: ShellProps<V>) {
  const dirty = form.formState.isDirty;
  useUnsavedWarning(canEdit && dirty);
  const errorCount = Object.keys(form.formState.errors).length;
  return (
    <section className="panel settings-section" id={id} aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`}>
        {title}
      </h2>
      <p className="panel__description">{description}</p>
      <Form form={form} onSubmit={save} aria-labelledby={`${id}-title`} data-testid={`settings-${id}`}>
        <fieldset className="settings-fieldset" disabled={!canEdit}>
          <legend className="visually-hidden">{title}</legend>
          {children}
        </fieldset>
        {canEdit ? (
          <div className="form-actions settings-actions">
            <SubmitButton pending={mutation.isPending} pendingLabel="Saving…" disabled={!dirty}>
              {`Save ${title.toLowerCase()}`}
            </SubmitButton>
            {dirty ? (
              <button type="button" className="button button--secondary" onClick={() => form.reset()}>
                Discard changes
              </button>
            ) : null}
            <span role="status" className="settings-status">
              {mutation.isSuccess && !dirty ? "Saved." : null}
              {errorCount > 0 ? "Fix the fields marked in red." : null}
            </span>
          </div>
        ) : null}
        {mutation.isError ? <FormError>Could not save: {mutation.error.message}</FormError> : null}
      </Form>
    </section>
  );
}

/** The settings fields a section sends; the service takes any subset (PATCH replaces each). */
export function settingsPatch(settings: Partial<AccountSettings>): AccountPatch {
  return { settings };
}
