// Runs the shared JSON vectors (packages/contract/vectors) against the TypeScript matchers: each
// vector is its own test, named by its "name". Other implementations run the same files.
import { describe, expect, it } from "vitest";
import {
  configMatchesPage,
  eventCustomerId,
  isConfiguredDomain,
  matchDomain,
  matchesAnyPattern,
  matchPage,
  matchPagePath,
  matchPathCheck,
  mergedPagePath,
  normalizePagePath,
  resolveEventDomain,
} from "../src/match/index.js";
import normalizePath from "../vectors/normalize-path.json" with { type: "json" };
import pageMatch from "../vectors/page-match.json" with { type: "json" };
import page from "../vectors/page.json" with { type: "json" };
import configPage from "../vectors/config-page.json" with { type: "json" };
import domainMatch from "../vectors/domain-match.json" with { type: "json" };
import eventDomain from "../vectors/event-domain.json" with { type: "json" };
import eventId from "../vectors/event-id.json" with { type: "json" };
import pathCheck from "../vectors/path-check.json" with { type: "json" };
import merge from "../vectors/merge.json" with { type: "json" };
import blacklist from "../vectors/blacklist.json" with { type: "json" };

type Vector = { name: string; input: unknown; expected: unknown };

/** One `it` per vector; names must be unique so that a failure points at one vector. */
function run<V extends Vector>(
  file: string,
  vectors: readonly V[],
  fn: (input: V["input"]) => unknown,
): void {
  describe(file, () => {
    it("has uniquely named vectors", () => {
      expect(vectors.length).toBeGreaterThan(0);
      expect(new Set(vectors.map((v) => v.name)).size).toBe(vectors.length);
    });
    for (const v of vectors) it(v.name, () => expect(fn(v.input)).toStrictEqual(v.expected));
  });
}

run("normalize-path.json", normalizePath, (i) => normalizePagePath(i.path));
run("page-match.json", pageMatch, (i) => matchPagePath(i.kind, i.pattern, i.url));
run("page.json", page, (i) => matchPage(i.page, i.location, i.mainDomain));
run("config-page.json", configPage, (i) => configMatchesPage(i.config, i.location, i.mainDomain));
run("domain-match.json", domainMatch, (i) => matchDomain(i.hostname, i.pattern));
run("event-domain.json", eventDomain, (i) =>
  resolveEventDomain(i.hostname, i.mainDomain, i.subdomains),
);
run("event-id.json", eventId, (i) => eventCustomerId(i.name, i.domain));
run("path-check.json", pathCheck, (i) => matchPathCheck(i.type, i.pattern, i.path));
run("merge.json", merge, (i) => mergedPagePath(i.rules, i.domain, i.path));
run("blacklist.json", blacklist, (i) => matchesAnyPattern(i.patterns, i.value));

// isConfiguredDomain has no file of its own: it is "resolveEventDomain is not null" (spec §6).
describe("isConfiguredDomain (event-domain.json)", () => {
  for (const v of eventDomain) {
    const { hostname, mainDomain, subdomains } = v.input;
    it(v.name, () =>
      expect(isConfiguredDomain(hostname, mainDomain, subdomains)).toBe(v.expected !== null),
    );
  }
});
