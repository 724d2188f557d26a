// Pure rules of the measured events (spec §5, §9): scroll depth growth, page-update durations,
// and the viewed-products list.

import { PAGE_DURATION_CAP_MS, SCROLL_GROWTH_THRESHOLD_PERCENT, VIEWED_PRODUCTS_MAX } from "@storefit/contract";

/** Scroll depth in whole percent of the page seen (0–100). */
export function scrollDepth(scrollY: number, viewport: number, pageHeight: number): number {
  if (pageHeight <= 0) return 100;
  return Math.max(0, Math.min(100, Math.round(((scrollY + viewport) / pageHeight) * 100)));
}

/** spec §5: "Scroll depth is sent only if it grew by at least 5 percent over the last sent value." */
export const scrollWorthSending = (lastSent: number | null, depth: number): boolean =>
  lastSent === null ? depth > 0 : depth - lastSent >= SCROLL_GROWTH_THRESHOLD_PERCENT;

/** spec §9: the page duration is not added to page updates past 30 minutes. */
export const pageDurationProperty = (durationMs: number): { current_page_duration?: number } =>
  durationMs >= 0 && durationMs <= PAGE_DURATION_CAP_MS ? { current_page_duration: Math.round(durationMs) } : {};

export type ViewedProduct = { product_id: string; variant_id?: string; time_stamp: number; viewed_count: number };

/** spec §3/§9: the 10 most recent, most recent first; a repeat view moves up and counts. */
export function addViewedProduct(list: readonly ViewedProduct[], productId: string, variantId: string | undefined, now: number): ViewedProduct[] {
  const same = (p: ViewedProduct) => p.product_id === productId && (p.variant_id ?? "") === (variantId ?? "");
  const previous = list.find(same);
  const entry: ViewedProduct = {
    product_id: productId,
    ...(variantId ? { variant_id: variantId } : {}),
    time_stamp: now,
    viewed_count: (previous?.viewed_count ?? 0) + 1,
  };
  return [entry, ...list.filter((p) => !same(p))].slice(0, VIEWED_PRODUCTS_MAX);
}
