// The dashboard's form kit: the screens' forms are built from it, so a field looks, is labelled
// and reports its errors the same way everywhere (docs/dashboard.md, the layers of the code).
import "./form.css";

export { Field, FieldError, FieldHint } from "./Field";
export type { ControlProps } from "./Field";
export { Form, FormError, FormSection, SubmitButton } from "./Form";
export { Checkbox, ColorInput, NumberInput, Select, TextArea, TextInput } from "./inputs";
export type { Option } from "./inputs";
export { StateInput, StateSelect } from "./state-inputs";
export { useFieldError, useFieldList, useFieldValue, useOpenOnError } from "./hooks";
export type { ArrayOf } from "./hooks";
