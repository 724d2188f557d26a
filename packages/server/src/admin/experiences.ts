// What the admin API checks about an experience beyond its JSON Schema (product.md §3): ids the
// service assigns, ids unique within the experience, audiences that exist in the same account,
// the status transitions, and what "publishable" means.

import { randomBytes } from "node:crypto";
import type { ExperienceInput, ExperienceStatus, GoalDefinition, GoalInput, RuleInput } from "@storefit/contract";
import type { ConfigDefinition, Experience, RuleDefinition } from "../store/types.js";
import { HttpError } from "../http/errors.js";
import { checkPagePattern, pagePatternProblem } from "./patterns.js";

/** A new id: a prefix saying what it names, then 12 random bytes (base64url, 16 characters). */
export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url")}`;

/** Fills in the ids the caller left out (rules, behaviours, variations). */
export function withIds(rules: readonly RuleInput[]): RuleDefinition[] {
  return rules.map((r) => ({
    id: r.id ?? newId("rule"),
    audience_id: r.audience_id ?? null,
    ...(r.audience_name !== undefined ? { audience_name: r.audience_name } : {}),
    behaviour: {
      ...r.behaviour,
      id: r.behaviour.id ?? newId("beh"),
      variations: r.behaviour.variations.map((v) => ({ ...v, id: v.id ?? newId("var") })),
    },
  }));
}

/**
 * Goals with their ids, checked: the fields each kind uses and no others, unique ids (their page
 * patterns: checkPatterns).
 */
export function withGoalIds(goals: readonly GoalInput[]): GoalDefinition[] {
  const seen = new Set<string>();
  return goals.map((g, i) => {
    const where = `Goal ${i + 1} ("${g.name}")`;
    const goal: GoalDefinition = { ...g, id: g.id ?? newId("goal") };
    if (seen.has(goal.id)) throw new HttpError(400, "invalid_body", `Duplicate goal id "${goal.id}"`);
    seen.add(goal.id);
    if (g.kind === "page_view") {
      if (!g.page) throw new HttpError(400, "invalid_body", `${where}: a page-view goal needs its page`);
    } else if (g.page) {
      throw new HttpError(400, "invalid_body", `${where}: only page-view goals have a page`);
    }
    if (g.event_name !== undefined && !["click", "form_submit", "track"].includes(g.kind)) {
      throw new HttpError(400, "invalid_body", `${where}: only click, form and custom-event goals have an event name`);
    }
    if (g.revenue_cap !== undefined && g.kind !== "revenue") {
      throw new HttpError(400, "invalid_body", `${where}: only revenue goals have a revenue cap`);
    }
    return goal;
  });
}

/**
 * Ids are unique within the experience — variations across all rules, because
 * "expId:variationId" (desired experiences) names one — config keys unique within a variation,
 * and every audience belongs to the account.
 */
export function checkRules(audienceIds: ReadonlySet<string>, rules: readonly RuleDefinition[]): void {
  const seen = new Set<string>();
  const unique = (kind: string, id: string) => {
    const key = `${kind}:${id}`;
    if (seen.has(key)) throw new HttpError(400, "invalid_body", `Duplicate ${kind} id "${id}"`);
    seen.add(key);
  };
  for (const rule of rules) {
    unique("rule", rule.id);
    unique("behaviour", rule.behaviour.id);
    if (rule.audience_id !== null && !audienceIds.has(rule.audience_id)) {
      throw new HttpError(400, "invalid_reference", `Rule ${rule.id}: no audience "${rule.audience_id}" in this account`);
    }
    for (const v of rule.behaviour.variations) {
      unique("variation", v.id);
      const keys = new Set<string>();
      for (const c of v.configs) {
        if (keys.has(c.config_customer_id)) {
          throw new HttpError(400, "invalid_body", `Variation ${v.id}: duplicate config_customer_id "${c.config_customer_id}"`);
        }
        keys.add(c.config_customer_id);
      }
    }
  }
}

type WithPatterns = {
  pages?: readonly { page_path: string; page_match?: string }[];
  rules?: readonly { behaviour: { variations: readonly { id?: string; name: string; configs: readonly ConfigDefinition[] }[] } }[];
  goals?: readonly { name: string; page?: { page_path: string; page_match?: string } }[];
};

/** Every page an experience's regexes can be in — its pages, its configs' and its goals' — named for messages. */
function* pagesOf(e: WithPatterns): Generator<[where: string, page: { page_path: string; page_match?: string }]> {
  for (const [i, page] of (e.pages ?? []).entries()) yield [`Page ${i + 1}`, page];
  for (const rule of e.rules ?? []) {
    for (const v of rule.behaviour.variations) {
      for (const c of v.configs) {
        const p = c.properties;
        if (p?.page_path) yield [`Variation ${v.id ?? v.name}, config "${c.config_customer_id}", page`, { page_path: p.page_path, page_match: p.page_match ?? "exact_match" }];
      }
    }
  }
  for (const [i, g] of (e.goals ?? []).entries()) if (g.page) yield [`Goal ${i + 1} ("${g.name}"), page`, g.page];
}

