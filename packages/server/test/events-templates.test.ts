// A popup's events name the experience and variation that show it (docs/api.md "Events"
// `template_experience`): GET /api/events and a visitor's timeline resolve a TEMPLATE_VIEW's or
// TEMPLATE_BUTTON_CLICK's `properties.config_id` among the account's experiences, on both backends,
// with one read of the experiences per page. Stored events are the shop's input: an odd one (no
// config id, a number, another account's config) names nothing and breaks nothing.
import { describe, expect, it, vi } from "vitest";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { ConfigDefinition, EventListResponse, StoredEventView, TrackedEvent, VisitorTimelineResponse } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import { newSecretKey } from "../src/auth/access.js";
import type { NewExperience, Store } from "../src/store/types.js";
import { BACKENDS, openBackend } from "./support/stores.js";

const NOW = new Date().toISOString();
const SHOP = "shop.example";
const OTHER_SHOP = "other.example";

const popupConfig = (configId: string): ConfigDefinition => ({
  config_customer_id: configId,
  config_id: configId,
  variation_data_type: "HTML_ELEMENT",
  variation: { customfit_meta: { custom_template: { id: `tpl_${configId}`, html: "<div>Offer</div>" } } },
  properties: { page_path: "/", page_match: "exact_match", domain: SHOP },
});

/** An experience of one rule whose variations hold these configs: [variation id, name, config ids]. */
const experience = (accountId: string, id: string, name: string, variations: [string, string, string[]][]): NewExperience => ({
  id,
  account_id: accountId,
  name,
  status: "running",
  kind: "ab_test",
  priority: 0,
  pages: [{ domain: SHOP, page_path: "/", page_match: "exact_match" }],
  rules: [
    {
      id: `${id}_rule`,
      audience_id: null,
      behaviour: {
        id: `${id}_beh`,
        name: "Behaviour",
        traffic_allocation: 1,
        variations: variations.map(([vid, vname, configs]) => ({ id: vid, name: vname, weight: 1, configs: configs.map(popupConfig) })),
      },
    },
  ],
  goals: [],
});

let n = 0;
const templateEvent = (type: "TEMPLATE_VIEW" | "TEMPLATE_BUTTON_CLICK", properties: unknown): TrackedEvent => {
  n++;
  return {
    event_type: type,
    event_customer_id: `${SHOP}|${type === "TEMPLATE_VIEW" ? "template_view" : "template_button_click"}_tpl_${n}`,
    domain: SHOP,
    insert_id: `ins_${n}`,
    event_timestamp: Date.UTC(2026, 10, 1, 12) + n,
    // Stored as the shop sent it: the hostile cases are not Properties.
    properties: properties as TrackedEvent["properties"],
  };
};

