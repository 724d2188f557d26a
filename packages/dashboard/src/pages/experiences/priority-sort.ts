// The experiences list's order by priority (the Priority column's header sorts it).
/** The list's order by priority: none (oldest first, as stored), or the priority either way. */
export type PrioritySort = "none" | "ascending" | "descending";

/** Rows ordered by priority; equal priorities keep their order (the older first). */
export function sortByPriority<T extends { priority: number }>(
  rows: readonly T[],
  sort: PrioritySort,
): T[] {
  if (sort === "none") return [...rows];
  const sign = sort === "ascending" ? 1 : -1;
  return [...rows].sort((a, b) => sign * (a.priority - b.priority));
}

/** The next order when the Priority header is clicked: highest first, then lowest first. */
export const nextPrioritySort = (sort: PrioritySort): PrioritySort =>
  sort === "descending" ? "ascending" : "descending";
