import { describe, expect, it } from "vitest";
import { CSV_COLUMNS, buildResultsCsv, csvCell, csvFileName } from "../src/pages/results/csv";
import { resultsAnswer } from "./results-fixtures";

/** A small RFC 4180 reader, so the tests check what a spreadsheet would see. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

describe("results CSV", () => {
  it("has a header row and one row per rule, metric and variation, with CRLF line ends", () => {
    const csv = buildResultsCsv(resultsAnswer());
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(csv.replace(/\r\n/g, "")).not.toContain("\n");
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(1 + 2 * 2);
    for (const row of rows) expect(row).toHaveLength(CSV_COLUMNS.length);
  });

  it("writes the numbers of each variation under the right column", () => {
    const rows = parseCsv(buildResultsCsv(resultsAnswer()));
    const header = rows[0]!;
    const record = (row: string[]) => Object.fromEntries(header.map((h, i) => [h, row[i]]));
    const control = record(rows[1]!);
    const treatment = record(rows[2]!);
    expect(control).toMatchObject({
      rule_id: "rule_everyone",
      audience: "Everyone",
      goal_id: "goal_add_to_cart",
      metric: "conversion_rate",
      variation_id: "var_control",
      is_control: "true",
      visitors: "1000",
      conversions: "100",
      value: "0.1",
      lift: "",
      p_value: "",
      significant: "",
      engine: "sequential",
      correction: "holm",
      alpha: "0.05",
    });
    expect(treatment).toMatchObject({
      variation: "Free shipping",
      visitors: "1010",
      conversions: "150",
      lift: "0.485",
      ci_low: "0.2",
      ci_high: "0.77",
      p_value: "0.0004",
      adjusted_p_value: "0.0012",
      chance_to_win: "",
      significant: "true",
    });
    const revenue = record(rows[4]!);
    expect(revenue).toMatchObject({ metric: "revenue_per_visitor", revenue: "2626", significant: "false" });
  });

  it("quotes commas and quotes, and defuses text a spreadsheet would run as a formula", () => {
    const rows = parseCsv(buildResultsCsv(resultsAnswer()));
    const goal = rows[3]![CSV_COLUMNS.indexOf("goal")];
    expect(goal).toBe('Revenue, "net"');
    expect(rows[4]![CSV_COLUMNS.indexOf("variation")]).toBe("'=HYPERLINK(\"x\")");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-x")).toBe("'-x");
    expect(csvCell("@x")).toBe("'@x");
    // Numbers are numbers, negative ones included.
    expect(csvCell(-0.1)).toBe("-0.1");
    expect(csvCell(Number.NaN)).toBe("");
    expect(csvCell(null)).toBe("");
    expect(csvCell("a\nb")).toBe('"a\nb"');
  });

  it("writes Bayesian chance to win and risk", () => {
    const answer = resultsAnswer({ engine: "bayesian" });
    answer.rules[0]!.metrics[0]!.variations[1]!.comparison = {
      effect: 0.4,
      ci: [0.1, 0.7],
      chance_to_win: 0.998,
      risk: [0.05, 0.0001],
      significant: true,
    };
    const rows = parseCsv(buildResultsCsv(answer));
    const row = rows[2]!;
    expect(row[CSV_COLUMNS.indexOf("chance_to_win")]).toBe("0.998");
    expect(row[CSV_COLUMNS.indexOf("risk_control")]).toBe("0.05");
    expect(row[CSV_COLUMNS.indexOf("risk_treatment")]).toBe("0.0001");
    expect(row[CSV_COLUMNS.indexOf("p_value")]).toBe("");
    expect(row[CSV_COLUMNS.indexOf("engine")]).toBe("bayesian");
  });

  it("is only a header without rules", () => {
    expect(parseCsv(buildResultsCsv(resultsAnswer({ rules: [] })))).toEqual([[...CSV_COLUMNS]]);
  });

  it("names the file after the experience, engine and day", () => {
    expect(csvFileName(resultsAnswer())).toBe("storefit-results-exp_price_message-sequential-2026-11-22.csv");
    expect(csvFileName(resultsAnswer({ experience_id: "a/b c", engine: "bayesian", computed_at: "?" }))).toBe(
      "storefit-results-a_b_c-bayesian.csv",
    );
  });
});