/** Two accounts, A holding the popups, B one of its own; A's owner reads with a secret key. */
async function setUp(store: Store) {
  await store.createAccount({ id: "acc_a", name: "Shop A", client_key: "ck_a", settings: { ...SETTINGS_DEFAULTS, domain: SHOP } });
  await store.createAccount({ id: "acc_b", name: "Shop B", client_key: "ck_b", settings: { ...SETTINGS_DEFAULTS, domain: OTHER_SHOP } });
  const key = newSecretKey();
  await store.createSecretKey({ id: "key_a", account_id: "acc_a", name: "test", prefix: key.prefix, created_at: NOW }, key.hash);

  await store.saveExperience(experience("acc_a", "exp_welcome", "Welcome popup", [["var_a", "Control", []], ["var_b", "Variation B", ["cfg_welcome"]]]));
  // One experience's two variations hold the same config id: the experience is known, the variation not.
  await store.saveExperience(experience("acc_a", "exp_banner", "Banner", [["var_c", "Green", ["cfg_banner"]], ["var_d", "Blue", ["cfg_banner"]]]));
  // Two experiences hold the same config id: neither is named.
  await store.saveExperience(experience("acc_a", "exp_one", "One", [["var_e", "E", ["cfg_twice"]]]));
  await store.saveExperience(experience("acc_a", "exp_two", "Two", [["var_f", "F", ["cfg_twice"]]]));
  // A popup whose experience is deleted later.
  await store.saveExperience(experience("acc_a", "exp_gone", "Gone popup", [["var_g", "G", ["cfg_gone"]]]));
  await store.saveExperience(experience("acc_b", "exp_secret", "Other shop's secret sale", [["var_s", "Secret variation", ["cfg_other"]]]));
  expect(await store.deleteExperience("acc_a", "exp_gone", () => {})).toBe(true);

  const events: [label: string, event: TrackedEvent][] = [
    ["view", templateEvent("TEMPLATE_VIEW", { config_id: "cfg_welcome", template_id: "tpl_ve_popup_x1y2" })],
    ["click", templateEvent("TEMPLATE_BUTTON_CLICK", { config_id: "cfg_welcome", template_id: "tpl_ve_popup_x1y2", button_text: "Shop now" })],
    ["one experience, two variations", templateEvent("TEMPLATE_VIEW", { config_id: "cfg_banner" })],
    ["two experiences", templateEvent("TEMPLATE_VIEW", { config_id: "cfg_twice" })],
    ["deleted", templateEvent("TEMPLATE_VIEW", { config_id: "cfg_gone" })],
    ["other account's config", templateEvent("TEMPLATE_VIEW", { config_id: "cfg_other" })],
    ["no config id", templateEvent("TEMPLATE_VIEW", { template_id: "tpl_x" })],
    ["no properties", templateEvent("TEMPLATE_VIEW", undefined)],
    ["a number", templateEvent("TEMPLATE_VIEW", { config_id: 42 })],
    ["an object", templateEvent("TEMPLATE_VIEW", { config_id: { id: "cfg_welcome" } })],
    ["a list of them", templateEvent("TEMPLATE_BUTTON_CLICK", { config_id: ["cfg_welcome"] })],
    ["empty", templateEvent("TEMPLATE_VIEW", { config_id: "" })],
    ["a prototype's name", templateEvent("TEMPLATE_VIEW", { config_id: "constructor" })],
    ["properties a list", templateEvent("TEMPLATE_VIEW", ["cfg_welcome"])],
    // Not a template event: its config id is not looked up.
    ["not a template", { ...templateEvent("TEMPLATE_VIEW", { config_id: "cfg_welcome" }), event_type: "CLICK" }],
  ];
  const [result] = await store.commitClientWrites([
    { kind: "events", accountId: "acc_a", userId: "u_shopper", user: { user_customer_id: "shopper", anonymous: true }, touch: true, events: events.map(([, e]) => e), now: NOW },
  ]);
  expect(result).toMatchObject({ accepted: events.length });
  const app = await buildApp({ store, log: false });
  const get = async <T>(url: string): Promise<T> => {
    const res = await app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key.secret}` } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const labels = new Map(events.map(([label, e]) => [e.insert_id, label]));
  const byLabel = (views: StoredEventView[]) => Object.fromEntries(views.map((v) => [labels.get(v.insert_id)!, v.template_experience]));
  return { app, get, byLabel };
}

const WELCOME_B = { experience_id: "exp_welcome", experience_name: "Welcome popup", variation_id: "var_b", variation_name: "Variation B" };
const EXPECTED = {
  view: WELCOME_B,
  click: WELCOME_B,
  "one experience, two variations": { experience_id: "exp_banner", experience_name: "Banner", variation_id: null, variation_name: null },
  "two experiences": null,
  deleted: null,
  "other account's config": null,
  "no config id": null,
  "no properties": null,
  "a number": null,
  "an object": null,
  "a list of them": null,
  empty: null,
  "a prototype's name": null,
  "properties a list": null,
  "not a template": null,
};

describe.each(BACKENDS)("popup events name their experience and variation on %s", (backend) => {
  it("GET /api/events: the experience and variation holding the config; nothing for a deleted, another account's, ambiguous or odd config id", async () => {
    const { store } = await openBackend(backend);
    const { app, get, byLabel } = await setUp(store);
    try {
      const list = await get<EventListResponse>("/api/events?limit=500");
      expect(list.total).toBe(Object.keys(EXPECTED).length);
      expect(byLabel(list.events)).toEqual(EXPECTED);
      // Nothing of the other account is in the answer.
      expect(JSON.stringify(list)).not.toMatch(/secret|exp_secret|var_s/i);
    } finally {
      await app.close();
    }
  });

  it("the visitor's timeline names them the same way", async () => {
    const { store } = await openBackend(backend);
    const { app, get, byLabel } = await setUp(store);
    try {
      const timeline = await get<VisitorTimelineResponse>("/api/visitors/u_shopper/timeline");
      const events = timeline.items.flatMap((i) => (i.kind === "event" ? [i.event] : []));
      expect(byLabel(events)).toEqual(EXPECTED);
      expect(JSON.stringify(timeline)).not.toMatch(/secret|exp_secret|var_s/i);
    } finally {
      await app.close();
    }
  });

  it("reads the experiences once per page of events, and not at all for a page without a template event", async () => {
    const { store } = await openBackend(backend);
    const { app, get } = await setUp(store);
    const reads = vi.spyOn(store, "listExperiences");
    try {
      const page = await get<EventListResponse>("/api/events?limit=500");
      expect(page.events.filter((e) => e.template_experience !== null).length).toBe(3);
      expect(reads).toHaveBeenCalledTimes(1);
      reads.mockClear();
      expect((await get<EventListResponse>("/api/events?type=CLICK")).events).toHaveLength(1);
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
      await app.close();
    }
  });
});
