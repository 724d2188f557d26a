// Analytics forwarding (spec §1, §5 "Analytics forwarding") into the real client libraries from
// npm — mixpanel-browser, @amplitude/analytics-browser, @segment/analytics-next — in Chromium.
// Each fixture page loads the library (bundled with esbuild, configured with a loopback-only API
// host), our script forwards what the visitor saw and what it tracked, and the test asserts on the
// requests the library itself sends, caught with Playwright's routing so nothing leaves the machine.

import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import type { Config } from "@storefit/contract";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";

const h = useSdkHarness();

const E2E_DIR = fileURLToPath(new URL("..", import.meta.url));

/** Bundles a library entry for a fixture page, the way a shop's build would. */
async function bundle(contents: string): Promise<string> {
  const r = await build({
    stdin: { contents, resolveDir: E2E_DIR, loader: "js", sourcefile: "vendor-entry.js" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2019",
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "error",
  });
  // Inlined in a <script> element: a literal "</script" would end it early.
  return r.outputFiles[0]!.text.replace(/<\/script/gi, "<\\/script");
}

/** The experience the visitor is shown (spec §3 experience_behaviour_response). */
const SHOWN: Config = {
  config_customer_id: "ship",
  config_id: "cfg_ship",
  variation_id: "var_banner",
  variation: { innerHTML: "Free shipping today" },
  variation_data_type: "HTML_ELEMENT",
  properties: { element_path: "#t" },
  experience_behaviour_response: {
    experience_id: "exp_ship",
    experience_name: "Free shipping test",
    behaviour_id: "beh_banner",
    behaviour_name: "Banner (UK)",
    rule_id: "rule_uk",
    audience_name: "UK visitors",
  },
};
const SEEN_PROPS = {
  experiment_id: "exp_ship",
  experiment_name: "Free_shipping_test",
  variation_id: "var_banner",
  behaviour_id: "beh_banner",
  behaviour_name: "Banner_UK",
  audience_name: "UK visitors",
};

type Hit = { url: URL; body: string };

/**
 * Opens a fixture page with `library` loaded and one integration on. Every request to a host
 * that is not ours is caught before it reaches the network: recorded, and answered with what
 * `answer` gives (or an empty 200).
 */
async function openWithLibrary(path: string, library: string, integration: string, answer: (url: URL) => string | undefined = () => undefined) {
  const hits: Hit[] = [];
  h.fake.configs({ configs: { ship: SHOWN }, user_id: "u_fwd" });
  const o = await h.open(`${path}-start`, { body: "" }, { waitUntil: "commit" });
  await routeVendors(o.context, hits, answer);
  h.fake.page(path, { body: `<p id="t">t</p>`, settings: { integrations: { [integration]: true } }, head: `<script>${library}</script>` });
  await o.page.goto(h.fake.shopUrl(path));
  await extLoaded(o.page);
  return { ...o, hits };
}

async function routeVendors(context: BrowserContext, hits: Hit[], answer: (url: URL) => string | undefined) {
  await context.route(
    (url) => !url.hostname.endsWith("localhost"),
    async (route) => {
      const url = new URL(route.request().url());
      hits.push({ url, body: route.request().postData() ?? "" });
      await route.fulfill({ status: 200, contentType: "application/json", headers: { "access-control-allow-origin": "*" }, body: answer(url) ?? "{}" });
    },
  );
}

const extLoaded = (page: Page) => page.waitForFunction(() => typeof window.storefitExt === "function");

describe("mixpanel-browser", () => {
  // mixpanel-browser batches by default and sends `data=` (base64 or JSON) to `${api_host}/track/`.
  const decode = (hits: Hit[]) =>
    hits
      .filter((x) => x.url.host === "mixpanel.test" && x.url.pathname.startsWith("/track"))
      .flatMap((x) => {
        const data = new URLSearchParams(x.body).get("data") ?? x.url.searchParams.get("data") ?? "";
        const text = /^[[{]/.test(data) ? data : Buffer.from(data, "base64").toString("utf8");
        const parsed = JSON.parse(text) as unknown;
        return (Array.isArray(parsed) ? parsed : [parsed]) as { event: string; properties: Record<string, unknown> }[];
      });

  it("receives $experiment_started for what the visitor saw and the tracked event, and sends them to its API", async () => {
    const lib = await bundle(`
      import mixpanel from "mixpanel-browser";
      mixpanel.init("mp_token", { api_host: "http://mixpanel.test", batch_flush_interval_ms: 100, track_pageview: false, autocapture: false });
      window.mixpanel = mixpanel;
    `);
    const o = await openWithLibrary("/mixpanel", lib, "mixpanel", () => '{"status":1,"error":null}');
    await o.page.evaluate(() => window.storefit!.track("Add to cart", { sku: "A1" }));
    const events = await eventually(() => {
      const all = decode(o.hits);
      return all.some((e) => e.event === "Add to cart") && all.some((e) => e.event === "$experiment_started") ? all : false;
    }, 10_000, "mixpanel's requests");
    expect(events.find((e) => e.event === "$experiment_started")!.properties).toMatchObject({
      token: "mp_token",
      "Experiment name": "Free_shipping_test",
      "Variant name": "var_banner",
      ...SEEN_PROPS,
    });
    expect(events.find((e) => e.event === "Add to cart")!.properties).toMatchObject({ token: "mp_token", sku: "A1", storefit_event_type: "TRACK", page_path: "/mixpanel" });
    expect(o.errors).toEqual([]);
  });
});

describe("@amplitude/analytics-browser", () => {
  it("receives Experiment Viewed and the tracked event, and sends them to its server URL", async () => {
    const lib = await bundle(`
      import * as amplitude from "@amplitude/analytics-browser";
      amplitude.init("amp_key", { serverUrl: "http://amplitude.test/2/httpapi", flushIntervalMillis: 100, autocapture: false, fetchRemoteConfig: false });
      window.amplitude = amplitude;
    `);
    const o = await openWithLibrary("/amplitude", lib, "amplitude", () => '{"code":200,"events_ingested":1,"payload_size_bytes":1,"server_upload_time":1}');
    await o.page.evaluate(() => window.storefit!.trackRevenue(19.5, { name: "order", currency: "GBP" }));
    type AmpEvent = { event_type: string; event_properties: Record<string, unknown> };
    const events = await eventually(() => {
      const all = o.hits
        .filter((x) => x.url.host === "amplitude.test")
        .flatMap((x) => (JSON.parse(x.body) as { api_key: string; events: AmpEvent[] }).events.map((e) => ({ ...e, api_key: JSON.parse(x.body).api_key as string })));
      return all.some((e) => e.event_type === "order") && all.some((e) => e.event_type === "Experiment Viewed") ? all : false;
    }, 10_000, "amplitude's requests");
    expect(events.find((e) => e.event_type === "Experiment Viewed")).toMatchObject({ api_key: "amp_key", event_properties: SEEN_PROPS });
    expect(events.find((e) => e.event_type === "order")!.event_properties).toMatchObject({ storefit_event_type: "REVENUE", revenue_amount: 19.5, currency: "GBP" });
    expect(o.errors).toEqual([]);
  });
});

describe("@segment/analytics-next", () => {
  it("receives Experiment Viewed and the tracked event, and sends them to its API host", async () => {
    const lib = await bundle(`
      import { AnalyticsBrowser } from "@segment/analytics-next";
      window.analytics = AnalyticsBrowser.load({ writeKey: "seg_key", cdnURL: "http://segment-cdn.test" });
    `);
    // The project settings the CDN would give: the Segment.io destination on the loopback host.
    const settings = JSON.stringify({ integrations: { "Segment.io": { apiKey: "seg_key", apiHost: "segment.test/v1", protocol: "http" } } });
    const o = await openWithLibrary("/segment", lib, "segment", (url) => (url.host === "segment-cdn.test" ? settings : undefined));
    await o.page.evaluate(() => window.storefit!.track("Add to cart", { sku: "A1" }));
    type SegEvent = { type: string; event: string; properties: Record<string, unknown>; writeKey?: string };
    const events = await eventually(() => {
      const all = o.hits.filter((x) => x.url.host === "segment.test" && x.url.pathname === "/v1/t").map((x) => JSON.parse(x.body) as SegEvent);
      return all.some((e) => e.event === "Add to cart") && all.some((e) => e.event === "Experiment Viewed") ? all : false;
    }, 10_000, "segment's requests");
    expect(o.hits.some((x) => x.url.href === "http://segment-cdn.test/v1/projects/seg_key/settings")).toBe(true);
    expect(events.find((e) => e.event === "Experiment Viewed")).toMatchObject({ type: "track", writeKey: "seg_key", properties: SEEN_PROPS });
    expect(events.find((e) => e.event === "Add to cart")!.properties).toMatchObject({ sku: "A1", storefit_event_type: "TRACK" });
    expect(o.errors).toEqual([]);
  });
});
