// A bounded memo of values keyed by a pair of strings, looked up without building a key string
// (two Map lookups): for the config call's per-call lookups, where a joined key was a new string
// to allocate and hash every time. When full, it starts again.

export class PairMemo<V> {
  private readonly byFirst = new Map<string, Map<string, V>>();
  private count = 0;

  constructor(private readonly max: number) {}

  /** The value for (a, b): remembered, else `make(a, b)` (pass a function made once, not per call). */
  get(a: string, b: string, make: (a: string, b: string) => V): V {
    let inner = this.byFirst.get(a);
    let value = inner?.get(b);
    if (value === undefined) {
      value = make(a, b);
      if (this.count >= this.max) {
        this.byFirst.clear();
        this.count = 0;
        inner = undefined;
      }
      if (!inner) this.byFirst.set(a, (inner = new Map()));
      inner.set(b, value);
      this.count++;
    }
    return value;
  }

  /** How many values are remembered. */
  get size(): number {
    return this.count;
  }
}
