// Template rules (spec §5 "Timers and scrolling", §3 visibility and close memory).
import { describe, expect, it } from "vitest";
import { delaysMs, suppressed, templateOf, visibleOn } from "../src/ext/template-rules.js";

describe("delayed-time lists (spec §5)", () => {
  const table: [unknown, number[]][] = [
    [5, [5000]], ["5", [5000]], ["5,10", [5000, 10000]], ["0", []], [0, []], ["", []], [" , ,", []],
    ["abc", []], ["-3", [1000]], [-1, [1000]], ["2, 0, x, 1.5", [2000, 1500]], [undefined, []], [null, []],
  ];
  for (const [value, expected] of table) it(JSON.stringify(value), () => expect(delaysMs(value)).toEqual(expected));
});

describe("visibility and close memory", () => {
  it("visibility_selected", () => {
    expect(visibleOn("", "mobile")).toBe(true);
    expect(visibleOn(undefined, "desktop")).toBe(true);
    expect(visibleOn("hide_template", "desktop")).toBe(false);
    expect(visibleOn("desktop_only", "desktop")).toBe(true);
    expect(visibleOn("desktop_only", "mobile")).toBe(false);
    expect(visibleOn("mobile_only", "mobile")).toBe(true);
    expect(visibleOn("mobile_only", "desktop")).toBe(false);
  });
  it("suppressed by the session flag or until the stored expiry", () => {
    expect(suppressed(true, null, 10)).toBe(true);
    expect(suppressed(false, 20, 10)).toBe(true);
    expect(suppressed(false, 20, 20)).toBe(false);
    expect(suppressed(false, null, 10)).toBe(false);
  });
  it("finds the template in the properties or in customfit_meta, and needs an id", () => {
    const base = { config_customer_id: "c", config_id: "c", variation_id: "v", variation_data_type: "HTML_ELEMENT" as const };
    expect(templateOf({ ...base, variation: {}, properties: { custom_template: { id: "a" } } })?.id).toBe("a");
    expect(templateOf({ ...base, variation: { customfit_meta: { custom_template: { id: "b" } } } })?.id).toBe("b");
    expect(templateOf({ ...base, variation: { customfit_meta: { custom_template: { id: "" } } } })).toBeNull();
    expect(templateOf({ ...base, variation: "text" })).toBeNull();
  });
});
