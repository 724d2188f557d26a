// The config decision (product.md §3 "Decisions"): which configs a visitor gets on a page.
// A pure function of the account's experiences and audiences, the request, and the visitor's
// stored assignments, so every node answers the same (ARCHITECTURE.md, design goal 4).
//
// For each experience whose pages match the current page, in rank order:
//   0. in a mutually exclusive group, only the visitor whose place in the group (a stable hash
//      of group and visitor) falls in the experience's slice goes on;
//   1. the first rule whose audience matches wins (no audience: everyone);
//   2. a sticky assignment to that rule whose variation still exists is kept, whatever the
//      weights or the traffic allocation say now;
//   3. otherwise the visitor enters with probability traffic_allocation and is bucketed into a
//      weighted variation by a stable hash of (experience, rule, visitor) — a new assignment;
//   4. the variation's configs bound to this page are answered (one exposure-only config when
//      it changes nothing here), unless an element (or config key) that any variation of the
//      rule changes here is already taken by a higher-ranked experience: then the experience is
//      left out on this page as a whole, for every variation, so nobody sees half a variation
//      and the split between variations stays fair.
// Rank: desired experiences first, then preferred ones, then priority (highest first), then
// the oldest. Desired experiences bypass audience and traffic; "expId:variationId" names the
// variation. Preview bypasses status (not archived), audience and traffic, and reads no
// stored assignment. Forced choices (desired, preview) are not stored as assignments: they are
// not random, and a stored one would stick to later calls (an exposure to one carries no
// assignment probability).

import { EXPOSURE_CONFIG_PREFIX, configMatchesPage, matchDomain, matchPage } from "@storefit/contract";
import type { Config, ConfigsRequest, Json } from "@storefit/contract";
import type {
  Assignment,
  Audience,
  BehaviourDefinition,
  ConfigDefinition,
  Experience,
  RuleDefinition,
  VariationDefinition,
} from "../store/types.js";
import { assignmentKey } from "../store/types.js";
import { configMember } from "./answer.js";
import { withGoalCounters } from "./goal-counters.js";
import { conditionAttributes, evalCondition } from "./conditions.js";
import { hashPrefix, unitHashAfter } from "./hash.js";
import { REGEX_BUDGET_MS, regexBudgetSpent, withRegexBudget } from "./regex-budget.js";

export type Decision = {
  configs: Record<string, Config>;
  /**
   * `configs` as UTF-8 JSON members (`"key":{…}`), in answer order, from the plan's serialized
   * configs: the answer is copied together from them (answer.ts), never re-serialized.
   */
  configMembers: readonly Buffer[];
  page_paths: string[];
  /**
   * Whether the script may keep this answer for the visitor's repeat views of the page (docs/api.md
   * "Answer cache"), and the visitor attributes it depends on; null: it may not (preview, forced
   * experiences, or an audience on the decision time).
   */
  cache: { attributes: readonly string[] } | null;
  /** Assignments that are new or changed by this decision, to store (never in preview). */
  assignments: Assignment[];
};

export type DecisionInput = {
  request: ConfigsRequest;
  /** The stable visitor id used for bucketing (the customer id the script keeps). */
  visitorId: string;
  /** Any status: the decision filters (running; draft and paused too in preview). */
  experiences: readonly Experience[];
  audiences: ReadonlyMap<string, Audience>;
  /** The visitor's stored assignments by `assignmentKey` (experience and rule; empty in preview: a fresh user). */
  assignments: ReadonlyMap<string, Assignment>;
  /** The visitor's attributes for audience conditions. */
  attributes: Record<string, unknown>;
  /** The account's main domain: a page target with an empty domain means it. */
  mainDomain?: string;
  /**
   * Page plans already made for these experiences, by page (decide/snapshots.ts keeps one per
   * account revision): many visitors see the same pages, and matching 30 experiences' pages is
   * most of a decision's work. Absent: planned afresh.
   */
  planCache?: Map<string, PagePlan>;
};

