// Audience conditions (product.md §3 "Decisions"): the MongoDB-style condition language that
// experimentation tools share, with GrowthBook's `evalCondition` as the reference behaviour.
// Pure functions: the config call evaluates stored conditions against the visitor's attributes,
// the admin API validates them at save time.
//
// Attributes an audience can target (attributesOf, from the spec §3 User the script sends):
//
//   user_customer_id, user_id, device_id, anonymous, tags,     every top-level field of the User,
//   utm_source, utm_medium, utm_campaign, utm_term,            under its wire name
//   utm_content, utm_adgroup, fbclid, gclid, hubspotutk,
//   latest_session_id, sdk_generated_user_customer_id,
//   form_update_detected, …
//   properties.<name>                                          a user property (spec §3), also
//   <name>                                                     at the top level unless a field or a
//                                                              name below already holds it, so the
//                                                              derived ones read directly:
//     cf_device_type, cf_device_model, cf_device_vendor, cf_browser_name, cf_browser_version,
//     cf_browser_primary_language, cf_browser_preferred_languages, cf_os_name, cf_os_version,
//     cf_timezone, cf_screen_width, cf_screen_height, cf_cpu_architecture, cf_ua,
//     is_first_time_visitor, referrer, referrer_url, cf_current_page_url, cf_last_page_url,
//     ga_device_id, session_utm_*, session_fbclid, session_gclid, form fields (spaces → "_")
//   private.<name>, private.tags                               private_fields: user_fields and
//                                                              properties (properties win), tags
//   session.<name>, session.tags                               session_fields, the same way
//   private_fields.*, session_fields.*, hs_fields.*            the raw nested objects, as sent
//   url        the page URL (context, else properties.cf_current_page_url)
//   path       the page path (context, else the URL's pathname)
//   domain     the page's host name, lower case (context, else the URL's)
//   now        the decision time in epoch milliseconds, when the caller passes it
//
// Semantics, where GrowthBook and MongoDB differ or are silent (each has tests):
// - A missing attribute is `undefined`: $gt/$lt/$regex/$v* on it are false, $ne/$nin/$not true.
//   (GrowthBook reads a missing attribute as null, and null > -10 in JS, so there
//   `{age: {$gt: -10}}` matches visitors with no age at all; here it does not.)
// - null and missing are the same to equality and $exists (`{x: null}` matches both), as in
//   GrowthBook and MongoDB; `$type` tells them apart ("null" / "undefined").
// - One equality everywhere (plain values, $eq, $ne, $in, $nin, $all): same type compares
//   strictly; a number equals a numeric string ("8" = 8) and a boolean equals "true"/"false",
//   because form fields and query parameters arrive as strings; objects and arrays compare deeply
//   (key order ignored, no coercion inside).
// - $gt/$gte/$lt/$lte compare numbers, strings (code-unit order, as in JS), or a number with a
//   numeric string (numerically, GrowthBook's "comparing numbers and strings"); any other pair is
//   false. Two numeric strings compare as strings ("10" < "9"): use numbers or $v* for those.
// - Arrays, as in MongoDB: a value operator ($eq, $in, comparisons, $regex, $v*) matches an
//   array attribute if the array itself or any element matches; $ne/$nin are their negations (no
//   element may match); $size, $all, $elemMatch, $exists and $type look at the array itself.
// - Dotted paths go through arrays, as in MongoDB: "orders.sku" collects the sku of each order
//   and matches if any does; a numeric part ("orders.0.sku") indexes.
// - An unknown operator never matches (fail closed); validateCondition rejects it at save time.
// - $or: [] and $and: [] match (GrowthBook); $nor: [] does not, being "not $or: []".
// - $all: [] matches any array (GrowthBook; MongoDB matches nothing); $all on a non-array is false.
// - $regex accepts $options "i", "m", "s", "u"; it tests strings and numbers only (GrowthBook
//   would test String(undefined)); an invalid pattern makes that comparison false, and so does
//   one that nests repetition. A value longer than 2,048 characters is tested by its first 2,048
//   (contract REGEX_INPUT_MAX_LENGTH), so one test has a bounded cost.
// - evalCondition never throws: a malformed stored condition simply does not match.
// - $v* parse "v1.2.3-rc.1+build": missing parts are 0 ("1.2" = "1.2.0"), a pre-release is lower
//   than its release, identifiers compare as in semver; a missing or unparsable version makes
//   $veq/$vgt/… false and $vne true.

