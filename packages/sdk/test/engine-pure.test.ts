// The apply engine's pure parts as tables: class-edit parsing and the field list of a variation
// (spec §3 Variation fields, Appendix A), depth sorting (spec §9), and CDN file naming (spec §7).
import { describe, expect, it } from "vitest";
import type { ElementChanges } from "@storefit/contract";
import { classNames, cssName, fieldsOf } from "../src/dom/fields.js";
import { depthOf, sortByDepth } from "../src/dom/depth.js";
import type { TreeNode } from "../src/dom/depth.js";
import { jssFile, jssUrl } from "../src/dom/cdn.js";

describe("classNames (cf_classes_add / remove / overwrite)", () => {
  const rows: [unknown, string[]][] = [
    [["a", "b"], ["a", "b"]],
    ["a b", ["a", "b"]],
    ["  a\tb\n c  ", ["a", "b", "c"]],
    [["a b", "c"], ["a", "b", "c"]],
    [[], []],
    ["", []],
    [undefined, []],
    [null, []],
    [42, []],
    [{ a: 1 }, []],
  ];
  for (const [input, want] of rows) it(`${JSON.stringify(input)} → ${JSON.stringify(want)}`, () => expect(classNames(input)).toEqual(want));
});

describe("fieldsOf: which fields a variation writes, with which values", () => {
  const kv = (v: ElementChanges) => fieldsOf(v).map((f) => [f._key, f._value]);
  const rows: [what: string, v: ElementChanges, want: [string, string | null][]][] = [
    ["nothing", {}, []],
    ["innerHTML, also empty", { innerHTML: "" }, [["html", ""]]],
    ["value as text", { value: "3" }, [["value", "3"]]],
    ["src and srcset; an empty srcset removes it", { src: "/b.png", srcset: "" }, [["src", "/b.png"], ["srcset", null]]],
    ["href and target", { href_target: { href: "/sale", target: "_blank" } }, [["href", "/sale"], ["target", "_blank"]]],
    ["an empty href or target is unchanged", { href_target: { href: "", target: "_self" } }, [["target", "_self"]]],
    ["style map, camelCase accepted, empty removes", { style: { color: "red", backgroundColor: "blue !important", "--x": "1", width: "" } }, [["s:color", "red"], ["s:background-color", "blue !important"], ["s:--x", "1"], ["s:width", null]]],
    ["no_changes ignores class lists", { cf_classes_edit_option: "no_changes", cf_classes_add: ["a"], cf_classes_overwrite: "b" }, []],
    ["add_remove_classes with arrays", { cf_classes_edit_option: "add_remove_classes", cf_classes_add: ["sale", "big"], cf_classes_remove: ["old"] }, [["c:sale", "sale"], ["c:big", "big"], ["c:old", null]]],
    ["add_remove_classes with strings", { cf_classes_edit_option: "add_remove_classes", cf_classes_add: "sale big", cf_classes_remove: "old" }, [["c:sale", "sale"], ["c:big", "big"], ["c:old", null]]],
    ["add/remove when the option is absent", { cf_classes_add: "x" }, [["c:x", "x"]]],
    ["overwrite_classes with a string", { cf_classes_edit_option: "overwrite_classes", cf_classes_overwrite: " a  b " }, [["class", "a b"]]],
    ["overwrite_classes with an array, and none", { cf_classes_edit_option: "overwrite_classes", cf_classes_overwrite: [] }, [["class", ""]]],
    ["options that are not fields write nothing", { cf_retain_value: true, cf_defer_apply: true, cf_delay_apply_time: 5, cf_evt_load_time: true, cf_perform_click_action: true }, []],
  ];
  for (const [what, v, want] of rows) it(what, () => expect(kv(v)).toEqual(want));

  it("ignores values of the wrong shape", () => {
    expect(kv({ innerHTML: 5 as never, src: null as never, style: "color:red" as never, href_target: "x" as never, value: { a: 1 } as never })).toEqual([]);
  });
  it("names CSS properties", () => {
    expect([cssName("fontSize"), cssName("font-size"), cssName("--brandColor")]).toEqual(["font-size", "font-size", "--brandColor"]);
  });
});

