// Number formats of the results screen. Pure, so they are unit-tested (test/results-format.test.ts).
import type { MetricKind } from "@storefit/contract";

const percentFormat = new Intl.NumberFormat("en-US", {
  style: "percent",
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const percentPreciseFormat = new Intl.NumberFormat("en-US", {
  style: "percent",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const countFormat = new Intl.NumberFormat("en-US");

/** Money is shown without a currency sign: the account's currency is the shop's business. */
const moneyFormat = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

function finite(value: number): boolean {
  return Number.isFinite(value);
}

/** 1234 → "1,234". */
export function formatCount(value: number): string {
  return finite(value) ? countFormat.format(value) : "—";
}

/** 0.1234 → "12.3%". */
export function formatPercent(value: number): string {
  return finite(value) ? percentFormat.format(value) : "—";
}

/** A relative lift with its sign: 0.052 → "+5.2%", −0.01 → "−1.0%". */
export function formatLift(value: number): string {
  if (!finite(value)) return "—";
  const text = percentFormat.format(Math.abs(value));
  if (text === percentFormat.format(0)) return text;
  return `${value > 0 ? "+" : "\u2212"}${text}`;
}

/** An interval of lifts: "[−1.2%, +8.0%]". */
export function formatInterval([low, high]: readonly [number, number]): string {
  return `[${formatLift(low)}, ${formatLift(high)}]`;
}

/** 12.5 → "12.50". */
export function formatMoney(value: number): string {
  return finite(value) ? moneyFormat.format(value) : "—";
}

/** The value of a metric: a rate for conversion rates, money for the revenue metrics. */
export function formatMetricValue(metric: MetricKind, value: number): string {
  return metric === "conversion_rate" ? formatPercentPrecise(value) : formatMoney(value);
}

/** 0.0523 → "5.23%": conversion rates are small, one decimal hides real differences. */
export function formatPercentPrecise(value: number): string {
  return finite(value) ? percentPreciseFormat.format(value) : "—";
}

/** p-values: three decimals, and "< 0.001" below that (smaller digits mean nothing more). */
export function formatPValue(value: number): string {
  if (!finite(value)) return "—";
  if (value < 0.001) return "< 0.001";
  return value.toFixed(3);
}

/** A chance to win: never "100.0%" nor "0.0%", which would claim certainty the model has not. */
export function formatChance(value: number): string {
  if (!finite(value)) return "—";
  if (value > 0.999) return "> 99.9%";
  if (value < 0.001) return "< 0.1%";
  return formatPercent(value);
}

/** "p = 0.046", "p < 0.001": a p-value inside a sentence. */
export function formatPStatement(value: number): string {
  const text = formatPValue(value);
  return text.startsWith("<") ? `p ${text}` : `p = ${text}`;
}

export const METRIC_LABELS: Record<MetricKind, string> = {
  conversion_rate: "Conversion rate",
  revenue_per_visitor: "Revenue per visitor",
  average_order_value: "Average order value",
};