import { testRegExp } from "@storefit/contract";
import { isRefusedStoredPattern, nestedRepetitionProblem } from "../admin/patterns.js";

export type Condition = Record<string, unknown>;

export type ValidationResult = { ok: true } | { ok: false; error: string; path: string };

/** Deepest nesting of objects a saved condition may have. */
export const MAX_CONDITION_DEPTH = 20;

/**
 * Most `$regex` clauses one condition may hold: each is tested on every visitor it meets (the
 * audience tester's 2,000 held a node for 35 s before decide/regex-budget.ts), and no audience
 * needs more than a few.
 */
export const MAX_CONDITION_REGEXES = 20;

const VALUE_OPERATORS = new Set([
  "$eq", "$ne", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$regex", "$options", "$exists",
  "$type", "$elemMatch", "$all", "$size", "$not", "$veq", "$vne", "$vgt", "$vgte", "$vlt", "$vlte",
]);
const TYPES = new Set(["string", "number", "boolean", "object", "array", "null", "undefined"]);

// "g" and "y" are left out: they make RegExp.test stateful between calls.
function validFlags(flags: unknown): flags is string {
  return typeof flags === "string" && /^[imsu]*$/.test(flags) && new Set(flags).size === flags.length;
}

// ---------------------------------------------------------------------------------------------
// Evaluation

export function evalCondition(attributes: Record<string, unknown>, condition: Condition): boolean {
  // Conditions come from storage and attributes from the visitor: whatever they hold, a broken
  // audience must not match (and must not fail the config call).
  try {
    return isObject(condition) && matches(attributes, condition);
  } catch {
    return false;
  }
}

function matches(doc: unknown, condition: Condition): boolean {
  for (const [key, arg] of Object.entries(condition)) {
    if (!matchKey(doc, key, arg)) return false;
  }
  return true;
}

function matchKey(doc: unknown, key: string, arg: unknown): boolean {
  switch (key) {
    case "$and":
      return isConditionList(arg) && arg.every((c) => matches(doc, c));
    case "$or":
      return isConditionList(arg) && (arg.length === 0 || arg.some((c) => matches(doc, c)));
    case "$nor":
      return isConditionList(arg) && !(arg.length === 0 || arg.some((c) => matches(doc, c)));
    case "$not":
      return isObject(arg) && !matches(doc, arg);
  }
  if (key.startsWith("$")) return false;
  return matchValue(resolve(doc, key), arg);
}

/**
 * The attributes a condition reads, by top-level name ("orders.sku" reads "orders"); null when it
 * reads `now`, which no visitor can hold still. The repeat-view cache (docs/api.md "Answer
 * cache") keys a stored answer on these attributes' values, so the names must cover every read:
 * a field inside $elemMatch is relative to an array already named above it.
 */
export function conditionAttributes(condition: unknown, into = new Set<string>()): Set<string> | null {
  if (!isObject(condition)) return into;
  for (const [key, arg] of Object.entries(condition)) {
    if (key === "$and" || key === "$or" || key === "$nor") {
      if (Array.isArray(arg)) for (const c of arg) if (!conditionAttributes(c, into)) return null;
    } else if (key === "$not") {
      if (!conditionAttributes(arg, into)) return null;
    } else if (!key.startsWith("$")) {
      const name = key.split(".")[0]!;
      if (name === "now") return null;
      into.add(name);
    }
  }
  return into;
}

/** The values a dotted path reaches; `[undefined]` when it reaches none. */
function resolve(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  walk(doc, path.split("."), 0, out);
  return out.length > 0 ? out : [undefined];
}

function walk(value: unknown, parts: string[], i: number, out: unknown[]): void {
  const part = parts[i];
  if (part === undefined) {
    out.push(value);
  } else if (Array.isArray(value)) {
    if (/^\d+$/.test(part)) walk(value[Number(part)], parts, i + 1, out);
    else for (const el of value) if (typeof el === "object" && el !== null) walk(el, parts, i, out);
  } else if (isObject(value) && Object.hasOwn(value, part)) {
    // hasOwn: "constructor" or "toString" must not reach the prototype.
    walk(value[part], parts, i + 1, out);
  }
}

