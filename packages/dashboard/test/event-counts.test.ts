// Live events' counting lines (src/pages/events/counts.ts): a filtered total that is a lower bound
// reads "10,000+" or "at least", never as a count; a page whose search stopped says how far it
// looked and which button goes on (docs/api.md "Events", "Bounded search").
import { describe, expect, it } from "vitest";
import type { StoredEventView } from "@storefit/contract";
import { searchedText, shownText, totalLabel } from "../src/pages/events/counts";

const events = (n: number) => Array.from({ length: n }, () => ({}) as StoredEventView);

describe("live events counts", () => {
  it("labels a total exact or at least", () => {
    expect(totalLabel(1204, true)).toBe("1,204");
    expect(totalLabel(10_000, false)).toBe("10,000+");
    expect(totalLabel(37, false)).toBe("37+");
  });

  it("says how many match, exactly or at least, and how many are listed", () => {
    expect(shownText({ total: 3, total_exact: true, events: events(3) }, true, false)).toBe("3 events match the filters.");
    expect(shownText({ total: 1, total_exact: true, events: events(1) }, true, false)).toBe("1 event matches the filters.");
    expect(shownText({ total: 10_000, total_exact: false, events: events(50) }, true, false)).toBe("10,000+ events match the filters; the newest 50 are listed.");
    expect(shownText({ total: 1, total_exact: false, events: events(1) }, true, false)).toBe("1+ events match the filters; the newest 1 is listed.");
    expect(shownText({ total: 0, total_exact: false, events: [] }, true, false)).toBe("None of the newest events counted match the filters.");
    expect(shownText({ total: 0, total_exact: false, events: events(1) }, true, true)).toBe("None of the newest events counted match the filters; 1 is listed on this page.");
    expect(shownText({ total: 1_000_000, total_exact: true, events: events(50) }, false, false)).toBe("The newest 50 of 1,000,000 events.");
    expect(shownText({ total: 2, total_exact: true, events: events(2) }, false, false)).toBe("All 2 events.");
  });

  it("says where a search stopped and which button goes on", () => {
    expect(searchedText(null, "none")).toBeNull();
    expect(searchedText(50_000, "none")).toBe("Searched the newest 50,000 events — Older events keeps searching.");
    expect(searchedText(50_000, "before")).toBe("Searched the next 50,000 events — Older events keeps searching.");
    expect(searchedText(50_000, "after")).toBe("Searched 50,000 newer events — Newer events keeps searching.");
  });
});
