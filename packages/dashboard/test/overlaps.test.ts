// Overlaps and mutually exclusive groups in the dashboard, without a browser: where a member's
// slice goes, the remedy's plan, the sentences the notice says, the list's priority order, and
// that every save keeps the group (the editor's form and the visual editor's PUT).
import { describe, expect, it } from "vitest";
import type { ExperienceDetail, ExperienceOverlap, ExperienceSummary } from "@storefit/contract";
import {
  conflicts,
  groupBadge,
  groupMembers,
  groupNames,
  overlapSentence,
  placeSlice,
  planSplit,
  suggestGroupName,
} from "../src/pages/experiences/overlaps.js";
import { nextPrioritySort, sortByPriority } from "../src/pages/experiences/priority-sort.js";
import {
  emptyExperience,
  experienceFromForm,
  experienceToForm,
} from "../src/pages/experience-editor/model.js";
import { withVariationConfigs } from "../src/api/visual-editor.js";
import { sameEditedFields, sameFieldsButGroup } from "../src/api/experiences.js";

type Member = Pick<ExperienceSummary, "id" | "name" | "status" | "exclusion_group">;
const member = (
  id: string,
  status: ExperienceSummary["status"],
  group: ExperienceSummary["exclusion_group"],
): Member => ({ id, name: `Experience ${id}`, status, exclusion_group: group });

describe("a slice of a group's traffic", () => {
  it("goes to the first free range", () => {
    expect(placeSlice([], 0.5)).toEqual({ ok: true, slice: { start: 0, end: 0.5 } });
    expect(placeSlice([{ start: 0, end: 0.3 }], 0.5)).toEqual({
      ok: true,
      slice: { start: 0.3, end: 0.8 },
    });
    // A gap too small for the share is skipped; the first one large enough is taken.
    expect(
      placeSlice(
        [
          { start: 0.1, end: 0.5 },
          { start: 0.6, end: 0.7 },
        ],
        0.2,
      ),
    ).toEqual({ ok: true, slice: { start: 0.7, end: 0.9 } });
    // Shares typed as percents add up exactly: 30 % + 70 % fill the group.
    expect(placeSlice([{ start: 0, end: 0.3 }], 0.7)).toEqual({
      ok: true,
      slice: { start: 0.3, end: 1 },
    });
  });

  it("stays where it is when it still fits there", () => {
    expect(placeSlice([{ start: 0, end: 0.3 }], 0.2, 0.6)).toEqual({
      ok: true,
      slice: { start: 0.6, end: 0.8 },
    });
    // It no longer fits at its old start: the first free range.
    expect(placeSlice([{ start: 0.5, end: 1 }], 0.4, 0.3)).toEqual({
      ok: true,
      slice: { start: 0, end: 0.4 },
    });
  });

  it("says how much is free when the group is full", () => {
    const half = placeSlice([{ start: 0, end: 0.75 }], 0.5);
    expect(half).toMatchObject({ ok: false, reason: "full", free: 0.25 });
    expect(!half.ok && half.message).toContain("only 25 %");
    const none = placeSlice([{ start: 0, end: 1 }], 0.1);
    expect(none).toMatchObject({ ok: false, reason: "full", free: 0 });
    expect(!none.ok && none.message).toContain("all taken");
  });

  it("refuses a share that is not more than 0 % and at most 100 %", () => {
    for (const share of [0, -0.1, 1.01, Number.NaN])
      expect(placeSlice([], share)).toMatchObject({ ok: false, reason: "invalid" });
    expect(placeSlice([], 1)).toEqual({ ok: true, slice: { start: 0, end: 1 } });
  });

  it("counts only running and paused members of the same group, not this experience", () => {
    const all = [
      member("a", "running", { name: "g", start: 0.5, end: 1 }),
      member("b", "paused", { name: "g", start: 0, end: 0.2 }),
      member("c", "draft", { name: "g", start: 0.2, end: 0.5 }),
      member("d", "running", { name: "other", start: 0, end: 1 }),
      member("self", "running", { name: "g", start: 0.2, end: 0.5 }),
    ];
    expect(groupMembers(all, "g", ["self"]).map((m) => m.id)).toEqual(["b", "a"]);
    expect(groupNames(all)).toEqual(["g", "other"]);
    expect(groupBadge({ name: "product-page", start: 0.5, end: 1 })).toBe(
      "Group: product-page · 50 %",
    );
  });
});

