// Goals counted in every variation (docs/api.md "Goal counters"). A click goal is recorded
// by an on-click action of a variation's config (customfit_meta.onclick_action track_click, with
// the goal's name), and a custom event by an on-load one (onload_action), so a goal counted by
// one variation alone — the visual editor's "Count clicks as the goal" set in Variation B beside
// a plain control — could only ever convert in that variation, and the results would crown it
// whatever the shoppers did. So on each page, every variation of a rule is answered with a
// counter of each goal another of its variations counts there: the same trigger, element and
// page, the same goal name, nothing visible.

import type { ConfigDefinition } from "../store/types.js";

/** The prefix of a counter's config_customer_id and config_id (system-made, like cf_exposure_). */
export const GOAL_COUNTER_PREFIX = "cf_goal_counter_";

const TRIGGERS = ["onclick_action", "onload_action"] as const;

/** A goal a config counts: on click or on load, of its element ("": none), by name (undefined: the config's own id names it). */
type Counted = { trigger: (typeof TRIGGERS)[number]; element: string; goal: string | undefined };
type CountedGoal = Counted & { source: ConfigDefinition };

function goalsOf(c: ConfigDefinition): Counted[] {
  const variation = c.variation;
  if (c.variation_data_type !== "HTML_ELEMENT" || !variation || typeof variation !== "object" || Array.isArray(variation)) return [];
  const meta = (variation as { customfit_meta?: unknown }).customfit_meta;
  if (!meta || typeof meta !== "object") return [];
  const element = c.properties?.element_path;
  const out: Counted[] = [];
  for (const trigger of TRIGGERS) {
    const action = (meta as Record<string, unknown>)[trigger];
    if (!action || typeof action !== "object") continue;
    const { action_type: type, action_txt: text } = action as { action_type?: unknown; action_txt?: unknown };
    if (type !== "track_click" && type !== "track_click_and_execute_javascript") continue;
    // A click needs an element; a load action without one runs when the config is applied.
    if (trigger === "onclick_action" && (typeof element !== "string" || !element)) continue;
    const name = text && typeof text === "object" ? (text as { goal_name?: unknown }).goal_name : undefined;
    out.push({ trigger, element: typeof element === "string" ? element : "", goal: typeof name === "string" && name ? name : undefined });
  }
  return out;
}

const same = (a: Counted, b: Counted) => a.trigger === b.trigger && a.element === b.element && a.goal === b.goal;

/**
 * Each variation's configs on this page (`onPage`, one list per variation of the rule, in order)
 * with a counter added for each goal another variation counts and this one does not. The
 * lists come back unchanged (the same arrays) when no variation counts a goal here.
 * `keyPrefix` makes the counters' keys unique in an answer (experience and rule).
 */
export function withGoalCounters(onPage: readonly ConfigDefinition[][], keyPrefix: string): ConfigDefinition[][] {
  const goals: CountedGoal[] = [];
  for (const configs of onPage)
    for (const c of configs) for (const counted of goalsOf(c)) if (!goals.some((g) => same(g, counted))) goals.push({ ...counted, source: c });
  if (!goals.length) return onPage as ConfigDefinition[][];
  return onPage.map((configs) => {
    const counts = configs.flatMap(goalsOf);
    const missing = goals
      .map((g, i) => [g, i] as const)
      .filter(([g]) => !counts.some((counted) => same(counted, g)));
    return missing.length ? [...configs, ...missing.map(([g, i]) => counter(g, `${GOAL_COUNTER_PREFIX}${keyPrefix}_${i}`))] : configs;
  });
}

function counter({ trigger, goal, source }: CountedGoal, key: string): ConfigDefinition {
  const p = source.properties ?? {};
  // The source's page and element only: it matched this page, so the counter does too.
  const properties: ConfigDefinition["properties"] = { system_created: true };
  for (const name of ["page_path", "page_match", "domain", "element_path", "element_hint"] as const)
    if (p[name] !== undefined) (properties as Record<string, unknown>)[name] = p[name];
  return {
    config_customer_id: key,
    config_id: key,
    version: 1,
    variation_data_type: "HTML_ELEMENT",
    // A counter without a goal name sends its event under its own id, as the source's does under
    // its id: only a goal that counts any event of the kind can count either.
    variation: { customfit_meta: { [trigger]: { action_type: "track_click", action_txt: goal === undefined ? {} : { goal_name: goal } } } },
    properties,
  };
}
