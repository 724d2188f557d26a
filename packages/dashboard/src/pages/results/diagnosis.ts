// Why an experience has few visitors, in words (docs/results.md "Few visitors"): the service
// names the cause with its numbers (`diagnostics`), the screen says it with what to do.
import type { ResultsDiagnostics } from "@storefit/contract";
import { formatDateTime, formatDay } from "../../format";
import { formatCount } from "./format";

export type DiagnosisText = { title: string; detail: string };

const plural = (n: number, one: string, many: string) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

/** "'Price message'", "'A' and 'B'", "'A', 'B' and 'C'". */
function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/**
 * A date range with a first day, and the visitors the results count in it (the answer's
 * `total_visitors`): those first shown the experience in the range.
 */
export type FirstShown = { from: string; visitors: number };

/**
 * `rangeTo`: the last day of the results' date range (UTC, included), when it has one. The
 * service counts page views up to its end, so "since" alone would claim more than was read.
 *
 * `firstShown`: with a range that has a first day. The diagnosis counts every visitor who saw the
 * experience in its window (`exposed_visitors`), returning ones included, since it compares them
 * with the visitors of its pages in that window; the results count only those first shown it in
 * the range. When the first are more, a sentence says why the results have fewer (a screen read
 * "No visitors …" beside "20 … saw it").
 */
export function diagnosisText(
  d: ResultsDiagnostics,
  rangeTo: string | null = null,
  firstShown: FirstShown | null = null,
): DiagnosisText {
  const since = rangeTo
    ? `from ${formatDateTime(d.since)} to the end of ${formatDay(rangeTo)}`
    : `since ${formatDateTime(d.since)}`;
  const counted =
    firstShown && d.exposed_visitors > firstShown.visitors
      ? ` The results of a date range count only the visitors first shown it in the range ` +
        `(${firstShown.visitors === 0 ? "none" : formatCount(firstShown.visitors)}): those first shown it before ` +
        `${formatDay(firstShown.from)} are left out, also when they come back.`
      : "";
  switch (d.cause) {
    case "no_traffic":
      return {
        title: "No page views from the shop",
        detail:
          `The shop has sent no page views ${since}. Check that the Storefit snippet is on the ` +
          "shop's pages (see Install) and that the domain in Settings is the one shoppers visit.",
      };
    case "pages_never_matched": {
      const top = d.top_pages.map((p) => `${p.page} (${formatCount(p.views)})`).join(", ");
      return {
        title: "No shopper has viewed this experience's pages",
        detail:
          `${plural(d.page_views, "page view", "page views")} on the shop ${since}, but none on a page ` +
          `this experience targets.${top ? ` Most viewed: ${top}.` : ""} Check the experience's pages in its editor.`,
      };
    }
    case "few_shoppers":
      return {
        title: "Few shoppers so far",
        detail:
          `${plural(d.target_visitors, "visitor", "visitors")} viewed this experience's pages ${since}, and ` +
          `${formatCount(d.exposed_visitors)} of them saw it: it reaches the shoppers it should.${counted} The results ` +
          "firm up as more shoppers arrive.",
      };
    case "overlap_lost": {
      const names = listOf(d.overlaps.map((o) => `'${o.name}'`));
      const elements = listOf([...new Set(d.overlaps.flatMap((o) => o.elements))]);
      const many = d.overlaps.length > 1;
      return {
        title: "A higher-priority experience takes this one's place",
        detail:
          `${plural(d.target_page_views, "page view", "page views")} on this experience's pages ${since}, but ` +
          `${many ? "higher-priority experiences" : "a higher-priority experience"} ${names} ` +
          `${many ? "change" : "changes"} the same ${elements.includes(" and ") ? "elements" : "element"} (${elements}) there, ` +
          "so shoppers see that instead. Give this experience a higher priority, or put both in a " +
          "mutually exclusive group so that each gets its own share of shoppers.",
      };
    }
    case "audience_or_allocation":
      return {
        title: "Few shoppers let in",
        detail:
          `${plural(d.target_visitors, "visitor", "visitors")} viewed this experience's pages ${since}, but ` +
          `only ${formatCount(d.exposed_visitors)} saw it: its audiences or traffic allocation let few in. ` +
          `Check each rule's audience and traffic allocation in the editor.${counted}`,
      };
  }
}
