// The experience editor's model without a browser: stored experiences open in the form and save
// back unchanged, everything the form produces is accepted by the real service (its JSON Schemas
// and checks, on SQLite), the validation messages sit at the right inputs, and preview links
// carry what the script reads.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  ConfigDefinition,
  ExperienceDetail,
  ExperienceInput,
  HtmlElementVariation,
} from "@storefit/contract";
import { demoExperiences } from "../../server/src/seed/demo.js";
import { call, makeApp, signIn } from "../../server/test/helpers.js";
import type { Auth, TestApp } from "../../server/test/helpers.js";
import { parseUrlParams } from "../../sdk/src/core/params.js";
import {
  configFromForm,
  configToForm,
  duplicateInput,
  emptyConfig,
  emptyExperience,
  emptyGoal,
  experienceFromForm,
  experienceToForm,
  linkTargetOptions,
  sameMeaning,
  validateExperience,
} from "../src/pages/experience-editor/model.js";
import type { ConfigForm, ExperienceForm } from "../src/pages/experience-editor/model.js";
import {
  defaultPreviewPage,
  matchTargets,
  previewUrl,
} from "../src/pages/experience-editor/preview.js";
import { canonicalJson, sameEditedFields } from "../src/api/experiences.js";

let service: TestApp;
let auth: Auth;
beforeAll(async () => {
  service = await makeApp();
  auth = await signIn(service.app);
});
afterAll(async () => {
  await service?.close();
});

/** POSTs the input as a new experience: the service answers 201 only for a valid shape. */
async function expectAccepted(input: unknown) {
  const res = await call(service.app, auth, "POST", "/api/experiences", input);
  expect(res.statusCode === 201 ? 201 : res.body).toBe(201);
}

const detailOf = (e: ReturnType<typeof demoExperiences>[number]): ExperienceDetail => ({
  id: e.id,
  name: e.name,
  status: e.status,
  kind: e.kind,
  priority: e.priority,
  exclusion_group: e.exclusion_group ?? null,
  pages: e.pages,
  rules: e.rules,
  goals: e.goals,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
});

const inputOf = (d: ExperienceDetail): ExperienceInput => ({
  name: d.name,
  kind: d.kind,
  priority: d.priority,
  exclusion_group: d.exclusion_group,
  pages: d.pages,
  rules: d.rules,
  goals: d.goals,
});

function saved(form: ExperienceForm): ExperienceInput {
  const result = experienceFromForm(form);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.value;
}

/** A filled-in new experience: one page, the default two variations. */
function validNew(): ExperienceForm {
  const f = emptyExperience();
  f.name = "Title test";
  f.pages = [{ domain: "shop.example", page_path: "/products/a", page_match: "exact_match" }];
  return f;
}

const withConfig = (c: ConfigForm): ExperienceForm => {
  const f = validNew();
  f.rules[0]!.behaviour.variations[1]!.configs = [c];
  return f;
};

