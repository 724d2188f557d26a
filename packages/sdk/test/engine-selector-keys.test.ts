// What the apply engine's observer indexes a config by (dom/selector-keys.ts): the last
// compound's id, else a class, else its tag; no keys for selectors any change may concern.
import { describe, expect, it } from "vitest";
import { selectorKeys } from "../src/dom/selector-keys.js";

describe("selectorKeys", () => {
  const rows: [string, string[] | null][] = [
    ["#price", ["#price"]],
    ["#Price .Big", [".Big"]],
    ["DIV > Span", ["span"]],
    ["div#price.big", ["#price"]],
    [".product .price", [".price"]],
    ["#app > p.copy.sale", [".copy"]],
    ["main   section > h2", ["h2"]],
    ["H2", ["h2"]],
    ["*", ["*"]],
    ["[data-test=buy]", ["*"]],
    ['a[href="https://x.test/a:b,c"]', ["a"]],
    ["div[data-x='1'] .x-y_z", [".x-y_z"]],
    ["#a, .b, li", ["#a", ".b", "li"]],
    ["#prïce", ["#prïce"]],
    // Any change may concern these: sibling combinators, pseudo-classes, escapes, namespaces.
    ["h2 + p", null],
    ["h2 ~ p", null],
    ["ul > li:nth-of-type(2)", null],
    ["div:has(> img) .x", null],
    [".a:not(.b)", null],
    ["#\\31 23", null],
    ["svg|rect", null],
    ['[data-x="a\\"b"]', null],
    // An empty branch: not a selector (the engine's query throws and finds nothing).
    ["a,", null],
  ];
  for (const [selector, want] of rows)
    it(JSON.stringify(selector), () => expect(selectorKeys(selector)).toEqual(want));
});
