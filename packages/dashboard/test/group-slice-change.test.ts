// A mutually exclusive group's promise across a change of shares (docs/dashboard.md "Mutually
// exclusive groups"): a visitor's place in the group never moves, so a member that has run keeps
// its own slice when its share changes (growing around it, shrinking from its end), and the
// editor says, before saving, when the new slice takes space that another member may have held
// (its shoppers would switch and count in both results) or gives up its own shoppers.
import { createElement } from "react";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { FormProvider, useForm } from "react-hook-form";
import { describe, expect, it } from "vitest";
import type { ExclusionGroup, ExperienceSummary } from "@storefit/contract";
import { experienceKeys } from "../src/api/experiences.js";
import { ExclusionGroupSection } from "../src/pages/experience-editor/ExclusionGroupSection.js";
import { emptyExperience, groupToForm } from "../src/pages/experience-editor/model.js";
import type { ExperienceForm } from "../src/pages/experience-editor/model.js";
import { placeSlice, planSplit, sliceChange } from "../src/pages/experiences/overlaps.js";
import { SplitTrafficForm } from "../src/pages/experiences/SplitTrafficDialog.js";

type Listed = Pick<ExperienceSummary, "id" | "name" | "status" | "exclusion_group">;
const listed = (
  id: string,
  name: string,
  status: ExperienceSummary["status"],
  group: ExclusionGroup | null,
): Listed => ({ id, name, status, exclusion_group: group });

const K1 = listed("k1", "K1 sanitizer A", "running", { name: "sanitizer", start: 0, end: 0.3 });
const K2 = (status: ExperienceSummary["status"] = "running") =>
  listed("k2", "K2 sanitizer B", status, { name: "sanitizer", start: 0.5, end: 1 });

function Form({ group, children }: { group: ExperienceForm["group"]; children?: ReactNode }) {
  const form = useForm<ExperienceForm>({ defaultValues: { ...emptyExperience(), group } });
  // Called, not created: createElement would lose the form's type (FormProvider is generic).
  return FormProvider<ExperienceForm>({ ...form, children });
}

