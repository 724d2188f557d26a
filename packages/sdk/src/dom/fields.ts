// The element fields of a variation (spec §3 "Variation fields", product.md Appendix A) as data.
// Each field is a key, a reader, a writer and the value to write, so applying, re-checking and
// reverting are one loop for all of them (conventions, habit 6): read the old value, write ours,
// read back what the browser kept (innerHTML and style values come back normalised), and on
// revert write the old value back only while ours is still there.

import type { ElementChanges } from "@storefit/contract";

type El = Element & { value?: unknown; style?: CSSStyleDeclaration };
type Get = (el: El) => string | null;
type Put = (el: El, v: string | null) => void;
/**
 * One thing a variation writes on an element: `_key` names it among the element's fields, `_value`
 * is what to write; a value of null means "absent": no attribute, no inline style, class not present.
 */
export type Field = { _key: string; _get: Get; _put: Put; _value: string | null };

/** Class names from an array or a space-separated string (Appendix A accepts both). */
export const classNames = (x: unknown): string[] =>
  (Array.isArray(x) ? x.join(" ") : typeof x === "string" ? x : "").split(/\s+/).filter(Boolean);

const attr = (name: string): [Get, Put] => [
  (el) => el.getAttribute(name),
  (el, v) => (v == null ? el.removeAttribute(name) : el.setAttribute(name, v)),
];

const html: [Get, Put] = [(el) => el.innerHTML, (el, v) => void (el.innerHTML = v || "")];

// Form controls keep what the visitor sees in the `value` property, not the attribute.
const value: [Get, Put] = [
  (el) => ("value" in el ? String(el.value) : el.getAttribute("value")),
  (el, v) => ("value" in el ? void (el.value = v || "") : attr("value")[1](el, v)),
];

// "red !important" keeps its priority: the shop's own stylesheet often uses !important too. An
// emptied style attribute is dropped, so a revert leaves no `style=""` behind.
export const style = (prop: string): [Get, Put] => [
  (el) => {
    const s = el.style;
    const v = s && s.getPropertyValue(prop);
    return v ? v + (s.getPropertyPriority(prop) ? "!important" : "") : null;
  },
  (el, v) => {
    const m = /^([\s\S]*?)\s*!important\s*$/i.exec(v || "");
    const s = el.style!;
    if (v) s.setProperty(prop, m ? m[1]! : v, m ? "important" : "");
    else if ((s.removeProperty(prop), !s.length)) el.removeAttribute("style");
  },
];

const cls = (name: string): [Get, Put] => [
  (el) => (el.classList.contains(name) ? name : null),
  (el, v) => void el.classList.toggle(name, v != null),
];

const str = (x: unknown): x is string => typeof x === "string";

/** spec §3 style map keys are CSS names; camelCase ("backgroundColor") is accepted too. */
export const cssName = (p: string): string => (p.startsWith("--") ? p : p.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()));

/**
 * The fields an element change set writes, in a fixed order. An empty `srcset` removes the
 * attribute (the way to make a new `src` show on a responsive image); an empty `href` or
 * `target` means "unchanged". Class edits follow cf_classes_edit_option: `overwrite_classes`
 * replaces the class attribute, `add_remove_classes` (also when the option is absent) adds and
 * removes single classes so the page's other classes stay, `no_changes` leaves classes alone.
 */
export function fieldsOf(v: ElementChanges): Field[] {
  const f: Field[] = [];
  const add = (key: string, [get, put]: [Get, Put], val: string | null) => f.push({ _key: key, _get: get, _put: put, _value: val });
  if (str(v.innerHTML)) add("html", html, v.innerHTML);
  if (v.value != null && typeof v.value !== "object") add("value", value, String(v.value));
  if (str(v.src)) add("src", attr("src"), v.src);
  if (str(v.srcset)) add("srcset", attr("srcset"), v.srcset || null);
  const ht = v.href_target;
  if (ht && typeof ht === "object") for (const k of ["href", "target"] as const) if (ht[k] && str(ht[k])) add(k, attr(k), ht[k]);
  if (v.style && typeof v.style === "object")
    for (const [p, val] of Object.entries(v.style)) if (val != null) add("s:" + cssName(p), style(cssName(p)), String(val) || null);
  const opt = v.cf_classes_edit_option;
  if (opt === "overwrite_classes") add("class", attr("class"), classNames(v.cf_classes_overwrite).join(" "));
  else if (opt !== "no_changes") {
    for (const n of classNames(v.cf_classes_add)) add("c:" + n, cls(n), n);
    for (const n of classNames(v.cf_classes_remove)) add("c:" + n, cls(n), null);
  }
  return f;
}
