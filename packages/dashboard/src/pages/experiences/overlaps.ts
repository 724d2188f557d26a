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
 * A slice of `share` (0 < share ≤ 1) of the group's traffic that overlaps none of `occupied`:
 * at `preferredStart` when it fits there (an experience keeps its visitors' places when only its
 * share changes), else the first free range from the start of the group.
 */
export function placeSlice(
  occupied: readonly Slice[],
  share: number,
  preferredStart?: number,
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
  if (preferredStart !== undefined && Number.isFinite(preferredStart)) {
    const start = toUnits(preferredStart);
    if (gaps.some((g) => g.start <= start && start + size <= g.end))
      return { ok: true, slice: { start: fromUnits(start), end: fromUnits(start + size) } };
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
  return { ok: true, slice: { start: fromUnits(gap.start), end: fromUnits(gap.start + size) } };
}

/** A member of a group as the editor and the list show it. */
export type GroupMember = { id: string; name: string; status: ExperienceStatus; slice: Slice };

/** Statuses whose slices the service keeps apart (a draft's counts once it starts). */
const HOLDS_SLICE: ReadonlySet<ExperienceStatus> = new Set(["running", "paused"]);

/** The running and paused members of group `name`, except the experiences in `except`, by slice. */
export function groupMembers(
  experiences: readonly Pick<ExperienceSummary, "id" | "name" | "status" | "exclusion_group">[],
  name: string,
  except: readonly string[] = [],
): GroupMember[] {
  const out: GroupMember[] = [];
  for (const e of experiences) {
    const g = e.exclusion_group;
    if (!g || g.name !== name || !HOLDS_SLICE.has(e.status) || except.includes(e.id)) continue;
    out.push({ id: e.id, name: e.name, status: e.status, slice: { start: g.start, end: g.end } });
  }
  return out.sort((a, b) => a.slice.start - b.slice.start);
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

/**
 * Puts `selfId` and `otherId` into group `name` with 50 % each, around the group's other running
 * and paused members. The other experience keeps its place when it is already in the group and
 * its half fits there.
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
  const occupied = groupMembers(experiences, group, [selfId, otherId]).map((m) => m.slice);
  const otherNow = experiences.find((e) => e.id === otherId)?.exclusion_group;
  const other = placeSlice(occupied, 0.5, otherNow?.name === group ? otherNow.start : undefined);
  if (!other.ok)
    return { ok: false, message: `No room for two halves in “${group}”: ${other.message}` };
  const self = placeSlice([...occupied, other.slice], 0.5);
  if (!self.ok)
    return { ok: false, message: `No room for two halves in “${group}”: ${self.message}` };
  return { ok: true, self: { name: group, ...self.slice }, other: { name: group, ...other.slice } };
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