const html = (client: QueryClient, node: ReturnType<typeof createElement>) =>
  renderToStaticMarkup(createElement(QueryClientProvider, { client }, node))
    .replace(/<!-- -->/g, "")
    .replace(/&#x27;/g, "'");

function listClient(list: Listed[]): QueryClient {
  const client = new QueryClient();
  client.setQueryData(experienceKeys.all, { experiences: list });
  return client;
}

/** The group section of `id`'s editor, as first rendered, with `share` typed. */
function section(list: Listed[], id: string, share: string): string {
  const self = list.find((e) => e.id === id)!;
  const group = { ...groupToForm(self.exclusion_group), share };
  return html(
    listClient(list),
    createElement(Form, { group }, createElement(ExclusionGroupSection, { experienceId: id })),
  );
}

/** The split-traffic dialog of `selfId` with `otherId`, as first rendered (group name suggested "sanitizer"). */
function splitDialog(list: Listed[], selfId: string, otherId: string): string {
  const self = list.find((e) => e.id === selfId)!;
  const other = list.find((e) => e.id === otherId)!;
  return html(
    listClient(list),
    createElement(SplitTrafficForm, {
      self: { id: self.id, name: self.name },
      overlap: {
        experience: { id: other.id, name: other.name, status: other.status, priority: 0 },
        pages: ["shop.example/sanitizer"],
        elements: ["#title"],
        winner: "other",
        exclusive: false,
      },
      onCancel: () => {},
      onDone: () => {},
    }),
  );
}

describe("a member that has run, when its share changes", () => {
  it("grows around its own slice, not into the first free range", () => {
    const own = { start: 0.6, end: 0.8 };
    const others = [
      { start: 0, end: 0.2 },
      { start: 0.8, end: 1 },
    ];
    // Without its own slice it would jump to 20 %–50 % and leave all of its shoppers behind.
    expect(placeSlice(others, 0.3, 0.6)).toEqual({ ok: true, slice: { start: 0.2, end: 0.5 } });
    expect(placeSlice(others, 0.3, 0.6, own)).toEqual({
      ok: true,
      slice: { start: 0.5, end: 0.8 },
    });
    // The end grows first when there is room after it; a smaller share keeps the start.
    expect(placeSlice([{ start: 0, end: 0.2 }], 0.3, undefined, own)).toEqual({
      ok: true,
      slice: { start: 0.6, end: 0.9 },
    });
    expect(placeSlice(others, 0.1, undefined, own)).toEqual({
      ok: true,
      slice: { start: 0.6, end: 0.7 },
    });
    // No room around it: the first free range that fits, as for a draft.
    expect(placeSlice([{ start: 0.5, end: 0.6 }], 0.45, undefined, own)).toEqual({
      ok: true,
      slice: { start: 0, end: 0.45 },
    });
  });

  it("names what the new slice takes and gives up", () => {
    const members = [
      { name: "K1 sanitizer A", status: "running" as const, slice: { start: 0, end: 0.3 } },
      { name: "Old bottle", status: "archived" as const, slice: { start: 0.35, end: 0.45 } },
      { name: "Far away", status: "paused" as const, slice: { start: 0.1, end: 0.2 } },
    ];
    expect(sliceChange({ start: 0.5, end: 1 }, { start: 0.3, end: 1 }, members)).toEqual({
      taken: [{ start: 0.3, end: 0.5 }],
      released: [],
      neighbours: ["K1 sanitizer A", "Old bottle"],
    });
    expect(sliceChange({ start: 0.5, end: 1 }, { start: 0.5, end: 0.8 }, members)).toEqual({
      taken: [],
      released: [{ start: 0.8, end: 1 }],
      neighbours: [],
    });
  });
});

describe("the group section of the editor", () => {
  it("says before saving that a grown slice may take another member's shoppers, and offers to keep the current one", () => {
    // K1 went from 50 % to 30 %; K2 (running, 50 %–100 %) is set to 70 %.
    const html = section([K1, K2()], "k2", "70");
    expect(html).toContain("This experience: 70 %, from 30 % to 100 %");
    expect(html).toContain('data-testid="group-taken"');
    expect(html).toContain(
      "30 %–50 % of this group is free now but not this experience's. If another member held it before (perhaps “K1 sanitizer A”, if its share was made smaller or it stopped), those shoppers will switch to this experience and count in both experiences' results.",
    );
    expect(html).toContain("Keep its current slice (50 %, from 50 % to 100 %)");
  });

  it("says nothing of the kind when the slice stays or only shrinks; a shrink says whose shoppers leave", () => {
    const same = section([K1, K2()], "k2", "50");
    expect(same).toContain("This experience: 50 %, from 50 % to 100 %");
    expect(same).not.toContain("group-taken");
    expect(same).not.toContain("group-released");
    const smaller = section([K1, K2("paused")], "k2", "30");
    expect(smaller).toContain("This experience: 30 %, from 50 % to 80 %");
    expect(smaller).not.toContain("group-taken");
    expect(smaller).toContain(
      "80 %–100 % of this group held this experience's shoppers: they will no longer see it.",
    );
  });

  it("a draft has no shoppers to keep or give up", () => {
    const html = section([K1, K2("draft")], "k2", "70");
    expect(html).toContain("This experience: 70 %, from 30 % to 100 %");
    expect(html).not.toContain("group-taken");
    expect(html).not.toContain("group-released");
  });
});

describe("the split-traffic remedy with an experience that runs in the group", () => {
  // K2 runs with 30 % at the end of "sanitizer"; an archived member's last slice was 40 %–60 %.
  const K2_30 = listed("k2", "K2 sanitizer B", "running", {
    name: "sanitizer",
    start: 0.7,
    end: 1,
  });
  const OLD = listed("k0", "Old bottle", "archived", { name: "sanitizer", start: 0.4, end: 0.6 });
  const K3 = listed("k3", "K3 sanitizer C", "draft", null);

  it("grows its half around its own slice instead of moving it away from its shoppers", () => {
    expect(planSplit([K2_30, OLD, K3], "k3", "k2", "sanitizer")).toEqual({
      ok: true,
      other: { name: "sanitizer", start: 0.5, end: 1 },
      self: { name: "sanitizer", start: 0, end: 0.5 },
    });
  });

  it("says what its half takes before anything is saved", () => {
    const text = splitDialog([K2_30, OLD, K3], "k3", "k2");
    expect(text).toContain('data-testid="split-shift"');
    expect(text).toContain(
      "“K2 sanitizer B” already runs in “sanitizer”: its half takes 50 %–70 % of the group, free now but not its own. If another member held it before (perhaps “Old bottle”, if its share was made smaller or it stopped), those shoppers will switch to “K2 sanitizer B” and count in both experiences' results.",
    );
  });

  it("says whose shoppers switch when its half gives up part of its slice to the other", () => {
    const k2 = listed("k2", "K2 sanitizer B", "running", { name: "sanitizer", start: 0, end: 0.8 });
    const text = splitDialog([k2, K3], "k3", "k2");
    expect(text).toContain(
      "“K2 sanitizer B” gives up 50 %–80 % of the group: its shoppers there will no longer see it; those in the half of “K3 sanitizer C” switch to that experience and count in both experiences' results.",
    );
  });

  it("keeps the start of the slice of the one that runs, whichever of the two it is", () => {
    // The edited experience runs; the other one is new to the group.
    const runs = (start: number, end: number) =>
      listed("k2", "K2 sanitizer B", "running", { name: "sanitizer", start, end });
    expect(planSplit([runs(0, 0.5), K3], "k2", "k3", "sanitizer")).toEqual({
      ok: true,
      self: { name: "sanitizer", start: 0, end: 0.5 },
      other: { name: "sanitizer", start: 0.5, end: 1 },
    });
    expect(planSplit([runs(0, 1), K3], "k2", "k3", "sanitizer")).toEqual({
      ok: true,
      self: { name: "sanitizer", start: 0, end: 0.5 },
      other: { name: "sanitizer", start: 0.5, end: 1 },
    });
    // Both run: each keeps its own shoppers.
    const k4 = listed("k4", "K4", "paused", { name: "sanitizer", start: 0.6, end: 0.9 });
    expect(planSplit([runs(0.1, 0.4), k4], "k2", "k4", "sanitizer")).toEqual({
      ok: true,
      self: { name: "sanitizer", start: 0, end: 0.5 },
      other: { name: "sanitizer", start: 0.5, end: 1 },
    });
    expect(splitDialog([runs(0, 0.5), K3], "k2", "k3")).not.toContain("split-shift");
    expect(splitDialog([runs(0, 1), K3], "k2", "k3")).toContain(
      "“K2 sanitizer B” gives up 50 %–100 % of the group: its shoppers there will no longer see it; those in the half of “K3 sanitizer C” switch to that experience and count in both experiences' results.",
    );
  });

  it("names no former holder of the space its half takes when the group never had another member", () => {
    const alone = listed("k2", "K2 sanitizer B", "running", {
      name: "sanitizer",
      start: 0.3,
      end: 0.6,
    });
    const text = splitDialog([alone, K3], "k2", "k3");
    expect(text).toContain(
      "“K2 sanitizer B” gives up 50 %–60 % of the group: its shoppers there will no longer see it; those in the half of “K3 sanitizer C” switch",
    );
    expect(text).not.toContain("If another member held it before");
    // With an archived member whose last slice was in the group, it is said.
    expect(splitDialog([alone, OLD, K3], "k2", "k3")).toContain(
      "“K2 sanitizer B” already runs in “sanitizer”: its half takes 0 %–30 % of the group, free now but not its own. If another member held it before",
    );
  });

  it("says nothing more for two experiences new to the group", () => {
    const a = listed("a", "A", "running", null);
    expect(splitDialog([a, K3], "k3", "a")).not.toContain("split-shift");
  });
});