/** One variation's answer on this page: its configs as answered, and what they take. */
export type PlannedVariation = {
  /** What these configs take on the page (config keys, elements), as indices into the plan's claims. */
  claims: number[];
  /**
   * The answered Configs with their JSON text. A Config depends only on the experience, rule,
   * variation and config — never on the visitor — so it is built and serialized once per plan.
   */
  answers: { key: string; config: Config; json: Buffer }[];
};

/**
 * A rule of a planned experience, with what the decision needs of it for every visitor made once
 * per plan: the stored assignment's key and the hash states of its bucketing (hash.ts
 * hashPrefix), so a decision builds no key strings and hashes only the visitor's id. With the
 * memo of audiences and the lazy `configs` below: 109 against 129 µs of the node's CPU per config
 * call (0.84×) in one alternating run of bench/service.bench.mjs (load 6.1, 2026-11-27).
 */
export type PlannedRule = {
  rule: RuleDefinition;
  /** assignmentKey(experience, rule). */
  key: string;
  /** The rule's audience in this snapshot; undefined: everyone (no audience_id) or nobody (gone). */
  audience: Audience | undefined;
  /** traffic_allocation within [0, 1]. */
  traffic: number;
  /** hashPrefix("traffic", experience, rule) and hashPrefix("variation", experience, rule). */
  trafficHash: number;
  variationHash: number;
};

/** An experience that targets the current page, with each variation's answer on it. */
export type PlannedExperience = {
  exp: Experience;
  /** Each variation (of this snapshot's experience objects) → its answer on this page. */
  here: ReadonlyMap<VariationDefinition, PlannedVariation>;
  /** exp.rules, in order, planned. */
  rules: PlannedRule[];
  /** hashPrefix("group", group name), when the experience is in a mutually exclusive group. */
  groupHash: number | null;
};

/** What the decision needs of one page, whoever the visitor: a pure function of the page. */
export type PagePlan = {
  /** Ranked by priority (highest first), then age; desired and preferred re-rank per request. */
  candidates: PlannedExperience[];
  page_paths: string[];
  /** How many distinct things (config keys, elements) the plan's configs can take. */
  claimCount: number;
  /**
   * The visitor attributes the audiences of this page's experiences read (page-bound `path` and
   * `domain` left out: a cached answer is kept per page); null when one reads `now`.
   */
  cacheAttributes: string[] | null;
};

/** Page plans kept per account revision; beyond this, the cache starts again. */
export const PAGE_PLAN_CACHE_SIZE = 2000;

/** "expId" or "expId:variationId" (product.md §3 desired experiences). */
export function parseDesired(entries: readonly string[] | undefined): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const entry of entries ?? []) {
    const i = entry.indexOf(":");
    const exp = (i < 0 ? entry : entry.slice(0, i)).trim();
    const variation = i < 0 ? "" : entry.slice(i + 1).trim();
    if (exp) out.set(exp, variation || null);
  }
  return out;
}

/** Weighted pick of `point` in [0, 1); null when no variation has a positive weight. */
export function pickVariation(
  variations: readonly VariationDefinition[],
  point: number,
): { variation: VariationDefinition; share: number } | null {
  let total = 0;
  for (const v of variations) total += Math.max(0, v.weight);
  if (total <= 0) return null;
  let acc = 0;
  let last: VariationDefinition | null = null;
  for (const v of variations) {
    const w = Math.max(0, v.weight);
    if (w === 0) continue;
    last = v;
    acc += w / total;
    if (point < acc) return { variation: v, share: w / total };
  }
  // Rounding can leave acc a hair under 1: the last positive variation takes the rest.
  return last ? { variation: last, share: Math.max(0, last.weight) / total } : null;
}

/**
 * Each behaviour's split, made once per snapshot (behaviour objects live as long as their snapshot,
 * and belong to one experience, whose group share is fixed within it).
 */
