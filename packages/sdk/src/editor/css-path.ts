// The CSS path of an element for the visual editor (docs/visual-editor.md): unique on the page,
// and robust — it should still find the element after the page is re-rendered, rebuilt or
// restyled. Preference: a stable id, then `data-*` attributes (test ids first), then stable class
// names, then the tag, and `:nth-of-type` only where nothing else tells siblings apart. Generated
// ids (`ember123`, `:r1:`, UUIDs), hashed class names (`css-1x2y3z`, `sc-bdVaJa`, `_a1b2c3`,
// `jsx-123456`), utility classes (Tailwind) and state classes are never used.
//
// Works on any DOM: a function of the element and of the document (or shadow root) it lives in.
// A path is relative to the element's root: for an element inside a shadow root, unique within
// that shadow root (the apply engine queries the document, so the bridge selects shadow hosts).

/** Where a path is looked up: the document, or a shadow root. */
export type PathRoot = Document | DocumentFragment;

// ---- what is stable enough to name an element by ----

/** Class names a framework generates or hashes: they change with every build. */
const HASHED_CLASS = [
  /^css-[a-z0-9]+(?:-|$)/i, // emotion: css-1x2y3z, css-1x2y3z-Button
  /^sc-[a-z0-9]+$/i, // styled-components' component id: sc-bdVaJa
  /^jsx-\d+$/, // styled-jsx
  /^(?:svelte|astro)-[a-z0-9]+$/i, // Svelte and Astro scoping
  /^_[a-z0-9_-]*\d/i, // CSS modules and compiled atomic CSS: _a1b2c3, _3xPq9
  /__[a-z0-9-]*\d[a-z0-9-]*$/i, // CSS modules' local__hash: Button_primary__3xK9a
  /--[a-z0-9]*\d[a-z0-9]*$/i, // Gatsby-style module--name--2bVnK
  /^ng-/, // Angular's runtime classes: ng-star-inserted, ng-tns-c12-3
  /^[a-z]{1,3}\d[a-z0-9]{2,}$/i, // short hashes: e1x2y3z, x1a2b3
];

/** Classes that say what state an element is in right now, not what it is. */
const STATE_CLASS =
  /^(?:is-|has-|js-|was-)|^(?:active|current|selected|focus(?:ed)?|hover(?:ed)?|open(?:ed)?|closed|show(?:n|ing)?|visible|hidden|collapsed|expanded|disabled|checked|loading|loaded|lazyload(?:ed)?|animated|in|fade|sticky|stuck)$/i;

/** Tailwind-style (and Bootstrap) utilities: they describe looks, and pages are full of them. */
const UTILITY_CLASS = new RegExp(
  // Prefixes that are utilities whatever follows (mt-4, text-gray-700, rounded-lg, d-flex) …
  "^-?(?:[mp][trblxyse]?|(?:min-|max-)?[wh]|size|inset(?:-[xy])?|z|gap(?:-[xy])?|space-[xy]|divide(?:-[xy])?|" +
    "grid-(?:cols|rows|flow)|(?:col|row)-(?:span|start|end)|col-(?:xs|sm|md|lg|xl|xxl)|d|" +
    "text|font|leading|tracking|line-clamp|decoration|underline-offset|bg|from|via|to|" +
    "border(?:-[trblxyse])?|rounded(?:-[trblse]{1,2})?|shadow|ring(?:-offset)?|outline|opacity|fill|stroke|" +
    "items|justify(?:-items|-self)?|place-(?:content|items|self)|flex|overflow(?:-[xy])?|overscroll|" +
    "scale(?:-[xy])?|rotate|translate-[xy]|skew-[xy]|blur|brightness|contrast|grayscale|backdrop|drop-shadow)-" +
    // … prefixes that are also plain words (top-bar, list-item), only with a utility's value …
    "|^-?(?:top|right|bottom|left|start|end|order|self|content|list|box|table|align|select|float|clear|columns|" +
    "object|cursor|transition|ease|delay|duration|animate|aspect|basis|grow|shrink|whitespace|break|indent|origin|scroll|snap|touch)-" +
    "(?:\\d[\\w./]*|px|auto|full|screen|none|fit|min|max|center|start|end|between|around|evenly|stretch|baseline|contain|cover|" +
    "pointer|default|linear|in|out|in-out|spin|ping|pulse|bounce|square|video|normal|nowrap|words|all|disc|decimal|inside|outside)$" +
    // … and the bare ones.
    "|^(?:flex|grid|block|inline|inline-block|inline-flex|inline-grid|contents|flow-root|static|fixed|absolute|relative|" +
    "sticky|container|truncate|uppercase|lowercase|capitalize|normal-case|italic|not-italic|underline|overline|line-through|" +
    "no-underline|antialiased|subpixel-antialiased|sr-only|not-sr-only|invisible|collapse|isolate|grow|shrink|shadow|" +
    "rounded|border|transition|transform|filter|ring|outline|resize|clearfix|row|col)$",
);

