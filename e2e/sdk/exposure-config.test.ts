// Exposure-only configs (issue #16, docs/embedding.md): a visitor assigned to a variation that
// changes nothing on the page (a plain control) gets one config for the experience with no
// variation and no element. The script applies nothing for it, never counts it as applied, sends
// its config summary once per page view with the assignment's ids, and getValue answers the default.

import { describe, expect, it } from "vitest";
import type { Config, ConfigsResponse } from "@storefit/contract";
import { EXPOSURE_CONFIG_PREFIX } from "@storefit/contract";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";

const h = useSdkHarness();

const BODY = `<h1 id="title">Soap</h1><span id="price">$10.00</span>`;

/** The shape the service answers (packages/contract constants.ts EXPOSURE_CONFIG_PREFIX). */
const exposure = (experienceId: string): Config => ({
  config_customer_id: EXPOSURE_CONFIG_PREFIX + experienceId,
  config_id: EXPOSURE_CONFIG_PREFIX + experienceId,
  version: 1,
  config_created_at: 1_700_000_000_000,
  variation_id: `var_${experienceId}_control`,
  variation: null,
  variation_data_type: "JSON",
  properties: { system_created: true },
  experience_behaviour_response: { experience_id: experienceId, behaviour_id: `beh_${experienceId}`, rule_id: `rule_${experienceId}`, audience_name: "Everyone", priority: 0 },
});

/** A config of another experience that does change the page, to compare with. */
const priceConfig: Config = {
  config_customer_id: "price",
  config_id: "cfg_price",
  variation_id: "var_price",
  variation: { innerHTML: "$8.00" },
  variation_data_type: "HTML_ELEMENT",
  properties: { element_path: "#price" },
  experience_behaviour_response: { experience_id: "exp_price", behaviour_id: "beh_price", rule_id: "rule_price" },
};

const answer = (...configs: Config[]): ConfigsResponse => ({
  configs: Object.fromEntries(configs.map((c) => [c.config_customer_id, c])),
  user_id: "u_exposed",
});

const summaries = () => h.fake.to("/v1/config/request/summary/");

describe("exposure-only configs", () => {
  it("apply nothing, are not counted as applied, send one summary per page view with the assignment's ids, and reveal the page", async () => {
    h.fake.configs(answer(exposure("exp_ab"), priceConfig));
    // The debug build: any message the script logs would show in the console.
    const o = await h.open("/products/soap", { body: BODY, debug: true });
    await expect.poll(() => o.page.locator("#price").innerText()).toBe("$8.00");
    expect(await o.visible()).toBe(true);

    const applied = (await o.events()).find((e) => e.type === "storefit:applied")!;
    expect(applied.detail).toEqual(["cfg_price"]);
    const ready = (await o.events()).find((e) => e.type === "storefit:ready")!;
    expect(ready.detail).toMatchObject({ state: "received", timed_out: false, applied: ["cfg_price"] });

    const sent = await eventually(() => summaries()[0], 5000, "the config summaries");
    const byConfig = Object.fromEntries(sent.body.summaries.map((s: { config_id: string }) => [s.config_id, s]));
    expect(byConfig["cf_exposure_exp_ab"]).toMatchObject({
      config_id: "cf_exposure_exp_ab",
      version: 1,
      variation_id: "var_exp_ab_control",
      experience_id: "exp_ab",
      behaviour_id: "beh_exp_ab",
      rule_id: "rule_exp_ab",
      user_id: "u_exposed",
      is_template_config: false,
    });
    expect(byConfig["cfg_price"]).toMatchObject({ experience_id: "exp_price" });
    // The PAGE event carries the same summaries (results and live views hang on it).
    const pageView = await eventually(
      () => h.fake.to("/v1/cfe/").flatMap((r) => r.body.events).find((e: { event_type: string }) => e.event_type === "PAGE"),
      5000,
      "the PAGE event",
    );
    expect(pageView.config_summary.map((s: { config_id: string }) => s.config_id).sort()).toEqual(["cf_exposure_exp_ab", "cfg_price"]);

    // getValue for it is always the default: it has no value.
    expect(
      await o.page.evaluate(() => [
        window.storefit!.getValue("cf_exposure_exp_ab", { fallback: true }),
        window.storefit!.getValue("cf_exposure_exp_ab", "text"),
        window.storefit!.getValue("cf_exposure_exp_ab", undefined) ?? "undefined",
      ]),
    ).toEqual([{ fallback: true }, "text", "undefined"]);

    // Nothing changed on the page but the price, and no element of ours is waiting or hidden.
    expect(await o.page.locator("#title").innerText()).toBe("Soap");
    expect(await o.page.locator("[data-storefit]").count()).toBe(1);
    expect(o.errors).toEqual([]);
    expect(o.logs.filter((l) => l.includes("[storefit]"))).toEqual([]);

    // Once per page view: a reload is a second view and a second summary, never more.
    await o.page.reload();
    await eventually(() => summaries().length >= 2, 5000, "the second view's summary");
    await o.page.goto("about:blank");
    await h.fake.quiet(300, 3000);
    const exposures = summaries().flatMap((r) => r.body.summaries).filter((s: { config_id: string }) => s.config_id === "cf_exposure_exp_ab");
    expect(exposures).toHaveLength(2);
  });

  it("alone (a plain control and nothing else), the page is revealed, nothing is applied, and the summary is sent", async () => {
    h.fake.configs(answer(exposure("exp_solo")));
    const o = await h.open("/products/solo", { body: BODY });
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    const sent = await eventually(() => summaries()[0], 5000, "the summary");
    expect(sent.body.summaries).toEqual([expect.objectContaining({ config_id: "cf_exposure_exp_solo", experience_id: "exp_solo", variation_id: "var_exp_solo_control" })]);
    expect((await o.events()).find((e) => e.type === "storefit:applied")!.detail).toEqual([]);
    expect(await o.page.locator("[data-storefit]").count()).toBe(0);
    expect(o.errors).toEqual([]);
  });
});

describe("a config bound to a page (contract configMatchesPage, the service's rule)", () => {
  const bound = (domain?: string): Config => ({
    ...priceConfig,
    properties: { element_path: "#price", page_path: "/products/soap", ...(domain !== undefined ? { domain } : {}) },
  });
  const priceOn = async (host: string | undefined, config: Config) => {
    h.fake.configs(answer(config));
    // The other host is one of the shop's (a subdomain in its settings), so the script runs there.
    const o = await h.open("/products/soap", { body: BODY, settings: { subdomains: ["uk.shop.localhost"] } }, host ? { host } : {});
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    // Applied or not, storefit:ready says so once the answer is handled.
    await expect.poll(async () => (await o.events()).some((e) => e.type === "storefit:ready")).toBe(true);
    return o.page.locator("#price").innerText();
  };

  it("without a domain applies on the shop's main domain", async () => {
    expect(await priceOn(undefined, bound())).toBe("$8.00");
  });

  it("without a domain does not apply on another of the shop's hosts (as the service decides)", async () => {
    expect(await priceOn("uk.shop.localhost", bound())).toBe("$10.00");
  });

  it("with that other host as its domain applies there", async () => {
    expect(await priceOn("uk.shop.localhost", bound("uk.shop.localhost"))).toBe("$8.00");
  });
});