describe("the split-traffic remedy", () => {
  it("gives both experiences half of a new group", () => {
    const all = [member("self", "draft", null), member("other", "running", null)];
    expect(planSplit(all, "self", "other", " gentle-baby-wash ")).toEqual({
      ok: true,
      other: { name: "gentle-baby-wash", start: 0, end: 0.5 },
      self: { name: "gentle-baby-wash", start: 0.5, end: 1 },
    });
  });

  it("keeps the other experience's place in a group it is in, and says when two halves do not fit", () => {
    const inGroup = [
      member("self", "draft", null),
      member("other", "running", { name: "g", start: 0.5, end: 1 }),
    ];
    expect(planSplit(inGroup, "self", "other", "g")).toEqual({
      ok: true,
      other: { name: "g", start: 0.5, end: 1 },
      self: { name: "g", start: 0, end: 0.5 },
    });
    const crowded = [...inGroup, member("third", "running", { name: "g", start: 0, end: 0.25 })];
    const plan = planSplit(crowded, "self", "other", "g");
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.message).toBe(
      "No room for two halves in “g”: “Experience third” already holds part of its traffic. Choose another group name.",
    );
    expect(planSplit(inGroup, "self", "other", "  ")).toEqual({
      ok: false,
      message: "Give the group a name.",
    });
  });

  it("suggests a group name from the shared page, else the element", () => {
    expect(
      suggestGroupName({
        pages: ["littlesprouts.localhost/products/gentle-baby-wash?x=1"],
        elements: ["#product-price"],
      }),
    ).toBe("gentle-baby-wash");
    expect(suggestGroupName({ pages: [], elements: ["#product-price"] })).toBe("product-price");
  });
});

const priceMessage: ExperienceOverlap = {
  experience: {
    id: "exp_price_message",
    name: "Price message: free shipping",
    status: "running",
    priority: 10,
  },
  pages: ["littlesprouts.localhost/products/gentle-baby-wash"],
  elements: ["#product-price"],
  winner: "other",
  exclusive: false,
};

describe("the overlap notice's words", () => {
  it("names the other experience, its priority, the element, the page and who is shown", () => {
    expect(overlapSentence(priceMessage, { kind: "ab_test", priority: 0 })).toBe(
      "“Price message: free shipping” (priority 10) also changes #product-price on " +
        "littlesprouts.localhost/products/gentle-baby-wash. Where both apply, it is shown and " +
        "this test is left out for all of its visitors (higher priority wins).",
    );
  });

  it("says when this experience wins, and why on equal priorities", () => {
    expect(
      overlapSentence(
        {
          ...priceMessage,
          winner: "this",
          experience: { ...priceMessage.experience, priority: 5 },
        },
        { kind: "personalization", priority: 5 },
      ),
    ).toBe(
      "“Price message: free shipping” (priority 5) also changes #product-price on " +
        "littlesprouts.localhost/products/gentle-baby-wash. Where both apply, this " +
        "personalization is shown and “Price message: free shipping” is left out for all of its " +
        "visitors (same priority: the older one wins).",
    );
  });

  it("lists several elements and summarises many pages", () => {
    const text = overlapSentence({
      ...priceMessage,
      elements: ["#a", "#b", "#c"],
      pages: ["s/p1", "s/p2", "s/p3", "s/p4", "s/p5"],
    });
    expect(text).toContain("also changes #a, #b and #c on s/p1, s/p2, s/p3 and 2 more pages.");
    expect(text).toContain("this experience is left out");
  });

  it("says that experiences in one group split traffic, and leaves them out of the conflicts", () => {
    const grouped = { ...priceMessage, exclusive: true };
    expect(overlapSentence(grouped, { kind: "ab_test", group: "product-page" })).toBe(
      "“Price message: free shipping” (priority 10) also changes #product-price on " +
        "littlesprouts.localhost/products/gentle-baby-wash. The two split traffic in the group " +
        "“product-page”, so no visitor is in both and both stay measurable.",
    );
    expect(conflicts([grouped, priceMessage])).toEqual([priceMessage]);
  });
});

