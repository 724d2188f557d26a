// spec §9 "Elements are sorted by depth in the tree": a change to a parent (its innerHTML) is
// applied before a change to its descendants, so a deeper config then acts on the element the
// parent's new content holds instead of on a node the parent just threw away.

export type TreeNode = { parentNode: TreeNode | null };

/** Number of ancestors (the document itself is at depth 0). */
export function depthOf(node: TreeNode | null): number {
  let d = -1;
  for (let n = node; n; n = n.parentNode) d++;
  return d;
}

/**
 * A new array, shallower first; `orderOf` breaks ties (the move action's `order`), and the sort
 * is stable, so equal keys keep the order the service sent.
 */
export function sortByDepth<T>(items: readonly T[], nodeOf: (item: T) => TreeNode, orderOf: (item: T) => number = () => 0): T[] {
  return items
    .map((t) => [depthOf(nodeOf(t)), Number(orderOf(t)) || 0, t] as const)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map((x) => x[2]);
}
