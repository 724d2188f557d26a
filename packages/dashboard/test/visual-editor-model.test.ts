// The visual editor's model without a browser (packages/dashboard/src/pages/visual-editor/model.ts,
// docs/visual-editor.md "The dashboard side"): the per-variation undo/redo history and its
// "typing in one field is one step", the cleanup that removes a change taken back, how a panel
// edit creates, updates or removes the element's config, device-specific edits, popup configs,
// the color picker's value, and the save body. What the editor produces is posted to the real
// service (its JSON Schemas and checks, on SQLite): it must be accepted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfigDefinition, ExperienceDetail, HtmlElementVariation } from "@storefit/contract";
import { demoExperiences } from "../../server/src/seed/demo.js";
import { experienceDetail } from "../../server/src/routes/admin-experiences.js";
import { call, makeApp, signIn } from "../../server/test/helpers.js";
import type { Auth, TestApp } from "../../server/test/helpers.js";
import {
  HISTORY_LIMIT,
  configOnPage,
  HIDDEN_DISPLAY,
  deviceEdit,
  deviceView,
  editElement,
  editorReducer,
  elementConfigIndex,
  isDirty,
  pageTargeted,
  popupConfig,
  setMeta,
  setStyle,
  tidy,
  toHexColor,
} from "../src/pages/visual-editor/model.js";
import type { EditorAction, EditorState, FrameLocation } from "../src/pages/visual-editor/model.js";
import { withVariationConfigs } from "../src/api/visual-editor.js";

let service: TestApp;
let auth: Auth;
beforeAll(async () => {
  service = await makeApp();
  auth = await signIn(service.app);
});
afterAll(async () => {
  await service?.close();
});

const here: FrameLocation = { hostname: "shop.example", pathname: "/products/a", search: "" };
const elsewhere: FrameLocation = { hostname: "shop.example", pathname: "/products/b", search: "" };

/** The configs after `edits` of the element at `path` on `here`, one after the other. */
function edited(
  edits: ((v: HtmlElementVariation) => HtmlElementVariation)[],
  configs: ConfigDefinition[] = [],
  path = "#price",
): ConfigDefinition[] {
  return edits.reduce((c, e) => editElement(c, path, here, "page", e), configs);
}

const variationAt = (configs: ConfigDefinition[], path = "#price") =>
  configs[elementConfigIndex(configs, path, here)]?.variation;

/** An experience with these configs in its one variation: POSTed, the service must answer 201. */
async function expectAccepted(configs: ConfigDefinition[]) {
  const input = {
    name: "Visual editor output",
    kind: "ab_test",
    priority: 1,
    pages: [{ domain: here.hostname, page_path: here.pathname, page_match: "exact_match" }],
    rules: [
      {
        audience_id: null,
        audience_name: "Everyone",
        behaviour: {
          name: "Everyone",
          traffic_allocation: 1,
          variations: [{ name: "Changed", weight: 1, configs }],
        },
      },
    ],
  };
  const res = await call(service.app, auth, "POST", "/api/experiences", input);
  expect(res.statusCode === 201 ? 201 : res.body).toBe(201);
}

