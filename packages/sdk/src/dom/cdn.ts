// Where inline-JS actions load from (spec §7 "Behaviour on answers"): the content delivery host,
// under the account's dimension id, in a `jss` folder — `jss-stage` for the stage environment
// (spec §9: the environment is stage when the script URL contains "stage"), so a stage script
// never runs code published for production and the reverse. Files are named by config,
// variation, experience and trigger. The script never evaluates code text from a config
// (`js_code` is what the service publishes to that file): a shop's Content-Security-Policy then
// only has to allow the CDN host, never 'unsafe-eval'.

import type { Config, StorefitSettings } from "@storefit/contract";

export type JsTrigger = "onclick" | "onload" | "global" | "template";

type CdnSettings = Pick<StorefitSettings, "api_host" | "cdn_host" | "dimension_id" | "environment">;
type ConfigIds = Pick<Config, "config_id" | "variation_id" | "version" | "experience_behaviour_response">;

/** `${config_id}_${variation_id}_${experience_id}_${trigger}.js` */
export const jssFile = (c: ConfigIds, trigger: JsTrigger): string =>
  [c.config_id, c.variation_id, (c.experience_behaviour_response || { experience_id: "" }).experience_id, trigger]
    .map((p) => encodeURIComponent(String(p)))
    .join("_") + ".js";

/**
 * The script URL, or null without a dimension id (there is no folder to load from). The CDN
 * host defaults to `${api_host}/cdn` (product.md §2). The config version rides along as `?v=`
 * so an edited script is not served stale from a cache.
 */
export function jssUrl(s: CdnSettings, c: ConfigIds, trigger: JsTrigger): string | null {
  if (!s.dimension_id) return null;
  const host = (s.cdn_host || s.api_host + "/cdn").replace(/\/+$/, "");
  const folder = s.environment === "stage" ? "jss-stage" : "jss";
  return `${host}/${encodeURIComponent(s.dimension_id)}/${folder}/${jssFile(c, trigger)}${c.version != null ? "?v=" + c.version : ""}`;
}
