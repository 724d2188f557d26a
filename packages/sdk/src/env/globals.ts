// The one guarded way to reach browser globals (conventions, habit 4): storage may throw
// (Safari private mode, disabled storage, a full quota), and the script must never throw into
// the host page. Everything here returns a fallback instead of throwing.

export const win = window;
export const doc = document;

/** Runs `fn`; on any exception returns `fallback`. */
export function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

type StorageKind = "localStorage" | "sessionStorage";

export function storageGet(kind: StorageKind, key: string): string | null {
  return safe(() => win[kind].getItem(key), null);
}

export function storageSet(kind: StorageKind, key: string, value: string): void {
  safe(() => win[kind].setItem(key, value), undefined);
}

export function now(): number {
  return Date.now();
}

/** A random id; crypto.randomUUID where present (secure contexts), otherwise getRandomValues. */
export function randomId(): string {
  return safe(
    () => win.crypto.randomUUID(),
    safe(
      () =>
        Array.from(win.crypto.getRandomValues(new Uint8Array(16)), (b) =>
          b.toString(16).padStart(2, "0"),
        ).join(""),
      Math.random().toString(36).slice(2) + now().toString(36),
    ),
  );
}