describe("editElement: the element's config", () => {
  it("is created on the first edit, bound to this page, and updated in place after", () => {
    const one = edited([setStyle("color", "red")]);
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({
      config_customer_id: expect.stringMatching(/^ve_[0-9a-z]{12}$/),
      variation_data_type: "HTML_ELEMENT",
      variation: { style: { color: "red" } },
      properties: {
        page_path: "/products/a",
        page_match: "exact_match",
        domain: "shop.example",
        element_path: "#price",
      },
    });
    expect(one[0]!.config_id).toBe(`cfg_${one[0]!.config_customer_id}`);
    const two = edited([(v) => ({ ...v, innerHTML: "Now $9" })], one);
    expect(two).toHaveLength(1);
    expect(two[0]).toEqual({
      ...one[0],
      variation: { style: { color: "red" }, innerHTML: "Now $9" },
    });
  });

  it("is bound to every page the experience targets when asked (no page_path)", () => {
    const [c] = editElement([], "#price", here, "experience", setStyle("color", "red"));
    expect(c!.properties).toEqual({ element_path: "#price" });
    // Found again from any page, and changed in place.
    expect(elementConfigIndex([c!], "#price", elsewhere)).toBe(0);
  });

  it("is removed when every edit is taken back, and an edit that changes nothing adds nothing", () => {
    const configs = edited([setStyle("color", "red"), (v) => ({ ...v, innerHTML: "x" })]);
    const other = edited([setStyle("color", "blue")], configs, "#tax");
    expect(other).toHaveLength(2);
    const back = edited([setStyle("color", ""), (v) => ({ ...v, innerHTML: undefined })], other);
    expect(back.map((c) => c.properties?.element_path)).toEqual(["#tax"]);
    expect(edited([setStyle("color", "")])).toEqual([]);
  });

  it("leaves configs of the same path on another page, templates and other kinds alone", () => {
    const onOtherPage = editElement([], "#price", elsewhere, "page", setStyle("color", "red"));
    // A template placed at the element is a popup, not the element's change.
    const template = popupConfig(
      { html: "<p>Hi</p>", trigger: "on_entry", delay: 0, scrollPercentage: 0 },
      here,
      "page",
    );
    const popup = { ...template, properties: { ...template.properties, element_path: "#price" } };
    const text: ConfigDefinition = {
      config_customer_id: "txt",
      config_id: "cfg_txt",
      variation_data_type: "STRING",
      variation: "Now $9",
      properties: { element_path: "#price" },
    };
    const before = [...onOtherPage, popup, text];
    expect(elementConfigIndex(before, "#price", here)).toBe(-1);
    const after = edited([setStyle("color", "blue")], before);
    expect(after.slice(0, 3)).toEqual(before);
    expect(after).toHaveLength(4);
    expect(after[3]).toMatchObject({
      variation: { style: { color: "blue" } },
      properties: { page_path: here.pathname, element_path: "#price" },
    });
  });
});

describe("tidy: what an edit emptied leaves no trace", () => {
  it("drops an empty style, link, class edit, device sub-variation and customfit_meta", () => {
    expect(
      tidy({
        style: {},
        href_target: { href: undefined, target: undefined },
        cf_classes_edit_option: "add_remove_classes",
        cf_classes_add: [],
        cf_classes_remove: "",
        mobile: {},
        desktop: {},
        customfit_meta: {
          duplicate_actions: [],
          advanced_click_actions: [],
          move_action: undefined,
        },
        innerHTML: undefined,
      }),
    ).toEqual({});
  });

  it("keeps what is still set", () => {
    const v: HtmlElementVariation = {
      style: { display: HIDDEN_DISPLAY },
      href_target: { target: "_blank" },
      cf_classes_edit_option: "add_remove_classes",
      cf_classes_add: [],
      cf_classes_remove: ["old"],
      mobile: { innerHTML: "m" },
      customfit_meta: { duplicate_actions: [{ position: "below" }], swap_action: undefined },
    };
    expect(tidy(v)).toEqual({
      ...v,
      customfit_meta: { duplicate_actions: [{ position: "below" }] },
    });
  });

  it("through the panel's setters: a style or meta field cleared is gone", () => {
    const configs = edited([
      setStyle("color", "red"),
      setMeta("swap_action", { target: "#tax" }),
      setStyle("color", "  "),
    ]);
    expect(variationAt(configs)).toEqual({ customfit_meta: { swap_action: { target: "#tax" } } });
    expect(edited([setMeta("swap_action", undefined)], configs)).toEqual([]);
  });
});

