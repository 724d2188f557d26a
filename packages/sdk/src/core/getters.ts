// spec §5 "Getters": `storefit.getValue(configCustomerId, default)` (product.md §2) answers the
// default when the config is missing or its data type differs from the default's type. Pure, so
// the rule is a table in test/getters.test.ts.

import type { Config, VariationDataType } from "@storefit/contract";

/** The JavaScript kind each variation data type stands for; HTML_ELEMENT has no value. */
const KIND: Partial<Record<VariationDataType, string>> = {
  NUMBER: "number",
  STRING: "string",
  COLOR: "string",
  RICHTEXT: "string",
  BOOLEAN: "boolean",
  LIST: "array",
  JSON: "object",
};

const kindOf = (v: unknown): string => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);

/**
 * The config's value, or `def` when the config is missing, is an HTML_ELEMENT config, or its
 * type is not the default's (NUMBER ↔ number, STRING/COLOR/RICHTEXT ↔ string, BOOLEAN ↔ boolean,
 * LIST ↔ array, JSON ↔ object). Without a default (undefined) any non-HTML value is returned. A
 * value that arrives as JSON text ("5", "true", "[1,2]") is accepted in its parsed form
 * (Appendix A: "where a value may arrive in a looser form, accept it").
 */
export function valueOf<T>(config: Config | null | undefined, def: T): T {
  const want = config ? KIND[config.variation_data_type] : undefined;
  if (!config || !want || (def !== undefined && kindOf(def) !== want)) return def;
  let v: unknown = config.variation;
  if (typeof v === "string" && want !== "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return def;
    }
  }
  return kindOf(v) === want ? (v as T) : def;
}
