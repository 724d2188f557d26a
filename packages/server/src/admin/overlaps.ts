// Which experiences can change the same element on the same page as another (issue #16: an
// overlap must never be silent). On such a page the decision shows only the higher-ranked one and
// leaves the other out for all of its visitors (decide.ts step 4); the dashboard names the
// overlap where the operator decides (editor, list, Start) and offers the remedy that keeps both
// measurable: a mutually exclusive group.
//
// Whether two page patterns can match one page is not decidable in general (two regexes), so the
// check is made on concrete pages: the exact pages either experience names (targets and configs
// bound to a page), the account's configured pages, and the pages shoppers actually viewed
// (the caller passes them). A pattern that matches none of those has no overlap worth naming yet.

import { matchPage } from "@storefit/contract";
import type { ExperienceOverlap, PageTarget } from "@storefit/contract";
import type { ConfigDefinition, Experience } from "../store/types.js";
import { outranks } from "../decide/decide.js";
import { REGEX_BUDGET_MS, withRegexBudget } from "../decide/regex-budget.js";

/** A concrete page: a hostname (empty: the main domain) and a path with its query. */
export type SamplePage = { domain: string; page_path: string };

/** contract ExperienceOverlap: who can change the same element on the same page, and who wins. */
export type Overlap = ExperienceOverlap;

/** Pages named per overlap; the count of the rest is not needed to decide. */
const MAX_PAGES = 10;

/**
 * The overlaps of `target` with `others` (the caller passes the experiences that can show now:
 * running ones), on the candidate pages: target's and the other's exact pages plus `samples`.
 */
export function findOverlaps(target: Experience, others: readonly Experience[], mainDomain: string | undefined, samples: readonly SamplePage[] = []): Overlap[] {
  // Sample pages are shoppers' paths (anyone with the client key can store page views): the
  // page patterns' tests on them run within a budget (decide/regex-budget.ts).
  return withRegexBudget(REGEX_BUDGET_MS.admin, "an overlaps check", () => overlapsOf(target, others, mainDomain, samples)).value;
}

function overlapsOf(target: Experience, others: readonly Experience[], mainDomain: string | undefined, samples: readonly SamplePage[]): Overlap[] {
  const out: Overlap[] = [];
  for (const other of others) {
    if (other.id === target.id) continue;
    const pages: string[] = [];
    const elements = new Set<string>();
    for (const page of candidatePages(target, other, mainDomain, samples)) {
      const location = locationOf(page, mainDomain);
      if (!location) continue;
      const mine = elementsOn(target, location, mainDomain);
      if (mine.size === 0) continue;
      const theirs = elementsOn(other, location, mainDomain);
      let shared = false;
      for (const el of mine) {
        if (theirs.has(el)) {
          elements.add(el);
          shared = true;
        }
      }
      if (shared && pages.length < MAX_PAGES) pages.push(`${location.hostname}${page.page_path}`);
    }
    if (elements.size === 0) continue;
    out.push({
      experience: { id: other.id, name: other.name, status: other.status, priority: other.priority },
      pages,
      elements: [...elements].sort(),
      winner: outranks(target, other) ? "this" : "other",
      exclusive: exclusive(target, other),
    });
  }
  return out;
}

function exclusive(a: Experience, b: Experience): boolean {
  const ga = a.exclusion_group;
  const gb = b.exclusion_group;
  return !!ga && !!gb && ga.name === gb.name && (ga.end <= gb.start || gb.end <= ga.start);
}

/** Every concrete page either experience names, and the samples; each once. */
function candidatePages(a: Experience, b: Experience, mainDomain: string | undefined, samples: readonly SamplePage[]): SamplePage[] {
  const seen = new Map<string, SamplePage>();
  const add = (p: SamplePage) => {
    const key = `${p.domain || mainDomain || ""} ${p.page_path}`;
    if (!seen.has(key)) seen.set(key, p);
  };
  for (const exp of [a, b]) {
    for (const p of exp.pages) if (p.page_match === "exact_match") add(p);
    for (const c of configsOf(exp)) {
      const p = c.properties;
      if (p?.page_path && (p.page_match ?? "exact_match") === "exact_match") add({ domain: p.domain ?? "", page_path: p.page_path });
    }
  }
  for (const p of samples) add(p);
  return [...seen.values()];
}

function locationOf(page: SamplePage, mainDomain: string | undefined): { hostname: string; pathname: string; search: string } | null {
  const hostname = page.domain || mainDomain;
  if (!hostname) return null;
  const q = page.page_path.indexOf("?");
  return q < 0 ? { hostname, pathname: page.page_path, search: "" } : { hostname, pathname: page.page_path.slice(0, q), search: page.page_path.slice(q) };
}

function* configsOf(exp: Experience): Generator<ConfigDefinition> {
  for (const rule of exp.rules) for (const v of rule.behaviour.variations) yield* v.configs;
}

/** The elements any variation of `exp` changes on this page (none when its pages do not match). */
function elementsOn(exp: Experience, location: { hostname: string; pathname: string; search: string }, mainDomain: string | undefined): Set<string> {
  const out = new Set<string>();
  if (!exp.pages.some((p) => matchPage(p, location, mainDomain))) return out;
  for (const c of configsOf(exp)) {
    const p = c.properties;
    const element = p?.element_path;
    if (!element) continue;
    const bound: PageTarget | null = p.page_path ? { domain: p.domain ?? "", page_path: p.page_path, page_match: p.page_match ?? "exact_match" } : null;
    if (!bound || matchPage(bound, location, mainDomain)) out.add(element);
  }
  return out;
}