describe("deviceEdit: a device-specific behaviour", () => {
  const base: HtmlElementVariation = {
    src: "/a.svg",
    mobile: { src: "/m.svg" },
    customfit_meta: { swap_action: { target: "#x" } },
  };

  it("shows the element as the device gets it", () => {
    expect(deviceView(base, "mobile")).toEqual({
      src: "/m.svg",
      customfit_meta: { swap_action: { target: "#x" } },
    });
    expect(deviceView(base, "desktop")).toEqual({
      src: "/a.svg",
      customfit_meta: { swap_action: { target: "#x" } },
    });
  });

  it("writes element fields to the device's sub-variation and customfit_meta to the shared one", () => {
    const v = deviceEdit("desktop", (x) => ({
      ...setStyle("color", "red")(x),
      customfit_meta: { ...x.customfit_meta, duplicate_actions: [{ position: "below" }] },
    }))(base);
    expect(v).toEqual({
      src: "/a.svg",
      mobile: { src: "/m.svg" },
      desktop: { style: { color: "red" } },
      customfit_meta: { swap_action: { target: "#x" }, duplicate_actions: [{ position: "below" }] },
    });
    // The mobile field changed again, then back to the shared value: the sub-variation goes.
    const m = deviceEdit("mobile", (x) => ({ ...x, src: "/m2.svg" }))(base);
    expect(m.mobile).toEqual({ src: "/m2.svg" });
    expect(deviceEdit("mobile", (x) => ({ ...x, src: "/a.svg" }))(base)).toEqual({
      src: "/a.svg",
      customfit_meta: { swap_action: { target: "#x" } },
    });
  });

  it("through editElement, one config per element with both devices", () => {
    const mobile = editElement(
      [],
      "#img",
      here,
      "page",
      deviceEdit("mobile", (x) => ({ ...x, src: "/1.svg" })),
    );
    const both = editElement(
      mobile,
      "#img",
      here,
      "page",
      deviceEdit("desktop", (x) => ({ ...x, src: "/3.svg" })),
    );
    expect(both).toHaveLength(1);
    expect(both[0]!.variation).toEqual({ mobile: { src: "/1.svg" }, desktop: { src: "/3.svg" } });
  });
});

describe("popupConfig", () => {
  const input = { html: "<p>Hi</p>", delay: 7, scrollPercentage: 40 };
  it.each([
    ["on_entry", { config_selected: "on_entry" }],
    ["timerbased", { config_selected: "timerbased", timeout: 7 }],
    ["on_scroll", { config_selected: "on_scroll", scroll_percentage: 40 }],
    ["at_exit", { config_selected: "at_exit" }],
  ] as const)("%s: only its own setting, mirrored in properties", (trigger, settings) => {
    const c = popupConfig({ ...input, trigger }, here, "page");
    const template = c.properties!.custom_template!;
    expect(template).toMatchObject({
      id: `tpl_${c.config_customer_id}`,
      parentElement: "body",
      html: "<p>Hi</p>",
    });
    expect(template.properties!.settings).toEqual(settings);
    expect((c.variation as HtmlElementVariation).customfit_meta!.custom_template).toEqual(template);
    expect(c.properties).toMatchObject({ page_path: here.pathname, page_match: "exact_match" });
    expect(popupConfig({ ...input, trigger }, here, "experience").properties).not.toHaveProperty(
      "page_path",
    );
  });
});

describe("the service accepts what the editor makes", () => {
  it("element changes of every kind, device sub-variations and popups", async () => {
    const elements = edited([
      (v) => ({ ...v, innerHTML: "<b>Now</b> $9", src: "/a.svg", srcset: "/a.svg 1x" }),
      setStyle("color", "#c80000"),
      (v) => ({ ...v, href_target: { href: "/cart", target: "_blank" } }),
      (v) => ({
        ...v,
        cf_classes_edit_option: "add_remove_classes",
        cf_classes_add: ["sale"],
        cf_classes_remove: ["old"],
      }),
      setMeta("move_action", { target: "#tax", position: "below" }),
      setMeta("edit_elem_action", { action_type: "append_html", action_txt: "<em>!</em>" }),
      setMeta("onclick_action", { action_type: "track_click", action_txt: { goal_name: "g" } }),
      setMeta("advanced_click_actions", [
        { action_type: "redirect_to_page", redirect_url: "/cart", open_in_new_tab: true },
      ]),
    ]);
    const device = editElement(
      [],
      "#img",
      here,
      "page",
      deviceEdit("mobile", (x) => ({ ...x, src: "/m.svg" })),
    );
    const popups = (["on_entry", "timerbased", "on_scroll", "at_exit"] as const).map((trigger) =>
      popupConfig(
        { html: "<p>Hi</p>", trigger, delay: 5, scrollPercentage: 50 },
        here,
        "experience",
      ),
    );
    await expectAccepted([...elements, ...device, ...popups]);
  });
});

