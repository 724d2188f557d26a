// URL computations of spec §5 "Redirects" and of the global query-parameter action
// (customfit_meta.global_actions.query_params), pure so they are tested as a table without a
// browser (test/redirect.test.ts). Query strings are edited as raw `key=value` parts, so the
// parameters we keep reach the next page exactly as the visitor's URL spelled them.

import { normalizePagePath } from "@storefit/contract";

/** spec §2 "URL parameters read": the marker of a page reached through a redirect. */
export const REDIRECT_MARKER = "cf_redirected";

const keyOf = (part: string): string => {
  const k = part.split("=")[0]!.replace(/\+/g, " ");
  try {
    return decodeURIComponent(k);
  } catch {
    return k;
  }
};

const parts = (search: string): string[] => search.slice(1).split("&").filter(Boolean);

/**
 * Where a redirect to `target` (absolute, or relative to `current`) goes, or null for none.
 * spec §5: the current query string is kept unless `retainParams` is false (the target's own
 * parameters win over kept ones of the same name); `cf_redirected=1` is added when the target
 * has the current page's path. `automatic` redirects (global redirection on page load) never
 * leave a page that already carries the marker, so a page redirecting to itself cannot loop.
 * Only http(s) targets are followed: a `javascript:` URL from a config is not a redirect.
 */
export function redirectUrl(target: string, current: string, retainParams?: boolean | null, automatic?: boolean): string | null {
  try {
    const from = new URL(current);
    if (automatic && from.searchParams.has(REDIRECT_MARKER)) return null;
    const to = new URL(target, from);
    if (!/^https?:$/.test(to.protocol)) return null;
    const list = parts(to.search);
    if (retainParams !== false) for (const p of parts(from.search)) if (!to.searchParams.has(keyOf(p))) list.push(p);
    if (normalizePagePath(to.pathname) === normalizePagePath(from.pathname) && !to.searchParams.has(REDIRECT_MARKER))
      list.push(REDIRECT_MARKER + "=1");
    to.search = list.join("&");
    return to.href;
  } catch {
    return null;
  }
}

export type QueryEdit = { key: string; value?: string; operation: "add" | "remove" };

/**
 * `href` with the global action's query-parameter edits applied in order: "add" sets the key
 * (replacing any value it had), "remove" deletes every occurrence. Other parameters keep their
 * spelling. The engine writes the result with history.replaceState (no reload).
 */
export function editQuery(href: string, edits: readonly QueryEdit[]): string {
  try {
    const u = new URL(href);
    let list = parts(u.search);
    for (const e of edits) {
      if (!e || typeof e.key !== "string" || !e.key) continue;
      list = list.filter((p) => keyOf(p) !== e.key);
      if (e.operation !== "remove") list.push(encodeURIComponent(e.key) + "=" + encodeURIComponent(e.value || ""));
    }
    u.search = list.join("&");
    return u.href;
  } catch {
    return href;
  }
}
