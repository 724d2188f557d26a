// Wire shapes of the admin API under /api/ (product.md §3 "Admin API and auth"), shared by the
// service and the dashboard so that both sides change together.

import type { Config, Json, PageMatch } from "./types.js";
import type { StorefitSettings } from "./settings.js";

/** Every 4xx/5xx answer of the service, client API and admin API alike. */
export type ApiError = { error: { code: string; message: string; details?: unknown } };

export type Role = "owner" | "editor" | "viewer";

export type SessionInfo = {
  user: { id: string; email: string; role: Role };
  account: { id: string; name: string; client_key: string };
  /** Sent back as the `x-csrf-token` header on every write (POST/PUT/PATCH/DELETE). */
  csrf_token: string;
};

export type SignInRequest = { email: string; password: string };

export type ExperienceStatus = "draft" | "running" | "paused" | "archived";
export type ExperienceKind = "personalization" | "ab_test";

export type ExperienceSummary = {
  id: string;
  name: string;
  status: ExperienceStatus;
  kind: ExperienceKind;
  priority: number;
  exclusion_group: ExclusionGroup | null;
  /** Page targeting, as `domain + page_path` with its match kind. */
  pages: { domain: string; page_path: string; page_match: "exact_match" | "contains" | "regex" }[];
  variation_count: number;
  /** Per rule, in order: the share of its audience that enters and its variations' weights. */
  traffic: { rule_id: string; traffic_allocation: number; weights: number[] }[];
  updated_at: string;
};

export type ExperienceListResponse = { experiences: ExperienceSummary[] };

/** One stored event as the dashboard's live list shows it. */
export type StoredEventView = {
  /** Its place in the account's stream, newer events higher: the paging cursor (`before`, `after`). */
  seq: number;
  insert_id: string;
  event_type: string;
  event_customer_id: string;
  /** The event's name: its `name`, else what follows "|" in `event_customer_id` (spec §5). */
  name: string;
  domain: string;
  page_path: string | null;
  user_id: string;
  session_id: string | null;
  event_timestamp: number;
  received_at: string;
  /** Its properties whose values are text, numbers or booleans (nested values are left out). */
  properties: { [key: string]: string | number | boolean };
  /**
   * A popup's view or button click (TEMPLATE_VIEW, TEMPLATE_BUTTON_CLICK): the experience and
   * variation whose config its `properties.config_id` names, with today's names. null for other
   * events, and when no experience of the account holds that config (deleted since, or never).
   */
  template_experience: TemplateExperience | null;
};

/**
 * Who shows a popup: the experience holding its config, and the variation. `variation_id` and
 * `variation_name` are null when several variations of the experience hold the same config id.
 */
export type TemplateExperience = {
  experience_id: string;
  experience_name: string;
  variation_id: string | null;
  variation_name: string | null;
};

/**
 * GET /api/events: a page of events, newest first. `older` is the `before` cursor of the next
 * older page, `newer` the `after` cursor of the next newer one; null when there is none.
 */
export type EventListResponse = {
  /** The events matching the filters; with `total_exact` false, at least this many. */
  total: number;
  /** false: a filtered count stopped at its cap (10,000) or at the newest events it may look at. */
  total_exact: boolean;
  events: StoredEventView[];
  older: number | null;
  newer: number | null;
  /**
   * The page is not full because its search stopped after this many events (it looks at that
   * many at most); the cursor in the paging direction (`older`, `newer` for an `after` page)
   * continues it. null: the search was not cut.
   */
  searched: number | null;
};

/** One entry of a visitor's timeline: an event, or an exposure to an experience's variation. */
export type VisitorTimelineItem =
  | { kind: "event"; at: number; event: StoredEventView }
  | {
      kind: "exposure";
      /** When the page showed it, by the visitor's clock (as `event_timestamp` is). */
      at: number;
      experience_id: string | null;
      /** null: the experience was deleted since. */
      experience_name: string | null;
      variation_id: string;
      variation_name: string | null;
      session_id: string | null;
      /** Not drawn at random (a preview or a forced experience): left out of the results. */
      forced: boolean;
    };

