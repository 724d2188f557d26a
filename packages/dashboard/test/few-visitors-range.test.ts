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
