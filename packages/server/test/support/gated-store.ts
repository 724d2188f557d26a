// A store whose config-call writes (kind "decision") can be held back or made to fail, to test
// what the client API does while a write behind the answer (routes/client.ts) is not committed.
// Every other call goes straight to the real store.
import type { ClientWrite, InsertResult, Store } from "../../src/store/types.js";

export type GatedStore<S extends Store> = {
  store: S;
  /** Holds every decision write until `release()` (holding again while held changes nothing). */
  hold(): void;
  release(): void;
  /** The next `n` commits holding a decision write throw. */
  fail(n: number): void;
  /** Commits holding a decision write that threw. */
  failures: number;
};

export function gated<S extends Store>(inner: S): GatedStore<S> {
  let gate: Promise<void> | null = null;
  let open = () => {};
  let failing = 0;
  const control: GatedStore<S> = {
    store: undefined as unknown as S,
    hold() {
      gate ??= new Promise<void>((resolve) => (open = resolve));
    },
    release() {
      gate = null;
      open();
    },
    fail(n) {
      failing = n;
    },
    failures: 0,
  };
  const commit = async (writes: readonly ClientWrite[]): Promise<InsertResult[]> => {
    if (writes.some((w) => w.kind === "decision")) {
      if (gate) await gate;
      if (failing > 0) {
        failing--;
        control.failures++;
        throw new Error("store unavailable");
      }
    }
    return inner.commitClientWrites(writes);
  };
  control.store = new Proxy(inner, {
    get(target, prop) {
      if (prop === "commitClientWrites") return commit;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return control;
}
