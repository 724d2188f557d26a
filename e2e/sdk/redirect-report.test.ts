// A global redirection reports the page being left before it leaves (issue #16: a redirect test
// must not lose the exposure of the original page). The page records, in session storage (it
// outlives the page), each request the script sends and the moment the page starts to unload;
// the redirected page reads the record. The real service's side is e2e/redirect-exposure.test.ts.

import { describe, expect, it } from "vitest";
import type { Config, ConfigsResponse } from "@storefit/contract";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";

const h = useSdkHarness();

const redirect: Config = {
  config_customer_id: "go",
  config_id: "cfg_go",
  variation_id: "var_go",
  variation: { customfit_meta: { global_actions: { redirection: { url: "/landing" } } } },
  variation_data_type: "HTML_ELEMENT",
  properties: {},
  experience_behaviour_response: { experience_id: "exp_go", behaviour_id: "beh_go", rule_id: "rule_go" },
};
const answer = (...configs: Config[]): ConfigsResponse => ({
  configs: Object.fromEntries(configs.map((c) => [c.config_customer_id, c])),
  user_id: "u_go",
});

/** Records "send <path> <page>" for every fetch and beacon, and "leave <page>" when unloading starts. */
function recordSendsAndLeaving() {
  const note = (what: string) => sessionStorage.setItem("__order", (sessionStorage.getItem("__order") ?? "") + what + "\n");
  const page = location.pathname;
  const origFetch = window.fetch;
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    note(`send ${new URL(String(input instanceof Request ? input.url : input)).pathname} ${page}`);
    return origFetch.call(this, input, init);
  };
  const origBeacon = Navigator.prototype.sendBeacon;
  Navigator.prototype.sendBeacon = function (url: string | URL, data?: BodyInit | null) {
    note(`send ${new URL(String(url)).pathname} ${page}`);
    return origBeacon.call(this, url, data);
  };
  window.addEventListener("beforeunload", () => note(`leave ${page}`));
}

describe("a global redirection", () => {
  it("sends the summary and the page view of the page being left before the navigation starts", async () => {
    h.fake.configs((req) => (req.body.current_page_path.startsWith("/old") ? answer(redirect) : answer()));
    h.fake.page("/landing", { body: "<p>landing</p>" });
    h.fake.page("/old", { body: "<p>old</p>" });
    const o = await h.open("/start", { body: "<p>start</p>" });
    await o.context.addInitScript(recordSendsAndLeaving);
    await o.page.goto(h.fake.shopUrl("/old"), { waitUntil: "commit" });
    await o.page.waitForURL((u) => u.pathname === "/landing");
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    const order = (await o.page.evaluate(() => sessionStorage.getItem("__order") ?? "")).split("\n").filter((l) => l.endsWith(" /old"));
    const leave = order.indexOf("leave /old");
    expect(leave, order.join(" | ")).toBeGreaterThan(-1);
    expect(order.indexOf("send /v1/config/request/summary/ /old"), order.join(" | ")).toBeGreaterThan(-1);
    expect(order.indexOf("send /v1/config/request/summary/ /old"), order.join(" | ")).toBeLessThan(leave);
    expect(order.indexOf("send /v1/cfe/ /old"), order.join(" | ")).toBeGreaterThan(-1);
    expect(order.indexOf("send /v1/cfe/ /old"), order.join(" | ")).toBeLessThan(leave);

    // And both arrive: the exposure of the page left, and its view carrying it.
    const summary = await eventually(
      () => h.fake.to("/v1/config/request/summary/").find((r) => r.body.summaries.some((s: { config_id: string }) => s.config_id === "cfg_go")),
      // Sent by a page that is unloading (keepalive): on a loaded machine it can arrive seconds later.
      15_000,
      "the summary of /old",
    );
    expect(summary.body.summaries).toEqual([expect.objectContaining({ config_id: "cfg_go", experience_id: "exp_go", variation_id: "var_go", rule_id: "rule_go" })]);
    const views = await eventually(() => {
      const list = h.fake.to("/v1/cfe/").flatMap((r) => r.body.events).filter((e: { event_type: string }) => e.event_type === "PAGE");
      return list.length >= 3 ? list : undefined;
    }, 15_000, "three page views");
    const left = views.find((e: { properties: { page_path: string } }) => e.properties.page_path === "/old");
    expect(left.config_summary).toEqual([expect.objectContaining({ config_id: "cfg_go" })]);
    expect(o.errors).toEqual([]);
  });

  it("reports only the experience that redirected: the visitor never saw the page's other changes", async () => {
    const other: Config = {
      config_customer_id: "title",
      config_id: "cfg_title",
      variation_id: "var_title",
      variation: { innerHTML: "Other test" },
      variation_data_type: "HTML_ELEMENT",
      properties: { element_path: "#t" },
      experience_behaviour_response: { experience_id: "exp_title", behaviour_id: "beh_title", rule_id: "rule_title" },
    };
    h.fake.configs((req) => (req.body.current_page_path.startsWith("/old") ? answer(other, redirect) : answer()));
    h.fake.page("/landing", { body: "<p>landing</p>" });
    h.fake.page("/old", { body: "<h1 id=\"t\">old</h1>" });
    const o = await h.open("/start", { body: "<p>start</p>" });
    await o.page.goto(h.fake.shopUrl("/old"), { waitUntil: "commit" });
    await o.page.waitForURL((u) => u.pathname === "/landing");
    const summary = await eventually(
      () => h.fake.to("/v1/config/request/summary/").find((r) => r.body.summaries.some((s: { config_id: string }) => s.config_id === "cfg_go")),
      // Sent by a page that is unloading (keepalive): on a loaded machine it can arrive seconds later.
      15_000,
      "the summary of /old",
    );
    expect(summary.body.summaries.map((s: { experience_id: string }) => s.experience_id)).toEqual(["exp_go"]);
    expect(o.errors).toEqual([]);
  });
});
