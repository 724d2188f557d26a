// Overlaps and mutually exclusive groups without a browser (docs/dashboard.md "Overlaps",
// "Mutually exclusive groups"): the sentences the notice and the Start confirmation say, and where
// a member's slice of a group's traffic goes.
//
// Slices are computed in whole units of 0.001 % (100 000 units are the whole group), so that
// "30 %" next to "70 %" fills the group exactly instead of missing it by float noise.
import type {
  ExclusionGroup,
  ExperienceKind,
  ExperienceOverlap,
  ExperienceStatus,
  ExperienceSummary,
} from "@storefit/contract";

const UNITS = 100_000;
const toUnits = (share: number) => Math.round(share * UNITS);
const fromUnits = (units: number) => units / UNITS;

/** A share of a group as operators read it: "50 %", "33.333 %". */
export const percentLabel = (share: number) => `${Math.round(share * 100_000) / 1000} %`;

export type Slice = { start: number; end: number };

/** Where a new slice goes, or why it cannot. `free` is the largest free share, for the message. */
export type Placement =
  | { ok: true; slice: Slice }
  | { ok: false; reason: "invalid" | "full"; free: number; message: string };

/**
 * A slice of `share` (0 < share ≤ 1) of the group's traffic that overlaps none of `occupied`.
 *
 * `own`: the slice this experience holds now, when it has run (running or paused) in this group.
 * Its shoppers are the visitors whose place is in it, so the new slice keeps as many of them as it
 * can and takes as little new space as it can: a smaller share keeps the start and gives up the
 * end; a larger one contains `own`, growing its end first, then its start, within the free range
 * around it. New space is free now but may have held another member's shoppers (the group section
 * says so: `sliceChange`).
 *
 * Otherwise at `preferredStart` when it fits there, else the first free range from the start of
 * the group.
 */