const splits = new WeakMap<BehaviourDefinition, string>();

/**
 * The split a new assignment is drawn from (Assignment.split): each variation's probability,
 * group share × traffic allocation × weight share, as JSON text `{"variation id": p}` in the
 * behaviour's order. The sample-ratio check computes its expected counts per split
 * (docs/results.md), so a weight or traffic change during the experiment is not taken for a
 * mismatch.
 */
export function splitOf(behaviour: BehaviourDefinition, groupShare = 1): string {
  let split = splits.get(behaviour);
  if (split === undefined) {
    const traffic = groupShare * Math.min(1, Math.max(0, behaviour.traffic_allocation));
    let total = 0;
    for (const v of behaviour.variations) total += Math.max(0, v.weight);
    // fromEntries makes own properties: `out[v.id] = p` on `{}` lost a variation named `__proto__`.
    const out = Object.fromEntries(behaviour.variations.map((v) => [v.id, total > 0 ? (traffic * Math.max(0, v.weight)) / total : 0]));
    splits.set(behaviour, (split = JSON.stringify(out)));
  }
  return split;
}

function splitPath(path: string): { pathname: string; search: string } {
  const q = path.indexOf("?");
  return q < 0 ? { pathname: path, search: "" } : { pathname: path.slice(0, q), search: path.slice(q) };
}

type Location = { hostname: string; pathname: string; search: string };