describe("stored experiences in the form", () => {
  it.each(demoExperiences().map((e) => [e.name, e] as const))(
    "%s opens in the form and saves back unchanged",
    async (_name, e) => {
      const detail = detailOf(e);
      const form = experienceToForm(detail);
      for (const r of form.rules)
        for (const v of r.behaviour.variations)
          for (const c of v.configs) expect(c.mode).toBe("form");
      const input = saved(form);
      // The popup's empty js_script and visibility_selected "" are left out: the same to the script.
      expect(sameMeaning(input, inputOf(detail))).toBe(true);
      expect(input.rules.map((r) => r.id)).toEqual(detail.rules.map((r) => r.id));
      expect(input.rules.flatMap((r) => r.behaviour.variations.map((v) => v.id))).toEqual(
        detail.rules.flatMap((r) => r.behaviour.variations.map((v) => v.id)),
      );
      await expectAccepted(input);
    },
  );

  it("saves an experience of plain element changes back exactly", () => {
    const detail = detailOf(demoExperiences()[0]!);
    expect(saved(experienceToForm(detail))).toEqual(inputOf(detail));
  });

  it("keeps the exact stored traffic and weights when another field is edited; uses the typed value once changed", () => {
    const base = detailOf(demoExperiences()[0]!);
    const rule = base.rules[0]!;
    const third = 1 / 3;
    const detail: ExperienceDetail = {
      ...base,
      rules: [
        {
          ...rule,
          behaviour: {
            ...rule.behaviour,
            traffic_allocation: third,
            variations: rule.behaviour.variations.map((v, i) => ({ ...v, weight: i === 0 ? third : 0.07 })),
          },
        },
      ],
    };
    const form = experienceToForm(detail);
    expect(form.rules[0]!.behaviour.traffic).toBe("33.333");
    form.name = "Renamed";
    const input = saved(form);
    expect(input.name).toBe("Renamed");
    expect(input.rules[0]!.behaviour.traffic_allocation).toBe(third);
    expect(input.rules[0]!.behaviour.variations.map((v) => v.weight)).toEqual([third, 0.07]);
    // 0.07 * 100 / 100 is 0.07000000000000001: kept as stored too.
    const seven = experienceToForm({ ...detail, rules: [{ ...detail.rules[0]!, behaviour: { ...detail.rules[0]!.behaviour, traffic_allocation: 0.07 } }] });
    expect(saved(seven).rules[0]!.behaviour.traffic_allocation).toBe(0.07);
    // The operator's own value once they change the field (even to the shown text and back).
    form.rules[0]!.behaviour.traffic = "50";
    expect(saved(form).rules[0]!.behaviour.traffic_allocation).toBe(0.5);
    form.rules[0]!.behaviour.traffic = "33.333";
    expect(saved(form).rules[0]!.behaviour.traffic_allocation).toBe(third);
    form.rules[0]!.behaviour.traffic = "33.3";
    expect(saved(form).rules[0]!.behaviour.traffic_allocation).toBe(0.333);
  });

  it("takes a version that differs only in status or key order as the same edit base, not one with other values", () => {
    const detail = detailOf(demoExperiences()[0]!);
    const reordered: ExperienceDetail = JSON.parse(canonicalJson({ ...detail, status: "paused", updated_at: "2030-01-01T00:00:00.000Z" }));
    expect(JSON.stringify(reordered.rules)).not.toBe(JSON.stringify(detail.rules));
    expect(sameEditedFields(detail, reordered)).toBe(true);
    expect(sameEditedFields(detail, { ...detail, name: "Other" })).toBe(false);
    const rule = detail.rules[0]!;
    expect(sameEditedFields(detail, { ...detail, rules: [{ ...rule, behaviour: { ...rule.behaviour, traffic_allocation: 0.5 } }] })).toBe(false);
  });

  it("tells a change of meaning from a change of spelling", () => {
    expect(sameMeaning({ a: { cf_retain_value: false, style: {} } }, { a: {} })).toBe(true);
    expect(sameMeaning({ cf_classes_add: "a b" }, { cf_classes_add: ["a", "b"] })).toBe(true);
    expect(sameMeaning({ innerHTML: "" }, {})).toBe(false);
    expect(sameMeaning({ retain_params: false }, {})).toBe(false);
    expect(sameMeaning({ src: "/a" }, { src: "/b" })).toBe(false);
  });

  it("shows every field a config can hold in the form, and saves it back", async () => {
    const config: ConfigDefinition = {
      config_customer_id: "hero",
      config_id: "cfg_hero",
      variation_data_type: "HTML_ELEMENT",
      properties: {
        page_path: "^/products/",
        page_match: "regex",
        element_path: "#hero",
        element_hint: "media",
        domain: "shop.example",
      },
      variation: {
        innerHTML: "<b>New</b> title",
        value: "x",
        src: "/a.png",
        srcset: "/a.png 1x, /a@2x.png 2x",
        style: { color: "#ff0000", "font-weight": "700" },
        href_target: { href: "/sale", target: "_blank" },
        cf_retain_value: true,
        cf_defer_apply: true,
        cf_delay_apply_time: 250,
        cf_evt_load_time: true,
        cf_perform_click_action: true,
        cf_classes_edit_option: "add_remove_classes",
        cf_classes_add: ["a", "b"],
        cf_classes_remove: ["c"],
        mobile: {
          src: "/m.png",
          cf_classes_edit_option: "overwrite_classes",
          cf_classes_overwrite: ["m"],
        },
        desktop: { innerHTML: "Desk" },
        customfit_meta: {
          move_action: { target: "#x", first_element: "#y", position: "below", order: 2 },
          swap_action: { target: "#z" },
          edit_elem_action: { action_type: "insert_after_html", action_txt: "<hr>" },
          advanced_click_actions: [
            {
              action_type: "redirect_to_page",
              redirect_url: "/cart",
              retain_params: false,
              open_in_new_tab: true,
            },
            { action_type: "hide_element", target: ".banner" },
          ],
          duplicate_actions: [{ position: "above", cloned_elem_id: "copy" }, { position: "below" }],
          onclick_action: {
            action_type: "track_click_and_execute_javascript",
            action_txt: { goal_name: "hero_click", js_code: "console.log(1)" },
          },
          onload_action: { action_type: "execute_javascript", action_txt: { js_code: "void 0" } },
          global_actions: {
            css: "body{color:red}",
            query_params: [
              { key: "ref", value: "hero", operation: "add" },
              { key: "old", operation: "remove" },
            ],
            js: { script: "window.x=1", execution_type: "document_load" },
            redirection: { url: "https://shop.example/new", retain_params: false },
          },
          custom_template: {
            id: "tpl",
            parentElement: "body",
            nextSibling: "#footer",
            html: "<div>Hi</div>",
            properties: {
              template_properties: { root_style: "position:fixed", js_script: "1" },
              settings: {
                config_selected: "on_scroll",
                scroll_percentage: 50,
                visibility_selected: "mobile_only",
                close_settings: { close_config_selected: "duration", expiry: 3600 },
              },
            },
          },
        },
      },
    };
    const form = configToForm(config);
    expect(form.mode).toBe("form");
    expect(form.element.innerHTMLKind).toBe("html");
    expect(form.meta.template.trigger).toBe("on_scroll");
    const back = configFromForm(form);
    expect(back).toEqual({ ok: true, value: config });
    await expectAccepted(saved(withConfig(form)));
  });

  it.each<[string, ConfigDefinition["variation_data_type"], unknown]>([
    ["number", "NUMBER", 12.5],
    ["text", "STRING", "Hello"],
    ["rich text", "RICHTEXT", "<p>Hi <em>there</em></p>"],
    ["color", "COLOR", "rgb(10, 20, 30)"],
    ["boolean", "BOOLEAN", true],
    ["text list", "LIST", ["a", "b c"]],
    ["number list", "LIST", [1, 2.5]],
    ["JSON", "JSON", { a: [1, { b: null }] }],
  ])("edits a %s value in the form", async (_what, type, variation) => {
    const config = {
      config_customer_id: "k",
      config_id: "k",
      variation_data_type: type,
      variation,
    } as ConfigDefinition;
    const form = configToForm(config);
    expect(form.mode).toBe("form");
    expect(configFromForm(form)).toEqual({ ok: true, value: config });
    await expectAccepted(saved(withConfig(form)));
  });

  it("opens a config with fields the form cannot show as JSON, and saves it unchanged", () => {
    const config = {
      config_customer_id: "k",
      config_id: "k",
      version: 3,
      variation_data_type: "HTML_ELEMENT",
      variation: { innerHTML: "x", customfit_meta: { experience: { any: "thing" } } },
      template_info: { a: 1 },
    } as ConfigDefinition;
    const form = configToForm(config);
    expect(form.mode).toBe("json");
    expect(configFromForm(form)).toEqual({ ok: true, value: config });
  });

  it("offers every link target, and keeps a stored frame name as a choice of its own", () => {
    const values = (current: string) => linkTargetOptions(current).map((o) => o.value);
    for (const target of ["_self", "_blank", "_parent", "_top"]) {
      expect(values("")).toContain(target);
      const c = emptyConfig();
      c.element_path = "a.cta";
      c.element.href = "/sale";
      c.element.target = target;
      const back = configFromForm(c);
      expect(back.ok && back.value.variation).toEqual({ href_target: { href: "/sale", target } });
      // The stored value opens as one of the choices, so the select shows it.
      const opened = configToForm(back.ok ? back.value : (null as never)).element.target;
      expect(values(opened)).toContain(opened);
    }
    expect(values("_top")).toEqual(values(""));
    expect(values("promo-frame")).toEqual([...values(""), "promo-frame"]);
  });

  it("saves no value for a query parameter that is removed, whatever was typed before", () => {
    const c = emptyConfig();
    c.element_path = "body";
    c.meta.queryParams = [
      { key: "ref", value: "spring", operation: "remove" },
      { key: "utm_source", value: "mail", operation: "add" },
    ];
    const back = configFromForm(c);
    const meta = back.ok ? (back.value.variation as HtmlElementVariation).customfit_meta : undefined;
    expect(meta?.global_actions?.query_params).toEqual([
      { key: "ref", operation: "remove" },
      { key: "utm_source", value: "mail", operation: "add" },
    ]);
  });

  it("writes plain text escaped, so the shop shows it as typed", () => {
    const c = emptyConfig();
    c.element_path = "h1.product-title";
    c.element.innerHTML = "Fish & <chips>";
    const back = configFromForm(c);
    expect(back.ok && back.value.variation).toEqual({ innerHTML: "Fish &amp; &lt;chips&gt;" });
    expect(configToForm(back.ok ? back.value : (null as never)).element).toMatchObject({
      innerHTMLKind: "text",
      innerHTML: "Fish & <chips>",
    });
  });
});

