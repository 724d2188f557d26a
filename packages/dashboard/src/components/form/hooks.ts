// Reading a form by field name: its value, its list, its error. Names may be built at run time
// ("rules.0.behaviour.variations.1.name"); without `control` the hooks read the enclosing <Form>.
import { useState } from "react";
import { get, useFieldArray, useFormContext, useFormState, useWatch } from "react-hook-form";
import type { Control, FieldArrayPath, FieldError, FieldPath, FieldValues } from "react-hook-form";

/** The current value of a field, re-rendering on its changes. */
export function useFieldValue<T>(name: string): T {
  return useWatch({ name }) as T;
}

/** A field's validation message, if it has one. */
export function useFieldError<V extends FieldValues = FieldValues>(
  name: FieldPath<V>,
  control?: Control<V>,
): string | undefined {
  const { errors } = useFormState<V>({ control, name });
  const error = get(errors, name) as FieldError | undefined;
  return typeof error?.message === "string" ? error.message : undefined;
}

export type ArrayOf<Item> = {
  fields: (Item & { id: string })[];
  append: (value: Item) => void;
  insert: (index: number, value: Item) => void;
  remove: (index: number) => void;
  move: (from: number, to: number) => void;
  replace: (values: Item[]) => void;
};

/** useFieldArray for a run-time name; `Item` is the element type at that name. */
export function useFieldList<Item>(name: string): ArrayOf<Item> {
  const { control } = useFormContext();
  return useFieldArray({
    control,
    name: name as FieldArrayPath<FieldValues>,
  }) as unknown as ArrayOf<Item>;
}

/**
 * Open state of a fold that opens itself when a field inside has an error (`names` are the
 * fields' prefixes), so every message can be seen and fixed. Once opened for an error it stays
 * open: closing it while the operator fixes the input (validation re-runs on each change) would
 * pull the input away from under them.
 */
export function useOpenOnError(names: readonly string[], initiallyOpen: boolean) {
  const { errors } = useFormState();
  const [open, setOpen] = useState(initiallyOpen);
  if (!open && names.some((n) => get(errors, n) !== undefined)) setOpen(true);
  return [open, setOpen] as const;
}
