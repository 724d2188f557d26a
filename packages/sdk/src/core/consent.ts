// Consent signals (issue 10; the spec has no consent handling, and this stays off unless the
// account sets `consent_required`). While consent is pending, storage writes and every call but
// the config call wait in memory (env/globals.ts, track/transport.ts); granted, they go out;
// denied, they are dropped. Signals: the page API (`storefit.setConsent`), Shopify's Customer
// Privacy API, and Google Consent Mode entries in the data layer.

/**
 * Google Consent Mode: the last `analytics_storage` of `["consent", "default" | "update", {…}]`
 * entries (gtag pushes its `arguments`). A *default* of denied only means "not yet": the banner
 * has not been answered, so it reads as unknown; an *update* is the visitor's answer.
 */
export function consentFromDataLayer(entries: unknown): boolean | null {
  let result: boolean | null = null;
  if (!entries || typeof (entries as ArrayLike<unknown>).length !== "number") return null;
  for (const e of Array.from(entries as ArrayLike<unknown>)) {
    const a = e as Record<number, unknown> | null;
    if (!a || a[0] !== "consent") continue;
    const v = (a[2] as { analytics_storage?: unknown } | undefined)?.analytics_storage;
    if (v === "granted") result = true;
    else if (v === "denied") result = a[1] === "update" ? false : result;
  }
  return result;
}

type CustomerPrivacy = {
  analyticsProcessingAllowed?: () => boolean;
  currentVisitorConsent?: () => { analytics?: string };
};

/** Shopify's Customer Privacy API: true when allowed, false on an explicit "no", else unknown. */
export function consentFromShopify(cp: CustomerPrivacy | undefined | null): boolean | null {
  if (!cp) return null;
  if (cp.currentVisitorConsent?.()?.analytics === "no") return false;
  return cp.analyticsProcessingAllowed?.() === true ? true : null;
}
