// Everything the script starts on a page (timers, listeners, observers, applied changes) is
// registered in one scope, so `uninit` (single-page mode, spec §2/§4) can undo all of it and a
// re-init starts clean. Disposers run in reverse order, each guarded.

export type Scope = {
  /** Registers a disposer; returns it for convenience. */
  add: (dispose: () => void) => () => void;
  timeout: (fn: () => void, ms: number) => void;
  interval: (fn: () => void, ms: number) => void;
  listen: (target: EventTarget, type: string, fn: EventListener, options?: AddEventListenerOptions) => void;
  /** Runs every disposer once; the scope can be used again afterwards. */
  dispose: () => void;
};

export function createScope(): Scope {
  let disposers: (() => void)[] = [];
  const add = (d: () => void) => (disposers.push(d), d);
  return {
    add,
    timeout: (fn, ms) => {
      const id = setTimeout(fn, ms);
      add(() => clearTimeout(id));
    },
    interval: (fn, ms) => {
      const id = setInterval(fn, ms);
      add(() => clearInterval(id));
    },
    listen: (target, type, fn, options) => {
      target.addEventListener(type, fn, options);
      add(() => target.removeEventListener(type, fn, options));
    },
    dispose: () => {
      const list = disposers;
      disposers = [];
      for (let i = list.length - 1; i >= 0; i--) {
        try {
          list[i]!();
        } catch {
          // A failing disposer must not keep the others from running.
        }
      }
    },
  };
}
