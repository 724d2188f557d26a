// The audience builder's model and its two-way mapping to the condition language of
// packages/server/src/decide/conditions.ts. The builder covers what most audiences need: a list
// of rules joined by "all" ($and) or "any" ($or), each one attribute, one operator, one value.
// Anything else (nested groups, $elemMatch, …) stays editable in the JSON view; the builder then
// says it cannot show that condition rather than silently dropping parts of it.
import type { Condition, Json } from "@storefit/contract";

export type ValueKind = "text" | "number" | "boolean" | "version" | "list";

/** An attribute the builder offers, under the name the condition language reads (conditions.ts). */
export type AttributeOption = {
  key: string;
  label: string;
  group: string;
  kind: ValueKind;
  /** Known values, offered as suggestions. */
  values?: readonly string[];
};

/**
 * spec §3 User, as the service derives attributes from it (conditions.ts attributesOf): its
 * top-level fields, the derived properties the script sends (read at the top level too), and the
 * page the decision is for. Private and session fields, other properties and hs_fields are the
 * custom families below.
 */
export const ATTRIBUTES: readonly AttributeOption[] = [
  { key: "cf_device_type", label: "Device type", group: "Device and browser", kind: "text", values: ["mobile", "tablet", "desktop"] },
  { key: "cf_device_vendor", label: "Device vendor", group: "Device and browser", kind: "text", values: ["Apple", "Samsung", "Google", "Huawei", "Xiaomi"] },
  { key: "cf_device_model", label: "Device model", group: "Device and browser", kind: "text" },
  { key: "cf_os_name", label: "Operating system", group: "Device and browser", kind: "text", values: ["iOS", "Android", "Windows", "Mac OS", "Linux"] },
  { key: "cf_os_version", label: "Operating system version", group: "Device and browser", kind: "version" },
  { key: "cf_browser_name", label: "Browser", group: "Device and browser", kind: "text", values: ["Chrome", "Safari", "Firefox", "Edge", "Samsung Internet"] },
  { key: "cf_browser_version", label: "Browser version", group: "Device and browser", kind: "version" },
  { key: "cf_browser_primary_language", label: "Browser language", group: "Device and browser", kind: "text" },
  { key: "cf_browser_preferred_languages", label: "Preferred languages", group: "Device and browser", kind: "list" },
  { key: "cf_screen_width", label: "Screen width (px)", group: "Device and browser", kind: "number" },
  { key: "cf_screen_height", label: "Screen height (px)", group: "Device and browser", kind: "number" },
  { key: "cf_cpu_architecture", label: "CPU architecture", group: "Device and browser", kind: "text", values: ["arm", "arm64", "amd64", "ia32"] },
  { key: "cf_ua", label: "User agent", group: "Device and browser", kind: "text" },
  // spec §3: minutes from UTC, sign inverted (UTC+2 is 120), sent as a number.
  { key: "cf_timezone", label: "Time zone (minutes from UTC)", group: "Device and browser", kind: "number" },
  { key: "is_first_time_visitor", label: "First-time visitor", group: "Visitor", kind: "boolean" },
  { key: "anonymous", label: "Anonymous (not signed in)", group: "Visitor", kind: "boolean" },
  { key: "tags", label: "Tags", group: "Visitor", kind: "list" },
  { key: "user_customer_id", label: "Visitor id", group: "Visitor", kind: "text" },
  { key: "user_id", label: "Signed-in user id", group: "Visitor", kind: "text" },
  { key: "device_id", label: "Device id", group: "Visitor", kind: "text" },
  { key: "sdk_generated_user_customer_id", label: "Visitor id made by the script", group: "Visitor", kind: "boolean" },
  { key: "latest_session_id", label: "Session id", group: "Visitor", kind: "text" },
  { key: "form_update_detected", label: "Form update detected", group: "Visitor", kind: "boolean" },
  { key: "ga_device_id", label: "Google Analytics client id", group: "Visitor", kind: "text" },
  { key: "hubspotutk", label: "HubSpot tracking id (hubspotutk)", group: "Visitor", kind: "text" },
  { key: "utm_source", label: "Campaign source (utm_source)", group: "Campaign", kind: "text" },
  { key: "utm_medium", label: "Campaign medium (utm_medium)", group: "Campaign", kind: "text" },
  { key: "utm_campaign", label: "Campaign name (utm_campaign)", group: "Campaign", kind: "text" },
  { key: "utm_term", label: "Campaign term (utm_term)", group: "Campaign", kind: "text" },
  { key: "utm_content", label: "Campaign content (utm_content)", group: "Campaign", kind: "text" },
  { key: "utm_adgroup", label: "Ad group (utm_adgroup)", group: "Campaign", kind: "text" },
  { key: "gclid", label: "Google Ads click (gclid)", group: "Campaign", kind: "text" },
  { key: "fbclid", label: "Meta ads click (fbclid)", group: "Campaign", kind: "text" },
  // The first touch above; these hold this session's values (spec §3 "session_utm_* copies").
  { key: "session_utm_source", label: "Session campaign source", group: "Campaign (this session)", kind: "text" },
  { key: "session_utm_medium", label: "Session campaign medium", group: "Campaign (this session)", kind: "text" },
  { key: "session_utm_campaign", label: "Session campaign name", group: "Campaign (this session)", kind: "text" },
  { key: "session_utm_term", label: "Session campaign term", group: "Campaign (this session)", kind: "text" },
  { key: "session_utm_content", label: "Session campaign content", group: "Campaign (this session)", kind: "text" },
  { key: "session_utm_adgroup", label: "Session ad group", group: "Campaign (this session)", kind: "text" },
  { key: "session_gclid", label: "Session Google Ads click", group: "Campaign (this session)", kind: "text" },
  { key: "session_fbclid", label: "Session Meta ads click", group: "Campaign (this session)", kind: "text" },
  { key: "url", label: "Page URL", group: "Page", kind: "text" },
  { key: "path", label: "Page path", group: "Page", kind: "text" },
  { key: "domain", label: "Domain", group: "Page", kind: "text" },
  { key: "referrer", label: "Referrer", group: "Page", kind: "text" },
  { key: "referrer_url", label: "Referrer URL", group: "Page", kind: "text" },
  { key: "cf_current_page_url", label: "Current page URL (as the script saw it)", group: "Page", kind: "text" },
  { key: "cf_last_page_url", label: "Previous page URL", group: "Page", kind: "text" },
  { key: "now", label: "Time of the decision (ms since 1970)", group: "Page", kind: "number" },
];

