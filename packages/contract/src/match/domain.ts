// Host matching for the configured main domain and subdomains (spec §5 "The domain is normalized
// to the configured main domain or a matching subdomain", spec §6 "configured domain or its
// configured subdomains (wildcards allowed)"). Pure and browser-safe: the script bundles it.

/**
 * A host in comparable form: trimmed, lower case, without scheme, path, port or trailing dot, so
 * that a pasted "https://Shop.Example:4200/" compares equal to `location.hostname`.
 */
export const normalizeHost = (host: string): string =>
  (typeof host === "string" ? host : "")
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z\d+.-]*:\/\//, "")
    .replace(/[/?#][\s\S]*/, "")
    .replace(/:\d*$/, "")
    .replace(/\.+$/, "");

/**
 * True when `hostname` is the host `pattern` names. `*.example.com` matches subdomains of any
 * depth (a.example.com, a.b.example.com) but never the bare example.com: list that as well if it
 * is meant. Case, ports and a trailing dot are ignored on both sides; an empty side never matches.
 */
export function matchDomain(hostname: string, pattern: string): boolean {
  const h = normalizeHost(hostname);
  const p = normalizeHost(pattern);
  if (!h || !p) return false;
  // ".example.com" must be preceded by at least one character of a subdomain label.
  return p.startsWith("*.") ? h.length >= p.length && h.endsWith(p.slice(1)) : h === p;
}

/**
 * The domain events are attributed to (spec §5), or null when the host is not configured — the
 * script then stops with "Non-configured domain" (spec §8).
 * Choice: the main domain and exact subdomain entries give themselves; a `*.` entry gives the
 * visitor's own host (not the wildcard), so each shop subdomain keeps its own events. The result
 * is always the normalized host (lower case, no port), equal to the matching entry when exact.
 */
export function resolveEventDomain(
  hostname: string,
  mainDomain: string,
  subdomains: readonly string[],
): string | null {
  const h = normalizeHost(hostname);
  const allowed = [mainDomain, ...(Array.isArray(subdomains) ? subdomains : [])];
  return allowed.some((d) => matchDomain(h, d)) ? h : null;
}

/** spec §6: the script runs only on the main domain or a configured subdomain. */
export const isConfiguredDomain = (
  hostname: string,
  mainDomain: string,
  subdomains: readonly string[],
): boolean => resolveEventDomain(hostname, mainDomain, subdomains) !== null;