/** A condition on one attribute: an operator object, or a value it must equal. */
function matchValue(values: readonly unknown[], expected: unknown): boolean {
  if (!isOperatorObject(expected)) return anyValue(values, (v) => equals(v, expected));
  for (const [op, arg] of Object.entries(expected)) {
    if (!matchOperator(values, op, arg, expected)) return false;
  }
  return true;
}

/** True if a value, or an element of an array value, passes (MongoDB's array rule). */
function anyValue(values: readonly unknown[], test: (v: unknown) => boolean): boolean {
  return values.some((v) => test(v) || (Array.isArray(v) && v.some(test)));
}

function matchOperator(values: readonly unknown[], op: string, arg: unknown, all: Condition): boolean {
  switch (op) {
    case "$eq":
      return anyValue(values, (v) => equals(v, arg));
    case "$ne":
      return !anyValue(values, (v) => equals(v, arg));
    case "$in":
      return Array.isArray(arg) && anyValue(values, (v) => arg.some((e) => equals(v, e)));
    case "$nin":
      return Array.isArray(arg) && !anyValue(values, (v) => arg.some((e) => equals(v, e)));
    case "$gt":
      return anyValue(values, (v) => (compare(v, arg) ?? 0) > 0);
    case "$gte":
      return anyValue(values, (v) => (compare(v, arg) ?? -1) >= 0);
    case "$lt":
      return anyValue(values, (v) => (compare(v, arg) ?? 0) < 0);
    case "$lte":
      return anyValue(values, (v) => (compare(v, arg) ?? 1) <= 0);
    case "$regex": {
      const re = compileRegex(arg, all.$options);
      return re !== null && anyValue(values, (v) => (typeof v === "string" || typeof v === "number") && testRegExp(re, String(v)));
    }
    case "$options":
      return true; // read by $regex
    case "$exists":
      return values.some((v) => v !== null && v !== undefined) === Boolean(arg);
    case "$type":
      return values.some((v) => typeOf(v) === arg);
    case "$size":
      return values.some((v) => Array.isArray(v) && matchValue([v.length], arg));
    case "$elemMatch":
      return values.some((v) => Array.isArray(v) && v.some((el) => elemMatches(el, arg)));
    case "$all":
      return (
        Array.isArray(arg) &&
        values.some((v) => Array.isArray(v) && arg.every((e) => v.some((el) => matchValue([el], e))))
      );
    case "$not":
      return !matchValue(values, arg);
    case "$veq":
      return anyValue(values, (v) => compareVersions(v, arg) === 0);
    case "$vne":
      return !anyValue(values, (v) => compareVersions(v, arg) === 0);
    case "$vgt":
      return anyValue(values, (v) => (compareVersions(v, arg) ?? 0) > 0);
    case "$vgte":
      return anyValue(values, (v) => (compareVersions(v, arg) ?? -1) >= 0);
    case "$vlt":
      return anyValue(values, (v) => (compareVersions(v, arg) ?? 0) < 0);
    case "$vlte":
      return anyValue(values, (v) => (compareVersions(v, arg) ?? 1) <= 0);
    default:
      return false;
  }
}

/** $elemMatch holds either operators for the element itself or a condition on its fields. */
function elemMatches(el: unknown, arg: unknown): boolean {
  if (isOperatorObject(arg)) return matchValue([el], arg);
  return isObject(arg) && matches(el, arg);
}