/** GET /api/visitors/{visitor}/timeline: the visitor's newest events and exposures, oldest first. */
export type VisitorTimelineResponse = {
  visitor: { user_id: string; user_customer_id: string | null; first_seen: string | null; last_seen: string | null };
  items: VisitorTimelineItem[];
  /** Older events or exposures were left out: the timeline holds the newest `limit` of each. */
  truncated: boolean;
};

// ---- The account (product.md §2 settings global, §3 "Admin API and auth") ----


/**
 * What an account stores: the settings global of product.md §2 minus what the service derives
 * per answer (`client_key`, `api_host`, `cdn_host`; `dimension_id` is the account id).
 */
export type AccountSettings = Omit<StorefitSettings, "client_key" | "api_host" | "cdn_host"> & {
  /**
   * Ours, not the spec's: the address each domain is served at, as shoppers open it
   * (`https://shop.example`, `http://shop.localhost:4200`), for the addresses the dashboard makes:
   * the visual editor's pages, preview links, the install check. Matching stays by host name
   * (`domain`, `subdomains`); a domain not listed is opened as `https://` + domain (http for
   * `.localhost`). Absent in accounts made before it.
   */
  site_origins?: string[];
};

/** spec §6: "The account API access level is client" — the client key reaches the client API only. */
export type ClientKeyAccessLevel = "client";

/** GET /api/account. */
export type AccountView = {
  id: string;
  name: string;
  client_key: string;
  access_level: ClientKeyAccessLevel;
  settings: AccountSettings;
  /** Bumped by every change of the account, its experiences or audiences. */
  revision: number;
  created_at: string;
  updated_at: string;
};

/** PATCH /api/account (owner). Each settings field given replaces the stored one. */
export type AccountPatch = { name?: string; settings?: Partial<AccountSettings> };

/** An operator of the account (product.md §3 roles). */
export type Member = { id: string; email: string; role: Role };
export type MemberListResponse = { members: Member[] };
/** POST /api/account/members (owner). */
export type MemberInput = { email: string; password: string; role: Role };
/** PATCH /api/account/members/{id} (owner). */
export type MemberPatch = { role: Role };

