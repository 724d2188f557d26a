// Regular expressions an operator saves: page targeting (experiences, configs, goals), audience
// `$regex` conditions and the account's page, revenue, merge and blacklist patterns. The service
// matches experience pages against the path every config call names and audience patterns
// against what visitors send; the script matches the account's patterns against every visitor's
// URL and referrer — all chosen by whoever sends the request or the link. A pattern that can
// backtrack for exponential time ("(a+)+b", "(a|a)*") would let one crafted path hold a node, or
// a shopper's tab, for seconds to hours; such patterns are refused when saved, and an experience
// holding one (saved before this check) cannot be started.
//
// Every test of a saved pattern reads at most REGEX_INPUT_MAX_LENGTH (2,048) characters of its
// text (contract testRegExp; a longer URL or attribute is cut), so what a pattern may cost is
// bounded by its backtracking degree at that length. Two checks, one shared:
// - nestedRepetitionProblem, cheap (star height: repetition inside repetition,
//   "(a+)+", can take exponential time even on 2,048 characters): made at save time and by the
//   evaluator itself before it runs a stored pattern (decide/conditions.ts), so a pattern saved
//   before these checks is never run;
// - recheck's analysis (https://makenowjust-labs.github.io/recheck/), too slow for a config call
//   (up to seconds), at save time only: it decides whether backtracking can take exponential or
//   polynomial time. Refused: exponential, and polynomial of degree 3 or more (2,048³ is 10^10
//   steps). Quadratic is accepted: every unanchored pattern with a `.*` is quadratic
//   ("/products/.*/reviews"), and 2,048² steps stay within milliseconds. When recheck cannot
//   decide (syntax it does not support, its time-out), the cheap check's verdict stands.
// So whatever the save check accepts, the evaluator runs, at a bounded cost.

import { checkSync } from "recheck";
import { HttpError } from "../http/errors.js";

/** Highest polynomial degree of backtracking accepted (at 2,048 characters: about 4 million steps). */
const MAX_DEGREE = 2;

/**
 * Why a pattern nests repetition (and could take exponential time), or null. Cheap enough for the
 * evaluator, which runs no pattern this refuses; the save check refuses it first.
 */
export function nestedRepetitionProblem(pattern: string): string | null {
  return repeatsARepetition(pattern) ? "nests repetition (like (a+)+) and could take exponential time" : null;
}

/**
 * Whether a group holding a repetition is itself repeated: the star height above 1 that can
 * backtrack exponentially. Unlike safe-regex2, an optional group (`?`, `{0,1}`) is no
 * repetition — `^/products(/[a-z-]+)?$` is as cheap as its parts — while `*`, `+`, `{n,}` and
 * `{n,m}` with m ≥ 2 are. One pass over the source: escapes and character classes are skipped,
 * each open group records whether it holds a repetition.
 */
function repeatsARepetition(source: string): boolean {
  const holds: boolean[] = [false];
  let groupJustClosed = false;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const closed = groupJustClosed;
    groupJustClosed = false;
    if (c === "\\") {
      i += 2;
    } else if (c === "[") {
      // A class ends at the first "]" not escaped (a "]" right after "[" or "[^" is literal).
      let j = i + 1;
      if (source[j] === "^") j++;
      if (source[j] === "]") j++;
      while (j < source.length && source[j] !== "]") j += source[j] === "\\" ? 2 : 1;
      i = j + 1;
    } else if (c === "(") {
      holds.push(false);
      i++;
    } else if (c === ")") {
      const inner = holds.length > 1 ? holds.pop()! : false;
      if (inner) holds[holds.length - 1] = true;
      groupJustClosed = inner;
      i++;
    } else if (c === "*" || c === "+" || c === "?" || c === "{") {
      const braces = c === "{" ? /^\{(\d*)(,(\d*))?\}/.exec(source.slice(i, i + 24)) : null;
      if (c === "{" && !braces) {
        i++; // a literal "{"
        continue;
      }
      const repeats = c === "*" || c === "+" || (braces !== null && (braces[2] !== undefined ? braces[3] === "" || Number(braces[3]) >= 2 : Number(braces[1]) >= 2));
      if (repeats && closed) return true;
      if (repeats) holds[holds.length - 1] = true;
      i += braces ? braces[0].length : 1;
      if (source[i] === "?") i++; // lazy
    } else {
      i++;
    }
  }
  return false;
}

const verdicts = new Map<string, string | null>();
const VERDICT_CACHE_SIZE = 2000;

/** Why a pattern that compiles could take too long, or null. */
export function slowPatternProblem(pattern: string, flags = ""): string | null {
  const key = `${flags}/${pattern}`;
  let verdict = verdicts.get(key);
  if (verdict !== undefined) return verdict;
  const nested = nestedRepetitionProblem(pattern);
  if (nested) return nested;
  const result = checkSync(pattern, flags, { timeout: 2000 });
  if (result.status === "vulnerable") {
    const c = result.complexity;
    verdict =
      c.type === "exponential"
        ? "can take exponential time on some inputs (a repetition of alternatives or repetitions that overlap, like (a|a)* or (a+)+)"
        : c.degree > MAX_DEGREE
          ? `can take time growing as the input's length to the power ${c.degree} (several unanchored .* in a row, like a.*b.*c); anchor it or use [^/]* instead of .*`
          : null;
  } else {
    verdict = null;
  }
  if (verdicts.size >= VERDICT_CACHE_SIZE) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

/** Why `pattern` cannot be saved, or null. `invalid`: whether a pattern that does not compile is refused too. */
export function patternProblem(pattern: string, invalid: boolean): string | null {
  try {
    new RegExp(pattern);
  } catch {
    return invalid ? "is not a valid regular expression" : null;
  }
  const slow = slowPatternProblem(pattern);
  return slow ? `is a regular expression that ${slow}` : null;
}

/** Throws a 400 `invalid_body` naming `where` when the pattern cannot be saved. */
export function checkPattern(where: string, pattern: string, invalid = true): void {
  const problem = patternProblem(pattern, invalid);
  if (problem) throw new HttpError(400, "invalid_body", `${where}: the pattern ${JSON.stringify(pattern)} ${problem}`);
}

type PageLike = { page_path: string; page_match?: string | undefined };

/** Why the page's regex (when it is one) cannot be saved, or null. */
export function pagePatternProblem(where: string, page: PageLike, invalid = true): string | null {
  if (page.page_match !== "regex") return null;
  const problem = patternProblem(page.page_path, invalid);
  return problem ? `${where}: the pattern ${JSON.stringify(page.page_path)} ${problem}` : null;
}

/** The page's regex, when it is one, checked. */
export function checkPagePattern(where: string, page: PageLike, invalid = true): void {
  const problem = pagePatternProblem(where, page, invalid);
  if (problem) throw new HttpError(400, "invalid_body", problem);
}

type SettingsPatterns = {
  pages?: readonly PageLike[];
  revenue_pages?: readonly { path_check_type: string; pattern_value: string }[];
  event_merge?: readonly { path_check_type: string; pattern_value: string }[];
  page_blacklist?: readonly string[];
  referrer_blacklist?: readonly string[];
};

/**
 * The account settings' regular expressions (the script runs them on every page): a slow one is
 * refused. One that does not compile is kept, as before: spec Appendix A makes it match
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