describe("validation before saving", () => {
  const problemsOf = (mutate: (f: ExperienceForm) => void) => {
    const f = validNew();
    mutate(f);
    return validateExperience(f);
  };

  it("accepts a filled-in new experience, and the service's schema accepts what it saves", async () => {
    expect(problemsOf(() => {})).toEqual([]);
    await expectAccepted(saved(validNew()));
  });

  it.each<[string, (f: ExperienceForm) => void, string, RegExp]>([
    ["a missing name", (f) => (f.name = " "), "name", /name is required/],
    ["a fractional priority", (f) => (f.priority = "1.5"), "priority", /whole number/],
    ["an empty page", (f) => (f.pages[0]!.page_path = ""), "pages.0.page_path", /page is required/],
    [
      "a bad regex page",
      (f) => Object.assign(f.pages[0]!, { page_match: "regex", page_path: "(" }),
      "pages.0.page_path",
      /not a valid regular expression/,
    ],
    [
      "traffic over 100 %",
      (f) => (f.rules[0]!.behaviour.traffic = "150"),
      "rules.0.behaviour.traffic",
      /at most 100/,
    ],
    [
      "a negative weight",
      (f) => (f.rules[0]!.behaviour.variations[1]!.weight = "-1"),
      "rules.0.behaviour.variations.1.weight",
      /at least 0/,
    ],
    [
      "no variation",
      (f) => (f.rules[0]!.behaviour.variations = []),
      "rules.0.behaviour.variations",
      /at least one variation/,
    ],
    [
      "a page-view goal without its page",
      (f) => (f.goals = [{ ...emptyGoal(), name: "Checkout", kind: "page_view" }]),
      "goals.0.page_path",
      /goal page is required/,
    ],
    [
      "a zero revenue cap",
      (f) => (f.goals = [{ ...emptyGoal(), name: "Rev", kind: "revenue", revenue_cap: "0" }]),
      "goals.0.revenue_cap",
      /more than 0/,
    ],
  ])("refuses %s, at its input", (_what, mutate, path, message) => {
    const problems = problemsOf(mutate);
    expect(problems).toContainEqual({ path, message: expect.stringMatching(message) });
  });

  const at = "rules.0.behaviour.variations.1.configs.0.";
  it.each<[string, (c: ConfigForm) => void, string, RegExp]>([
    [
      "element changes without an element",
      (c) => (c.element.innerHTML = "x"),
      "element_path",
      /which element/,
    ],
    [
      "a number that is not one",
      (c) => Object.assign(c, { variation_data_type: "NUMBER", scalar: "ten" }),
      "scalar",
      /Enter a number/,
    ],
    [
      "broken JSON",
      (c) => Object.assign(c, { variation_data_type: "JSON", scalar: "{" }),
      "scalar",
      /not valid JSON/,
    ],
    [
      "a number list with text",
      (c) => Object.assign(c, { variation_data_type: "LIST", listKind: "number", scalar: "1\nx" }),
      "scalar",
      /must be a number/,
    ],
    [
      "a style without a property",
      (c) =>
        Object.assign(c, {
          element_path: "#a",
          element: { ...c.element, styles: [{ property: "", value: "red" }] },
        }),
      "element.styles.0.property",
      /property name/,
    ],
    [
      "a click popup without elements",
      (c) => Object.assign(c.meta.template, { enabled: true, id: "t", trigger: "on_click" }),
      "meta.template.elements",
      /elements whose click/,
    ],
    [
      "a template without an id",
      (c) => Object.assign(c.meta.template, { enabled: true, id: "" }),
      "meta.template.id",
      /template id is required/,
    ],
    [
      "a redirect click without an address",
      (c) =>
        Object.assign(c, {
          element_path: "#a",
          meta: {
            ...c.meta,
            clickActions: [
              {
                action_type: "redirect_to_page",
                target: "",
                redirect_url: "",
                retain_params: true,
                open_in_new_tab: false,
              },
            ],
          },
        }),
      "meta.clickActions.0.redirect_url",
      /address to go to is required/,
    ],
    [
      "a query parameter without a name",
      (c) => (c.meta.queryParams = [{ key: "", value: "", operation: "add" }]),
      "meta.queryParams.0.key",
      /parameter name is required/,
    ],
    [
      "a JSON config that does not parse",
      (c) => Object.assign(c, { mode: "json", json: "{ nope" }),
      "json",
      /not valid JSON/,
    ],
  ])("refuses a config with %s, at its input", (_what, mutate, path, message) => {
    const c = emptyConfig();
    mutate(c);
    expect(validateExperience(withConfig(c))).toContainEqual({
      path: at + path,
      message: expect.stringMatching(message),
    });
  });

  it("refuses the same config key twice in a variation", () => {
    const a = emptyConfig();
    const b = { ...emptyConfig(), config_customer_id: a.config_customer_id };
    const f = validNew();
    f.rules[0]!.behaviour.variations[0]!.configs = [a, b];
    expect(validateExperience(f)).toContainEqual({
      path: "rules.0.behaviour.variations.0.configs.1.config_customer_id",
      message: expect.stringMatching(/used twice/),
    });
  });
});

