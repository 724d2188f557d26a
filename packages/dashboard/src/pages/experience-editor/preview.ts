// Preview links (spec §2 "Modes", §4; packages/sdk/src/core/params.ts): `customfit_preview`
// turns preview on — no tracking, a fresh visitor — and `customfit_desired_experiences` names
// "experienceId:variationId", which the service answers whatever the status, audience or
// traffic (product.md §3 "Decisions"). Archived experiences are never answered, even in preview.
// `cf_preview_token` is the operator's preview token (api/preview.ts): without a valid one the
// service shows running experiences only, so a link without it previews no draft.
import { matchPage } from "@storefit/contract";
import type { PageTarget } from "@storefit/contract";
import { shopPageUrl } from "../../shop-address";
import type { ShopAddresses } from "../../shop-address";

export const PREVIEW_PARAM = "customfit_preview";
export const DESIRED_PARAM = "customfit_desired_experiences";
export const PREVIEW_TOKEN_PARAM = "cf_preview_token";

/** The shop page with the preview parameters added (existing ones kept), or null for a bad URL. */
export function previewUrl(
  pageUrl: string,
  experienceId: string,
  variationId: string,
  token?: string,
): string | null {
  let url: URL;
  try {
    url = new URL(pageUrl.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.searchParams.set(PREVIEW_PARAM, "1");
  url.searchParams.set(DESIRED_PARAM, `${experienceId}:${variationId}`);
  if (token) url.searchParams.set(PREVIEW_TOKEN_PARAM, token);
  return url.toString();
}

/**
 * A shop page the experience runs on, to start the preview from: the first exact page target,
 * else the first exact page a config is bound to (a contains/regex target names no single page),
 * else the domain's home page; on its domain or the account's main one, at the address the
 * account lists for that domain (shop-address.ts: scheme and port).
 */
export function defaultPreviewPage(
  pages: readonly PageTarget[],
  mainDomain: string | undefined,
  configPages: readonly {
    domain?: string | undefined;
    page_path?: string | undefined;
    page_match?: string | undefined;
  }[] = [],
  addresses?: ShopAddresses | null,
): string {
  const exact =
    pages.find((p) => p.page_match === "exact_match") ??
    configPages.find((p) => p.page_path && (p.page_match ?? "exact_match") === "exact_match");
  const domain = exact?.domain || pages[0]?.domain || mainDomain || "";
  if (!domain) return "";
  return shopPageUrl(domain, exact?.page_path ?? "/", addresses);
}

/** Which page targets a URL matches (the "test a URL" checker), by the script's own matcher. */
export function matchTargets(
  pages: readonly PageTarget[],
  url: string,
  mainDomain: string | undefined,
): { ok: true; matches: boolean[] } | { ok: false; message: string } {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return { ok: false, message: "Enter a full address, such as https://shop.example/products/a." };
  }
  const location = { hostname: parsed.hostname, pathname: parsed.pathname, search: parsed.search };
  return { ok: true, matches: pages.map((p) => matchPage(p, location, mainDomain)) };
}
