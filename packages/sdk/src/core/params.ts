// URL parameters the script reads (spec §2 "URL parameters read"). Pure: a function of the query
// string, tested from a table. The prefixed parameters set user data and are then removed from the
// address bar by the boot code (`strip` lists them).

import type { Properties } from "@storefit/contract";

export const CAMPAIGN_KEYS = [
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "utm_adgroup",
  "fbclid",
  "gclid",
] as const;

export type CampaignKey = (typeof CAMPAIGN_KEYS)[number];

/**
 * The operator's preview token (our name; docs/dashboard.md "Preview links"): the service shows
 * draft and paused experiences in preview only with it. Taken out of the address bar, so a copied
 * address or a Referer does not carry it on.
 */
export const PREVIEW_TOKEN_PARAM = "cf_preview_token";

/** Long-URL parameter and tiny id of outbound links (spec §4 outbound-only gating; our names). */
export const LONG_URL_PARAM = "cf_long_url";
export const TINY_ID_PARAM = "cf_tiny_id";

export type UrlParams = {
  campaign: Partial<Record<CampaignKey, string>>;
  email?: string;
  cfid?: string;
  cfsid?: string;
  redirected: boolean;
  /** `customfit_preview` present: true turns preview on, "0"/"false" turns it off; absent: null. */
  preview: boolean | null;
  /** `cf_preview_token`, kept with the session's preview flag and sent in the config call. */
  previewToken?: string;
  edit: boolean;
  desired: string[];
  preferred: string[];
  /** cfup_{name}; `user_customer_id` is lifted out into `customerId`. */
  userProps: Properties;
  customerId?: string;
  privateProps: Properties;
  crmProps: Properties;
  sessionProps: Properties;
  tags: { public: string[]; private: string[]; session: string[] };
  outbound: boolean;
  /** Parameter names to remove from the address bar once applied. */
  strip: string[];
};

const PREFIXES: [prefix: string, field: "userProps" | "privateProps" | "crmProps" | "sessionProps"][] = [
  // Longest first: "cfupp_" must not be read as "cfup_" + "p_…".
  ["cfupp_", "privateProps"],
  ["cfuhp_", "crmProps"],
  ["cfusp_", "sessionProps"],
  ["cfup_", "userProps"],
];

const TAG_PARAMS = { cfut: "public", cfupt: "private", cfust: "session" } as const;

const list = (v: string | null): string[] =>
  v ? v.split(",").map((s) => s.trim()).filter(Boolean) : [];

/** A truthy flag parameter: present, and not "0" or "false". */
const flag = (v: string | null) => v !== null && v !== "0" && v.toLowerCase() !== "false";

export function parseUrlParams(search: string): UrlParams {
  const q = new URLSearchParams(search);
  const out: UrlParams = {
    campaign: {},
    redirected: q.has("cf_redirected"),
    preview: q.has("customfit_preview") ? flag(q.get("customfit_preview")) : null,
    edit: flag(q.get("utm_customfit_edit")),
    desired: list(q.get("customfit_desired_experiences")),
    preferred: list(q.get("customfit_preferred_experiences")),
    userProps: {},
    privateProps: {},
    crmProps: {},
    sessionProps: {},
    tags: { public: [], private: [], session: [] },
    outbound: !!(q.get(LONG_URL_PARAM) || q.get(TINY_ID_PARAM)),
    strip: [],
  };
  for (const k of CAMPAIGN_KEYS) {
    const v = q.get(k);
    if (v) out.campaign[k] = v;
  }
  for (const k of ["email", "cfid", "cfsid"] as const) {
    const v = q.get(k);
    if (v) out[k] = v;
  }
  const token = q.get(PREVIEW_TOKEN_PARAM);
  if (token) {
    out.previewToken = token;
    out.strip.push(PREVIEW_TOKEN_PARAM);
  }
  q.forEach((value, key) => {
    const tagScope = TAG_PARAMS[key as keyof typeof TAG_PARAMS];
    if (tagScope) {
      out.tags[tagScope].push(...list(value));
      out.strip.push(key);
      return;
    }
    for (const [prefix, field] of PREFIXES) {
      if (key.startsWith(prefix) && key.length > prefix.length) {
        const name = key.slice(prefix.length);
        if (field === "userProps" && name === "user_customer_id") {
          if (value) out.customerId = value;
        } else out[field][name] = value;
        out.strip.push(key);
        return;
      }
    }
  });
  return out;
}

/** The query string without the given parameters ("" or "?a=1"). */
export function withoutParams(search: string, names: readonly string[]): string {
  const q = new URLSearchParams(search);
  for (const n of names) q.delete(n);
  const s = q.toString();
  return s ? "?" + s : "";
}