/** A secret key for server-to-server calls; the secret itself is shown once, at creation. */
export type SecretKeyView = {
  id: string;
  name: string;
  /** The first characters of the secret (`sk_` + 6), to tell keys apart. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
};
export type SecretKeyListResponse = { keys: SecretKeyView[] };
/** POST /api/account/keys (owner) answers the secret once; only its hash is stored. */
export type SecretKeyCreated = SecretKeyView & { secret: string };
export type SecretKeyInput = { name: string };

// ---- Experiences (product.md §3 "Decisions") ----

/** Page targeting of an experience: a page path with its match kind, on a domain. */
export type PageTarget = { domain: string; page_path: string; page_match: PageMatch };

/** A config as the operator defines it inside a variation; the service completes it per answer. */
export type ConfigDefinition = Pick<
  Config,
  "config_customer_id" | "config_id" | "variation" | "variation_data_type" | "properties"
> & { version?: number; template_info?: Json };

export type VariationDefinition = {
  id: string;
  name: string;
  /** Relative weight (≥ 0); the weights of a behaviour need not sum to 1. */
  weight: number;
  configs: ConfigDefinition[];
};

export type BehaviourDefinition = {
  id: string;
  name: string;
  /** Share of the matched audience that enters the experience, 0..1. */
  traffic_allocation: number;
  variations: VariationDefinition[];
  /** spec §3 experience_behaviour_response.config_modifications (device_specific: mobile/desktop). */
  config_modifications?: { device_specific?: boolean };
  ga_measurement_id?: string;
};

export type RuleDefinition = {
  id: string;
  /** null: everyone. */
  audience_id: string | null;
  /** A label for the rule when it has no audience; otherwise the audience's name is answered. */
  audience_name?: string;
  behaviour: BehaviourDefinition;
};

/**
 * What counts as a conversion for an experience's results (issue #7). The event names are the
 * ones the storefront script sends: a CLICK's name is its track_click goal_name, a FORM's its
 * form name, a TRACK's the name given to `track`.
 */
export type GoalKind = "page_view" | "click" | "form_submit" | "track" | "revenue";

export type GoalDefinition = {
  id: string;
  name: string;
  kind: GoalKind;
  /** page_view only: the goal page. An absent or empty domain means any of the account's domains. */
  page?: { domain?: string; page_path: string; page_match: PageMatch };
  /** click, form_submit, track: the event's name; absent means any event of that kind. */
  event_name?: string;
  /** revenue only: each visitor's revenue is capped at this amount before the statistics. */
  revenue_cap?: number;
};

/**
 * A mutually exclusive group (a layer): the experiences in one group split the group's traffic so
 * that a visitor is in at most one of them. Each member owns the slice [start, end) of [0, 1); a
 * visitor's place in the group is a stable hash of (group name, visitor), the same on every node.
 * The slices of the running and paused members of a group may not overlap.
 */
export type ExclusionGroup = { name: string; start: number; end: number };

/** GET /api/experiences/{id}. */
export type ExperienceDetail = {
  id: string;
  name: string;
  status: ExperienceStatus;
  kind: ExperienceKind;
  priority: number;
  /** null: not in a group (every visitor the rules admit can enter). */
  exclusion_group: ExclusionGroup | null;
  pages: PageTarget[];
  rules: RuleDefinition[];
  /** In the order the operator chose; the first is the primary goal. */
  goals: GoalDefinition[];
  created_at: string;
  updated_at: string;
};

type WithOptionalId<T> = Omit<T, "id"> & { id?: string };

/** Rules, behaviours and variations may omit their ids on creation; the service assigns them. */
export type VariationInput = WithOptionalId<VariationDefinition>;
export type BehaviourInput = WithOptionalId<Omit<BehaviourDefinition, "variations">> & {
  variations: VariationInput[];
};
export type RuleInput = WithOptionalId<Omit<RuleDefinition, "behaviour" | "audience_id">> & {
  /** Absent or null: everyone. */
  audience_id?: string | null;
  behaviour: BehaviourInput;
};

export type GoalInput = WithOptionalId<GoalDefinition>;

/** POST /api/experiences and PUT /api/experiences/{id}: new experiences start as drafts. */
export type ExperienceInput = {
  name: string;
  kind: ExperienceKind;
  priority?: number;
  /** Absent or null: not in a group. */
  exclusion_group?: ExclusionGroup | null;
  pages: PageTarget[];
  rules: RuleInput[];
  /** Absent: no goals (on PUT: the goals are removed). */
  goals?: GoalInput[];
};
/** PATCH /api/experiences/{id}: any subset of the input fields. */
export type ExperiencePatch = Partial<ExperienceInput>;
/**
 * GET /api/experiences/{id}/overlaps: a running experience that can change the same element on the
 * same page. Where both apply only the winner is shown; the other is left out for all of its
 * visitors there (docs/dashboard.md "Overlaps").
 */
export type ExperienceOverlap = {
  experience: { id: string; name: string; status: ExperienceStatus; priority: number };
  /** Pages where both can change the same element, as "domain/path" (at most 10). */
  pages: string[];
  /** The element paths both change there. */
  elements: string[];
  /** "other": the other experience takes the elements, this one is left out there. */
  winner: "this" | "other";
  /** Both are in one mutually exclusive group with separate slices: no visitor is in both. */
  exclusive: boolean;
};
export type ExperienceOverlapsResponse = { overlaps: ExperienceOverlap[] };

/** POST /api/experiences/{id}/status. */
export type ExperienceStatusChange = { status: ExperienceStatus };

// ---- Audiences ----

/** A MongoDB-style condition over the visitor's attributes (product.md §3). */
export type Condition = { [key: string]: Json };

export type Audience = {
  id: string;
  name: string;
  description: string;
  condition: Condition;
  created_at: string;
  updated_at: string;
};
export type AudienceListResponse = { audiences: Audience[] };
/** POST /api/audiences, PUT /api/audiences/{id}. */
export type AudienceInput = { name: string; description?: string; condition: Condition };

/** POST /api/audiences/evaluate: would this visitor (a spec §3 User, on this page) match? */
export type AudienceEvaluateRequest = { condition: Condition; visitor: { user: { [key: string]: Json }; url?: string } };
/** One clause of the condition with its own verdict; groups ($and, $or, $nor, $not) come before their parts. */
export type ClauseVerdict = {
  path: string;
  depth: number;
  attribute: string | null;
  operator: string | null;
  expected: Json;
  actual?: Json;
  matches: boolean;
};
export type AudienceEvaluateResponse = { matches: boolean; clauses: ClauseVerdict[]; attributes: { [key: string]: Json } };

// ---- Results ----

/** The statistics the operator chose; "sequential" (always valid) is the frequentist default. */
export type ResultsEngine = "bayesian" | "frequentist" | "sequential";
export type ResultsCorrection = "holm" | "bh" | "none";

/**
 * GET /api/results/{experienceId}?engine=&correction=&alpha=&from=&to= (all optional). `from` and
 * `to` are UTC days (YYYY-MM-DD), both included (docs/results.md "Date range").
 */
export type ResultsQuery = { engine?: ResultsEngine; correction?: ResultsCorrection; alpha?: number; from?: string; to?: string };

/**
 * Why an experience has few visitors (docs/results.md "Few visitors"), the first that holds:
 * no page views at all on the account's domains; none on a page the experience targets; every
 * visitor of those pages was counted and there are just few yet; a running experience of higher
 * priority changes the same element there; else its audiences or traffic allocation let few in.
 */
export type FewVisitorsCause = "no_traffic" | "pages_never_matched" | "few_shoppers" | "overlap_lost" | "audience_or_allocation";

export type ResultsDiagnostics = {
  cause: FewVisitorsCause;
  /** Page views were counted from this moment: the experience's last change (its start, or a later edit) or the range's start, whichever is later. */
  since: string;
  /** Page views on the account's domains since then. */
  page_views: number;
  /** Of those, page views on a page the experience targets. */
  target_page_views: number;
  /** Distinct visitors with a page view on a target page since then. */
  target_visitors: number;
  /**
   * Distinct visitors exposed to the experience since then, returning ones included: with a date
   * range it can be more than `total_visitors` (those first exposed in the range).
   */
  exposed_visitors: number;
  /** pages_never_matched: the account's most viewed pages since then (domain + path), to compare with the targets. */
  top_pages: { page: string; views: number }[];
  /** overlap_lost: the running experiences of higher priority that take the same elements on the target pages. */
  overlaps: { experience_id: string; name: string; priority: number; pages: string[]; elements: string[] }[];
};

/**
 * Exposures per variation (distinct visitors): over the whole experience, a visitor in every
 * variation they saw; with a date range, the visitors first exposed in it, by that first variation.
 */
export type VariationExposure = {
  variation_id: string;
  /** null when the variation was removed from the experience since. */
  name: string | null;
  visitors: number;
  /** visitors / the sum of visitors over all variations (0 when nobody was exposed). */
  share: number;
  /** The share the current weights aim at within its rule; null for a removed variation. */
  expected_share: number | null;
};

/** One variation against its rule's control (the behaviour's first variation). */
export type Comparison = {
  /** Relative lift (treatment − control) / control, or the absolute difference when asked. */
  effect: number;
  /** The interval at 1 − alpha: confidence (frequentist, sequential) or credible (Bayesian). */
  ci: [number, number];
  /** frequentist and sequential engines; with `correction`, the adjusted p-value across goals. */
  p_value?: number;
  adjusted_p_value?: number;
  /** bayesian engine. */
  chance_to_win?: number;
  /** bayesian engine: expected loss of choosing [control, treatment]. */
  risk?: [number, number];
  significant: boolean;
};

export type MetricKind = "conversion_rate" | "revenue_per_visitor" | "average_order_value";

/**
 * Why a variation has no comparison with its control (docs/results.md "Uninformative → null"):
 * - `too_few_visitors`: fewer than 2 visitors in the arm;
 * - `no_conversions`: the metric is 0 for every visitor of the treatment, or of both arms (nobody
 *   converted; for the revenue metrics, no revenue);
 * - `control_zero`: the control's value is 0 and the treatment's is not: a relative lift is undefined;
 * - `all_converted`: every visitor of the arm converted (conversion rate);
 * - `no_variance`: every visitor of the arm has the same value (revenue per visitor: the same
 *   amount; average order value: the same amount per order);
 * - `not_computable`: none of these, yet the engine has no answer (e.g. CUPED's adjusted values
 *   do not vary).
 */
export type ComparisonUnavailableReason =
  | "too_few_visitors"
  | "no_conversions"
  | "control_zero"
  | "all_converted"
  | "no_variance"
  | "not_computable";

export type ComparisonUnavailable = {
  reason: ComparisonUnavailableReason;
  /** Which arm the reason is about: the control, this variation (treatment), or both. */
  arm: "control" | "treatment" | "both";
};

export type VariationMetric = {
  variation_id: string;
  name: string | null;
  is_control: boolean;
  visitors: number;
  /** Visitors who converted at least once after their first exposure (orders for AOV). */
  conversions: number;
  /** conversion_rate: conversions / visitors; revenue_per_visitor: capped revenue / visitors; AOV: revenue / orders. */
  value: number;
  /** Summed capped revenue (revenue metrics only). */
  revenue?: number;
  /** null for the control, or when the comparison is uninformative (no visitors, zero variance). */
  comparison: Comparison | null;
  /** Present exactly when a variation other than the control has no comparison: why. */
  comparison_unavailable?: ComparisonUnavailable;
};

export type MetricResult = {
  goal_id: string;
  goal_name: string;
  goal_kind: GoalKind;
  metric: MetricKind;
  /** Whether CUPED adjusted this metric with pre-exposure behaviour. */
  cuped: boolean;
  variations: VariationMetric[];
};

/** A day (UTC, YYYY-MM-DD) of one rule: new visitors and conversions per variation that day. */
export type DailyPoint = {
  date: string;
  variations: { variation_id: string; visitors: number; conversions: { [goal_id: string]: number } }[];
};

export type RuleResults = {
  rule_id: string;
  audience_name: string;
  /** Sample-ratio check: each split cohort (the split its visitors were assigned under) against its own split; forced exposures left out (docs/results.md). */
  srm: { p_value: number; mismatch: boolean; observed: number[]; expected: number[] };
  /** A revenue goal gives two metrics (revenue per visitor, average order value); others one. */
  metrics: MetricResult[];
  daily: DailyPoint[];
};

export type ExperienceResults = {
  experience_id: string;
  engine: ResultsEngine;
  correction: ResultsCorrection;
  alpha: number;
  computed_at: string;
  /**
   * Distinct visitors exposed to the experience (each counted once); with a date range, those
   * first exposed in it (docs/results.md "Date range").
   */
  total_visitors: number;
  variations: VariationExposure[];
  rules: RuleResults[];
  /** The date range the numbers cover (UTC days, both included); null: open. */
  range: { from: string | null; to: string | null };
  /** Why visitors are few, when a running experience has fewer than 100 (docs/results.md "Few visitors"); null otherwise. */
  diagnostics: ResultsDiagnostics | null;
  /**
   * Only when the experience has a revenue goal: the currencies of its visitors' recent orders
   * (docs/results.md "Currencies"), the most orders first. Revenue adds amounts as sent, so more
   * than one entry means the revenue figures mix currencies.
   */
  revenue_currencies?: RevenueCurrency[];
};

/**
 * How many orders (REVENUE events whose amount counts) among the account's newest
 * REVENUE_CURRENCY_WINDOW events carried one `properties.currency`: three ASCII letters
 * upper-cased ("USD"), `"other"` for any other value, `null` for none.
 */
export type RevenueCurrency = { currency: string | null; orders: number };
