// Deterministic bucketing (product.md §3): the same visitor lands in the same variation on every
// node with no shared state. FNV-1a over UTF-16 code units is small, fast and stable; the
// distribution tests in test/decide.test.ts check it is even enough.

export function fnv1a32(text: string): number {
  return fmix32(fnvUpdate(0x811c9dc5, text));
}

function fnvUpdate(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
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

/**
 * A number in [0, 1) fixed by the parts: FNV-1a of the parts joined by U+0000 — hashed part by
 * part, without building the joined string (it runs for every experience of every config call).
 */
export function unitHash(...parts: string[]): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) h = Math.imul(h ^ 0, 0x01000193); // the U+0000 separator: XOR with 0, then multiply
    h = fnvUpdate(h, parts[i]!);
  }
  return fmix32(h) / 0x1_0000_0000;
}
