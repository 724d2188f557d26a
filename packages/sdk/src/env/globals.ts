// The one guarded way to reach browser globals (conventions, habit 4): storage may throw
// (Safari private mode, disabled storage, a full quota), cookies may be blocked, history may be
// replaced by the page, and the script must never throw into the host page. Everything here
// returns a fallback instead of throwing. When storage is unusable, values live in memory for
// the page's lifetime, so one page view still works.

export const win = window;
export const doc = document;

/** Runs `fn`; on any exception returns `fallback` (none needed when the result is unused). */
export function safe<T>(fn: () => T, fallback: T): T;
export function safe(fn: () => unknown): void;
export function safe<T>(fn: () => T, fallback?: T): T | undefined {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

// Consent (off unless the account requires it): while it is pending, writes to storage and
// cookies wait here and happen once it is granted; when it is denied they never happen. Values
// are still kept in memory, so the page view works either way.
export type ConsentState = "granted" | "pending" | "denied";
let consentState: ConsentState = "granted";
let held: (() => void)[] = [];

export const consent = (): ConsentState => consentState;

/** Runs `fn` now with consent, later once granted, or never once denied. */
export function whenConsented(fn: () => void): void {
  if (consentState === "granted") fn();
  else if (consentState === "pending") held.push(fn);
}

export function setConsentState(state: ConsentState): void {
  consentState = state;
  if (state === "pending") return;
  const run = held;
  held = [];
  if (state === "granted") for (const fn of run) safe(fn);
}

export type StorageKind = "localStorage" | "sessionStorage";

const memory: Record<StorageKind, Record<string, string>> = { localStorage: {}, sessionStorage: {} };

export function storageGet(kind: StorageKind, key: string): string | null {
  // Memory first: it holds this page's writes, including those waiting for consent.
  return memory[kind][key] ?? safe(() => win[kind].getItem(key), null);
}

export function storageSet(kind: StorageKind, key: string, value: string): void {
  memory[kind][key] = value;
  whenConsented(() => safe(() => win[kind].setItem(key, value)));
}

export function storageRemove(kind: StorageKind, key: string): void {
  delete memory[kind][key];
  whenConsented(() => safe(() => win[kind].removeItem(key)));
}

/** JSON helpers on top of storage; a corrupt value reads as `fallback`. */
export function storageGetJson<T>(kind: StorageKind, key: string, fallback: T): T {
  const raw = storageGet(kind, key);
  return raw ? safe(() => JSON.parse(raw) as T, fallback) : fallback;
}

export function storageSetJson(kind: StorageKind, key: string, value: unknown): void {
  storageSet(kind, key, JSON.stringify(value));
}

export function cookieGet(name: string): string | null {
  return safe(() => {
    for (const part of doc.cookie.split(/;\s*/)) {
      const i = part.indexOf("=");
      if (i > 0 && part.slice(0, i) === name) return decodeURIComponent(part.slice(i + 1));
    }
    return null;
  }, null);
}

/** A first-party cookie; `domain` shares it with the configured subdomains. */
export function cookieSet(name: string, value: string, maxAgeDays: number, domain?: string): void {
  whenConsented(() => safe(() => {
    doc.cookie = `${name}=${encodeURIComponent(value)};path=/;max-age=${Math.round(maxAgeDays * 86400)};samesite=lax${domain ? ";domain=" + domain : ""}${win.location.protocol === "https:" ? ";secure" : ""}`;
  }));
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