/** Characters only utilities and generated names use: variants, fractions, arbitrary values. */
const ODD = /[:/[\]!.()#%@,=+*'"\\]/;

/** A part of a name that looks like a hash: five or more characters mixing letters and two or more digits. */
const hashLike = (name: string): boolean =>
  name
    .split(/[-_]+/)
    .some((part) => part.length >= 5 && /\d.*\d/.test(part) && /[a-z]/i.test(part));

/** styled-components' generated class: 5–8 letters, mixed case, two or more capitals (kDBpUh, bdVaJa). */
const styledName = (c: string): boolean =>
  /^[a-z]{5,8}$/i.test(c) && /[A-Z].*[A-Z]/.test(c) && /[a-z]/.test(c);

/** True for a class name that is generated, hashed, a utility, a state, or the script's own. */
export function isUnstableClass(c: string): boolean {
  return (
    !c ||
    ODD.test(c) ||
    /^\d/.test(c) ||
    /^(?:storefit|cf-)/.test(c) ||
    HASHED_CLASS.some((re) => re.test(c)) ||
    STATE_CLASS.test(c) ||
    UTILITY_CLASS.test(c) ||
    hashLike(c) ||
    styledName(c)
  );
}

/** True for an id a framework or a counter made: it is different on the next render or page. */
export function isGeneratedId(id: string): boolean {
  return (
    !id ||
    /[:«»\s]/.test(id) || // React useId (:r1:, «r1»), Radix (radix-:r0:), and ids no CSS would use
    /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/i.test(id) || // UUIDs
    /^\d+$/.test(id) || // counters: "123"
    /\d{3,}/.test(id) || // ember123, ext-gen1234, shopify-section-template--1601234__main
    /^(?:ember|ext-gen|yui_|j_id|mui-|rc-|uid-|gen-|react-select-|downshift-|headlessui-|radix-)/i.test(
      id,
    ) ||
    hashLike(id)
  );
}

/** data-* attributes worth naming an element by, most preferred first. */
const TEST_ATTRS = [
  "data-testid",
  "data-test-id",
  "data-test",
  "data-qa",
  "data-cy",
  "data-component",
  "data-section-type",
  "data-product-id",
  "data-id",
];

/** data-* attributes that hold state, framework bookkeeping, lazy-loading URLs or the script's marker. */
const NOISY_DATA =
  /^data-(?:storefit|v-|reactid|react|rbd|radix|headlessui|state|active|selected|focus|hover|open|expanded|checked|disabled|highlighted|visible|loaded|loading|index|src|srcset|sizes|lazy|bg|original|ll-|was-|aos|gtm|ga-|track|analytics|styled|emotion|n-head|hid|server-rendered|turbo|swiper|slick|rendered|initialized|observed)/i;

/** A `data-*` attribute and value that can name an element: declared on purpose, not state. */
export function isStableDataAttribute(name: string, value: string): boolean {
  return (
    /^data-[a-z0-9_.-]+$/i.test(name) &&
    !NOISY_DATA.test(name) &&
    value.length <= 100 &&
    !/[\n\r]|^\s*[[{]|:r[0-9a-z]*:/i.test(value)
  );
}

// ---- CSS text ----

const esc = (s: string) => CSS.escape(s);

/** A CSS string: quotes, backslashes and control characters escaped. */
const quote = (v: string) =>
  '"' +
  // eslint-disable-next-line no-control-regex -- control characters are what must be escaped
  v.replace(/["\\]|[\u0000-\u001f\u007f]/g, (ch) =>
    ch === '"' || ch === "\\" ? "\\" + ch : "\\" + ch.charCodeAt(0).toString(16) + " ",
  ) +
  '"';

const attrSel = (name: string, value: string) => `[${esc(name)}${value ? "=" + quote(value) : ""}]`;

/** The type selector: the local name keeps the case of SVG names (`linearGradient`, `clipPath`). */
const tagOf = (el: Element) => esc(el.localName);

// ---- the path ----

const rootOf = (el: Element): PathRoot => {
  const r = el.getRootNode();
  return r && "querySelectorAll" in r && r.nodeType !== 1 ? (r as PathRoot) : el.ownerDocument;
};

/** Elements `sel` matches in `root`; -1 when it is not a valid selector. */
export function countMatches(sel: string, root: ParentNode = document): number {
  try {
    return root.querySelectorAll(sel).length;
  } catch {
    return -1;
  }
}

const stableClasses = (el: Element) => {
  const out: string[] = [];
  for (const c of (el.getAttribute("class") || "").split(/\s+/))
    if (!isUnstableClass(c) && !out.includes(c) && out.length < 6) out.push(c);
  return out;
};

const dataAttrs = (el: Element): [string, string][] => {
  const out: [string, string][] = [];
  for (const a of Array.from(el.attributes))
    if (a.name.startsWith("data-") && isStableDataAttribute(a.name, a.value))
      out.push([a.name, a.value]);
  const rank = (n: string) => (TEST_ATTRS.includes(n) ? TEST_ATTRS.indexOf(n) : TEST_ATTRS.length);
  return out.sort((a, b) => rank(a[0]) - rank(b[0]));
};

const NAMED = /^(?:input|select|textarea|button|form|iframe|fieldset|output|object|map|meta)$/;

/** Tags that say where an element is when there is only one of them (`main`, `h1`). */
const LANDMARK = /^(?:html|head|body|main|header|footer|nav|aside|h1)$/;

/**
 * Selectors for `el` on its own, most preferred first: id, data attributes, `name` of form
 * controls, stable classes (one, then two), a landmark tag. Whether one is unique is the caller's
 * question.
 */
function ownSelectors(el: Element): string[] {
  const tag = tagOf(el);
  const out: string[] = [];
  if (el.id && !isGeneratedId(el.id)) out.push("#" + esc(el.id));
  for (const [n, v] of dataAttrs(el)) out.push(attrSel(n, v));
  const name = el.getAttribute("name");
  if (name && NAMED.test(el.localName) && !isGeneratedId(name) && !/[\n\r]/.test(name))
    out.push(tag + attrSel("name", name));
  const classes = stableClasses(el);
  for (const c of classes) out.push("." + esc(c), tag + "." + esc(c));
  for (let i = 0; i < classes.length; i++)
    for (let j = i + 1; j < classes.length; j++)
      out.push(tag + "." + esc(classes[i]!) + "." + esc(classes[j]!));
  if (LANDMARK.test(el.localName)) out.push(tag);
  return out;
}

/** The step that picks `el` among its siblings: the first own selector no sibling shares, else the tag, else `:nth-of-type`. */
function siblingStep(el: Element): string {
  const parent = el.parentNode;
  if (!parent) return tagOf(el);
  const siblings = Array.from(parent.children).filter((s) => s !== el);
  const alone = (sel: string) => {
    try {
      return el.matches(sel) && !siblings.some((s) => s.matches(sel));
    } catch {
      return false;
    }
  };
  const tag = tagOf(el);
  for (const s of ownSelectors(el)) {
    const step = /^[#.[]/.test(s) && !s.startsWith("#") ? tag + s : s;
    if (alone(step)) return step;
  }
  if (alone(tag)) return tag;
  let n = 1;
  for (let s = el.previousElementSibling; s; s = s.previousElementSibling)
    if (s.localName === el.localName && s.namespaceURI === el.namespaceURI) n++;
  return `${tag}:nth-of-type(${n})`;
}

/**
 * A CSS path that matches `target` and nothing else in its document (or shadow root).
 *
 * 1. The element alone: its id, data attributes, name, classes — the first that is unique.
 * 2. Otherwise the path climbs: each ancestor adds a step that picks it among its siblings, until
 *    an ancestor has a selector of its own that is unique on the page (an anchor: `#main`,
 *    `[data-testid="cart"]`, `header.site-header`, `body`). Under the anchor the shortest tail
 *    that is still unique wins: the element's own selector (`#main .price`), then the last steps
 *    (`#main li:nth-of-type(2) > a`), then the whole chain with child combinators.
 */
export function cssPath(target: Element): string {
  const root = rootOf(target);
  const only = (sel: string) => {
    try {
      const found = root.querySelectorAll(sel);
      return found.length === 1 && found[0] === target;
    } catch {
      return false;
    }
  };
  const own = ownSelectors(target);
  for (const s of own) if (only(s)) return s;

  const steps: string[] = [];
  for (let node: Element = target; ;) {
    steps.unshift(siblingStep(node));
    const parent = node.parentElement;
    if (!parent) {
      // The top of a shadow root (the document's top, html, names itself): `div > p` may match a
      // deeper `div > p` too. `:not(* *)` keeps to elements with no ancestor in the root, its top
      // level (`:scope` matches nothing in a shadow root's querySelectorAll).
      const sel = steps.join(" > ");
      return only(sel) ? sel : steps[0] + ":not(* *)" + sel.slice(steps[0]!.length);
    }
    for (const anchor of ownSelectors(parent)) {
      if (countMatches(anchor, root) !== 1) continue;
      for (const tail of own) if (only(anchor + " " + tail)) return anchor + " " + tail;
      // A tail under a descendant combinator must start with something that names an element:
      // `body a:nth-of-type(2)` would match the next list's second link as soon as there is one.
      for (let k = steps.length - 1; k > 0; k--) {
        const sel = anchor + " " + steps.slice(k).join(" > ");
        if (/^[^\s>]*[#.[]/.test(steps[k]!) && only(sel)) return sel;
      }
      const sel = anchor + " > " + steps.join(" > ");
      if (only(sel)) return sel;
    }
    node = parent;
  }
}
