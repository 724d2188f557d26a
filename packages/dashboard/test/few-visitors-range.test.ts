// "Few visitors" in words for a date range that ends (docs/results-screen.md): the service counts
// page views up to the range's end, so the screen says "from … to the end of …", never "since …"
// alone, which would claim the shop sent nothing after the range too.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ResultsDiagnostics } from "@storefit/contract";
import { formatDateTime, formatDay } from "../src/format";
import { diagnosisText } from "../src/pages/results/diagnosis";
import { FewVisitorsNotice } from "../src/pages/results/FewVisitorsNotice";
import { ResultsBody } from "../src/pages/results/ResultsPage";
import { resultsAnswer } from "./results-fixtures";

const base: ResultsDiagnostics = {
  cause: "no_traffic",
  since: "2026-11-05T10:00:00.000Z",
  page_views: 0,
  target_page_views: 0,
  target_visitors: 0,
  exposed_visitors: 0,
  top_pages: [],
  overlaps: [],
};
const window = `from ${formatDateTime(base.since)} to the end of ${formatDay("2026-11-10")}`;

describe("few visitors in a date range that ends", () => {
  it("says the window it read, for every cause that names one", () => {
    expect(diagnosisText(base, "2026-11-10").detail).toMatch(
      new RegExp(
        `^The shop has sent no page views ${window.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.`,
      ),
    );
    for (const cause of [
      "pages_never_matched",
      "few_shoppers",
      "audience_or_allocation",
      "overlap_lost",
    ] as const) {
      const text = diagnosisText(
        {
          ...base,
          cause,
          page_views: 3,
          target_page_views: 3,
          target_visitors: 3,
          exposed_visitors: 1,
        },
        "2026-11-10",
      ).detail;
      expect(text).toContain(window);
      expect(text).not.toContain("since");
    }
  });

  it("says 'since' when the range is open", () => {
    expect(diagnosisText(base).detail).toContain(`since ${formatDateTime(base.since)}`);
    expect(diagnosisText(base, null).detail).toContain(`since ${formatDateTime(base.since)}`);
  });

  it("the notice takes the range's last day", () => {
    const html = renderToStaticMarkup(
      createElement(FewVisitorsNotice, { diagnostics: base, rangeTo: "2026-11-10" }),
    );
    expect(html).toContain(window);
  });
});

describe("a date range whose visitors were first shown the experience before it", () => {
  // 20 visitors first shown it on 5 Nov come back on 6 Nov; the range starts on 6 Nov. The results
  // count visitors first shown it in the range (none), the diagnosis every visitor who saw it in
  // its window (20): both are true, and the screen says which is which.
  const returning: ResultsDiagnostics = {
    ...base,
    cause: "few_shoppers",
    since: "2026-11-06T00:00:00.000Z",
    page_views: 40,
    target_page_views: 40,
    target_visitors: 20,
    exposed_visitors: 20,
  };
  const screen = (total: number, from: string | null) =>
    renderToStaticMarkup(
      createElement(ResultsBody, {
        query: {
          data: resultsAnswer({
            total_visitors: total,
            range: { from, to: null },
            diagnostics: returning,
          }),
          isError: false,
        } as Parameters<typeof ResultsBody>[0]["query"],
        experience: undefined,
        stale: false,
      }),
    )
      .replace(/<!-- -->/g, "")
      .replace(/&#x27;/g, "'");
  const leftOut = (counted: string) =>
    `The results of a date range count only the visitors first shown it in the range (${counted}): those first shown it before ${formatDay("2026-11-06")} are left out, also when they come back.`;

  it("says that none was first shown it in the range, and why the 20 who saw it are not counted", () => {
    const html = screen(0, "2026-11-06");
    expect(html).toContain("No visitors were first shown this experience in this date range");
    expect(html).not.toContain("No visitors in this date range");
    expect(html).toContain(
      `20 visitors viewed this experience's pages since ${formatDateTime(returning.since)}, and 20 of them saw it: it reaches the shoppers it should. ${leftOut("none")}`,
    );
  });

  it("gives the count when some were first shown it there, and says nothing of it when all were or there is no first day", () => {
    expect(screen(5, "2026-11-06")).toContain(leftOut("5"));
    expect(screen(20, "2026-11-06")).not.toContain("first shown it in the range");
    expect(screen(0, null)).toContain("No visitors yet");
    expect(screen(0, null)).not.toContain("first shown it in the range");
    const allocation = diagnosisText(
      { ...returning, cause: "audience_or_allocation", target_visitors: 200 },
      null,
      { from: "2026-11-06", visitors: 3 },
    ).detail;
    expect(allocation).toMatch(/in the editor\. The results of a date range .*\(3\)/);
  });
});
