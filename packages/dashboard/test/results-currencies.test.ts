// Revenue in several currencies (docs/results.md "Currencies"): the service adds amounts as sent,
// so $27 + £38 showed as 65 with nothing to say so. The screen labels revenue figures with the one
// currency of the shop's orders, warns above the revenue metrics when there are several, and the
// CSV carries them.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ExperienceResults, RevenueCurrency } from "@storefit/contract";
import { CSV_COLUMNS, buildResultsCsv } from "../src/pages/results/csv";
import { mixedCurrencyWarning, singleCurrency } from "../src/pages/results/currency";
import { RuleResultsSection } from "../src/pages/results/RuleResultsSection";
import { resultsAnswer } from "./results-fixtures";

const TWO: RevenueCurrency[] = [
  { currency: "USD", orders: 6 },
  { currency: "GBP", orders: 4 },
];

/** The answer's one rule (a conversion metric, then revenue per visitor) rendered. */
function render(revenue_currencies?: RevenueCurrency[]): string {
  const results: ExperienceResults = resultsAnswer(revenue_currencies ? { revenue_currencies } : {});
  return renderToStaticMarkup(createElement(RuleResultsSection, { rule: results.rules[0]!, definition: undefined, results }));
}

describe("revenue currencies on the Results screen", () => {
  it("one currency: each revenue metric's title names it; the conversion rate's does not", () => {
    const html = render([{ currency: "USD", orders: 10 }]);
    const titles = [...html.matchAll(/<h3[^>]*>(.*?)<\/h3>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""));
    expect(titles).toEqual(["Add to cart · Conversion rate", "Revenue, &quot;net&quot; · Revenue per visitorCUPEDUSD"]);
    expect(html.match(/data-testid="revenue-currency"/g)).toHaveLength(1);
    expect(html).toContain('title="Amounts in USD: every recent order of the shop came in it');
    expect(html).not.toContain('data-testid="currency-warning"');
  });

  it("several currencies: a warning in plain words above the revenue metrics, and no single label", () => {
    const html = render(TWO);
    const warning = /data-testid="currency-warning"[^>]*>([^<]*)</.exec(html)?.[1];
    expect(warning).toBe(
      "Orders came in 2 currencies (USD: 6, GBP: 4 of this experience&#x27;s visitors&#x27; orders among the shop&#x27;s last 50,000 events). " +
        "Revenue here adds their amounts as they are, without converting: track revenue in one currency " +
        "(docs/results.md &quot;Currencies&quot;).",
    );
    // Above the revenue metric, below the conversion rate.
    const at = html.indexOf('data-testid="currency-warning"');
    expect(at).toBeGreaterThan(html.indexOf('data-metric="conversion_rate"'));
    expect(at).toBeLessThan(html.indexOf('data-metric="revenue_per_visitor"'));
    expect(html.match(/currency-warning/g)).toHaveLength(1);
    expect(html).not.toContain("revenue-currency");
  });

  it("orders without a currency or with another value are named, never taken for one currency", () => {
    expect(singleCurrency([{ currency: null, orders: 3 }])).toBeUndefined();
    expect(singleCurrency([{ currency: "other", orders: 3 }])).toBeUndefined();
    expect(singleCurrency([])).toBeUndefined();
    expect(singleCurrency(undefined)).toBeUndefined();
    expect(mixedCurrencyWarning([{ currency: null, orders: 3 }])).toBeNull();
    expect(mixedCurrencyWarning([{ currency: "EUR", orders: 1_200 }, { currency: null, orders: 3 }, { currency: "other", orders: 1 }])).toMatch(
      /^Orders did not all come in one currency \(EUR: 1,200, no currency: 3, not a currency code: 1 of this experience/,
    );
  });

  it("no answer (an older service, or no revenue goal): no label, no warning", () => {
    const html = render();
    expect(html).not.toContain("revenue-currency");
    expect(html).not.toContain("currency-warning");
  });

  it("the CSV has the currencies in the revenue rows, a column of their own, parseable", () => {
    // The last column: a new one goes at the end, so spreadsheets reading by position still work.
    expect(CSV_COLUMNS.at(-1)).toBe("revenue_currencies");
    const lines = buildResultsCsv(resultsAnswer({ revenue_currencies: [...TWO, { currency: null, orders: 2 }] }))
      .trimEnd()
      .split("\r\n");
    const last = (line: string) => line.slice(line.lastIndexOf(",") + 1);
    expect(last(lines[0]!)).toBe("revenue_currencies");
    expect(lines.slice(1).map((line) => [/,(conversion_rate|revenue_per_visitor),/.exec(line)?.[1], last(line)])).toEqual([
      ["conversion_rate", ""],
      ["conversion_rate", ""],
      ["revenue_per_visitor", "USD:6 GBP:4 none:2"],
      ["revenue_per_visitor", "USD:6 GBP:4 none:2"],
    ]);
  });
});