describe("toHexColor (the color picker's value)", () => {
  it.each([
    ["#C80000", "#c80000"],
    [" #abc ", "#aabbcc"],
    ["rgb(200, 0, 0)", "#c80000"],
    ["rgba(255, 238, 0, 0.5)", "#ffee00"],
    ["rgb(300 16 1)", "#ff1001"],
    ["red", null],
    ["#abcd", null],
    ["", null],
  ])("%j → %j", (value, hex) => expect(toHexColor(value)).toBe(hex));
});

describe("editorReducer: one history per variation", () => {
  const c = (id: string): ConfigDefinition => ({
    config_customer_id: id,
    config_id: `cfg_${id}`,
    variation_data_type: "HTML_ELEMENT",
    variation: { innerHTML: id },
    properties: { element_path: `#${id}` },
  });
  const loaded = (): EditorState =>
    editorReducer(
      { histories: {}, saved: {} },
      { type: "load", variations: { a: [c("a0")], b: [] } },
    );
  const run = (state: EditorState, ...actions: EditorAction[]) =>
    actions.reduce(editorReducer, state);
  const set = (
    configs: ConfigDefinition[],
    key: string | null = null,
    variationId = "a",
  ): EditorAction => ({
    type: "edit",
    variationId,
    key,
    change: () => configs,
  });
  const present = (s: EditorState, id = "a") => s.histories[id]!.present;

  it("loads each variation clean; an edit makes only its variation dirty", () => {
    const s = loaded();
    expect(isDirty(s, "a")).toBe(false);
    const t = run(s, set([c("a1")]));
    expect(isDirty(t, "a")).toBe(true);
    expect(isDirty(t, "b")).toBe(false);
    expect(t.histories.b).toBe(s.histories.b);
    // Back to what was loaded: clean again.
    expect(isDirty(run(t, set([c("a0")])), "a")).toBe(false);
  });

  it("undoes and redoes; a new edit drops what could be redone", () => {
    const s = run(loaded(), set([c("a1")]), set([c("a2")]));
    const u = run(s, { type: "undo", variationId: "a" });
    expect(present(u)).toEqual([c("a1")]);
    expect(present(run(u, { type: "undo", variationId: "a" }))).toEqual([c("a0")]);
    // Nothing more to undo: the state is the same object.
    const bottom = run(u, { type: "undo", variationId: "a" });
    expect(run(bottom, { type: "undo", variationId: "a" })).toBe(bottom);
    expect(present(run(u, { type: "redo", variationId: "a" }))).toEqual([c("a2")]);
    const branched = run(u, set([c("a3")]));
    expect(branched.histories.a!.future).toEqual([]);
    expect(run(branched, { type: "redo", variationId: "a" })).toBe(branched);
  });

  it("typing in one field is one step: edits with the same key merge, other keys and null do not", () => {
    const typed = run(
      loaded(),
      set([c("P")], "price"),
      set([c("Pr")], "price"),
      set([c("Pri")], "price"),
    );
    expect(typed.histories.a!.past).toEqual([[c("a0")]]);
    expect(present(run(typed, { type: "undo", variationId: "a" }))).toEqual([c("a0")]);
    const mixed = run(
      loaded(),
      set([c("P")], "price"),
      set([c("P"), c("t")], "tax"),
      set([c("P"), c("tt")], "tax"),
    );
    expect(mixed.histories.a!.past).toHaveLength(2);
    const clicks = run(loaded(), set([c("x")]), set([c("y")]));
    expect(clicks.histories.a!.past).toHaveLength(2);
    // After an undo the same field starts a new step: the step undone to is not overwritten.
    const twoSteps = run(loaded(), set([c("x")]), set([c("P")], "price"), set([c("Pr")], "price"));
    const again = run(
      twoSteps,
      { type: "undo", variationId: "a" },
      set([c("Q")], "price"),
      set([c("Qu")], "price"),
    );
    expect(again.histories.a!.past).toEqual([[c("a0")], [c("x")]]);
    expect(present(again)).toEqual([c("Qu")]);
    // Saving ends the step too: the next keystroke can be undone back to the saved value.
    const saved = run(
      typed,
      { type: "saved", variationId: "a", configs: [c("Pri")] },
      set([c("Pris")], "price"),
    );
    expect(present(run(saved, { type: "undo", variationId: "a" }))).toEqual([c("Pri")]);
    expect(isDirty(saved, "a")).toBe(true);
  });

  it("ignores an edit that changes nothing, and keeps at most HISTORY_LIMIT steps", () => {
    const s = loaded();
    expect(run(s, set([c("a0")]))).toBe(s);
    let t = s;
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) t = run(t, set([c(`e${i}`)]));
    expect(t.histories.a!.past).toHaveLength(HISTORY_LIMIT);
    expect(t.histories.a!.past[0]).toEqual([c("e4")]);
  });

  it("saved marks the variation clean; reload replaces its edits and history only", () => {
    const s = run(loaded(), set([c("a1")]), set([c("b1")], null, "b"));
    const saved = run(s, { type: "saved", variationId: "a", configs: [c("a1")] });
    expect(isDirty(saved, "a")).toBe(false);
    expect(saved.histories.a!.past).toHaveLength(1);
    const reloaded = run(s, { type: "reload", variationId: "b", configs: [c("theirs")] });
    expect(reloaded.histories.b).toEqual({
      past: [],
      present: [c("theirs")],
      future: [],
      lastKey: null,
    });
    expect(isDirty(reloaded, "b")).toBe(false);
    expect(reloaded.histories.a).toBe(s.histories.a);
    // An unknown variation changes nothing.
    expect(run(s, set([c("z")], null, "zz"))).toBe(s);
  });
});