export function placeSlice(
  occupied: readonly Slice[],
  share: number,
  preferredStart?: number,
  own?: Slice | null,
): Placement {
  const size = toUnits(share);
  const taken = occupied
    .map((s) => ({ start: toUnits(s.start), end: toUnits(s.end) }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start);
  // The free ranges between the taken ones.
  const gaps: { start: number; end: number }[] = [];
  let at = 0;
  for (const s of taken) {
    if (s.start > at) gaps.push({ start: at, end: s.start });
    at = Math.max(at, s.end);
  }
  if (at < UNITS) gaps.push({ start: at, end: UNITS });
  const free = fromUnits(gaps.reduce((m, g) => Math.max(m, g.end - g.start), 0));
  if (!Number.isFinite(share) || size <= 0 || size > UNITS)
    return {
      ok: false,
      reason: "invalid",
      free,
      message: "The share must be more than 0 % and at most 100 %.",
    };
  const fits = (start: number) => gaps.some((g) => g.start <= start && start + size <= g.end);
  const place = (start: number): Placement => ({
    ok: true,
    slice: { start: fromUnits(start), end: fromUnits(start + size) },
  });
  if (own) {
    const from = toUnits(own.start);
    const to = toUnits(own.end);
    if (size <= to - from && fits(from)) return place(from);
    const around = gaps.find((g) => g.start <= from && to <= g.end);
    if (around && around.end - around.start >= size)
      return place(Math.max(around.start, Math.min(from, around.end - size)));
  }
  if (preferredStart !== undefined && Number.isFinite(preferredStart)) {
    const start = toUnits(preferredStart);
    if (fits(start)) return place(start);
  }
  const gap = gaps.find((g) => g.end - g.start >= size);
  if (!gap)
    return {
      ok: false,
      reason: "full",
      free,
      message:
        free > 0
          ? `The group has only ${percentLabel(free)} of its traffic free in one piece: choose a share of at most that, or make another member's share smaller.`
          : "The group's traffic is all taken by its other members: make one of their shares smaller first.",
    };
  return place(gap.start);
}

/** Whether two slices share some traffic. */
const meets = (a: Slice, b: Slice) =>
  toUnits(a.start) < toUnits(b.end) && toUnits(b.start) < toUnits(a.end);

/** `a` without `b`: none, one or two ranges. */
function minus(a: Slice, b: Slice | null): Slice[] {
  const [as, ae] = [toUnits(a.start), toUnits(a.end)];
  if (!b) return as < ae ? [a] : [];
  const [bs, be] = [toUnits(b.start), toUnits(b.end)];
  const out: Slice[] = [];
  if (as < Math.min(ae, bs)) out.push({ start: a.start, end: fromUnits(Math.min(ae, bs)) });
  if (Math.max(as, be) < ae) out.push({ start: fromUnits(Math.max(as, be)), end: a.end });
  return out;
}

/** "30 %–50 %", "0 %–10 % and 90 %–100 %". */
export const rangesLabel = (ranges: readonly Slice[]) =>
  listWords(ranges.map((r) => `${percentLabel(r.start)}–${percentLabel(r.end)}`));

/**
 * What a new slice does to the shoppers of a member that has run (docs/dashboard.md "Mutually
 * exclusive groups"). A visitor's place in the group never changes, and the service keeps no
 * record of earlier slices, so:
 * - `taken`: parts of the new slice that were not this experience's. No running or paused member
 *   holds them now, but one may have before (a share made smaller, a member stopped or moved):
 *   its shoppers there would switch to this experience and count in both experiences' results.
 * - `released`: parts of its slice it gives up. Its shoppers there no longer see it, and whichever
 *   member takes that space later gets them, counted in both results.
 * - `neighbours`: members whose slice ends where a taken part starts or starts where it ends, and
 *   archived members whose last slice covers part of it: who may have held it (a smaller share
 *   keeps its start and gives up its end), named as a possibility, never as a fact.
 */
export type SliceChange = { taken: Slice[]; released: Slice[]; neighbours: string[] };

export function sliceChange(
  own: Slice,
  next: Slice,
  others: readonly Pick<GroupMember, "name" | "slice" | "status">[],
): SliceChange {
  const taken = minus(next, own);
  const released = minus(own, next);
  const neighbours = others
    .filter((m) =>
      taken.some((t) =>
        m.status === "archived"
          ? meets(m.slice, t)
          : toUnits(m.slice.end) === toUnits(t.start) || toUnits(m.slice.start) === toUnits(t.end),
      ),
    )
    .map((m) => m.name);
  return { taken, released, neighbours };
}

/** A member of a group as the editor and the list show it. */
export type GroupMember = { id: string; name: string; status: ExperienceStatus; slice: Slice };

/** Statuses whose slices the service keeps apart (a draft's counts once it starts). */
const HOLDS_SLICE: ReadonlySet<ExperienceStatus> = new Set(["running", "paused"]);

type GroupedExperience = Pick<ExperienceSummary, "id" | "name" | "status" | "exclusion_group">;

/** The experiences of group `name` whose status `holds`, except those in `except`, in list order. */
function membersWhere(
  experiences: readonly GroupedExperience[],
  name: string,
  except: readonly string[],
  holds: (status: ExperienceStatus) => boolean,
): GroupMember[] {
  const out: GroupMember[] = [];
  for (const e of experiences) {
    const g = e.exclusion_group;
    if (!g || g.name !== name || !holds(e.status) || except.includes(e.id)) continue;
    out.push({ id: e.id, name: e.name, status: e.status, slice: { start: g.start, end: g.end } });
  }
  return out;
}

/** The running and paused members of group `name`, except the experiences in `except`, by slice. */
export function groupMembers(
  experiences: readonly GroupedExperience[],
  name: string,
  except: readonly string[] = [],
): GroupMember[] {
  return membersWhere(experiences, name, except, (s) => HOLDS_SLICE.has(s)).sort(
    (a, b) => a.slice.start - b.slice.start,
  );
}

/** The archived experiences whose last slice was in group `name`: they may have had shoppers there. */
export function formerMembers(
  experiences: readonly GroupedExperience[],
  name: string,
  except: readonly string[] = [],
): GroupMember[] {
  return membersWhere(experiences, name, except, (s) => s === "archived");
}

/** Every group name in use, for suggestions. */
export function groupNames(
  experiences: readonly Pick<ExperienceSummary, "exclusion_group" | "status">[],
): string[] {
  const names = new Set<string>();
  for (const e of experiences)
    if (e.exclusion_group && e.status !== "archived") names.add(e.exclusion_group.name);
  return [...names].sort();
}

/** The share of a group a slice is: "Group: product-page · 50 %". */
export const groupBadge = (g: ExclusionGroup) =>
  `Group: ${g.name} · ${percentLabel(g.end - g.start)}`;

/** The "split traffic" remedy's plan: both experiences in group `name` with half each. */
export type SplitPlan =
  { ok: true; self: ExclusionGroup; other: ExclusionGroup } | { ok: false; message: string };

/** The slice whose visitors are `id`'s shoppers in group `name`: it is running or paused there. */
export function ownSlice(
  experiences: readonly Pick<ExperienceSummary, "id" | "status" | "exclusion_group">[],
  id: string,
  name: string,
): Slice | null {
  const e = experiences.find((x) => x.id === id);
  const g = e?.exclusion_group;
  return e && g && g.name === name && HOLDS_SLICE.has(e.status)
    ? { start: g.start, end: g.end }
    : null;
}

/** How much of `own` (none: nothing) `next` keeps, in units. */
const kept = (own: Slice | null, next: Slice) =>
  own
    ? Math.max(
        0,
        Math.min(toUnits(own.end), toUnits(next.end)) -
          Math.max(toUnits(own.start), toUnits(next.start)),
      )
    : 0;

/** The two halves of a group: 0 %–50 % and 50 %–100 %. */
const HALVES: readonly [Slice, Slice] = [
  { start: 0, end: 0.5 },
  { start: 0.5, end: 1 },
];

/**
 * Puts `selfId` and `otherId` into group `name` with 50 % each. Two halves fill the group, so
 * they fit only when no other member runs or is paused in it, and then one gets 0 %–50 % and the
 * other 50 %–100 %. Of the two ways, the one that keeps more of the shoppers of the two
 * experiences that have run in the group (running or paused: `ownSlice`) in their own halves;
 * on a tie, the one where such an experience keeps the start of its slice (as a smaller share
 * does in the editor); else `otherId` gets the first half.
 */
export function planSplit(
  experiences: readonly Pick<ExperienceSummary, "id" | "name" | "status" | "exclusion_group">[],
  selfId: string,
  otherId: string,
  name: string,
): SplitPlan {
  const group = name.trim();
  if (group === "") return { ok: false, message: "Give the group a name." };
  if (group.length > 100)
    return { ok: false, message: "The group's name can be at most 100 characters." };
  const holders = groupMembers(experiences, group, [selfId, otherId]).filter(
    (m) => toUnits(m.slice.end) > toUnits(m.slice.start),
  );
  if (holders.length)
    return {
      ok: false,
      message: `No room for two halves in “${group}”: ${listWords(holders.map((m) => `“${m.name}”`))} already ${holders.length > 1 ? "hold" : "holds"} part of its traffic. Choose another group name.`,
    };
  const selfOwn = ownSlice(experiences, selfId, group);
  const otherOwn = ownSlice(experiences, otherId, group);
  const keepsStart = (own: Slice | null, next: Slice) =>
    own !== null && next.start <= own.start && own.start < next.end ? 1 : 0;
  // [shoppers kept, starts kept] when `other` gets HALVES[i] and `self` the rest.
  const score = (i: 0 | 1) => {
    const [other, self] = [HALVES[i], HALVES[1 - i]!];
    return [
      kept(otherOwn, other) + kept(selfOwn, self),
      keepsStart(otherOwn, other) + keepsStart(selfOwn, self),
    ] as const;
  };
  const [first, second] = [score(0), score(1)];
  const i = second[0] > first[0] || (second[0] === first[0] && second[1] > first[1]) ? 1 : 0;
  return {
    ok: true,
    other: { name: group, ...HALVES[i] },
    self: { name: group, ...HALVES[1 - i]! },
  };
}

/** What a split does to the shoppers of one of the two that has run in the group. */
export type SplitShift = {
  id: string;
  name: string;
  change: SliceChange;
  /** The partner, when its half covers part of what this one gives up: those shoppers switch to it. */
  releasedTo: string | null;
  /**
   * Whether the group has or had other members (running, paused, or archived with their last
   * slice in it): only then may `change.taken` have held another member's shoppers.
   */
  othersInGroup: boolean;
};

/**
 * For each of the two experiences that is running or paused in the planned group: what its half
 * takes and gives up (sliceChange), when it gives up anything, or takes anything and the group
 * has or had other members. The dialog says it before anything is saved.
 */
export function splitShifts(
  experiences: readonly Pick<ExperienceSummary, "id" | "name" | "status" | "exclusion_group">[],
  selfId: string,
  otherId: string,
  plan: { self: ExclusionGroup; other: ExclusionGroup },
): SplitShift[] {
  const group = plan.self.name;
  const others = [
    ...groupMembers(experiences, group, [selfId, otherId]),
    ...formerMembers(experiences, group, [selfId, otherId]),
  ];
  const out: SplitShift[] = [];
  const nameOf = (id: string) => experiences.find((e) => e.id === id)?.name ?? id;
  for (const [id, next, partnerId, partner] of [
    [otherId, plan.other, selfId, plan.self],
    [selfId, plan.self, otherId, plan.other],
  ] as const) {
    const own = ownSlice(experiences, id, group);
    if (!own) continue;
    const change = sliceChange(own, next, others);
    const releasedTo = change.released.some((r) => meets(r, partner)) ? nameOf(partnerId) : null;
    if (change.released.length || (change.taken.length && others.length))
      out.push({ id, name: nameOf(id), change, releasedTo, othersInGroup: others.length > 0 });
  }
  return out;
}

/** A group name for two experiences that overlap: from the page they share, else the element. */
export function suggestGroupName(overlap: Pick<ExperienceOverlap, "pages" | "elements">): string {
  const page = overlap.pages[0];
  const path = page ? (page.slice(page.indexOf("/") + 1).split("?")[0] ?? "") : "";
  const last = path.split("/").filter(Boolean).pop();
  const element = overlap.elements[0]?.replace(/^[#.]/, "");
  const base = (last ?? element ?? "shared-traffic")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return (base || "shared-traffic").slice(0, 90);
}

/** "this test", "this personalization": how the sentences name the experience on screen. */
export const thisNoun = (kind: ExperienceKind | undefined) =>
  kind === "personalization"
    ? "this personalization"
    : kind === "ab_test"
      ? "this test"
      : "this experience";

/** "a", "a and b", "a, b and c". */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** How many pages a sentence names before "and N more pages". */
const PAGES_NAMED = 3;

function pagesText(pages: readonly string[]): string {
  if (pages.length === 0) return "the same pages";
  const named = pages.slice(0, PAGES_NAMED);
  const rest = pages.length - named.length;
  return rest > 0
    ? `${named.join(", ")} and ${rest} more page${rest === 1 ? "" : "s"}`
    : listWords(named);
}

/**
 * One overlap in plain words: who else changes which element on which pages, and who is shown
 * where both apply (the loser is left out for all of its visitors there), or that the two split
 * traffic in a group.
 */
export function overlapSentence(
  o: Pick<ExperienceOverlap, "experience" | "pages" | "elements" | "winner" | "exclusive">,
  self: {
    kind?: ExperienceKind | undefined;
    priority?: number | undefined;
    group?: string | undefined;
  } = {},
): string {
  const noun = thisNoun(self.kind);
  const who = `“${o.experience.name}” (priority ${o.experience.priority})`;
  const changes = `${o.experience.status === "running" ? "also changes" : "can also change"} ${listWords(o.elements)} on ${pagesText(o.pages)}.`;
  if (o.exclusive)
    return `${who} ${changes} The two split traffic in the group “${self.group ?? "?"}”, so no visitor is in both and both stay measurable.`;
  const why =
    self.priority !== undefined && self.priority === o.experience.priority
      ? " (same priority: the older one wins)"
      : " (higher priority wins)";
  return o.winner === "other"
    ? `${who} ${changes} Where both apply, it is shown and ${noun} is left out for all of its visitors${why}.`
    : `${who} ${changes} Where both apply, ${noun} is shown and “${o.experience.name}” is left out for all of its visitors${why}.`;
}

/** The overlaps that change what visitors see: not those kept apart by a group. */
export const conflicts = <T extends Pick<ExperienceOverlap, "exclusive">>(
  overlaps: readonly T[],
): T[] => overlaps.filter((o) => !o.exclusive);