function equals(actual: unknown, expected: unknown): boolean {
  if (expected === null || expected === undefined) return actual === null || actual === undefined;
  if (typeof actual === typeof expected) return deepEqual(actual, expected);
  if (typeof actual === "string" && typeof expected === "number") return toNumber(actual) === expected;
  if (typeof actual === "number" && typeof expected === "string") return toNumber(expected) === actual;
  if (typeof actual === "string" && typeof expected === "boolean") return actual === String(expected);
  if (typeof actual === "boolean" && typeof expected === "string") return expected === String(actual);
  return false;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i;

function toNumber(text: string): number | null {
  return NUMERIC.test(text) ? Number(text) : null;
}

/** Sign of actual − expected, or null when the two cannot be ordered. */
function compare(actual: unknown, expected: unknown): number | null {
  let a: number | null = null;
  let b: number | null = null;
  if (typeof actual === "string" && typeof expected === "string") {
    return actual < expected ? -1 : actual > expected ? 1 : 0;
  }
  if (typeof actual === "number") a = actual;
  else if (typeof actual === "string" && typeof expected === "number") a = toNumber(actual);
  if (typeof expected === "number") b = expected;
  else if (typeof expected === "string" && typeof actual === "number") b = toNumber(expected);
  if (a === null || b === null || Number.isNaN(a) || Number.isNaN(b)) return null;
  return Math.sign(a - b);
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

// Compiled once per pattern: the same audiences are evaluated on every config call. Cleared
// when full so a stream of distinct patterns cannot grow it without bound. A pattern stored before
// the save check refused it is never run: one that nests repetition, or one the analysis refused
// when the account was prepared (admin/patterns.ts storedPatternsCleared), compiles to null and
// matches nothing. Values are tested by their first REGEX_INPUT_MAX_LENGTH characters.
const regexCache = new Map<string, RegExp | null>();

function compileRegex(source: unknown, options: unknown): RegExp | null {
  const flags = options === undefined ? "" : options;
  if (typeof source !== "string" || !validFlags(flags)) return null;
  const key = `${flags}/${source}`;
  let re = regexCache.get(key);
  if (re === undefined) {
    try {
      re = nestedRepetitionProblem(source) ? null : new RegExp(source, flags);
    } catch {
      re = null;
    }
    if (regexCache.size >= 500) regexCache.clear();
    regexCache.set(key, re);
  }
  return re !== null && isRefusedStoredPattern(source, flags) ? null : re;
}

type Version = { core: number[]; pre: string[] };

const VERSION = /^\s*v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]*)?\s*$/i;

function parseVersion(input: unknown): Version | null {
  const text = typeof input === "number" ? String(input) : input;
  if (typeof text !== "string") return null;
  const m = VERSION.exec(text);
  if (!m || m[1] === undefined) return null;
  return { core: m[1].split(".").map(Number), pre: m[2] === undefined ? [] : m[2].split(".") };
}