const byPriority = (a: Experience, b: Experience): number => {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

/** Whether `a` takes an element from `b` where both apply (outside desired and preferred experiences). */
export const outranks = (a: Experience, b: Experience): boolean => byPriority(a, b) < 0;

/**
 * The experiences that target this page (running; draft and paused too in preview), and the
 * paths the account personalizes on this domain.
 */
export function planPage(
  experiences: readonly Experience[],
  audiences: ReadonlyMap<string, Audience>,
  location: Location,
  mainDomain: string | undefined,
  preview: boolean,
): PagePlan {
  const candidates: PlannedExperience[] = [];
  const pagePaths = new Set<string>();
  const claimIndex = new Map<string, number>();
  let attributes: Set<string> | null = new Set<string>();
  const claimOf = (key: string): number => {
    let i = claimIndex.get(key);
    if (i === undefined) claimIndex.set(key, (i = claimIndex.size));
    return i;
  };
  for (const exp of [...experiences].sort(byPriority)) {
    const showable = exp.status === "running" || (preview && (exp.status === "draft" || exp.status === "paused"));
    if (!showable) continue;
    // page_paths: every path this account personalizes on the current domain, so the script
    // (single-page mode, spec §2) knows which paths need a config call.
    for (const p of exp.pages) {
      const domain = p.domain || mainDomain;
      if (!domain || matchDomain(location.hostname, domain)) pagePaths.add(p.page_path);
    }
    if (!exp.pages.some((p) => matchPage(p, location, mainDomain))) continue;
    const here = new Map<VariationDefinition, PlannedVariation>();
    const rules: PlannedRule[] = [];
    for (const rule of exp.rules) {
      const audience = rule.audience_id ? audiences.get(rule.audience_id) : undefined;
      rules.push({
        rule,
        key: assignmentKey(exp.id, rule.id),
        audience,
        traffic: Math.min(1, Math.max(0, rule.behaviour.traffic_allocation)),
        trafficHash: hashPrefix("traffic", exp.id, rule.id),
        variationHash: hashPrefix("variation", exp.id, rule.id),
      });
      if (audience && attributes) attributes = conditionAttributes(audience.condition, attributes);
      const variations = rule.behaviour.variations;
      const onPage = variations.map((v) => v.configs.filter((c) => configMatchesPage(c, location, mainDomain)));
      // The rule takes on this page whatever any of its variations changes here, so an overlap
      // leaves the experience out for all of its visitors or for none: never for one variation
      // only, which would skew the split the results compare.
      const claims = [...new Set(onPage.flat().flatMap(claimKeys))].map(claimOf);
      // Every variation counts the clicks any of them counts here, so each can convert on them.
      const answered = withGoalCounters(onPage, `${exp.id}_${rule.id}`);
      variations.forEach((v, i) => {
        const configs = answered[i]!;
        here.set(v, {
          claims,
          // A variation that changes nothing here (a plain control) is answered as one
          // exposure-only config, so the page still reports the visitor's exposure.
          answers: configs.length ? configs.map((c) => member(c.config_customer_id, answerOf(exp, rule, v, c, audience))) : [member(EXPOSURE_CONFIG_PREFIX + exp.id, exposureAnswerOf(exp, rule, v, audience))],
        });
      });
    }
    candidates.push({ exp, here, rules, groupHash: exp.exclusion_group ? hashPrefix("group", exp.exclusion_group.name) : null });
  }
  attributes?.delete("path");
  attributes?.delete("domain");
  return { candidates, page_paths: [...pagePaths], claimCount: claimIndex.size, cacheAttributes: attributes && [...attributes] };
}

function planFor(input: DecisionInput, location: Location, preview: boolean): PagePlan {
  const cache = input.planCache;
  if (!cache) return planPage(input.experiences, input.audiences, location, input.mainDomain, preview);
  const key = `${preview ? "p" : "l"} ${location.hostname} ${location.pathname}${location.search}`;
  let plan = cache.get(key);
  if (!plan) {
    plan = planPage(input.experiences, input.audiences, location, input.mainDomain, preview);
    // A plan whose page patterns ran out of time is this call's only: kept, it would serve every
    // later call for the page without the experiences it missed.
    if (regexBudgetSpent()) return plan;
    if (cache.size >= PAGE_PLAN_CACHE_SIZE) cache.clear();
    cache.set(key, plan);
  }
  return plan;
}

/** The decision, its regular expressions within REGEX_BUDGET_MS.decision (decide/regex-budget.ts). */
export function decide(input: DecisionInput): Decision {
  return withRegexBudget(REGEX_BUDGET_MS.decision, "a config decision", () => decideWithin(input)).value;
}

function decideWithin(input: DecisionInput): Decision {
  const { request, visitorId } = input;
  const preview = request.preview_mode === true;
  const desired = request.desired_experiences?.length ? parseDesired(request.desired_experiences) : NONE_DESIRED;
  const preferred = request.preferred_experiences?.length ? new Set(request.preferred_experiences) : NONE_PREFERRED;
  const { pathname, search } = splitPath(request.current_page_path);
  const location = { hostname: request.current_domain, pathname, search };
  const plan = planFor(input, location, preview);

  // Many experiences share an audience (a device, a campaign): each is evaluated once per
  // decision, against the same attributes.
  const audienceResults = new Map<Audience, boolean>();
  const audienceMatches = ({ rule, audience }: PlannedRule): boolean => {
    if (rule.audience_id === null) return true;
    // A rule whose audience is gone matches nobody: fail closed.
    if (!audience) return false;
    let result = audienceResults.get(audience);
    if (result === undefined) audienceResults.set(audience, (result = evalCondition(input.attributes, audience.condition)));
    return result;
  };

  // Desired first, then preferred, then the plan's order (priority, age): a stable sort.
  let candidates = plan.candidates;
  if (desired.size > 0 || preferred.size > 0) {
    const rank = (c: PlannedExperience) => (desired.has(c.exp.id) ? 0 : preferred.has(c.exp.id) ? 1 : 2);
    candidates = [...candidates].sort((a, b) => rank(a) - rank(b));
  }

  const chosen: PlannedVariation["answers"][number][] = [];
  // What this decision's configs took, by the plan's claim indices.
  const claimed = new Uint8Array(plan.claimCount);
  const changed: Assignment[] = [];

  for (const { exp, here, rules, groupHash } of candidates) {
    const isDesired = desired.has(exp.id);
    const forced = isDesired || preview;
    // 0. A mutually exclusive group lets the visitor into the one member whose slice holds their
    //    place in the group — before any stored assignment, so no visitor is ever in two.
    const group = exp.exclusion_group;
    let groupShare = 1;
    if (group && !forced) {
      // The plan's prefix; made here if a plan ever lacked it, so the check can never be skipped.
      const place = unitHashAfter(groupHash ?? hashPrefix("group", group.name), visitorId);
      if (place < group.start || place >= group.end) continue;
      groupShare = group.end - group.start;
    }
    const namedVariation = isDesired ? (desired.get(exp.id) ?? null) : null;
    // 1. The rule: the one holding a named variation, else the first whose audience matches,
    //    else (forced only) the first rule.
    let r = -1;
    let variation: VariationDefinition | undefined;
    if (namedVariation) {
      for (let i = 0; i < rules.length; i++) {
        variation = variationById(rules[i]!.rule, namedVariation);
        if (variation) {
          r = i;
          break;
        }
      }
    }
    if (r < 0) {
      for (let i = 0; i < rules.length; i++) {
        if (audienceMatches(rules[i]!)) {
          r = i;
          break;
        }
      }
    }
    if (r < 0 && forced && rules.length > 0) r = 0;
    if (r < 0) continue;
    const planned = rules[r]!;
    const rule = planned.rule;
    const behaviour = rule.behaviour;

    // 2–3. The variation and the probability the visitor had of getting it.
    let assignment: Assignment | null = null;
    // Preview: "the user is fresh" (spec §2) — no stored assignment counts.
    const stored = preview ? undefined : input.assignments.get(planned.key);
    if (variation) {
      assignment = { experience_id: exp.id, rule_id: rule.id, behaviour_id: behaviour.id, variation_id: variation.id, probability: 1 };
    } else if (stored && stored.rule_id === rule.id && (variation = variationById(rule, stored.variation_id))) {
      assignment = stored;
    } else {
      const traffic = planned.traffic;
      if (!forced && unitHashAfter(planned.trafficHash, visitorId) >= traffic) continue;
      const picked = pickVariation(behaviour.variations, unitHashAfter(planned.variationHash, visitorId));
      if (!picked) continue;
      variation = picked.variation;
      // Forced choices are never stored, and no split stands behind them.
      assignment = forced
        ? { experience_id: exp.id, rule_id: rule.id, behaviour_id: behaviour.id, variation_id: variation.id, probability: picked.share }
        : {
            experience_id: exp.id,
            rule_id: rule.id,
            behaviour_id: behaviour.id,
            variation_id: variation.id,
            probability: groupShare * traffic * picked.share,
            split: splitOf(behaviour, groupShare),
          };
    }
    // Forced choices (desired experiences, preview) are answered but never stored: they are not
    // random assignments, and storing them would make them sticky for later, unforced calls.
    if (!forced && !sameAssignment(assignment, stored)) changed.push(assignment);

    // 4. The configs for this page, unless a higher-ranked experience took one of their elements.
    const onPage = here.get(variation);
    if (!onPage) continue;
    const claims = onPage.claims;
    let taken = false;
    for (let i = 0; i < claims.length && !taken; i++) taken = claimed[claims[i]!] === 1;
    if (taken) continue;
    for (let i = 0; i < claims.length; i++) claimed[claims[i]!] = 1;
    for (const a of onPage.answers) chosen.push(a);
  }
  // A forced answer is not what the visitor's next view gets: never kept.
  // Nor one whose regular expressions ran out of time: it may lack what they would have matched.
  const cache = preview || desired.size > 0 || preferred.size > 0 || !plan.cacheAttributes || regexBudgetSpent() ? null : { attributes: plan.cacheAttributes };
  return new ChosenConfigs(chosen, plan.page_paths, cache, changed);
}

const NONE_DESIRED: ReadonlyMap<string, string | null> = new Map();
const NONE_PREFERRED: ReadonlySet<string> = new Set();

/**
 * A Decision whose `configs` object is made only when read: the config call answers from the
 * members alone (answer.ts), and a record with a key per config cost every call an object in
 * dictionary mode.
 */
class ChosenConfigs implements Decision {
  readonly configMembers: Decision["configMembers"];
  private made: Record<string, Config> | null = null;

  constructor(
    private readonly chosen: readonly PlannedVariation["answers"][number][],
    readonly page_paths: string[],
    readonly cache: Decision["cache"],
    readonly assignments: Assignment[],
  ) {
    this.configMembers = chosen.map((a) => a.json);
  }

  get configs(): Record<string, Config> {
    if (!this.made) {
      this.made = {};
      for (const a of this.chosen) this.made[a.key] = a.config;
    }
    return this.made;
  }
}

function variationById(rule: RuleDefinition, id: string): VariationDefinition | undefined {
  for (const v of rule.behaviour.variations) if (v.id === id) return v;
  return undefined;
}

function member(key: string, config: Config): PlannedVariation["answers"][number] {
  return { key, config, json: configMember(key, config) };
}

/**
 * The exposure-only config of a variation that changes nothing on this page (docs/api.md
 * "Exposure-only configs"): no element and a null JSON value, so a script applies nothing and,
 * as for any config on the page, sends its config summary. `system_created` is the spec's
 * property for a config the system made (spec §3 Config properties).
 */
function exposureAnswerOf(exp: Experience, rule: RuleDefinition, variation: VariationDefinition, audience: Audience | undefined): Config {
  const key = EXPOSURE_CONFIG_PREFIX + exp.id;
  return {
    ...answerOf(exp, rule, variation, { config_customer_id: key, config_id: key, variation: null, variation_data_type: "JSON", properties: { system_created: true } }, audience),
    version: 1,
  };
}

/** spec §3 "Config" as answered: the saved config completed with its experience's response. */
function answerOf(
  exp: Experience,
  rule: RuleDefinition,
  variation: VariationDefinition,
  c: ConfigDefinition,
  audience: Audience | undefined,
): Config {
  const behaviour = rule.behaviour;
  const created = Date.parse(exp.created_at) || 0;
  return {
    config_customer_id: c.config_customer_id,
    config_id: c.config_id,
    version: c.version ?? 1,
    config_created_at: created,
    variation_id: variation.id,
    variation: c.variation,
    variation_data_type: c.variation_data_type,
    properties: c.properties ?? {},
    experience_behaviour_response: {
      experience_id: exp.id,
      behaviour_id: behaviour.id,
      rule_id: rule.id,
      audience_name: audience?.name ?? rule.audience_name ?? "",
      experience_name: exp.name,
      behaviour_name: behaviour.name,
      priority: exp.priority,
      experience_created_time: created,
      ...(behaviour.ga_measurement_id ? { ga_measurement_id: behaviour.ga_measurement_id } : {}),
      ...(behaviour.config_modifications ? { config_modifications: behaviour.config_modifications } : {}),
    },
    ...(c.template_info !== undefined ? { template_info: c.template_info as Json } : {}),
  };
}

function sameAssignment(a: Assignment, b: Assignment | undefined): boolean {
  return (
    !!b &&
    a.rule_id === b.rule_id &&
    a.behaviour_id === b.behaviour_id &&
    a.variation_id === b.variation_id &&
    a.probability === b.probability &&
    a.split === b.split
  );
}


/**
 * What a config takes for itself on this page: its answer key and the element it changes (both
 * configs already match this page, so the element path alone names the element).
 */
function claimKeys(c: ConfigDefinition): string[] {
  const element = c.properties?.element_path;
  return element ? [`config ${c.config_customer_id}`, `element ${element}`] : [`config ${c.config_customer_id}`];
}
