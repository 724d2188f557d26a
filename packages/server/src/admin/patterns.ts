// Regular expressions an operator saves: page targeting (experiences, configs, goals) and the
// account's page, revenue, merge and blacklist patterns. The service matches experience pages
// against the path every config call names, and the script matches the account's patterns
// against every visitor's URL and referrer — both chosen by whoever sends the request or the
// link. A pattern with catastrophic backtracking ("(a+)+b") would let one crafted path hold a
// node, or a shopper's tab, for seconds; such patterns are refused when saved.
//
// safe-regex2 is a heuristic (star height above one, or more than 25 repetitions), the same
// fastify's router uses and the audience conditions use (decide/conditions.ts).

import safeRegex from "safe-regex2";
import { HttpError } from "../http/errors.js";

/** Why `pattern` cannot be saved, or null. `invalid`: whether a pattern that does not compile is refused too. */
export function patternProblem(pattern: string, invalid: boolean): string | null {
  try {
    new RegExp(pattern);
  } catch {
    return invalid ? "is not a valid regular expression" : null;
  }
  return safeRegex(pattern) ? null : "is a regular expression that can take exponential time (nested repetition); write it without a repeated group inside a repetition";
}

/** Throws a 400 `invalid_body` naming `where` when the pattern cannot be saved. */
export function checkPattern(where: string, pattern: string, invalid = true): void {
  const problem = patternProblem(pattern, invalid);
  if (problem) throw new HttpError(400, "invalid_body", `${where}: the pattern ${JSON.stringify(pattern)} ${problem}`);
}

type PageLike = { page_path: string; page_match?: string | undefined };

/** The page's regex, when it is one, checked. */
export function checkPagePattern(where: string, page: PageLike, invalid = true): void {
  if (page.page_match === "regex") checkPattern(where, page.page_path, invalid);
}

type SettingsPatterns = {
  pages?: readonly PageLike[];
  revenue_pages?: readonly { path_check_type: string; pattern_value: string }[];
  event_merge?: readonly { path_check_type: string; pattern_value: string }[];
  page_blacklist?: readonly string[];
  referrer_blacklist?: readonly string[];
};

/**
 * The account settings' regular expressions (the script runs them on every page): an unsafe one
 * is refused. One that does not compile is kept, as before: spec Appendix A makes it match
 * nothing, and the dashboard shows it as typed.
 */
export function checkSettingsPatterns(settings: SettingsPatterns): void {
  settings.pages?.forEach((p, i) => checkPagePattern(`Page configuration ${i + 1}`, p, false));
  for (const [field, label] of [
    ["revenue_pages", "Revenue rule"],
    ["event_merge", "Event-merge rule"],
  ] as const) {
    settings[field]?.forEach((r, i) => {
      if (r.path_check_type === "regex") checkPattern(`${label} ${i + 1}`, r.pattern_value, false);
    });
  }
  settings.page_blacklist?.forEach((p, i) => checkPattern(`Page blacklist entry ${i + 1}`, p, false));
  settings.referrer_blacklist?.forEach((p, i) => checkPattern(`Referrer blacklist entry ${i + 1}`, p, false));
}
