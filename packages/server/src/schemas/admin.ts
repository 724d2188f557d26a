// JSON Schemas of the admin API's bodies and answers (packages/contract/src/admin.ts).

import { bool, enumOf, id, obj, str } from "./common.js";
import { configDefinitionSchema } from "./config.js";
import { settingsPatchSchema, settingsSchema } from "./settings.js";

const ROLE = enumOf(["owner", "editor", "viewer"]);
const STATUS = enumOf(["draft", "running", "paused", "archived"]);
const KIND = enumOf(["personalization", "ab_test"]);
const timestamp = { type: "string", description: "ISO 8601" };
const name = str(200, 1);

// ---- session ----

export const signInBody = obj({ email: str(254, 3), password: str(1024, 1) }, ["email", "password"]);

export const sessionInfoSchema = obj(
  {
    user: obj({ id, email: str(254), role: ROLE }, ["id", "email", "role"]),
    account: obj({ id, name: str(200), client_key: str(128) }, ["id", "name", "client_key"]),
    csrf_token: str(64),
  },
  ["user", "account", "csrf_token"],
);

// ---- account, members, keys ----

export const accountPatchBody = obj({ name, settings: settingsPatchSchema }, [], "Fields to change");

export const accountViewSchema = obj(
  {
    id,
    name: str(200),
    client_key: str(128),
    access_level: { const: "client" },
    settings: settingsSchema,
    revision: { type: "integer" },
    created_at: timestamp,
    updated_at: timestamp,
  },
  ["id", "name", "client_key", "access_level", "settings", "revision", "created_at", "updated_at"],
);

const EMAIL = { type: "string", minLength: 3, maxLength: 254, pattern: "^[^@\\s]+@[^@\\s]+$" };

export const memberSchema = obj({ id, email: str(254), role: ROLE }, ["id", "email", "role"]);
export const memberListSchema = obj({ members: { type: "array", items: memberSchema } }, ["members"]);
export const memberBody = obj({ email: EMAIL, password: str(1024, 10), role: ROLE }, ["email", "password", "role"]);
export const memberPatchBody = obj({ role: ROLE }, ["role"]);

export const keyBody = obj({ name: str(100, 1) }, ["name"]);
const keyProperties = {
  id,
  name: str(100),
  prefix: str(16),
  created_at: timestamp,
  last_used_at: { type: ["string", "null"] },
};
export const keySchema = obj(keyProperties, ["id", "name", "prefix", "created_at", "last_used_at"]);
export const keyListSchema = obj({ keys: { type: "array", items: keySchema } }, ["keys"]);
export const keyCreatedSchema = obj(
  { ...keyProperties, secret: { type: "string", description: "sk_…; shown once, only its hash is stored" } },
  ["id", "name", "prefix", "created_at", "last_used_at", "secret"],
);

// ---- experiences ----

const pageTarget = obj(
  {
    domain: { type: "string", maxLength: 253, description: "Empty: the account's main domain" },
    page_path: str(2048, 1),
    page_match: enumOf(["exact_match", "contains", "regex"]),
  },
  ["domain", "page_path", "page_match"],
);

const variationSchema = (idRequired: boolean) =>
  obj(
    {
      id,
      name,
      weight: { type: "number", minimum: 0, maximum: 1_000_000, description: "Relative weight" },
      configs: { type: "array", maxItems: 500, items: configDefinitionSchema },
    },
    idRequired ? ["id", "name", "weight", "configs"] : ["name", "weight", "configs"],
  );

const behaviourSchema = (idRequired: boolean) =>
  obj(
    {
      id,
      name,
      traffic_allocation: { type: "number", minimum: 0, maximum: 1, description: "Share of the audience that enters" },
      variations: { type: "array", minItems: 1, maxItems: 50, items: variationSchema(idRequired) },
      config_modifications: obj({ device_specific: bool }),
      ga_measurement_id: str(64),
    },
    idRequired ? ["id", "name", "traffic_allocation", "variations"] : ["name", "traffic_allocation", "variations"],
  );

const ruleSchema = (idRequired: boolean) =>
  obj(
    {
      id,
      audience_id: { anyOf: [id, { type: "null" }], description: "null or absent: everyone" },
      audience_name: str(200),
      behaviour: behaviourSchema(idRequired),
    },
    idRequired ? ["id", "audience_id", "behaviour"] : ["behaviour"],
  );

