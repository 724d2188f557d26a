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

/**
 * FNV-1a's state after `parts`, each followed by the U+0000 separator: the fixed start of a
 * unitHash whose last part is the visitor (unitHashAfter). A decision hashes the same
 * (kind, experience, rule) prefix for every visitor; its page plan keeps the prefix's state.
 */
export function hashPrefix(...parts: string[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      h ^= part.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    // h ^= 0 (the separator's code unit) leaves h as it is.
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** unitHash(...prefixParts, last), given hashPrefix(...prefixParts): the same number. */
export function unitHashAfter(prefix: number, last: string): number {
  let h = prefix;
  for (let i = 0; i < last.length; i++) {
    h ^= last.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h) / 0x1_0000_0000;
}
