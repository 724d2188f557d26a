// A results answer as the service gives it, for the unit tests of the results screen's pure parts.
import type { ExperienceResults, MetricResult } from "@storefit/contract";

export function conversionMetric(overrides: Partial<MetricResult> = {}): MetricResult {
  return {
    goal_id: "goal_add_to_cart",
    goal_name: "Add to cart",
    goal_kind: "track",
    metric: "conversion_rate",
    cuped: false,
    variations: [
      {
        variation_id: "var_control",
        name: "Control",
        is_control: true,
        visitors: 1000,
        conversions: 100,
        value: 0.1,
        comparison: null,
      },
      {
        variation_id: "var_b",
        name: "Free shipping",
        is_control: false,
        visitors: 1010,
        conversions: 150,
        value: 150 / 1010,
        comparison: {
          effect: 0.485,
          ci: [0.2, 0.77],
          p_value: 0.0004,
          adjusted_p_value: 0.0012,
          significant: true,
        },
      },
    ],
    ...overrides,
  };
}

export function resultsAnswer(overrides: Partial<ExperienceResults> = {}): ExperienceResults {
  return {
    experience_id: "exp_price_message",
    engine: "sequential",
    correction: "holm",
    alpha: 0.05,
    computed_at: "2026-11-22T08:00:00.000Z",
    total_visitors: 2010,
    variations: [
      { variation_id: "var_control", name: "Control", visitors: 1000, share: 0.4975, expected_share: 0.5 },
      { variation_id: "var_b", name: "Free shipping", visitors: 1010, share: 0.5025, expected_share: 0.5 },
    ],
    rules: [
      {
        rule_id: "rule_everyone",
        audience_name: "Everyone",
        srm: { p_value: 0.82, mismatch: false, observed: [1000, 1010], expected: [1005, 1005] },
        metrics: [
          conversionMetric(),
          {
            goal_id: "goal_revenue",
            goal_name: "Revenue, \"net\"",
            goal_kind: "revenue",
            metric: "revenue_per_visitor",
            cuped: true,
            variations: [
              {
                variation_id: "var_control",
                name: "Control",
                is_control: true,
                visitors: 1000,
                conversions: 40,
                value: 2.5,
                revenue: 2500,
                comparison: null,
              },
              {
                variation_id: "var_b",
                name: "=HYPERLINK(\"x\")",
                is_control: false,
                visitors: 1010,
                conversions: 44,
                value: 2.6,
                revenue: 2626,
                comparison: { effect: 0.04, ci: [-0.1, 0.18], p_value: 0.6, adjusted_p_value: 0.6, significant: false },
              },
            ],
          },
        ],
        daily: [],
      },
    ],
    range: { from: null, to: null },
    diagnostics: null,
    ...overrides,
  };
}
