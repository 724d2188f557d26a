// An experience's results (product.md §3 "Results", issue #7): the store sums sufficient
// statistics in SQL (ResultsAggregate), and this module turns them into the answer with
// packages/stats. docs/results.md defines every number; keep the two together.

import type {
  Comparison,
  ComparisonUnavailable,
  DailyPoint,
  ResultsDiagnostics,
  ExperienceResults,
  GoalDefinition,
  MetricKind,
  MetricResult,
  ResultsCorrection,
  ResultsEngine,
  RuleDefinition,
  RuleResults,
  VariationMetric,
} from "@storefit/contract";
import { DEFAULT_SEQUENTIAL_TUNING, adjustPValues, bayesianTest, frequentistTest } from "@storefit/stats";
import type { Statistic } from "@storefit/stats";
import type { Experience, GoalSums, ResultsAggregate, VariationVisitors } from "../store/types.js";
import { exposureVariations } from "./exposures.js";
import { srmTest } from "./srm.js";
import type { SrmCohort } from "./srm.js";

export type ResultsOptions = { engine: ResultsEngine; correction: ResultsCorrection; alpha: number };

export const RESULTS_DEFAULTS: ResultsOptions = { engine: "sequential", correction: "holm", alpha: 0.05 };

/**
 * A rule's split is flagged as a sample-ratio mismatch below this chi-square p-value. 0.001, as
 * GrowthBook and Optimizely use: a real split error gives p-values far below it within days,
 * while a check run every day on a fair split raises a false alarm rarely.
 */
export const SRM_P_THRESHOLD = 0.001;

/** Days filled in between the first and last day of the series; a longer span (a visitor's clock far off) lists only days with data. */
export const MAX_DAILY_SPAN_DAYS = 400;

const DAY_MS = 86_400_000;

/** A goal's sums for one variation over all days. */
type Totals = Omit<GoalSums, "goal_id" | "variation_id" | "date">;

const ZERO: Totals = {
  visitors: 0,
  post: 0,
  pre: 0,
  post_pre: 0,
  value: 0,
  value_squares: 0,
  pre_value: 0,
  pre_value_squares: 0,
  value_pre_value: 0,
  orders: 0,
  orders_squares: 0,
  value_orders: 0,
};

function add(a: Totals, b: Totals): Totals {
  const out = { ...a };
  for (const k of Object.keys(ZERO) as (keyof Totals)[]) out[k] = a[k] + b[k];
  return out;
}

const ratio = (num: number, den: number) => (den > 0 ? num / den : 0);

/** One metric of one goal: how its per-variation statistic and summary numbers are read from the sums. */
type MetricSpec = {
  metric: MetricKind;
  /** CUPED applies when some visitor of the rule has pre-exposure behaviour of this metric. */
  hasPre: (t: Totals) => boolean;
  statistic: (n: number, t: Totals, cuped: boolean) => Statistic;
  summary: (n: number, t: Totals) => Pick<VariationMetric, "conversions" | "value"> & { revenue?: number };
};

const CONVERSION_RATE: MetricSpec = {
  metric: "conversion_rate",
  hasPre: (t) => t.pre > 0,
  // A 0/1 value's square is itself.
  statistic: (n, t, cuped) =>
    cuped
      ? { kind: "cuped", n, post: { sum: t.post, sumSquares: t.post }, pre: { sum: t.pre, sumSquares: t.pre }, sumOfProducts: t.post_pre }
      : { kind: "proportion", n, sum: t.post },
  summary: (n, t) => ({ conversions: t.post, value: ratio(t.post, n) }),
};

const REVENUE_PER_VISITOR: MetricSpec = {
  metric: "revenue_per_visitor",
  hasPre: (t) => t.pre_value > 0,
  statistic: (n, t, cuped) =>
    cuped
      ? {
          kind: "cuped",
          n,
          post: { sum: t.value, sumSquares: t.value_squares },
          pre: { sum: t.pre_value, sumSquares: t.pre_value_squares },
          sumOfProducts: t.value_pre_value,
        }
      : { kind: "mean", n, sum: t.value, sumSquares: t.value_squares },
  summary: (n, t) => ({ conversions: t.post, value: ratio(t.value, n), revenue: t.value }),
};