const goalSchema = (idRequired: boolean) =>
  obj(
    {
      id,
      name,
      kind: enumOf(["page_view", "click", "form_submit", "track", "revenue"]),
      page: obj(
        {
          domain: { type: "string", maxLength: 253, description: "Empty or absent: any of the account's domains" },
          page_path: str(2048, 1),
          page_match: enumOf(["exact_match", "contains", "regex"]),
        },
        ["page_path", "page_match"],
      ),
      event_name: str(200, 1),
      revenue_cap: { type: "number", exclusiveMinimum: 0, description: "Each visitor's revenue is capped at this" },
    },
    idRequired ? ["id", "name", "kind"] : ["name", "kind"],
  );

/** contract ExclusionGroup: the slice [start, end) of the group's traffic this experience owns. */
const exclusionGroup = {
  type: ["object", "null"],
  additionalProperties: false,
  required: ["name", "start", "end"],
  description: "Mutually exclusive group: experiences in one group split its traffic, a visitor is in at most one. null: none",
  properties: {
    name: { type: "string", minLength: 1, maxLength: 100, description: "The group; experiences with the same name share it" },
    start: { type: "number", minimum: 0, maximum: 1, description: "Start of this experience's slice of the group's traffic" },
    end: { type: "number", minimum: 0, maximum: 1, description: "End of the slice (exclusive), greater than start" },
  },
} as const;

const experienceInputProperties = {
  name,
  kind: KIND,
  priority: { type: "integer", minimum: -1000, maximum: 1000, description: "Higher wins an element" },
  exclusion_group: exclusionGroup,
  pages: { type: "array", maxItems: 200, items: pageTarget },
  rules: { type: "array", maxItems: 50, items: ruleSchema(false), description: "First matching rule wins" },
  goals: { type: "array", maxItems: 20, items: goalSchema(false), description: "The first is the primary goal" },
};

export const experienceBody = obj(experienceInputProperties, ["name", "kind", "pages", "rules"], "A new or replaced experience");
export const experiencePatchBody = obj(experienceInputProperties, [], "Fields to replace");
export const statusBody = obj({ status: STATUS }, ["status"]);

export const experienceDetailSchema = obj(
  {
    ...experienceInputProperties,
    id,
    status: STATUS,
    rules: { type: "array", items: ruleSchema(true) },
    goals: { type: "array", items: goalSchema(true) },
    created_at: timestamp,
    updated_at: timestamp,
  },
  ["id", "name", "status", "kind", "priority", "exclusion_group", "pages", "rules", "goals", "created_at", "updated_at"],
);

export const experienceListSchema = obj(
  {
    experiences: {
      type: "array",
      items: obj(
        {
          id,
          name,
          status: STATUS,
          kind: KIND,
          priority: { type: "integer" },
          exclusion_group: exclusionGroup,
          pages: { type: "array", items: pageTarget },
          variation_count: { type: "integer" },
          traffic: {
            type: "array",
            description: "Per rule, in order: its traffic allocation and its variations' weights",
            items: obj(
              { rule_id: id, traffic_allocation: { type: "number" }, weights: { type: "array", items: { type: "number" } } },
              ["rule_id", "traffic_allocation", "weights"],
            ),
          },
          updated_at: timestamp,
        },
        ["id", "name", "status", "kind", "priority", "exclusion_group", "pages", "variation_count", "traffic", "updated_at"],
      ),
    },
  },
  ["experiences"],
);

/** contract ExperienceOverlapsResponse. */
export const overlapsSchema = obj(
  {
    overlaps: {
      type: "array",
      items: obj(
        {
          experience: obj({ id, name, status: STATUS, priority: { type: "integer" } }, ["id", "name", "status", "priority"]),
          pages: { type: "array", items: { type: "string" }, description: "Pages where both can change the same element (domain/path)" },
          elements: { type: "array", items: { type: "string" }, description: "The element paths both change there" },
          winner: { ...enumOf(["this", "other"]), description: "other: the other experience takes the elements; this one is left out there" },
          exclusive: { type: "boolean", description: "In one mutually exclusive group with separate slices: no visitor is in both" },
        },
        ["experience", "pages", "elements", "winner", "exclusive"],
      ),
    },
  },
  ["overlaps"],
);

