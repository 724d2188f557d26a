// spec §5 "Redirects" and the global query-parameter action as tables: kept query strings, the
// cf_redirected marker, no loops, and refused targets.
import { describe, expect, it } from "vitest";
import { REDIRECT_MARKER, editQuery, redirectUrl } from "../src/dom/redirect.js";

const CUR = "https://shop.example/products/soap?utm_source=mail&ref=a%20b";

describe("redirectUrl (spec §5 Redirects)", () => {
  const rows: [what: string, target: string, current: string, retain: boolean | undefined | null, automatic: boolean, want: string | null][] = [
    ["keeps the query string when retain_params is absent", "/products/shampoo", CUR, undefined, false, "https://shop.example/products/shampoo?utm_source=mail&ref=a%20b"],
    ["keeps it when retain_params is true", "/products/shampoo", CUR, true, false, "https://shop.example/products/shampoo?utm_source=mail&ref=a%20b"],
    ["keeps it when retain_params is null (absent on the wire)", "/products/shampoo", CUR, null, false, "https://shop.example/products/shampoo?utm_source=mail&ref=a%20b"],
    ["drops it when retain_params is false", "/products/shampoo", CUR, false, false, "https://shop.example/products/shampoo"],
    ["lets the target's own parameters win over kept ones", "/products/shampoo?ref=x", CUR, true, false, "https://shop.example/products/shampoo?ref=x&utm_source=mail"],
    ["keeps the target's fragment", "/products/shampoo#reviews", CUR, false, false, "https://shop.example/products/shampoo#reviews"],
    ["resolves a relative target", "shampoo", CUR, false, false, "https://shop.example/products/shampoo"],
    ["follows an absolute target on another host", "https://shop-uk.example/products/soap", CUR, false, false, "https://shop-uk.example/products/soap?cf_redirected=1"],
    ["marks a target with the same path", "/products/soap?variant=2", CUR, true, false, "https://shop.example/products/soap?variant=2&utm_source=mail&ref=a%20b&cf_redirected=1"],
    ["compares paths normalised (trailing slash)", "/products/soap/", CUR, false, false, "https://shop.example/products/soap/?cf_redirected=1"],
    ["does not mark a target with another path", "/products/soap-bar", CUR, false, false, "https://shop.example/products/soap-bar"],
    ["does not add the marker twice", "/products/soap?cf_redirected=1", "https://shop.example/products/soap", true, false, "https://shop.example/products/soap?cf_redirected=1"],
    ["never redirects automatically from a page that carries the marker", "/products/other", "https://shop.example/products/soap?cf_redirected=1", true, true, null],
    ["still follows a click from such a page", "/products/other", "https://shop.example/products/soap?cf_redirected=1", false, false, "https://shop.example/products/other"],
    ["redirects automatically from a page without the marker", "/products/other", "https://shop.example/products/soap", true, true, "https://shop.example/products/other"],
    ["keeps repeated parameters as written", "/b", "https://shop.example/a?t=1&t=2&x", true, false, "https://shop.example/b?t=1&t=2&x"],
    ["refuses javascript: targets", "javascript:alert(1)", CUR, true, false, null],
    ["refuses data: targets", "data:text/html,hi", CUR, true, false, null],
    ["refuses an unparsable current URL", "/x", "not a url", true, false, null],
    ["treats a malformed escape in a kept key as its text", "/b", "https://shop.example/a?%E0%A4%A=1", true, false, "https://shop.example/b?%E0%A4%A=1"],
  ];
  for (const [what, target, current, retain, automatic, want] of rows)
    it(what, () => expect(redirectUrl(target, current, retain, automatic)).toBe(want));

  it("uses the marker name of spec §2", () => expect(REDIRECT_MARKER).toBe("cf_redirected"));
});

describe("editQuery (global_actions.query_params)", () => {
  const rows: [what: string, href: string, edits: Parameters<typeof editQuery>[1], want: string][] = [
    ["adds a parameter", "https://s.example/p", [{ key: "promo", value: "spring", operation: "add" }], "https://s.example/p?promo=spring"],
    ["replaces a parameter's value", "https://s.example/p?promo=old&a=1", [{ key: "promo", value: "new", operation: "add" }], "https://s.example/p?a=1&promo=new"],
    ["removes every occurrence", "https://s.example/p?a=1&b=2&a=3", [{ key: "a", operation: "remove" }], "https://s.example/p?b=2"],
    ["encodes keys and values", "https://s.example/p", [{ key: "a b", value: "x&y", operation: "add" }], "https://s.example/p?a%20b=x%26y"],
    ["applies edits in order", "https://s.example/p?a=1", [{ key: "a", operation: "remove" }, { key: "a", value: "2", operation: "add" }], "https://s.example/p?a=2"],
    ["keeps the fragment and other parameters' spelling", "https://s.example/p?q=a+b#top", [{ key: "x", value: "1", operation: "add" }], "https://s.example/p?q=a+b&x=1#top"],
    ["adds an empty value when none is given", "https://s.example/p", [{ key: "flag", operation: "add" }], "https://s.example/p?flag="],
    ["skips edits without a key", "https://s.example/p?a=1", [{ key: "", operation: "remove" }, null as never], "https://s.example/p?a=1"],
    ["removes the last parameter cleanly", "https://s.example/p?a=1", [{ key: "a", operation: "remove" }], "https://s.example/p"],
    ["answers an unparsable URL unchanged", "::", [{ key: "a", operation: "add" }], "::"],
  ];
  for (const [what, href, edits, want] of rows) it(what, () => expect(editQuery(href, edits)).toBe(want));
});