/** Revenue per order with visitors as units: a ratio metric (delta method); no CUPED for ratios. */
const AVERAGE_ORDER_VALUE: MetricSpec = {
  metric: "average_order_value",
  hasPre: () => false,
  statistic: (n, t) => ({
    kind: "ratio",
    n,
    numerator: { sum: t.value, sumSquares: t.value_squares },
    denominator: { sum: t.orders, sumSquares: t.orders_squares },
    sumOfProducts: t.value_orders,
  }),
  summary: (_n, t) => ({ conversions: t.orders, value: ratio(t.value, t.orders), revenue: t.value }),
};

const METRICS: Record<MetricKind, MetricSpec> = {
  conversion_rate: CONVERSION_RATE,
  revenue_per_visitor: REVENUE_PER_VISITOR,
  average_order_value: AVERAGE_ORDER_VALUE,
};

const metricsOf = (goal: GoalDefinition): MetricSpec[] =>
  goal.kind === "revenue" ? [REVENUE_PER_VISITOR, AVERAGE_ORDER_VALUE] : [CONVERSION_RATE];

const finite = (...xs: number[]) => xs.every((x) => Number.isFinite(x));

/**
 * Treatment against control with the chosen engine, or null when the data cannot support a
 * comparison (the stats package's uninformative result: no visitors, n ≤ 1, zero variance, a
 * control mean of 0). `significant` is settled after the correction, in `correct`.
 */
function compare(control: Statistic, treatment: Statistic, options: ResultsOptions): Comparison | null {
  const { alpha } = options;
  if (options.engine === "bayesian") {
    const r = bayesianTest(control, treatment, { alpha });
    if (!(r.sd > 0) || !finite(r.effect, ...r.ci, r.chanceToWin, ...r.risk)) return null;
    return { effect: r.effect, ci: r.ci, chance_to_win: r.chanceToWin, risk: r.risk, significant: r.ci[0] > 0 || r.ci[1] < 0 };
  }
  const r = frequentistTest(control, treatment, {
    alpha,
    ...(options.engine === "sequential" ? { sequentialTuning: DEFAULT_SEQUENTIAL_TUNING } : {}),
  });
  if (!(r.se > 0) || !finite(r.effect, ...r.ci, r.pValue)) return null;
  return { effect: r.effect, ci: r.ci, p_value: r.pValue, significant: r.pValue < alpha };
}

/** The arm (control, treatment) a per-arm condition holds for, or undefined when it holds for neither. */
function armOf(control: boolean, treatment: boolean): ComparisonUnavailable["arm"] | undefined {
  return control && treatment ? "both" : control ? "control" : treatment ? "treatment" : undefined;
}

/**
 * An arm whose values do not vary, by the engine's own arithmetic: an arm compared with itself is
 * uninformative exactly when it has n ≤ 1, a mean of 0 or a variance of 0 (packages/stats
 * moments.ts), so this agrees with the engine on rounding (constant revenue whose Σx² − (Σx)²/n is
 * 1e-16·Σx²) and on the delta method's variance of a ratio (0 when every visitor's revenue per
 * order is the same). CUPED arms are judged by their unadjusted values: θ pools both arms.
 */
function isFlat(s: Statistic): boolean {
  return frequentistTest(s, s, { difference: "absolute" }).se === 0;
}

type Arm = { n: number; totals: Totals };

/**
 * Why `compare` found no comparison between two arms, from their sufficient statistics
 * (docs/results.md "Uninformative → null"), in the order an operator can act on: too few
 * visitors; a metric at 0 in an arm (a control at 0 makes the relative lift undefined); a
 * conversion rate of 100 %; values that do not vary; otherwise not computable (CUPED's adjusted
 * values, which this does not reconstruct).
 */
function unavailableReason(metric: MetricKind, control: Arm, treatment: Arm): ComparisonUnavailable {
  const spec = METRICS[metric];
  const few = armOf(control.n <= 1, treatment.n <= 1);
  if (few) return { reason: "too_few_visitors", arm: few };
  const zero = (a: Arm) => spec.summary(a.n, a.totals).value === 0;
  if (zero(control)) return zero(treatment) ? { reason: "no_conversions", arm: "both" } : { reason: "control_zero", arm: "control" };
  if (zero(treatment)) return { reason: "no_conversions", arm: "treatment" };
  if (metric === "conversion_rate") {
    const all = armOf(control.totals.post >= control.n, treatment.totals.post >= treatment.n);
    if (all) return { reason: "all_converted", arm: all };
  }
  const flat = armOf(isFlat(spec.statistic(control.n, control.totals, false)), isFlat(spec.statistic(treatment.n, treatment.totals, false)));
  if (flat) return { reason: "no_variance", arm: flat };
  return { reason: "not_computable", arm: "both" };
}