/** The free-form attribute families: "properties.<name>" and so on, or any dotted path. */
export const CUSTOM_PREFIXES = [
  { prefix: "properties.", label: "User property…" },
  { prefix: "private.", label: "Private field…" },
  { prefix: "session.", label: "Session field…" },
  { prefix: "", label: "Other attribute…" },
] as const;

export type OperatorId =
  | "is"
  | "is_not"
  | "in"
  | "not_in"
  | "contains"
  | "not_contains"
  | "starts_with"
  | "ends_with"
  | "regex"
  | "gt"
  | "gte"
  | "lt"
  | "lte"
  | "veq"
  | "vgt"
  | "vgte"
  | "vlt"
  | "vlte"
  | "has_all"
  | "exists"
  | "not_exists";

export const OPERATORS: readonly { id: OperatorId; label: string; takesValue: boolean }[] = [
  { id: "is", label: "is", takesValue: true },
  { id: "is_not", label: "is not", takesValue: true },
  { id: "in", label: "is one of", takesValue: true },
  { id: "not_in", label: "is none of", takesValue: true },
  { id: "contains", label: "contains", takesValue: true },
  { id: "not_contains", label: "does not contain", takesValue: true },
  { id: "starts_with", label: "starts with", takesValue: true },
  { id: "ends_with", label: "ends with", takesValue: true },
  { id: "regex", label: "matches the pattern", takesValue: true },
  { id: "gt", label: "is greater than", takesValue: true },
  { id: "gte", label: "is at least", takesValue: true },
  { id: "lt", label: "is less than", takesValue: true },
  { id: "lte", label: "is at most", takesValue: true },
  { id: "veq", label: "version is", takesValue: true },
  { id: "vgt", label: "version is above", takesValue: true },
  { id: "vgte", label: "version is at least", takesValue: true },
  { id: "vlt", label: "version is below", takesValue: true },
  { id: "vlte", label: "version is at most", takesValue: true },
  { id: "has_all", label: "has all of", takesValue: true },
  { id: "exists", label: "is set", takesValue: false },
  { id: "not_exists", label: "is not set", takesValue: false },
];

const BY_KIND: Record<ValueKind, readonly OperatorId[]> = {
  text: ["is", "is_not", "in", "not_in", "contains", "not_contains", "starts_with", "ends_with", "regex", "exists", "not_exists"],
  number: ["is", "is_not", "gt", "gte", "lt", "lte", "in", "not_in", "exists", "not_exists"],
  boolean: ["is", "is_not", "exists", "not_exists"],
  version: ["veq", "vgt", "vgte", "vlt", "vlte", "is", "is_not", "exists", "not_exists"],
  list: ["is", "is_not", "in", "not_in", "has_all", "exists", "not_exists"],
};

export function operatorsFor(kind: ValueKind): readonly { id: OperatorId; label: string; takesValue: boolean }[] {
  return BY_KIND[kind].map((id) => OPERATORS.find((o) => o.id === id)!);
}

