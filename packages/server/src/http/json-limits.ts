// Bounds on a JSON body checked on its text, before JSON.parse spends any time on it (issue #17):
// one linear pass that counts bracket depth outside strings and measures every string, and stops
// at the first limit passed. JSON.parse itself is recursive: a body of 800 KB of `[` held the
// event loop for a second, and one nested a few thousand deep made later JSON.stringify calls
// throw (RangeError) long after the body was accepted.

export type JsonLimits = {
  /** The deepest nesting of objects and arrays: `{}` and `[]` are depth 1. */
  maxDepth: number;
  /** The longest string (keys too), counted in characters of the JSON text between its quotes, escapes as written. */
  maxStringLength: number;
};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * The first limit `text` passes, as a message for a 400 answer; null when within them. Text
 * that is not JSON is left to JSON.parse to refuse (the scan only counts). Strings are skipped
 * with indexOf, so the loop steps character by character only through the structure.
 */
export function jsonLimitProblem(text: string, limits: JsonLimits): string | null {
  const { maxDepth, maxStringLength } = limits;
  const n = text.length;
  let depth = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i + 1;
      let end = text.indexOf('"', start);
      // A quote after an odd number of backslashes is part of the string.
      while (end !== -1) {
        let backslashes = 0;
        for (let j = end - 1; j >= start && text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
        if (backslashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      const stop = end === -1 ? n : end;
      if (stop - start > maxStringLength) return `A string in the body is longer than ${maxStringLength} characters`;
      i = stop + 1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) return `The body nests objects and arrays deeper than ${maxDepth} levels`;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
    i++;
  }
  return null;
}
