// What a config's selector needs of the element it matches, so the engine's observer looks only at
// configs a mutation could concern (dom/engine.ts). For a selector built of compounds joined by
// descendant or child combinators, with no pseudo-class, an element can start to match after
// nodes were added only if it is one of the added nodes or inside one: whether it matches depends
// only on itself and its ancestors. Its last compound names such an element by its id, else one
// of its classes, else its tag. Anything else — sibling combinators, pseudo-classes (`:has`,
// `:nth-of-type`, `:not`), escapes, namespaces — can start to match anywhere after any change,
// and gets no keys.

/**
 * The keys of a selector: one per comma-separated branch, `#id`, `.class`, a tag name
 * (lowercased: HTML tag names match in any case), or `*` (any element); `null` when any change
 * may concern it. Ids and classes keep their case, as a standards-mode page matches them.
 */
export function selectorKeys(selector: string): string[] | null {
  // Attribute conditions narrow nothing here, and their quoted values may hold any character.
  const s = selector.replace(/\[(?:[^\]"'\\]|"[^"\\]*"|'[^'\\]*')*\]/g, "[]");
  if (/[^\w\s>#.*,[\]\u0080-\uffff-]|^\s*,|,\s*(?:,|$)/.test(s)) return null;
  return s.split(",").map((branch) => {
    const last = branch.split(/[\s>]+/).filter(Boolean).pop() || "";
    const name = (sign: string) => (new RegExp("\\" + sign + "([^#.[]+)").exec(last) || [])[1];
    const id = name("#");
    const cls = name(".");
    const tag = /^[\w-]+/.exec(last);
    return id ? "#" + id : cls ? "." + cls : tag ? tag[0].toLowerCase() : "*";
  });
}