/** One rule of the builder. `value` is what the operator typed; lists are comma-separated. */
export type Rule = { attribute: string; operator: OperatorId; value: string };
export type Combinator = "all" | "any";
export type BuilderState = { combinator: Combinator; rules: Rule[] };

export function attributeOption(key: string): AttributeOption | undefined {
  return ATTRIBUTES.find((a) => a.key === key);
}

/** A custom attribute's kind is unknown: text, with numbers kept as numbers. */
export function kindOf(attribute: string): ValueKind {
  return attributeOption(attribute)?.kind ?? "text";
}

// ---------------------------------------------------------------------------------------------
// Builder → condition

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const splitList = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");

/** A typed scalar: numbers stay numbers where the attribute is a number (and for custom ones). */
function scalar(text: string, kind: ValueKind, attribute: string): Json {
  const trimmed = text.trim();
  if (kind === "boolean") return trimmed === "true";
  if (kind === "number" || (!attributeOption(attribute) && /^-?\d+(\.\d+)?$/.test(trimmed))) {
    const n = Number(trimmed);
    if (trimmed !== "" && Number.isFinite(n)) return n;
  }
  return text;
}

/** The problem with a rule, or null: checked before anything is sent. */
export function ruleProblem(rule: Rule): string | null {
  if (rule.attribute.trim() === "" || rule.attribute.endsWith(".")) return "Choose an attribute.";
  const op = OPERATORS.find((o) => o.id === rule.operator);
  if (!op) return "Choose a comparison.";
  if (!op.takesValue) return null;
  const kind = kindOf(rule.attribute);
  if (rule.value.trim() === "") return "Enter a value.";
  if (["gt", "gte", "lt", "lte"].includes(rule.operator) && kind === "number" && !Number.isFinite(Number(rule.value))) {
    return "Enter a number.";
  }
  if (rule.operator.startsWith("v") && !/^\s*v?\d+(\.\d+)*(-[0-9A-Za-z.-]+)?\s*$/.test(rule.value)) {
    return 'Enter a version such as "120" or "17.4.1".';
  }
  if (rule.operator === "regex") {
    try {
      new RegExp(rule.value);
    } catch (e) {
      return `Not a valid pattern: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  return null;
}

function clauseOf(rule: Rule): Json {
  const kind = kindOf(rule.attribute);
  const v = rule.value;
  switch (rule.operator) {
    case "is":
      return scalar(v, kind, rule.attribute);
    case "is_not":
      return { $ne: scalar(v, kind, rule.attribute) };
    case "in":
      return { $in: splitList(v).map((s) => scalar(s, kind, rule.attribute)) };
    case "not_in":
      return { $nin: splitList(v).map((s) => scalar(s, kind, rule.attribute)) };
    case "has_all":
      return { $all: splitList(v) };
    case "contains":
      return { $regex: escapeRegex(v), $options: "i" };
    case "not_contains":
      return { $not: { $regex: escapeRegex(v), $options: "i" } };
    case "starts_with":
      return { $regex: `^${escapeRegex(v)}`, $options: "i" };
    case "ends_with":
      return { $regex: `${escapeRegex(v)}$`, $options: "i" };
    case "regex":
      return { $regex: v };
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return { [`$${rule.operator}`]: scalar(v, kind === "text" ? "number" : kind, rule.attribute) };
    case "veq":
    case "vgt":
    case "vgte":
    case "vlt":
    case "vlte":
      return { [`$${rule.operator}`]: v.trim() };
    case "exists":
      return { $exists: true };
    case "not_exists":
      return { $exists: false };
  }
}

export function toCondition(state: BuilderState): Condition {
  const clauses = state.rules.map((rule) => ({ [rule.attribute.trim()]: clauseOf(rule) }));
  if (clauses.length === 0) return {};
  if (clauses.length === 1) return clauses[0]!;
  if (state.combinator === "any") return { $or: clauses };
  // "All": one object reads best, unless an attribute is used twice (then $and keeps both).
  const keys = clauses.map((c) => Object.keys(c)[0]!);
  if (new Set(keys).size === keys.length) return Object.assign({}, ...clauses) as Condition;
  return { $and: clauses };
}

// ---------------------------------------------------------------------------------------------
// Condition → builder (null: the builder cannot show it; the JSON view still can)

const isPlainObject = (v: unknown): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The literal text of a regex built by escapeRegex, or null if it holds pattern syntax. */
function unescapeLiteral(pattern: string): string | null {
  const text = pattern.replace(/\\([.*+?^${}()|[\]\\/])/g, "$1");
  return escapeRegex(text) === pattern ? text : null;
}

const toText = (v: Json): string | null =>
  typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : null;

function listText(values: Json): string | null {
  if (!Array.isArray(values)) return null;
  const texts = values.map(toText);
  // A comma inside a value would split it in two on the way back.
  if (texts.some((t) => t === null || t.includes(","))) return null;
  return texts.join(", ");
}

function ruleOf(attribute: string, clause: Json): Rule | null {
  if (attribute.startsWith("$")) return null;
  const rule = (operator: OperatorId, value: string | null): Rule | null => (value === null ? null : { attribute, operator, value });
  if (!isPlainObject(clause) || Object.keys(clause).length === 0) {
    if (Array.isArray(clause) || isPlainObject(clause)) return null;
    return rule("is", toText(clause));
  }
  const keys = Object.keys(clause).sort().join(",");
  const arg = clause[Object.keys(clause)[0]!]!;
  if (keys === "$options,$regex") {
    if (clause.$options !== "i" || typeof clause.$regex !== "string") return null;
    const pattern = clause.$regex;
    if (pattern.startsWith("^")) return rule("starts_with", unescapeLiteral(pattern.slice(1)));
    if (pattern.endsWith("$") && !pattern.endsWith("\\$")) return rule("ends_with", unescapeLiteral(pattern.slice(0, -1)));
    return rule("contains", unescapeLiteral(pattern));
  }
  if (keys === "$not") {
    const inner = clause.$not;
    if (!isPlainObject(inner) || Object.keys(inner).sort().join(",") !== "$options,$regex" || inner.$options !== "i") return null;
    const text = typeof inner.$regex === "string" ? unescapeLiteral(inner.$regex) : null;
    return text === null || text.startsWith("^") ? null : rule("not_contains", text);
  }
  if (Object.keys(clause).length !== 1) return null;
  switch (keys) {
    case "$eq":
      return isPlainObject(arg) || Array.isArray(arg) ? null : rule("is", toText(arg));
    case "$ne":
      return isPlainObject(arg) || Array.isArray(arg) ? null : rule("is_not", toText(arg));
    case "$in":
      return rule("in", listText(arg));
    case "$nin":
      return rule("not_in", listText(arg));
    case "$all":
      return rule("has_all", listText(arg));
    case "$regex":
      return rule("regex", typeof arg === "string" ? arg : null);
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte":
    case "$veq":
    case "$vgt":
    case "$vgte":
    case "$vlt":
    case "$vlte":
      return rule(keys.slice(1) as OperatorId, toText(arg));
    case "$exists":
      return typeof arg === "boolean" ? rule(arg ? "exists" : "not_exists", "") : null;
    default:
      return null;
  }
}

/** Rules of one flat object: each attribute once; several operators on one attribute split. */
function rulesOfObject(condition: Record<string, Json>): Rule[] | null {
  const rules: Rule[] = [];
  for (const [attribute, clause] of Object.entries(condition)) {
    let rule = ruleOf(attribute, clause);
    if (!rule && isPlainObject(clause) && Object.keys(clause).every((k) => k.startsWith("$") && k !== "$options")) {
      // {price: {$gte: 10, $lte: 20}} → two rules, both required: only where "all" joins them.
      for (const [op, arg] of Object.entries(clause)) {
        rule = ruleOf(attribute, { [op]: arg });
        if (!rule) return null;
        rules.push(rule);
      }
      continue;
    }
    if (!rule) return null;
    rules.push(rule);
  }
  return rules;
}

export function fromCondition(condition: unknown): BuilderState | null {
  if (!isPlainObject(condition)) return null;
  const keys = Object.keys(condition);
  if (keys.length === 1 && (keys[0] === "$or" || keys[0] === "$and")) {
    const parts = condition[keys[0]];
    if (!Array.isArray(parts)) return null;
    const rules: Rule[] = [];
    for (const part of parts) {
      if (!isPlainObject(part)) return null;
      const partRules = rulesOfObject(part);
      // Under "any", each part must be one rule: {a, b} inside $or means "a and b".
      if (!partRules || (keys[0] === "$or" && partRules.length !== 1)) return null;
      rules.push(...partRules);
    }
    return { combinator: keys[0] === "$or" ? "any" : "all", rules };
  }
  const rules = rulesOfObject(condition);
  return rules ? { combinator: "all", rules } : null;
}

/** A one-line reading of a condition for the list: the builder's words where it can. */
export function describeCondition(condition: Condition): string {
  const state = fromCondition(condition);
  if (!state) return JSON.stringify(condition);
  if (state.rules.length === 0) return "Everyone";
  const words = state.rules.map((r) => {
    const label = attributeOption(r.attribute)?.label ?? r.attribute;
    const op = OPERATORS.find((o) => o.id === r.operator)!;
    return op.takesValue ? `${label} ${op.label} ${r.value}` : `${label} ${op.label}`;
  });
  return words.join(state.combinator === "any" ? " or " : " and ");
}