/**
 * An experience's regexes must compile and be safe (admin/patterns.ts): 400 naming the first
 * that is not. The routes check the input before taking the write lock (analysing a new pattern
 * can take a moment); under the lock the same check answers from the verdict cache.
 */
export async function checkPatterns(e: WithPatterns): Promise<void> {
  for (const [where, page] of pagesOf(e)) await checkPagePattern(where, page);
}

/** checkPatterns inside the store's atomic write: from the verdicts checkPatterns left (patterns.ts knownPatternProblem). */
export function checkKnownPatterns(e: WithPatterns): void {
  for (const [where, page] of pagesOf(e)) {
    const problem = pagePatternProblem(where, page, true, true);
    if (problem) throw new HttpError(400, "invalid_body", problem);
  }
}

/** Analyses a stored experience's patterns ahead of an atomic write that checks them (unpublishableReason); refuses nothing. */
export async function analysePatterns(e: WithPatterns | null | undefined): Promise<void> {
  if (e) for (const [where, page] of pagesOf(e)) await pagePatternProblem(where, page, false);
}

/** Why an experience cannot run, or null when it can. */
export function unpublishableReason(e: Pick<Experience, "pages" | "rules"> & { goals?: Experience["goals"] }): string | null {
  if (e.pages.length === 0) return "It targets no page";
  if (e.rules.length === 0) return "It has no rule";
  // A pattern refused now that an experience saved before the check may still hold.
  for (const [where, page] of pagesOf(e)) {
    const problem = pagePatternProblem(where, page, false, true);
    if (problem) return problem;
  }
  const showable = e.rules.some(
    (r) => r.behaviour.traffic_allocation > 0 && r.behaviour.variations.some((v) => v.weight > 0),
  );
  return showable ? null : "No rule has traffic and a variation with a positive weight";
}

/**
 * Allowed status changes. Archived is the end of an experience's life: it leaves the decision
 * for good (even preview), and can only come back as a draft.
 */
export const STATUS_TRANSITIONS: Readonly<Record<ExperienceStatus, readonly ExperienceStatus[]>> = {
  draft: ["running", "archived"],
  running: ["paused", "archived"],
  paused: ["running", "archived"],
  archived: ["draft"],
};

export function checkTransition(from: ExperienceStatus, to: ExperienceStatus): void {
  if (from === to) return;
  if (!STATUS_TRANSITIONS[from].includes(to)) {
    throw new HttpError(409, "invalid_transition", `An experience cannot go from ${from} to ${to}`);
  }
}

/** The experience as stored from an input, keeping status and timestamps of `existing`. */
export function fromInput(
  accountId: string,
  id: string,
  input: ExperienceInput,
  status: ExperienceStatus,
): Omit<Experience, "created_at" | "updated_at"> {
  return {
    id,
    account_id: accountId,
    name: input.name,
    status,
    kind: input.kind,
    priority: input.priority ?? 0,
    exclusion_group: input.exclusion_group ?? null,
    pages: input.pages,
    rules: withIds(input.rules),
    goals: withGoalIds(input.goals ?? []),
  };
}

/**
 * A mutually exclusive group's slices may not overlap among its running and paused members (a
 * paused one may resume): an overlap would put the visitors of the shared part in both, which is
 * what the group is there to prevent. 400 for a slice that is empty; 409 naming the member whose
 * slice it overlaps. Checked when an experience in a group is saved while running or paused, and
 * when it starts.
 */
export function checkExclusionGroup(experiences: readonly Experience[], e: { id: string; exclusion_group?: Experience["exclusion_group"] }): void {
  const group = e.exclusion_group;
  if (!group) return;
  if (!(group.start < group.end)) {
    throw new HttpError(400, "invalid_body", `Mutually exclusive group "${group.name}": the slice must start before it ends (${group.start} to ${group.end})`);
  }
  for (const other of experiences) {
    const g = other.exclusion_group;
    if (other.id === e.id || !g || g.name !== group.name || (other.status !== "running" && other.status !== "paused")) continue;
    if (g.start < group.end && group.start < g.end) {
      throw new HttpError(
        409,
        "conflict",
        `In the mutually exclusive group "${group.name}", this experience's share (${pct(group.start)}–${pct(group.end)}) overlaps the share of "${other.name}" (${pct(g.start)}–${pct(g.end)}), which is ${other.status}; give each a share of its own`,
      );
    }
  }
}

const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;