describe("depth sorting (spec §9)", () => {
  const tree = () => {
    const doc: TreeNode = { parentNode: null };
    const html: TreeNode = { parentNode: doc };
    const body: TreeNode = { parentNode: html };
    const div: TreeNode = { parentNode: body };
    const span: TreeNode = { parentNode: div };
    return { doc, html, body, div, span };
  };
  it("counts ancestors", () => {
    const t = tree();
    expect([depthOf(t.doc), depthOf(t.html), depthOf(t.span), depthOf(null)]).toEqual([0, 1, 4, -1]);
  });
  const t = tree();
  const rows: [what: string, input: [string, TreeNode, number][], want: string[]][] = [
    ["shallower first", [["span", t.span, 0], ["body", t.body, 0], ["div", t.div, 0]], ["body", "div", "span"]],
    ["equal depth keeps the service's order", [["a", t.div, 0], ["b", t.div, 0], ["c", t.body, 0]], ["c", "a", "b"]],
    ["equal depth sorts by move order", [["a", t.div, 2], ["b", t.div, 1], ["c", t.div, 0]], ["c", "b", "a"]],
    ["depth wins over move order", [["deep", t.span, 0], ["shallow", t.div, 9]], ["shallow", "deep"]],
    ["empty", [], []],
  ];
  for (const [what, input, want] of rows)
    it(what, () => expect(sortByDepth(input, (x) => x[1], (x) => x[2]).map((x) => x[0])).toEqual(want));
  it("does not change its input", () => {
    const input: [string, TreeNode][] = [["span", t.span], ["body", t.body]];
    sortByDepth(input, (x) => x[1]);
    expect(input.map((x) => x[0])).toEqual(["span", "body"]);
  });
});

describe("CDN file naming (spec §7: dimension id, jss folder, stage variant)", () => {
  const c = { config_id: "cfg_1", variation_id: "var_2", version: 3, experience_behaviour_response: { experience_id: "exp_4", behaviour_id: "b" } };
  const base = { api_host: "https://api.example", dimension_id: "dim_9", environment: "prod" as const };
  const rows: [what: string, s: Parameters<typeof jssUrl>[0], trigger: Parameters<typeof jssUrl>[2], want: string | null][] = [
    ["onclick on the CDN host", { ...base, cdn_host: "https://cdn.example" }, "onclick", "https://cdn.example/dim_9/jss/cfg_1_var_2_exp_4_onclick.js?v=3"],
    ["onload, host with a trailing slash", { ...base, cdn_host: "https://cdn.example/" }, "onload", "https://cdn.example/dim_9/jss/cfg_1_var_2_exp_4_onload.js?v=3"],
    ["global, default host api_host + /cdn", base, "global", "https://api.example/cdn/dim_9/jss/cfg_1_var_2_exp_4_global.js?v=3"],
    ["stage uses jss-stage", { ...base, environment: "stage" }, "global", "https://api.example/cdn/dim_9/jss-stage/cfg_1_var_2_exp_4_global.js?v=3"],
    ["no dimension id, no URL", { ...base, dimension_id: undefined }, "onclick", null],
    ["an empty dimension id, no URL", { ...base, dimension_id: "" }, "onclick", null],
  ];
  for (const [what, s, trigger, want] of rows) it(what, () => expect(jssUrl(s, c, trigger)).toBe(want));

  it("names files by config, variation, experience and trigger, encoded", () => {
    expect(jssFile(c, "onload")).toBe("cfg_1_var_2_exp_4_onload.js");
    expect(jssFile({ config_id: "a/b", variation_id: "v ?", experience_behaviour_response: undefined }, "global")).toBe("a%2Fb_v%20%3F__global.js");
  });
  it("leaves the version off when the config has none", () => {
    expect(jssUrl(base, { ...c, version: undefined }, "onclick")).toBe("https://api.example/cdn/dim_9/jss/cfg_1_var_2_exp_4_onclick.js");
  });
});