describe("the list's priority order", () => {
  const rows = [
    { id: "old", priority: 0 },
    { id: "high", priority: 10 },
    { id: "new", priority: 0 },
    { id: "low", priority: -5 },
  ];
  it("sorts by priority either way, equal priorities oldest first", () => {
    expect(sortByPriority(rows, "descending").map((r) => r.id)).toEqual([
      "high",
      "old",
      "new",
      "low",
    ]);
    expect(sortByPriority(rows, "ascending").map((r) => r.id)).toEqual([
      "low",
      "old",
      "new",
      "high",
    ]);
    expect(sortByPriority(rows, "none").map((r) => r.id)).toEqual(["old", "high", "new", "low"]);
    expect(nextPrioritySort("none")).toBe("descending");
    expect(nextPrioritySort("descending")).toBe("ascending");
    expect(nextPrioritySort("ascending")).toBe("descending");
  });
});

const stored: ExperienceDetail = {
  id: "exp_1",
  name: "Grouped",
  status: "running",
  kind: "ab_test",
  priority: 0,
  exclusion_group: { name: "product-page", start: 0.333, end: 0.666 },
  pages: [{ domain: "", page_path: "/", page_match: "exact_match" }],
  rules: [
    {
      id: "r1",
      audience_id: null,
      behaviour: {
        id: "b1",
        name: "Everyone",
        traffic_allocation: 1,
        variations: [{ id: "v1", name: "Control", weight: 1, configs: [] }],
      },
    },
  ],
  goals: [],
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
};

describe("every save keeps the group", () => {
  it("the editor saves the stored group back exactly, a new share from its computed start, and none when the name is emptied", () => {
    const form = experienceToForm(stored);
    const same = experienceFromForm(form);
    expect(same.ok && same.value.exclusion_group).toEqual(stored.exclusion_group);
    const wider = experienceFromForm({
      ...form,
      group: { ...form.group, share: "50", start: 0.5 },
    });
    expect(wider.ok && wider.value.exclusion_group).toEqual({
      name: "product-page",
      start: 0.5,
      end: 1,
    });
    const none = experienceFromForm({ ...form, group: { ...form.group, name: " " } });
    expect(none.ok && none.value.exclusion_group).toBeNull();
    const fresh = experienceFromForm({ ...emptyExperience(), name: "New" });
    expect(fresh.ok && fresh.value.exclusion_group).toBeNull();
  });

  it("the editor refuses a share that does not fit or is not a share", () => {
    const form = experienceToForm(stored);
    const problems = (group: Partial<typeof form.group>) => {
      const r = experienceFromForm({ ...form, group: { ...form.group, ...group } });
      return r.ok ? [] : r.problems.map((p) => p.path);
    };
    expect(problems({ share: "60", start: null })).toEqual(["group.share"]);
    expect(problems({ share: "60", start: 0.5 })).toEqual(["group.share"]);
    expect(problems({ share: "0", start: 0 })).toEqual(["group.share"]);
    expect(problems({ share: "abc" })).toEqual(["group.share"]);
  });

  it("the visual editor's save (a PUT of the whole experience) keeps the group", () => {
    expect(withVariationConfigs(stored, "v1", []).exclusion_group).toEqual(stored.exclusion_group);
  });

  it("a version with another group is not taken as the same edit base, unless only the group moved", () => {
    const moved = { ...stored, exclusion_group: { name: "g", start: 0, end: 0.5 } };
    expect(sameEditedFields(stored, moved)).toBe(false);
    expect(sameFieldsButGroup(stored, moved)).toBe(true);
    expect(sameFieldsButGroup(stored, { ...moved, priority: 3 })).toBe(false);
  });
});
