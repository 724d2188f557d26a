// Why an experience has few visitors (docs/results.md "Few visitors"; issue #16): a generic "check
// that it runs and that its pages match" sends the operator hunting. The service knows the shop's
// page views, the experience's targets and the other running experiences, so it names the cause.

import type { FewVisitorsCause, ResultsDiagnostics } from "@storefit/contract";
import { isConfiguredDomain, matchPage } from "@storefit/contract";
import { findOverlaps } from "../admin/overlaps.js";
import { storedPatternsCleared, warnOnConsole } from "../admin/patterns.js";
import type { Account, Experience, ResultsRange, Store } from "../store/types.js";

/** Below this many exposed visitors a running experience's results say why they are few. */
export const FEW_VISITORS = 100;

/**
 * The most viewed pages read to find the target pages among them. Matching is in JS (the
 * contract's matcher: what the script does), so it is bounded; a target page outside the most
 * viewed has few views anyway.
 */
export const DIAGNOSTIC_PAGES_LIMIT = 2_000;

/** The most viewed pages listed when none is a target page. */
export const TOP_PAGES_LISTED = 5;

/**
 * Visitors of the target pages are "let in" well enough when at least this share of what the
 * traffic allocation allows was exposed: the experience then just has few shoppers so far. Half,
 * so that chance, bots that never run the script and visitors who leave before the page shows
 * do not turn a healthy experiment into an alarm, while a starved one (most often none) is caught.
 */
export const LET_IN_SHARE = 0.5;

export type DiagnosticsInput = {
  store: Store;
  account: Account;
  experience: Experience;
  range: ResultsRange;
  /**
   * The results' total_visitors: with a range, the visitors first exposed in it (a visitor first
   * exposed before `from` is not in it, even when seen again inside). It only decides whether to
   * diagnose: the diagnosis counts `exposed_visitors` as every visitor exposed in its window,
   * returning ones included, as it compares them with the visitors of the target pages in that
   * window; the screen says when those are more than the results count.
   */
  totalVisitors: number;
};

/** "/p?x=1" → pathname and search, as the page matcher takes a location. */
function location(domain: string, pagePath: string): { hostname: string; pathname: string; search: string } {
  const q = pagePath.indexOf("?");
  return q < 0
    ? { hostname: domain, pathname: pagePath, search: "" }
    : { hostname: domain, pathname: pagePath.slice(0, q), search: pagePath.slice(q) };
}

/** null unless the experience is running with fewer than FEW_VISITORS visitors. */
export async function diagnoseFewVisitors(input: DiagnosticsInput): Promise<ResultsDiagnostics | null> {
  const { store, account, experience } = input;
  if (experience.status !== "running" || input.totalVisitors >= FEW_VISITORS) return null;
  // Since the last change: starting is a change, and so is an edit that fixes the targeting.
  const changed = Date.parse(experience.updated_at);
  const fromMs = Math.max(changed, input.range.from_ms ?? changed);
  // A range that ends before the last change holds nothing of the experience as it is now: no
  // cause to name (an empty window would read as "the shop sent no page views").
  if (input.range.to_ms !== undefined && input.range.to_ms <= fromMs) return null;
  const range: ResultsRange = { from_ms: fromMs, ...(input.range.to_ms !== undefined ? { to_ms: input.range.to_ms } : {}) };
  const { domain: mainDomain, subdomains } = account.settings;
  const ours = (domain: string) => !mainDomain || isConfiguredDomain(domain, mainDomain, subdomains);

  const views = await store.pageViews(account.id, range, DIAGNOSTIC_PAGES_LIMIT);
  const pages = views.pages.filter((p) => ours(p.domain));
  const targets = pages.filter((p) => experience.pages.some((t) => matchPage(t, location(p.domain, p.page_path), mainDomain)));
  const base = {
    since: new Date(fromMs).toISOString(),
    page_views: views.byDomain.filter((d) => ours(d.domain)).reduce((sum, d) => sum + d.views, 0),
    target_page_views: targets.reduce((sum, p) => sum + p.views, 0),
    target_visitors: 0,
    exposed_visitors: 0,
    top_pages: [] as ResultsDiagnostics["top_pages"],
    overlaps: [] as ResultsDiagnostics["overlaps"],
  };
  const answer = (cause: FewVisitorsCause, more: Partial<ResultsDiagnostics> = {}): ResultsDiagnostics => ({ cause, ...base, ...more });

  if (base.page_views === 0) return answer("no_traffic");
  if (targets.length === 0) {
    return answer("pages_never_matched", {
      top_pages: pages.slice(0, TOP_PAGES_LISTED).map((p) => ({ page: p.domain + p.page_path, views: p.views })),
    });
  }
  base.target_visitors = await store.pageVisitors(account.id, range, targets);
  base.exposed_visitors = (await store.exposureVisitors(account.id, experience.id, range)).distinct;
  // What may enter: the most generous rule's allocation, within the experience's share of its
  // mutually exclusive group (a member with half of the group sees at most half of the visitors).
  const allocation = Math.max(0, ...experience.rules.map((r) => r.behaviour.traffic_allocation));
  const group = experience.exclusion_group;
  const groupShare = group ? Math.max(0, group.end - group.start) : 1;
  if (base.exposed_visitors > 0 && base.exposed_visitors >= LET_IN_SHARE * allocation * groupShare * base.target_visitors) return answer("few_shoppers");
  // The running experiences that take an element of this one on its viewed target pages, outside
  // a mutually exclusive group (there the two split the traffic instead).
  // Their stored page patterns are run on viewed pages only once analysed (admin/patterns.ts).
  const running = await storedPatternsCleared(account.id, await store.listRunningExperiences(account.id), [], warnOnConsole);
  const lost = findOverlaps(experience, running, mainDomain, targets).filter(
    (o) => o.winner === "other" && !o.exclusive,
  );
  if (lost.length) {
    return answer("overlap_lost", {
      overlaps: lost.map((o) => ({ experience_id: o.experience.id, name: o.experience.name, priority: o.experience.priority, pages: o.pages, elements: o.elements })),
    });
  }
  return answer("audience_or_allocation");
}