describe("preview links and the URL tester", () => {
  it("adds what the storefront script reads to force a variation in preview", () => {
    const url = previewUrl(
      "http://littlesprouts.localhost:4000/products/a?color=red#top",
      "exp_1",
      "var_b",
    );
    expect(url).not.toBeNull();
    const parsed = parseUrlParams(new URL(url!).search);
    expect(parsed.preview).toBe(true);
    expect(parsed.desired).toEqual(["exp_1:var_b"]);
    expect(new URL(url!).searchParams.get("color")).toBe("red");
    expect(previewUrl("not a url", "e", "v")).toBeNull();
    expect(previewUrl("javascript:alert(1)", "e", "v")).toBeNull();
  });

  it("starts the preview on the first exact page, else on the domain's home page", () => {
    expect(
      defaultPreviewPage(
        [
          { domain: "", page_path: "/products/", page_match: "contains" },
          { domain: "b.example", page_path: "/products/x", page_match: "exact_match" },
        ],
        "a.example",
      ),
    ).toBe("https://b.example/products/x");
    expect(
      defaultPreviewPage(
        [{ domain: "", page_path: "/products/", page_match: "contains" }],
        "a.example",
      ),
    ).toBe("https://a.example/");
    expect(defaultPreviewPage([], undefined)).toBe("");
    // A contains target names no page: the first exact page a config is bound to does.
    expect(
      defaultPreviewPage(
        [{ domain: "littlesprouts.localhost", page_path: "/products/", page_match: "contains" }],
        undefined,
        [
          { element_path: "#x" } as never,
          {
            page_path: "/products/a",
            page_match: "exact_match",
            domain: "littlesprouts.localhost",
          },
        ],
      ),
    ).toBe("http://littlesprouts.localhost/products/a");
  });

  it("tells which page targets a URL matches, by the three match kinds", () => {
    const pages = [
      { domain: "", page_path: "/products/a", page_match: "exact_match" as const },
      { domain: "shop.example", page_path: "sunscreen", page_match: "contains" as const },
      { domain: "other.example", page_path: "^/products/[^/]+$", page_match: "regex" as const },
    ];
    expect(
      matchTargets(pages, "https://shop.example/products/a/?utm_source=x", "shop.example"),
    ).toEqual({ ok: true, matches: [true, false, false] });
    expect(
      matchTargets(pages, "https://shop.example/products/kids-sunscreen", "shop.example"),
    ).toEqual({ ok: true, matches: [false, true, false] });
    expect(matchTargets(pages, "https://other.example/products/b", "shop.example")).toEqual({
      ok: true,
      matches: [false, false, true],
    });
    expect(matchTargets(pages, "/products/a", "shop.example")).toMatchObject({ ok: false });
  });
});

describe("duplicate", () => {
  it("copies an experience with a new name and no ids, so the service assigns fresh ones", async () => {
    const detail = detailOf(demoExperiences()[0]!);
    const copy = duplicateInput(detail);
    expect(copy.name).toBe(`Copy of ${detail.name}`);
    expect(copy.rules[0]).not.toHaveProperty("id");
    expect(copy.rules[0]!.behaviour).not.toHaveProperty("id");
    expect(copy.rules[0]!.behaviour.variations.map((v) => "id" in v)).toEqual([false, false]);
    expect(copy.goals?.every((g) => !("id" in g))).toBe(true);
    expect(copy.rules[0]!.behaviour.variations[1]!.configs).toEqual(
      detail.rules[0]!.behaviour.variations[1]!.configs,
    );
    await expectAccepted(copy);
  });
});