/** Holm or Benjamini–Hochberg over every comparison of the rule (each metric × treatment). */
function correct(comparisons: Comparison[], options: ResultsOptions): void {
  if (options.engine === "bayesian" || options.correction === "none") return;
  const withP = comparisons.filter((c) => c.p_value !== undefined);
  if (!withP.length) return;
  const adjusted = adjustPValues(
    withP.map((c) => c.p_value!),
    options.correction,
  );
  withP.forEach((c, i) => {
    const p = adjusted[i]!;
    c.adjusted_p_value = p;
    c.significant = p < options.alpha;
  });
}

/** A split cohort's first exposures per variation: visitors, and Σ/count of stored probabilities. */
type CohortCounts = Map<string, { visitors: number; sum: number; count: number }>;

/** A stored split's probabilities by variation id (unreadable text: none, which the check reports as impossible). */
function parseSplit(split: string): Map<string, number> {
  try {
    const parsed = JSON.parse(split) as unknown;
    if (parsed && typeof parsed === "object") {
      return new Map(Object.entries(parsed as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === "number"));
    }
  } catch {
    // fall through
  }
  return new Map();
}

/**
 * The rule's sample-ratio check over split cohorts (results/srm.ts): visitors whose assignment
 * stored its split are expected by that split; visitors without one (exposures stored before
 * splits were kept) form one cohort expected as before: the mean stored probability of each
 * variation among them, or, without any, today's traffic allocation × weight share.
 */
function srmOf(rule: RuleDefinition, cohorts: ReadonlyMap<string | null, CohortCounts>): RuleResults["srm"] {
  const variations = rule.behaviour.variations;
  const weightSum = variations.reduce((s, v) => s + Math.max(0, v.weight), 0);
  const allocation = rule.behaviour.traffic_allocation;
  const today = (v: (typeof variations)[number]) => (weightSum > 0 ? (allocation * Math.max(0, v.weight)) / weightSum : 0);
  const tests: SrmCohort[] = [];
  for (const [split, counts] of cohorts) {
    const observed = variations.map((v) => counts.get(v.id)?.visitors ?? 0);
    if (!observed.some((n) => n > 0)) continue;
    const stored = split === null ? null : parseSplit(split);
    const probabilities = variations.map((v) => {
      if (stored) return stored.get(v.id) ?? 0;
      const c = counts.get(v.id);
      return c && c.count > 0 ? c.sum / c.count : today(v);
    });
    tests.push({ observed, probabilities });
  }
  if (!tests.length) tests.push({ observed: variations.map(() => 0), probabilities: variations.map(today) });
  const { p_value, observed, expected } = srmTest(variations.length, tests);
  // No visitors: the split today's weights aim at, scaled to nobody (zeros).
  return { p_value, mismatch: p_value < SRM_P_THRESHOLD, observed, expected };
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function dailyOf(
  variationIds: string[],
  goals: readonly GoalDefinition[],
  visitorsByDay: Map<string, Map<string, number>>,
  conversionsByDay: Map<string, Map<string, Map<string, number>>>,
): DailyPoint[] {
  // The days on which this rule's variations had new visitors or conversions.
  const present = [...new Set([...visitorsByDay.keys(), ...conversionsByDay.keys()])]
    .filter((d) => variationIds.some((id) => visitorsByDay.get(d)?.has(id) || conversionsByDay.get(d)?.has(id)))
    .sort();
  if (!present.length) return [];
  const first = Date.parse(present[0]!);
  const last = Date.parse(present[present.length - 1]!);
  const span = (last - first) / DAY_MS;
  const days =
    span <= MAX_DAILY_SPAN_DAYS ? Array.from({ length: span + 1 }, (_, i) => isoDay(first + i * DAY_MS)) : present;
  return days.map((date) => ({
    date,
    variations: variationIds.map((variation_id) => {
      // Own properties whatever the goal id (`conversions[g.id] = n` on `{}` lost a goal `__proto__`).
      const conversions = Object.fromEntries(goals.map((g) => [g.id, conversionsByDay.get(date)?.get(variation_id)?.get(g.id) ?? 0]));
      return { variation_id, visitors: visitorsByDay.get(date)?.get(variation_id) ?? 0, conversions };
    }),
  }));
}

function getOrSet<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}

