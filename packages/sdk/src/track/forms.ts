// Automatic form capture (spec §1, §3, §5 "Auto form capture", §9). On submit, the form's
// text-like fields become a FORM event and the visitor's properties. One delegated listener on
// the document sees every form, including forms a page adds later, so the spec's "retry after
// 5 s when the page has no forms yet" is covered without a timer.

import type { Properties } from "@storefit/contract";

/** spec §5: "a standard address pattern". */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)*\.[a-z]{2,}$/i;

const TEXT_LIKE = /^(?:text|email|tel|search|url|number)$/;
// Never captured whatever their type: secrets and payment data.
const SENSITIVE = /pass|card|cc-|cvc|cvv|iban|ssn|secret|token|otp/i;
const MAX_VALUE_CHARS = 500;

export type CapturedForm = {
  properties: Properties;
  email?: string;
  phone?: string;
};

type Field = { type: string; name: string; value: string; tag: string; autocomplete: string };

/** What a submitted form gives (pure: fields in, values out). */
export function captureFields(fields: readonly Field[], storedEmail?: string): CapturedForm {
  const out: CapturedForm = { properties: {} };
  for (const f of fields) {
    const type = (f.type || "text").toLowerCase();
    // spec §5: hidden inputs are ignored; so are buttons, checkboxes, files and passwords.
    if (f.tag === "input" && !TEXT_LIKE.test(type)) continue;
    if (f.tag !== "input" && f.tag !== "textarea") continue;
    // spec §3: the input name with spaces replaced by underscores.
    const name = f.name.trim().replace(/\s+/g, "_");
    const value = f.value.trim().slice(0, MAX_VALUE_CHARS);
    if (!name || !value || SENSITIVE.test(name) || SENSITIVE.test(f.autocomplete)) continue;
    if (type === "email" || /e-?mail/i.test(name)) {
      // spec §5: only a valid address that differs from the stored one.
      if (EMAIL_PATTERN.test(value) && value.toLowerCase() !== (storedEmail ?? "").toLowerCase()) out.email = value;
    } else if (type === "tel" || /phone|mobile|tel/i.test(name)) {
      out.phone = value;
    } else {
      out.properties[name] = value;
    }
  }
  return out;
}

export function fieldsOf(form: HTMLFormElement): Field[] {
  return Array.from(form.elements, (el) => {
    const e = el as HTMLInputElement;
    return {
      type: e.type ?? "",
      name: e.name || e.id || "",
      value: typeof e.value === "string" ? e.value : "",
      tag: e.tagName.toLowerCase(),
      autocomplete: e.getAttribute("autocomplete") ?? "",
    };
  });
}
