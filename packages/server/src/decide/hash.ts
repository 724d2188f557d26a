// Deterministic bucketing (product.md §3): the same visitor lands in the same variation on every
// node with no shared state. FNV-1a over UTF-16 code units is small, fast and stable; the
// distribution tests in test/decide.test.ts check it is even enough.

export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

// Final avalanche (murmur3 fmix32): FNV alone clusters on inputs that differ in the last chars.
function fmix32(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1) fixed by the parts: FNV-1a of the parts joined by U+0000. */
export function unitHash(...parts: string[]): number {
  return fnv1a32(parts.join("\u0000")) / 0x1_0000_0000;
}