describe("withVariationConfigs: the save body", () => {
  const detailOf = (e: ReturnType<typeof demoExperiences>[number]): ExperienceDetail =>
    experienceDetail({ exclusion_group: null, ...e, created_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-01T00:00:00.000Z" });

  it("replaces one variation's configs and sends every other field, rule and variation as read", async () => {
    const detail = detailOf(demoExperiences().find((e) => e.id === "exp_price_message")!);
    const variations = detail.rules.flatMap((r) => r.behaviour.variations);
    expect(variations.length).toBeGreaterThan(1);
    const target = variations[1]!;
    const configs = edited([(v) => ({ ...v, innerHTML: "Edited" })]);
    const body = withVariationConfigs(detail, target.id!, configs);
    expect(body).toEqual({
      name: detail.name,
      kind: detail.kind,
      priority: detail.priority,
      // A PUT without the group would take the experience out of it.
      exclusion_group: detail.exclusion_group,
      pages: detail.pages,
      goals: detail.goals,
      rules: detail.rules.map((r) => ({
        ...r,
        behaviour: {
          ...r.behaviour,
          variations: r.behaviour.variations.map((v) =>
            v.id === target.id ? { ...v, configs } : v,
          ),
        },
      })),
    });
    // No status, id or timestamps: a PUT keeps the stored status.
    expect(Object.keys(body).sort()).toEqual([
      "exclusion_group",
      "goals",
      "kind",
      "name",
      "pages",
      "priority",
      "rules",
    ]);
    expect(
      body.rules.flatMap((r) => r.behaviour.variations).filter((v) => v.id !== target.id),
    ).toEqual(variations.filter((v) => v.id !== target.id));
    const res = await call(service.app, auth, "POST", "/api/experiences", {
      ...body,
      name: "Saved copy",
    });
    expect(res.statusCode === 201 ? 201 : res.body).toBe(201);
  });
});

describe("what applies on the frame's page (contract configMatchesPage, the service's rule)", () => {
  const boundNoDomain = { config_customer_id: "c", config_id: "c", variation_data_type: "HTML_ELEMENT", variation: {}, properties: { element_path: "#t", page_path: "/p" } } as unknown as ConfigDefinition;
  const on = (hostname: string, mainDomain?: string): FrameLocation => ({ hostname, pathname: "/p", search: "", ...(mainDomain ? { mainDomain } : {}) });

  it("a config bound to a page without a domain applies on the main domain, not on another host", () => {
    expect(configOnPage(boundNoDomain, on("shop.example", "shop.example"))).toBe(true);
    expect(configOnPage(boundNoDomain, on("uk.shop.example", "shop.example"))).toBe(false);
  });

  it("an experience page without a domain targets the main domain only", () => {
    const pages = [{ domain: "", page_path: "/p", page_match: "exact_match" as const }];
    expect(pageTargeted(pages, on("shop.example", "shop.example"))).toBe(true);
    expect(pageTargeted(pages, on("uk.shop.example", "shop.example"))).toBe(false);
  });
});