export type ResultsInput = {
  experience: Experience;
  /**
   * The visitors of `total_visitors` and the `variations` list: without a range, distinct visitors
   * per variation, a visitor in every variation they saw; with one, the visitors first exposed in
   * it, each in the variation of that first exposure (routes/admin-experiences.ts `rangedResults`).
   */
  exposed: { distinct: number; byVariation: readonly VariationVisitors[] };
  aggregate: ResultsAggregate;
  /** Audience id → name, for the rules' labels. */
  audienceNames: ReadonlyMap<string, string>;
  options: ResultsOptions;
  now: Date;
  /** The date range asked for (UTC days, both included), echoed in the answer. */
  range: ExperienceResults["range"];
  diagnostics: ResultsDiagnostics | null;
};

export function computeResults(input: ResultsInput): ExperienceResults {
  const { experience, aggregate, options } = input;

  // Per variation: visitors (by first exposure), per split cohort, and per day.
  const visitors = new Map<string, number>();
  const cohorts = new Map<string | null, CohortCounts>();
  const visitorsByDay = new Map<string, Map<string, number>>();
  for (const x of aggregate.exposures) {
    visitors.set(x.variation_id, (visitors.get(x.variation_id) ?? 0) + x.visitors);
    const c = getOrSet(getOrSet(cohorts, x.split, () => new Map()), x.variation_id, () => ({ visitors: 0, sum: 0, count: 0 }));
    c.visitors += x.visitors;
    c.sum += x.probability_sum;
    c.count += x.probability_count;
    if (x.date === null) continue; // a clock before 1970 or after 9999: counted, on no day
    const day = getOrSet(visitorsByDay, x.date, () => new Map<string, number>());
    day.set(x.variation_id, (day.get(x.variation_id) ?? 0) + x.visitors);
  }
  // Per goal and variation: the sums over all days, and conversions per day.
  const totals = new Map<string, Map<string, Totals>>();
  const conversionsByDay = new Map<string, Map<string, Map<string, number>>>();
  for (const g of aggregate.goals) {
    const byVariation = getOrSet(totals, g.goal_id, () => new Map<string, Totals>());
    byVariation.set(g.variation_id, add(byVariation.get(g.variation_id) ?? ZERO, g));
    if (g.date !== null) {
      const goalsOnDay = getOrSet(getOrSet(conversionsByDay, g.date, () => new Map()), g.variation_id, () => new Map<string, number>());
      goalsOnDay.set(g.goal_id, (goalsOnDay.get(g.goal_id) ?? 0) + g.post);
    }
  }

  const rules: RuleResults[] = experience.rules.map((rule) => {
    const variations = rule.behaviour.variations;
    const ids = variations.map((v) => v.id);
    const n = ids.map((id) => visitors.get(id) ?? 0);
    const comparisons: Comparison[] = [];
    const metrics: MetricResult[] = experience.goals.flatMap((goal) =>
      metricsOf(goal).map((spec): MetricResult => {
        const t = ids.map((id) => totals.get(goal.id)?.get(id) ?? ZERO);
        const cuped = t.some(spec.hasPre);
        const stats = t.map((ti, i) => spec.statistic(n[i]!, ti, cuped));
        return {
          goal_id: goal.id,
          goal_name: goal.name,
          goal_kind: goal.kind,
          metric: spec.metric,
          cuped,
          variations: variations.map((v, i): VariationMetric => {
            const comparison = i === 0 ? null : compare(stats[0]!, stats[i]!, options);
            if (comparison) comparisons.push(comparison);
            const row: VariationMetric = { variation_id: v.id, name: v.name, is_control: i === 0, visitors: n[i]!, ...spec.summary(n[i]!, t[i]!), comparison };
            if (i > 0 && !comparison) {
              row.comparison_unavailable = unavailableReason(spec.metric, { n: n[0]!, totals: t[0]! }, { n: n[i]!, totals: t[i]! });
            }
            return row;
          }),
        };
      }),
    );
    correct(comparisons, options);
    return {
      rule_id: rule.id,
      audience_name: (rule.audience_id && input.audienceNames.get(rule.audience_id)) || rule.audience_name || "Everyone",
      srm: srmOf(rule, cohorts),
      metrics,
      daily: dailyOf(ids, experience.goals, visitorsByDay, conversionsByDay),
    };
  });

  return {
    experience_id: experience.id,
    engine: options.engine,
    correction: options.correction,
    alpha: options.alpha,
    computed_at: input.now.toISOString(),
    total_visitors: input.exposed.distinct,
    variations: exposureVariations(experience, input.exposed.byVariation),
    rules,
    range: input.range,
    diagnostics: input.diagnostics,
  };
}