/** Sign of actual − expected as versions, or null when either is not a version. */
export function compareVersions(actual: unknown, expected: unknown): number | null {
  const a = parseVersion(actual);
  const b = parseVersion(expected);
  if (!a || !b) return null;
  for (let i = 0; i < Math.max(a.core.length, b.core.length); i++) {
    const d = (a.core[i] ?? 0) - (b.core[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  // A release sorts after its pre-releases: 1.0.0-rc.1 < 1.0.0.
  if (a.pre.length === 0 || b.pre.length === 0) return Math.sign(b.pre.length - a.pre.length);
  for (let i = 0; i < Math.max(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i];
    const y = b.pre[i];
    if (x === undefined) return -1; // fewer identifiers sort first: alpha < alpha.1
    if (y === undefined) return 1;
    const d = comparePreIdentifier(x, y);
    if (d !== 0) return d;
  }
  return 0;
}

// semver: numeric identifiers compare as numbers and sort before alphanumeric ones.
function comparePreIdentifier(x: string, y: string): number {
  const xNum = /^\d+$/.test(x);
  const yNum = /^\d+$/.test(y);
  if (xNum && yNum) return Math.sign(Number(x) - Number(y));
  if (xNum !== yNum) return xNum ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Validation (save time): the first problem, with the dotted path the dashboard can point at.

type Problem = { error: string; path: string };

export function validateCondition(condition: unknown): ValidationResult {
  const problem = checkCondition(condition, "", 1);
  if (problem) return { ok: false, ...problem };
  const regexes = countRegexes(condition);
  if (regexes > MAX_CONDITION_REGEXES) {
    return { ok: false, error: `has ${regexes} $regex clauses; at most ${MAX_CONDITION_REGEXES} are allowed (each is tested on every visitor)`, path: "" };
  }
  return { ok: true };
}

/** The `$regex` operators anywhere in a (valid) condition. */
function countRegexes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countRegexes(v), 0);
  if (!isObject(value)) return 0;
  let n = 0;
  for (const [key, v] of Object.entries(value)) n += (key === "$regex" ? 1 : 0) + countRegexes(v);
  return n;
}

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

function checkCondition(condition: unknown, path: string, depth: number): Problem | null {
  if (depth > MAX_CONDITION_DEPTH) return { error: `nested deeper than ${MAX_CONDITION_DEPTH} levels`, path };
  if (!isObject(condition)) return { error: "a condition must be an object", path };
  for (const [key, arg] of Object.entries(condition)) {
    const here = join(path, key);
    let problem: Problem | null = null;
    if (key === "$and" || key === "$or" || key === "$nor") {
      if (!Array.isArray(arg)) return { error: `${key} takes an array of conditions`, path: here };
      for (let i = 0; i < arg.length && !problem; i++) problem = checkCondition(arg[i], `${here}[${i}]`, depth + 1);
    } else if (key === "$not") {
      problem = checkCondition(arg, here, depth + 1);
    } else if (key.startsWith("$")) {
      return { error: `unknown operator ${key}`, path: here };
    } else if (key === "" || key.split(".").includes("")) {
      return { error: `invalid attribute name "${key}"`, path: here };
    } else {
      problem = checkValue(arg, here, depth + 1);
    }
    if (problem) return problem;
  }
  return null;
}

// Depth counts objects and arrays: the root condition is level 1, a scalar adds none.
function checkValue(value: unknown, path: string, depth: number): Problem | null {
  if (!isObject(value)) return checkLiteral(value, path, depth);
  if (depth > MAX_CONDITION_DEPTH) return { error: `nested deeper than ${MAX_CONDITION_DEPTH} levels`, path };
  const keys = Object.keys(value);
  const operators = keys.filter((k) => k.startsWith("$"));
  if (operators.length === 0) return checkLiteral(value, path, depth);
  if (operators.length !== keys.length) {
    return { error: `operators cannot be mixed with field names (${keys.find((k) => !k.startsWith("$"))})`, path };
  }
  for (const op of keys) {
    const problem = checkOperator(op, value[op], value, join(path, op), depth);
    if (problem) return problem;
  }
  return null;
}

function checkOperator(op: string, arg: unknown, all: Condition, path: string, depth: number): Problem | null {
  const fail = (error: string): Problem => ({ error, path });
  if (!VALUE_OPERATORS.has(op)) return fail(`unknown operator ${op}`);
  switch (op) {
    case "$eq":
    case "$ne":
      return checkLiteral(arg, path, depth + 1);
    case "$in":
    case "$nin":
      return Array.isArray(arg) ? checkLiteral(arg, path, depth + 1) : fail(`${op} takes an array`);
    case "$all":
      if (!Array.isArray(arg)) return fail("$all takes an array");
      for (let i = 0; i < arg.length; i++) {
        const problem = checkValue(arg[i], `${path}[${i}]`, depth + 1);
        if (problem) return problem;
      }
      return null;
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte":
      return typeof arg === "string" || (typeof arg === "number" && Number.isFinite(arg))
        ? null
        : fail(`${op} takes a number or a string`);
    case "$regex":
      if (typeof arg !== "string") return fail("$regex takes a string");
      try {
        // Flags are checked at $options: compile with them only when they are valid.
        new RegExp(arg, validFlags(all.$options) ? all.$options : "");
      } catch (e) {
        return fail(`invalid regular expression: ${e instanceof Error ? e.message : String(e)}`);
      }
      {
        // Conditions run on every config call against what visitors send. The cheap check here;
        // recheck's analysis, asynchronous, by whoever saves or evaluates the condition
        // (admin/patterns.ts conditionPatternProblem).
        const nested = nestedRepetitionProblem(arg);
        return nested ? fail(`the regular expression ${nested}; simplify it`) : null;
      }
    case "$options":
      if (!("$regex" in all)) return fail("$options needs a $regex beside it");
      return validFlags(arg) ? null : fail('$options takes flags among "i", "m", "s", "u", each once');
    case "$exists":
      return typeof arg === "boolean" ? null : fail("$exists takes true or false");
    case "$type":
      return typeof arg === "string" && TYPES.has(arg) ? null : fail(`$type takes one of ${[...TYPES].join(", ")}`);
    case "$size":
      if (typeof arg === "number") return Number.isInteger(arg) && arg >= 0 ? null : fail("$size takes a whole number");
      return isOperatorObject(arg) ? checkValue(arg, path, depth + 1) : fail("$size takes a number or a condition");
    case "$elemMatch":
      if (!isObject(arg)) return fail("$elemMatch takes a condition object");
      return isOperatorObject(arg) ? checkValue(arg, path, depth + 1) : checkCondition(arg, path, depth + 1);
    case "$not":
      return checkValue(arg, path, depth + 1);
    default: // $veq … $vlte
      return parseVersion(arg) ? null : fail(`${op} takes a version such as "1.2.3"`);
  }
}

/** A plain value to compare with: JSON, not deeper than the limit. */
function checkLiteral(value: unknown, path: string, depth: number): Problem | null {
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) ? null : { error: "numbers must be finite", path };
  const items = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : null;
  if (!items) return { error: `unsupported value of type ${typeof value}`, path };
  if (depth > MAX_CONDITION_DEPTH) return { error: `nested deeper than ${MAX_CONDITION_DEPTH} levels`, path };
  for (const item of items) {
    const problem = checkLiteral(item, path, depth + 1);
    if (problem) return problem;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Attributes

// Names attributesOf sets itself: a user property never shadows them (nor a User field).
const RESERVED = new Set(["url", "path", "domain", "now", "private", "session"]);

export function attributesOf(
  user: Record<string, unknown>,
  context: { url?: string; path?: string; domain?: string; now?: number },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  copyInto(out, user);
  const properties = isObject(user.properties) ? user.properties : {};
  for (const k in properties) {
    if (!Object.hasOwn(properties, k) || RESERVED.has(k) || Object.hasOwn(out, k)) continue;
    const v = properties[k];
    if (k !== "__proto__" && v !== undefined) out[k] = v;
  }
  out.private = scoped(user.private_fields);
  out.session = scoped(user.session_fields);

  const fallbackUrl = typeof properties.cf_current_page_url === "string" ? properties.cf_current_page_url : undefined;
  const url = context.url ?? fallbackUrl;
  // Parsed only for what the context does not give (the config call gives both: a URL parse
  // was 1 % of the node's busy CPU in a profile of bench/service.bench.mjs).
  const parsed = context.path === undefined || context.domain === undefined ? parseUrl(url) : undefined;
  const path = context.path ?? parsed?.pathname;
  const domain = (context.domain ?? parsed?.hostname)?.toLowerCase();
  setIfDefined(out, "url", url);
  setIfDefined(out, "path", path);
  setIfDefined(out, "domain", domain);
  setIfDefined(out, "now", context.now);
  return out;
}

/** private_fields / session_fields as one flat object: user_fields, then properties, then tags. */
function scoped(fields: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isObject(fields)) return out;
  if (isObject(fields.user_fields)) copyInto(out, fields.user_fields);
  if (isObject(fields.properties)) copyInto(out, fields.properties);
  if (Array.isArray(fields.tags)) out.tags = fields.tags;
  return out;
}

/** Own enumerable keys by for…in rather than Object.entries: no array of pairs per object, every call. */
function copyInto(out: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const k in from) {
    if (!Object.hasOwn(from, k)) continue;
    const v = from[k];
    // Assigning "__proto__" would replace the object's prototype rather than add an attribute.
    if (k !== "__proto__" && v !== undefined) out[k] = v;
  }
}

function setIfDefined(out: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) out[key] = value;
  else delete out[key];
}

function parseUrl(url: string | undefined): URL | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An object whose keys are all operators ({} is a literal, as in GrowthBook). */
function isOperatorObject(v: unknown): v is Condition {
  if (!isObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith("$"));
}

function isConditionList(v: unknown): v is Condition[] {
  return Array.isArray(v) && v.every(isObject);
}
