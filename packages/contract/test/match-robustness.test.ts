// The matchers run inside shop pages on configuration from the service and the operator: a bad
// value must make a match fail, never throw and stop the script (brief: "Never throw").
import { describe, expect, it } from "vitest";
import {
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

// Values that break naive code: missing, wrong type, regex-hostile, malformed percent-encoding.
const junk: unknown[] = [
  undefined,
  null,
  0,
  1,
  true,
  {},
  [],
  "",
  "[",
  "(?<",
  "%",
  "%E0%A4%A",
  "\u0000",
  "?",
  "#",
  "|",
];
const str = (x: unknown) => x as string;

describe("never throws on bad input", () => {
  it("path functions", () => {
    for (const a of junk) {
      expect(typeof normalizePagePath(str(a))).toBe("string");
      for (const b of junk) {
        for (const kind of ["exact_match", "contains", "regex", "x"]) {
          expect(typeof matchPagePath(kind, str(a), str(b))).toBe("boolean");
        }
        for (const type of ["simple", "starts_with", "ends_with", "contains", "regex", "x"]) {
          expect(typeof matchPathCheck(type, str(a), str(b))).toBe("boolean");
        }
      }
    }
  });

  it("domain functions", () => {
    for (const a of junk) {
      for (const b of junk) {
        expect(typeof matchDomain(str(a), str(b))).toBe("boolean");
        expect(typeof isConfiguredDomain(str(a), str(b), junk as string[])).toBe("boolean");
        const d = resolveEventDomain(str(a), str(b), a as string[]);
        expect(d === null || typeof d === "string").toBe(true);
        expect(typeof eventCustomerId(str(a), str(b))).toBe("string");
      }
    }
  });

  it("rule lists and blacklists", () => {
    for (const a of junk) {
      expect(mergedPagePath(a as [], "shop.example", "/a")).toBeNull();
      expect(mergedPagePath([a] as unknown as [], "shop.example", "/a")).toBeNull();
      expect(matchesAnyPattern(a as string[], "/a")).toBe(false);
      expect(typeof matchesAnyPattern(junk as string[], str(a))).toBe("boolean");
    }
    const page = { page_path: str(undefined) };
    expect(matchPage(page, { hostname: "shop.example", pathname: "/" })).toBe(false);
  });
});

describe("spot checks beside the vectors", () => {
  it("a malformed percent-encoding compares as written", () => {
    expect(matchPagePath("exact_match", "/a%E0%A4%A", "/a%E0%A4%A/")).toBe(true);
    expect(matchPagePath("exact_match", "/a?x=%", "/a?x=%")).toBe(true);
  });

  it("a regex is used fresh on each call (no state kept between tests)", () => {
    expect(matchPagePath("regex", "a", "/a")).toBe(true);
    expect(matchPagePath("regex", "a", "/a")).toBe(true);
  });
});
