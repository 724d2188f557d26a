// The addresses the dashboard makes for the shop (docs/dashboard-account.md "Shop addresses"):
// the visual editor's pages, preview links, the install check. A domain is matched by host name,
// but opened at the origin the account lists for it in `site_origins` (scheme and port: a shop in
// development is often on a port); a domain not listed is opened over https (http for
// `.localhost`, which browsers treat as local).

export type ShopAddresses = {
  domain: string;
  subdomains?: readonly string[] | undefined;
  site_origins?: readonly string[] | undefined;
};

const hostOf = (origin: string): string | null => {
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return null;
  }
};

/** The origin (scheme://host[:port]) the shop serves `host` at. */
export function shopOrigin(host: string, settings: ShopAddresses | null | undefined): string {
  const h = host.toLowerCase();
  const listed = settings?.site_origins?.find((o) => hostOf(o) === h);
  if (listed) return listed.replace(/\/+$/, "");
  return `${/(^|\.)localhost$/.test(h) ? "http" : "https"}://${h}`;
}

/** A page of the shop: `path` on the origin of `host`. */
export function shopPageUrl(host: string, path: string, settings: ShopAddresses | null | undefined): string {
  return `${shopOrigin(host, settings)}${path.startsWith("/") ? "" : "/"}${path}`;
}
