// The visual editor with variations named like Object.prototype members (`__proto__`,
// `toString`), which the service accepted before it refused them (docs/api.md): the page was
// blank, as `histories["__proto__"] = …` on `{}` set a prototype instead of a history. Each
// variation keeps its own configs, edits, undo and unsaved state, and a variation id never finds
// an inherited member.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { ConfigDefinition, ExperienceDetail } from "@storefit/contract";
import { editorReducer, historyOf, isDirty } from "../src/pages/visual-editor/model";
import type { EditorState } from "../src/pages/visual-editor/model";
import { loadedConfigs, useEditorVariations } from "../src/pages/visual-editor/useEditorVariations";

const config = (text: string): ConfigDefinition => ({
  config_customer_id: "hero_title",
  config_id: "cfg_hero_title",
  variation_data_type: "HTML_ELEMENT",
  variation: { innerHTML: text },
  properties: { element_path: "#hero-title", domain: "shop.example" },
});

const EXPERIENCE = {
  id: "exp_p",
  name: "Proto",
  status: "draft",
  kind: "ab_test",
  priority: 0,
  exclusion_group: null,
  pages: [{ domain: "shop.example", page_path: "/", page_match: "exact_match" }],
  goals: [],
  rules: [
    {
      id: "r1",
      audience_id: null,
      audience_name: null,
      behaviour: {
        id: "b1",
        name: "B",
        traffic_allocation: 1,
        variations: [
          { id: "__proto__", name: "Proto", weight: 1, configs: [config("Proto headline")] },
          { id: "toString", name: "ToString", weight: 1, configs: [config("ToString headline")] },
        ],
      },
    },
  ],
  created_at: "2026-11-01T00:00:00.000Z",
  updated_at: "2026-11-01T00:00:00.000Z",
} as unknown as ExperienceDetail;

const headline = (configs: ConfigDefinition[] | undefined) => (configs?.[0]?.variation as { innerHTML?: string } | undefined)?.innerHTML;

describe("the visual editor's model with variations __proto__ and toString", () => {
  const loaded = (): EditorState => editorReducer({ histories: {}, saved: {} }, { type: "load", variations: loadedConfigs(EXPERIENCE) });

  it("loads each variation's configs as its own entry", () => {
    const configs = loadedConfigs(EXPERIENCE);
    expect(Object.keys(configs)).toEqual(["__proto__", "toString"]);
    expect(headline(configs["__proto__"])).toBe("Proto headline");
    expect(headline(configs["toString"])).toBe("ToString headline");
    const state = loaded();
    expect(headline(historyOf(state, "__proto__")?.present)).toBe("Proto headline");
    expect(headline(historyOf(state, "toString")?.present)).toBe("ToString headline");
    expect(isDirty(state, "__proto__")).toBe(false);
    expect(isDirty(state, "toString")).toBe(false);
  });

  it("an edit, its undo and a save change that variation alone", () => {
    let state = loaded();
    state = editorReducer(state, { type: "edit", variationId: "__proto__", key: "text", change: () => [config("Edited")] });
    expect(headline(historyOf(state, "__proto__")?.present)).toBe("Edited");
    expect(headline(historyOf(state, "toString")?.present)).toBe("ToString headline");
    expect(isDirty(state, "__proto__")).toBe(true);
    expect(isDirty(state, "toString")).toBe(false);
    state = editorReducer(state, { type: "undo", variationId: "__proto__" });
    expect(headline(historyOf(state, "__proto__")?.present)).toBe("Proto headline");
    state = editorReducer(state, { type: "redo", variationId: "__proto__" });
    state = editorReducer(state, { type: "saved", variationId: "__proto__", configs: [config("Edited")] });
    expect(isDirty(state, "__proto__")).toBe(false);
    expect(Object.keys(state.histories)).toEqual(["__proto__", "toString"]);
  });

  it("an id that is no variation finds nothing, not an inherited member", () => {
    const state = loaded();
    for (const id of ["constructor", "valueOf", "hasOwnProperty"]) {
      expect(historyOf(state, id)).toBeUndefined();
      expect(isDirty(state, id)).toBe(false);
      // An edit of it is no change (it threw: the inherited function has no `present`).
      expect(editorReducer(state, { type: "edit", variationId: id, key: null, change: () => [config("x")] })).toBe(state);
    }
  });
});

describe("the editor's variations hook renders such an experience", () => {
  function Probe({ requested }: { requested: string | null }) {
    const v = useEditorVariations(EXPERIENCE, requested, true);
    return createElement("output", null, JSON.stringify({ id: v.variationId, shown: headline(v.configs), dirty: v.dirty, anyUnsaved: v.anyUnsaved, canUndo: v.canUndo }));
  }
  const render = (requested: string | null) =>
    JSON.parse(renderToStaticMarkup(createElement(MemoryRouter, null, createElement(Probe, { requested }))).replace(/^<output>|<\/output>$/g, "").replace(/&quot;/g, '"')) as unknown;

  it("shows the requested variation's configs, __proto__ first by default", () => {
    expect(render(null)).toEqual({ id: "__proto__", shown: "Proto headline", dirty: false, anyUnsaved: false, canUndo: false });
    expect(render("__proto__")).toEqual({ id: "__proto__", shown: "Proto headline", dirty: false, anyUnsaved: false, canUndo: false });
    expect(render("toString")).toEqual({ id: "toString", shown: "ToString headline", dirty: false, anyUnsaved: false, canUndo: false });
  });
});
