// Path checks of revenue page rules and event-merge rules (spec §3 "Rules and lists"), path-merge
// into cf_merged_page_path (spec §2, §3 Event), and blacklists (spec §6, product.md Appendix A).
import { matchDomain } from "./domain.js";
import { normalizePagePath, samePath, splitUrl, testRegExp, toRegExp } from "./path.js";

export type PathCheckType = "simple" | "starts_with" | "ends_with" | "contains" | "regex";

/**
 * One path check. Query and fragment never take part (these are path rules).
 * - simple: normalized paths are equal (as in exact_match, without query parts).
 * - starts_with / ends_with / contains / regex: true when the normalized path or the path as
 *   written satisfies it, so "/checkout/" (as written) and "/thank-you" (trailing slash
 *   normalized away) both work; case-sensitive.
 * An empty pattern (except for simple, where "" is "/"), an invalid regex or an unknown type: false.
 */
export function matchPathCheck(
  type: PathCheckType | string,
  pattern: string,
  path: string,
): boolean {
  if (typeof pattern !== "string") return false;
  if (type === "simple") return samePath(pattern, path);
  const texts = [normalizePagePath(path), splitUrl(path)[0]];
  const re = type === "regex" ? toRegExp(pattern) : null;
  return (
    !!pattern &&
    texts.some((t) =>
      type === "starts_with"
        ? t.startsWith(pattern)
        : type === "ends_with"
          ? t.endsWith(pattern)
          : type === "contains"
            ? t.includes(pattern)
            : !!re && testRegExp(re, t),
    )
  );
}

/**
 * spec §2 path-merge rules → the event property cf_merged_page_path: the `final_path` of the first
 * rule whose domain is empty or matches `domain` (`matchDomain`) and whose check matches `path`;
 * null when none does.
 */
export function mergedPagePath(
  rules: readonly {
    domain?: string;
    path_check_type: string;
    pattern_value: string;
    final_path: string;
  }[],
  domain: string,
  path: string,
): string | null {
  for (const r of Array.isArray(rules) ? rules : []) {
    if (
      r &&
      (!r.domain || matchDomain(domain, r.domain)) &&
      matchPathCheck(r.path_check_type, r.pattern_value, path)
    ) {
      return r.final_path;
    }
  }
  return null;
}

/**
 * Blacklist check (spec §6; product.md Appendix A): true when any pattern, a regular expression
 * tested unanchored and case-sensitively against `value` as given (its first
 * REGEX_INPUT_MAX_LENGTH characters), matches. Invalid or empty
 * patterns match nothing, so a broken entry never blocks all tracking.
 */
export const matchesAnyPattern = (patterns: readonly string[], value: string): boolean =>
  Array.isArray(patterns) &&
  patterns.some((p) => {
    const re = toRegExp(p);
    return !!re && testRegExp(re, `${value ?? ""}`);
  });