// ---- audiences ----

export const audienceBody = obj(
  {
    name,
    description: str(2000),
    condition: {
      type: "object",
      description: "MongoDB-style condition over the visitor's attributes ($and, $or, $in, $regex, $vgt, …)",
    },
  },
  ["name", "condition"],
);

export const audienceSchema = obj(
  {
    id,
    name,
    description: str(2000),
    condition: { type: "object" },
    created_at: timestamp,
    updated_at: timestamp,
  },
  ["id", "name", "description", "condition", "created_at", "updated_at"],
);
export const audienceListSchema = obj({ audiences: { type: "array", items: audienceSchema } }, ["audiences"]);

// ---- results and events ----

const ENGINE = enumOf(["sequential", "frequentist", "bayesian"]);
const CORRECTION = enumOf(["holm", "bh", "none"]);
const count = { type: "integer", minimum: 0 };
const interval = { type: "array", items: { type: "number" }, minItems: 2, maxItems: 2 };

/** GET /api/results/{experienceId} (docs/results.md). Query values are strings (no coercion). */
export const resultsQuery = obj({
  engine: { ...ENGINE, description: "sequential (default, always-valid), frequentist (fixed horizon) or bayesian" },
  correction: { ...CORRECTION, description: "Across each rule's comparisons: holm (default), bh or none; not for bayesian" },
  alpha: { type: "string", pattern: "^0?\\.[0-9]{1,6}$", description: "Significance level, 0 < alpha ≤ 0.5, default 0.05" },
  from: { type: "string", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description: "First UTC day (YYYY-MM-DD, included): visitors first exposed from then on" },
  to: { type: "string", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description: "Last UTC day (YYYY-MM-DD, included): visitors first exposed and conversions up to its end" },
});

const comparisonSchema = obj(
  {
    effect: { type: "number", description: "Relative lift (treatment − control) / control" },
    ci: { ...interval, description: "Interval at 1 − alpha: confidence (frequentist, sequential) or credible (bayesian)" },
    p_value: { type: "number", description: "frequentist and sequential" },
    adjusted_p_value: { type: "number", description: "With a correction: adjusted across the rule's comparisons" },
    chance_to_win: { type: "number", description: "bayesian: P(effect > 0)" },
    risk: { ...interval, description: "bayesian: expected loss of choosing [control, treatment]" },
    significant: bool,
  },
  ["effect", "ci", "significant"],
);

const variationMetricSchema = obj(
  {
    variation_id: str(256),
    name: { type: ["string", "null"] },
    is_control: bool,
    visitors: count,
    conversions: { ...count, description: "Visitors who converted after their first exposure (orders for average_order_value)" },
    value: { type: "number", description: "Rate, revenue per visitor or revenue per order" },
    revenue: { type: "number", description: "Summed capped revenue (revenue metrics)" },
    comparison: { anyOf: [comparisonSchema, { type: "null" }], description: "null for the control or when uninformative" },
    comparison_unavailable: obj(
      {
        reason: {
          ...enumOf(["too_few_visitors", "no_conversions", "control_zero", "all_converted", "no_variance", "not_computable"]),
          description:
            "too_few_visitors: fewer than 2 in an arm; no_conversions: the metric is 0 for every visitor of the arm; control_zero: the control's value is 0, the relative lift undefined; all_converted: every visitor of the arm converted; no_variance: every visitor of the arm has the same value; not_computable: none of these (e.g. CUPED's adjusted values do not vary)",
        },
        arm: { ...enumOf(["control", "treatment", "both"]), description: "The arm the reason is about" },
      },
      ["reason", "arm"],
      "Present exactly when a variation other than the control has no comparison: why (docs/results.md)",
    ),
  },
  ["variation_id", "name", "is_control", "visitors", "conversions", "value", "comparison"],
);

const metricSchema = obj(
  {
    goal_id: str(256),
    goal_name: str(200),
    goal_kind: enumOf(["page_view", "click", "form_submit", "track", "revenue"]),
    metric: enumOf(["conversion_rate", "revenue_per_visitor", "average_order_value"]),
    cuped: { type: "boolean", description: "Adjusted with the visitors' pre-exposure behaviour" },
    variations: { type: "array", items: variationMetricSchema },
  },
  ["goal_id", "goal_name", "goal_kind", "metric", "cuped", "variations"],
);

