// spec §5 "Getters": storefit.getValue answers the default when the config is missing or its data
// type differs from the default's type.
import { describe, expect, it } from "vitest";
import type { Config, VariationDataType } from "@storefit/contract";
import { valueOf } from "../src/core/getters.js";

const cfg = (variation_data_type: VariationDataType, variation: unknown): Config => ({
  config_customer_id: "c",
  config_id: "cfg",
  variation_id: "v",
  variation: variation as Config["variation"],
  variation_data_type,
});

describe("valueOf (spec §5 Getters)", () => {
  const rows: [what: string, config: Config | undefined | null, def: unknown, want: unknown][] = [
    ["missing config → default", undefined, 7, 7],
    ["null config → default", null, "x", "x"],
    ["NUMBER with a number default", cfg("NUMBER", 12), 0, 12],
    ["NUMBER zero is a value", cfg("NUMBER", 0), 5, 0],
    ["NUMBER with a string default → default", cfg("NUMBER", 12), "d", "d"],
    ["NUMBER sent as text", cfg("NUMBER", "12.5"), 0, 12.5],
    ["NUMBER that is not a number → default", cfg("NUMBER", "abc"), 1, 1],
    ["STRING", cfg("STRING", "hello"), "", "hello"],
    ["STRING with a number default → default", cfg("STRING", "hello"), 3, 3],
    ["STRING that looks like a number stays a string", cfg("STRING", "42"), "", "42"],
    ["COLOR is a string", cfg("COLOR", "#ff0000"), "#000", "#ff0000"],
    ["RICHTEXT is a string", cfg("RICHTEXT", "<b>x</b>"), "", "<b>x</b>"],
    ["BOOLEAN", cfg("BOOLEAN", false), true, false],
    ["BOOLEAN sent as text", cfg("BOOLEAN", "true"), false, true],
    ["BOOLEAN with a string default → default", cfg("BOOLEAN", true), "no", "no"],
    ["LIST", cfg("LIST", [1, 2]), [], [1, 2]],
    ["LIST sent as JSON text", cfg("LIST", '["a","b"]'), [], ["a", "b"]],
    ["LIST with an object default → default", cfg("LIST", [1]), {}, {}],
    ["JSON", cfg("JSON", { a: 1 }), {}, { a: 1 }],
    ["JSON sent as text", cfg("JSON", '{"a":1}'), {}, { a: 1 }],
    ["JSON with an array default → default", cfg("JSON", { a: 1 }), [], []],
    ["JSON holding an array is not an object → default", cfg("JSON", [1]), {}, {}],
    ["JSON null → default", cfg("JSON", null), {}, {}],
    ["HTML_ELEMENT has no value → default", cfg("HTML_ELEMENT", { innerHTML: "x" }), {}, {}],
    ["an unknown data type → default", cfg("DATE" as VariationDataType, "2024"), "d", "d"],
    ["no default: the value as it is", cfg("NUMBER", 3), undefined, 3],
    ["no default, HTML_ELEMENT: undefined", cfg("HTML_ELEMENT", {}), undefined, undefined],
    ["a null default only matches null", cfg("STRING", "x"), null, null],
  ];
  for (const [what, config, def, want] of rows) it(what, () => expect(valueOf(config, def)).toEqual(want));
});
