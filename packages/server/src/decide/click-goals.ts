// Click goals counted in every variation (docs/api.md "Click-goal counters"). A click goal is
// recorded by an on-click action of a variation's config (customfit_meta.onclick_action
// track_click, with the goal's name), so a goal counted by one variation alone — the visual
// editor's "Count clicks as the goal" set in Variation B beside a plain control — could only ever
// convert in that variation, and the results would crown it whatever the shoppers did. So on
// each page, every variation of a rule is answered with a counter of each click goal another of
// its variations counts there: the same element and page, the same goal name, nothing visible.

import type { ConfigDefinition } from "../store/types.js";

/** The prefix of a counter's config_customer_id and config_id (system-made, like cf_exposure_). */
export const CLICK_GOAL_COUNTER_PREFIX = "cf_click_goal_";

type ClickGoal = { element: string; goal: string | undefined; source: ConfigDefinition };

/** The click a config counts: its element and its goal name (undefined: the config's own id names it). */
function clickGoalOf(c: ConfigDefinition): { element: string; goal: string | undefined } | null {
  const element = c.properties?.element_path;
  const variation = c.variation;
  if (c.variation_data_type !== "HTML_ELEMENT" || typeof element !== "string" || !element) return null;
  if (!variation || typeof variation !== "object" || Array.isArray(variation)) return null;
  const meta = (variation as { customfit_meta?: unknown }).customfit_meta;
  const action = meta && typeof meta === "object" ? (meta as { onclick_action?: unknown }).onclick_action : undefined;
  if (!action || typeof action !== "object") return null;
  const { action_type: type, action_txt: text } = action as { action_type?: unknown; action_txt?: unknown };
  if (type !== "track_click" && type !== "track_click_and_execute_javascript") return null;
  const name = text && typeof text === "object" ? (text as { goal_name?: unknown }).goal_name : undefined;
  return { element, goal: typeof name === "string" && name ? name : undefined };
}

const same = (a: { element: string; goal: string | undefined }, b: { element: string; goal: string | undefined }) =>
  a.element === b.element && a.goal === b.goal;

/**
 * Each variation's configs on this page (`onPage`, one list per variation of the rule, in order)
 * with a counter added for each click goal another variation counts and this one does not. The
 * lists come back unchanged (the same arrays) when no variation counts a click here.
 * `keyPrefix` makes the counters' keys unique in an answer (experience and rule).
 */
export function withClickGoalCounters(onPage: readonly ConfigDefinition[][], keyPrefix: string): ConfigDefinition[][] {
  const goals: ClickGoal[] = [];
  for (const configs of onPage)
    for (const c of configs) {
      const counted = clickGoalOf(c);
      if (counted && !goals.some((g) => same(g, counted))) goals.push({ ...counted, source: c });
    }
  if (!goals.length) return onPage as ConfigDefinition[][];
  return onPage.map((configs) => {
    const counts = configs.map(clickGoalOf);
    const missing = goals
      .map((g, i) => [g, i] as const)
      .filter(([g]) => !counts.some((counted) => counted && same(counted, g)));
    return missing.length ? [...configs, ...missing.map(([g, i]) => counter(g, `${CLICK_GOAL_COUNTER_PREFIX}${keyPrefix}_${i}`))] : configs;
  });
}

function counter({ goal, source }: ClickGoal, key: string): ConfigDefinition {
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
    // A counter without a goal name sends its CLICK under its own id, as the source's does under
    // its id: only a goal that counts any click can count either.
    variation: { customfit_meta: { onclick_action: { action_type: "track_click", action_txt: goal === undefined ? {} : { goal_name: goal } } } },
    properties,
  };
}