const dailyPointSchema = obj(
  {
    date: { type: "string", description: "YYYY-MM-DD (UTC)" },
    variations: {
      type: "array",
      items: obj(
        {
          variation_id: str(256),
          visitors: { ...count, description: "New visitors (first exposure) that day" },
          conversions: { type: "object", additionalProperties: count, description: "goal id → visitors whose first conversion was that day" },
        },
        ["variation_id", "visitors", "conversions"],
      ),
    },
  },
  ["date", "variations"],
);

const ruleResultsSchema = obj(
  {
    rule_id: str(256),
    audience_name: str(200),
    srm: obj(
      {
        p_value: { type: "number", description: "Chi-square test of visitors (first randomised exposure) against each split cohort's stored assignment split (docs/results.md)" },
        mismatch: { type: "boolean", description: "p_value < 0.001" },
        observed: { type: "array", items: count },
        expected: { type: "array", items: { type: "number" }, description: "Expected visitors per variation: the sum over split cohorts of their visitors times the split's share" },
      },
      ["p_value", "mismatch", "observed", "expected"],
    ),
    metrics: { type: "array", items: metricSchema },
    daily: { type: "array", items: dailyPointSchema },
  },
  ["rule_id", "audience_name", "srm", "metrics", "daily"],
);

/** contract ResultsDiagnostics. */
const diagnosticsSchema = obj(
  {
    cause: enumOf(["no_traffic", "pages_never_matched", "few_shoppers", "overlap_lost", "audience_or_allocation"]),
    since: { ...timestamp, description: "Page views counted from: the experience's last change or the range's start, the later" },
    page_views: { ...count, description: "Page views on the account's domains since then" },
    target_page_views: { ...count, description: "Of those, on a page the experience targets" },
    target_visitors: { ...count, description: "Distinct visitors with a page view on a target page since then" },
    exposed_visitors: { ...count, description: "Distinct visitors exposed to the experience since then, returning ones included (with a date range it can exceed total_visitors)" },
    top_pages: { type: "array", items: obj({ page: { type: "string" }, views: count }, ["page", "views"]) },
    overlaps: {
      type: "array",
      items: obj(
        {
          experience_id: id,
          name: { type: "string" },
          priority: { type: "integer" },
          pages: { type: "array", items: { type: "string" } },
          elements: { type: "array", items: { type: "string" } },
        },
        ["experience_id", "name", "priority", "pages", "elements"],
      ),
    },
  },
  ["cause", "since", "page_views", "target_page_views", "target_visitors", "exposed_visitors", "top_pages", "overlaps"],
);

export const resultsSchema = obj(
  {
    experience_id: id,
    engine: ENGINE,
    correction: CORRECTION,
    alpha: { type: "number" },
    computed_at: timestamp,
    total_visitors: { ...count, description: "Distinct visitors exposed to the experience; with a date range, those first exposed in it" },
    variations: {
      type: "array",
      items: obj(
        {
          variation_id: str(256),
          name: { type: ["string", "null"] },
          visitors: { type: "integer", description: "Distinct visitors with an exposure to it; with a date range, those first exposed in it, by the variation of that first exposure" },
          share: { type: "number" },
          expected_share: { type: ["number", "null"] },
        },
        ["variation_id", "name", "visitors", "share", "expected_share"],
      ),
    },
    rules: { type: "array", items: ruleResultsSchema },
    range: obj(
      { from: { type: ["string", "null"] }, to: { type: ["string", "null"] } },
      ["from", "to"],
    ),
    diagnostics: { anyOf: [diagnosticsSchema, { type: "null" }], description: "Why a running experience has fewer than 100 visitors (docs/results.md \"Few visitors\"); null otherwise" },
    revenue_currencies: {
      type: "array",
      description:
        "Only when the experience has a revenue goal: the orders among the account's newest 50,000 events per properties.currency (three letters upper-cased; \"other\": any other value; null: none), the most orders first. Revenue adds amounts as sent: more than one entry means it mixes currencies (docs/results.md \"Currencies\")",
      items: obj({ currency: { type: ["string", "null"] }, orders: count }, ["currency", "orders"]),
    },
  },
  ["experience_id", "engine", "correction", "alpha", "computed_at", "total_visitors", "variations", "rules", "range", "diagnostics"],
);
