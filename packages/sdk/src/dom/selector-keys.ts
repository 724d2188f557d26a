// What a config's selector needs of the element it matches, so the engine's observer looks only at
// configs a mutation could concern (dom/engine.ts). For a selector built of compounds joined by
// descendant or child combinators, with no pseudo-class, an element can start to match after
// nodes were added only if it is one of the added nodes or inside one: whether it matches depends
// only on itself and its ancestors. Its last compound names such an element by its id, else one
// of its classes, else its tag. Anything else — sibling combinators, pseudo-classes (`:has`,
// `:nth-of-type`, `:not`), escapes, namespaces — can start to match anywhere after any change,
// and gets no keys.

/**
 * The keys of a selector: one per comma-separated branch, `#id`, `.class`, a tag name, or `*`
 * (any element), lowercased (a quirks-mode page matches ids and classes case-insensitively, and
 * a key only narrows what is looked at); `null` when any change may concern it.
 */
export function selectorKeys(selector: string): string[] | null {
  const keys: string[] = [];
  let id = "";
  let cls = "";
  let tag = "";
  // A combinator was seen: the next simple selector starts a new compound.
  let next = true;
  let empty = true;
  const end = () => {
    if (empty) return false;
    keys.push(id ? "#" + id : cls ? "." + cls : tag && tag !== "*" ? tag : "*");
    next = empty = true;
    return true;
  };
  const s = selector.toLowerCase();
  let i = 0;
  const ident = () => {
    const start = i;
    // Name characters: ASCII letters, digits, `-`, `_`, and anything beyond ASCII.
    while (i < s.length && (/[\w-]/.test(s[i]!) || s.charCodeAt(i) > 127)) i++;
    return s.slice(start, i);
  };
  while (i < s.length) {
    const c = s[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === ">") {
      next = true;
      i++;
      continue;
    }
    if (c === ",") {
      if (!end()) return null;
      i++;
      continue;
    }
    if (next) {
      id = cls = tag = "";
      next = false;
    }
    empty = false;
    if (c === "#" || c === ".") {
      i++;
      const name = ident();
      if (!name) return null;
      if (c === "#") id ||= name;
      else cls ||= name;
    } else if (c === "*") {
      tag = "*";
      i++;
    } else if (c === "[") {
      // An attribute condition narrows nothing here; its value may hold any character.
      let quote = "";
      for (i++; i < s.length; i++) {
        const d = s[i]!;
        if (d === "\\") return null;
        if (quote) {
          if (d === quote) quote = "";
        } else if (d === '"' || d === "'") quote = d;
        else if (d === "]") break;
      }
      if (i++ >= s.length) return null;
    } else {
      const name = ident();
      if (!name || tag) return null;
      tag = name;
    }
  }
  return end() ? keys : null;
}
