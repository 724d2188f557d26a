// The pages the "Page address" field suggests (docs/visual-editor.md "The dashboard side"), and
// the shop origins last opened, which it falls back on for a domain with no listed address.
import type { ExperienceDetail } from "@storefit/contract";
import { originOf } from "@storefit/contract";
import { shopPageUrl } from "../../shop-address";
import type { ShopAddresses } from "../../shop-address";

/** Where the origins of the shop's hosts last opened are remembered (scheme and port). */
const ORIGINS_KEY = "storefit.visual-editor.origins";

function rememberedOrigins(): Record<string, string> {
  try {
    const v: unknown = JSON.parse(window.localStorage.getItem(ORIGINS_KEY) ?? "{}");
    return v && typeof v === "object" ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Remembers the origin `url` was opened on, for its host name. */
export function rememberOrigin(url: string): void {
  try {
    const u = new URL(url);
    const all = { ...rememberedOrigins(), [u.hostname]: u.origin };
    window.localStorage.setItem(ORIGINS_KEY, JSON.stringify(all));
  } catch {
    // Storage may be off: suggestions then guess the scheme.
  }
}

/**
 * The shop pages the experience targets, as addresses to open: on the address the account lists
 * for that domain (Settings → Shop and domains: scheme and port), else on the origin last opened
 * for that host, else https (http for `.localhost`). Then the main domain's home page.
 */
export function suggestedPages(experience: ExperienceDetail, settings: ShopAddresses): string[] {
  const origins = rememberedOrigins();
  const listed = (host: string) =>
    settings.site_origins?.some((o) => originOf(o) !== null && new URL(o).hostname === host);
  const pageOn = (domain: string, path: string) => {
    const host = domain.toLowerCase();
    const remembered = origins[host];
    return !listed(host) && remembered
      ? `${remembered}${path.startsWith("/") ? "" : "/"}${path}`
      : shopPageUrl(host, path, settings);
  };
  // Whole pages first (a "contains" path such as /products/ is often no page of its own): exact
  // targets, then the pages the variations' changes are bound to, then the rest.
  const targets = experience.pages.filter((p) => p.page_match !== "regex" && p.domain);
  const configPages = experience.rules.flatMap((r) =>
    r.behaviour.variations.flatMap((v) =>
      v.configs.flatMap((c) => {
        const p = c.properties;
        return p?.page_path && (p.page_match ?? "exact_match") === "exact_match"
          ? [{ domain: p.domain || settings.domain, page_path: p.page_path }]
          : [];
      }),
    ),
  );
  const pages = [
    ...targets.filter((p) => p.page_match === "exact_match"),
    ...configPages,
    ...targets.filter((p) => p.page_match !== "exact_match"),
  ]
    .filter((p) => p.domain)
    .map((p) => pageOn(p.domain, p.page_path));
  if (settings.domain) pages.push(pageOn(settings.domain, "/"));
  return [...new Set(pages)];
}
