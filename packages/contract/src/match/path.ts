// Page-path normalization and page matching (spec §2 "Configured pages", "Page matching").
// Pure and browser-safe: the storefront script bundles it, so it stays small and never throws.
import { matchDomain } from "./domain.js";

export type PageMatchKind = "exact_match" | "contains" | "regex";

/** A user- or service-supplied pattern; invalid or empty gives null (product.md Appendix A). */
export const toRegExp = (pattern: string): RegExp | null => {
  if (typeof pattern !== "string" || !pattern) return null;
  try {
    return new RegExp(pattern);
  } catch {
    return null;
  }
};

/**
 * Longest text a saved regular expression is tested against (page patterns, blacklists, audience
 * `$regex`); a longer text is tested by its first REGEX_INPUT_MAX_LENGTH characters (UTF-16 code
 * units). Every pattern the service accepts backtracks at worst quadratically in the text's length
 * (server admin/patterns.ts), so one test costs at most about 2,048² steps however long a
 * visitor's URL or attribute is (a quadratic pattern, "/products/" then ".*" then "/reviews", on
 * a 320 KB value had held a node's event loop for 15 s).
 */
export const REGEX_INPUT_MAX_LENGTH = 2048;

/**
 * The time the service lets the regular expressions of one piece of work take (server
 * decide/regex-budget.ts sets it around a decision, an audience test, an overlaps check): an
 * accepted pattern may still be quadratic (~3 ms on 2,048 characters), and a request can make
 * thousands of tests, so a bound per test is no bound per request. `clock` unset (the browser):
 * no budget. Once `left` is spent, every further test is false, as for a pattern that matches
 * nothing.
 */
export const regexBudget: { left: number; clock?: () => number } = { left: 1 };

/** `re.test` on at most the first REGEX_INPUT_MAX_LENGTH characters of `text`, within regexBudget. */
export const testRegExp = (re: RegExp, text: string): boolean => {
  const clock = regexBudget.clock;
  if (!clock) return re.test(text.length > REGEX_INPUT_MAX_LENGTH ? text.slice(0, REGEX_INPUT_MAX_LENGTH) : text);
  if (regexBudget.left <= 0) return false;
  const start = clock();
  const hit = re.test(text.length > REGEX_INPUT_MAX_LENGTH ? text.slice(0, REGEX_INPUT_MAX_LENGTH) : text);
  regexBudget.left -= clock() - start;
  return hit;
};

/**
 * `[path, query]` of a bare path or a full URL, as written: fragment dropped, scheme and host
 * dropped, query without its "?". Nothing is decoded or trimmed of slashes here.
 */
export const splitUrl = (url: string): [path: string, query: string] => {
  const s = (typeof url === "string" ? url : "").trim().replace(/#[\s\S]*/, "");
  const i = s.indexOf("?");
  const path = (i < 0 ? s : s.slice(0, i)).replace(/^[a-z][a-z\d+.-]*:\/\/[^/]*/i, "");
  return [path, i < 0 ? "" : s.slice(i + 1)];
};

/**
 * spec §2: query and fragment removed, trailing slashes removed, empty path becomes "/".
 * A full URL gives its pathname. A missing leading "/" is added ("products/a" → "/products/a");
 * nothing else changes: case and percent-encoding are kept.
 */
export function normalizePagePath(path: string): string {
  const p = splitUrl(path)[0].replace(/\/+$/, "");
  return p ? (p[0] === "/" ? p : "/" + p) : "/";
}

const decode = (s: string, all?: boolean): string => {
  try {
    return all ? decodeURIComponent(s.replace(/\+/g, " ")) : decodeURI(s);
  } catch {
    return s;
  }
};

/**
 * Normalized paths are equal, as written or percent-decoded, so a configured "/products/café"
 * equals the browser's "/products/caf%C3%A9" (decodeURI keeps "%2F" and "%3F" encoded).
 */
export const samePath = (a: string, b: string): boolean => {
  const x = normalizePagePath(a);
  const y = normalizePagePath(b);
  return x === y || decode(x) === decode(y);
};

/** Query parts as decoded `[key, value]`; a part without "=" has value null. */
const queryParts = (q: string): [string, string | null][] =>
  q
    .split("&")
    .filter(Boolean)
    .map((part) => {
      const i = part.indexOf("=");
      return i < 0
        ? [decode(part, true), null]
        : [decode(part.slice(0, i), true), decode(part.slice(i + 1), true)];
    });

/**
 * spec §2 page matching of `url` (bare path or full URL) against one configured pattern.
 * - exact_match: normalized paths are equal (see `samePath`), and every query part the pattern
 *   carries ("/products/a?color=red&size=2") appears in the url's query, in any order; extra url
 *   parameters are allowed. "key" requires the key with any value; "key=" requires an empty value.
 *   Keys and values are compared decoded ("+" and "%20" are a space) and case-sensitively.
 * - contains / regex: true when the pattern is found in the normalized path, in the path as
 *   written, or in the path as written plus "?" and the query (never the host or fragment). So
 *   "^/products/[^/]+$" matches "/products/a/?utm_source=x", and "utm_source=fb" targets by query.
 *   Case-sensitive; an empty or invalid pattern matches nothing.
 * - any other kind: false.
 */
export function matchPagePath(kind: PageMatchKind | string, pattern: string, url: string): boolean {
  if (typeof pattern !== "string") return false;
  const [path, query] = splitUrl(url);
  if (kind === "exact_match") {
    const have = queryParts(query);
    return (
      samePath(pattern, url) &&
      queryParts(splitUrl(pattern)[1]).every(([k, v]) =>
        have.some(([hk, hv]) => hk === k && (v === null || (hv ?? "") === v)),
      )
    );
  }
  const texts = [normalizePagePath(url), path, query ? path + "?" + query : path];
  if (kind === "contains") return !!pattern && texts.some((t) => t.includes(pattern));
  const re = kind === "regex" ? toRegExp(pattern) : null;
  return !!re && texts.some((t) => testRegExp(re, t));
}

/**
 * spec §3 "Page configuration" against the current location. A non-empty `page.domain` must match
 * the host (`matchDomain`: exact and case-insensitive, no "www." folding; a `*.` entry is honoured).
 * Choice: an empty domain means `mainDomain` when one is given, and any host otherwise.
 * `page_match` defaults to exact_match.
 */
export function matchPage(
  page: { domain?: string; page_path: string; page_match?: string },
  location: { hostname: string; pathname: string; search?: string },
  mainDomain?: string,
): boolean {
  const domain = page.domain || mainDomain;
  const search = location.search || "";
  return (
    (!domain || matchDomain(location.hostname, domain)) &&
    matchPagePath(
      page.page_match || "exact_match",
      page.page_path,
      location.pathname + (search && search[0] !== "?" ? "?" + search : search),
    )
  );
}

/**
 * Whether a config applies on this page: the one rule of the service, the storefront script and
 * the visual editor. A config bound to a page (`properties.page_path`) applies where that page
 * matches (`matchPage`: an empty domain is `mainDomain`, else any host; `page_match` defaults to
 * exact_match); a config without one applies wherever its experience does.
 */
export function configMatchesPage(
  config: { properties?: { page_path?: string; domain?: string; page_match?: string } | null },
  location: { hostname: string; pathname: string; search?: string },
  mainDomain?: string,
): boolean {
  const p = config.properties;
  return !p?.page_path || matchPage({ domain: p.domain ?? "", page_path: p.page_path, page_match: p.page_match ?? "exact_match" }, location, mainDomain);
}
