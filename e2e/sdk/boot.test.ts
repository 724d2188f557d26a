// The start of the script in Chromium (spec §2, §4, §6, §8, product.md §2): initialization stops,
// prefixed URL parameters, preview, the visitor, the page API, and robustness against broken
// storage, cookies and history. Assertions are on the requests the page sends.

import { describe, expect, it } from "vitest";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";

const h = useSdkHarness();
const BODY = `<p id="x">hello</p>`;
const settle = () => new Promise((r) => setTimeout(r, 400));

describe("initialization stops send nothing and leave the page visible (spec §8)", () => {
  // [name, path, settings, code, the debug build's message (null: silent), user agent]
  const cases: [string, string, Record<string, unknown>, string, string | null, string?][] = [
    ["subscription expired", "/a", { subscription_expired: true }, "CFINIT001", "Subscription has expired"],
    ["SDK powered off", "/b", { sdk_powered_off: true }, "CFINIT002", "SDK is powered off"],
    ["a bot (silently)", "/c", {}, "CFINIT003", null, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"],
    ["headless Chrome's own user agent", "/c2", {}, "CFINIT003", null, "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36"],
    ["a domain that is not configured", "/d", { domain: "elsewhere.example" }, "CFINIT005", "Domain is not configured"],
    ["missing client key", "/e", { client_key: "" }, "CFINIT006", "the client key is missing"],
    ["edit mode", "/f?utm_customfit_edit=1", {}, "CFINIT008", "Edit mode"],
    ["outbound-only account without a gate marker", "/g", { outbound_only: true }, "CFINIT009", "Outbound-only account"],
    ["disabled account", "/h", { account_enabled: false }, "CFINIT010", "Account is disabled"],
    ["skip flag", "/i", { skip: true }, "CFINIT011", "Skip flag"],
  ];
  for (const [name, path, settings, code, message, userAgent] of cases) {
    it(name, async () => {
      const o = await h.open(path, { body: BODY, settings, debug: true }, userAgent ? { userAgent } : {});
      await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
      const ours = o.logs.filter((l) => l.includes("storefit"));
      if (message) expect(ours).toEqual([expect.stringContaining(`[storefit] ${code}: `)]);
      if (message) expect(ours[0]).toContain(message);
      else expect(ours).toEqual([]);
      expect(await o.visible()).toBe(true);
      const error = (await o.events()).find((e) => e.type === "storefit:error");
      expect(error?.detail).toMatchObject({ code });
      await settle();
      expect(h.fake.requests).toEqual([]);
      expect(o.errors).toEqual([]);
    });
  }

  it("the shipped build logs the code alone", async () => {
    const o = await h.open("/shipped", { body: BODY, settings: { skip: true } });
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    expect(o.logs.filter((l) => l.includes("storefit"))).toEqual(["debug: storefit CFINIT011"]);
  });

  it("a second copy of the script leaves the first in charge (multiple initialization)", async () => {
    const o = await h.open("/twice", { body: BODY, after: `<script src="/sdk/storefit.js"></script>` });
    await eventually(() => h.fake.to("/v1/cfe/")[0], 5000, "the first copy's PAGE event");
    await settle();
    expect(h.fake.to("/v1/users/configs/")).toHaveLength(1);
    expect((await o.events()).filter((e) => e.type === "storefit:error").map((e) => e.detail)).toEqual([{ code: "CFINIT007" }]);
    expect(await o.visible()).toBe(true);
  });

  it("an outbound-only account runs with the long-URL parameter, and then on later pages for 7 days", async () => {
    const first = await h.open("/out?cf_long_url=abc", { body: BODY, settings: { outbound_only: true } });
    await eventually(() => h.fake.to("/v1/users/configs/")[0], 5000, "the config call");
    await first.page.goto(h.fake.shopUrl("/out"));
    await eventually(() => h.fake.to("/v1/users/configs/")[1], 5000, "the second config call, from the stored marker");
  });
});

describe("URL parameters (spec §2)", () => {
  it("prefixed parameters set user data, vanish from the address bar without a reload, and reach the requests", async () => {
    const o = await h.open("/p?keep=1&cfup_plan=gold&cfupp_score=9&cfuhp_company=Acme&cfusp_cart=3&cfut=a,b&cfupt=vip&cfust=promo&cfup_user_customer_id=cust-7", { body: BODY });
    const call = await eventually(() => h.fake.to("/v1/users/configs/")[0], 5000, "the config call");
    expect(new URL(o.page.url()).search).toBe("?keep=1");
    expect(await o.page.evaluate(() => performance.getEntriesByType("navigation").length)).toBe(1);
    // The call is made after the parameters were taken out; their values travel in the user.
    expect(call.body.current_page_path).toBe("/p?keep=1");
    expect(call.body.user).toMatchObject({
      user_customer_id: "cust-7",
      sdk_generated_user_customer_id: false,
      tags: ["a", "b"],
      properties: { plan: "gold" },
      private_fields: { properties: { score: "9" }, tags: ["vip"] },
      session_fields: { properties: { cart: "3" }, tags: ["promo"] },
      hs_fields: { properties: { company: "Acme" } },
    });
    // The next page view keeps them, though the URL no longer carries them.
    await o.page.goto(h.fake.shopUrl("/p"));
    const next = await eventually(() => h.fake.to("/v1/users/configs/")[1], 5000, "the next config call");
    expect(next.body.user).toMatchObject({ user_customer_id: "cust-7", tags: ["a", "b"], properties: { plan: "gold" } });
  });

  it("campaign parameters: first touch on the user, this session's copies as session_* properties", async () => {
    const o = await h.open("/c?utm_source=news&utm_campaign=spring&gclid=G1", { body: BODY });
    const first = await eventually(() => h.fake.to("/v1/users/configs/")[0], 5000, "first call");
    expect(first.body.user).toMatchObject({ utm_source: "news", utm_campaign: "spring", gclid: "G1", properties: { session_utm_source: "news", session_gclid: "G1" } });
    await o.page.goto(h.fake.shopUrl("/c?utm_source=ads"));
    const second = await eventually(() => h.fake.to("/v1/users/configs/")[1], 5000, "second call");
    expect(second.body.user).toMatchObject({ utm_source: "news", properties: { session_utm_source: "ads", session_utm_campaign: "spring" } });
  });

  it("desired and preferred experiences and cfid reach the config call", async () => {
    await h.open("/x?customfit_desired_experiences=e1,e2&customfit_preferred_experiences=e3&cfid=handoff-1", { body: BODY });
    const call = await eventually(() => h.fake.to("/v1/users/configs/")[0], 5000, "the config call");
    expect(call.body).toMatchObject({ desired_experiences: ["e1", "e2"], preferred_experiences: ["e3"], cfid: "handoff-1", user: { user_customer_id: "handoff-1" } });
  });
});

describe("preview mode (spec §4)", () => {
  it("asks for the preview, sends no tracking, uses a fresh unsaved visitor, and stays on for the session", async () => {
    h.fake.page("/pv2", { body: BODY });
    const o = await h.open("/pv?customfit_preview=1&customfit_desired_experiences=exp_1", { body: BODY });
    const call = await eventually(() => h.fake.to("/v1/users/configs/")[0], 5000, "the preview config call");
    expect(call.body).toMatchObject({ preview_mode: true, desired_experiences: ["exp_1"] });
    await o.page.evaluate(() => window.storefit?.track("clicked_buy"));
    await o.page.goto(h.fake.shopUrl("/pv2"));
    const second = await eventually(() => h.fake.to("/v1/users/configs/")[1], 5000, "the second call");
    expect(second.body.preview_mode).toBe(true);
    expect(second.body.user.user_customer_id).not.toBe(call.body.user.user_customer_id);
    await o.page.goto("about:blank");
    await settle();
    expect(h.fake.to("/v1/cfe/")).toEqual([]);
    expect(h.fake.to("/v1/config/request/summary/")).toEqual([]);
    // Switching preview off in the same session restores normal tracking.
    await o.page.goto(h.fake.shopUrl("/pv2?customfit_preview=0"));
    await eventually(() => h.fake.to("/v1/cfe/")[0], 5000, "tracking after preview is switched off");
  });
});

describe("the visitor (spec §3 User)", () => {
  it("sends the derived properties, keeps the customer id in storage and a 400-day cookie, and tells first-time visitors apart", async () => {
    const o = await h.open("/v", { body: BODY }, { waitUntil: "commit" });
    // The first page's own call (no referrer) must not arrive after the second's and be taken for it.
    await eventually(() => h.fake.to("/v1/users/configs/")[0], 5000, "the first page's config call");
    await o.context.addCookies([
      { name: "_ga", value: "GA1.1.987654321.1700000000", url: h.fake.shopUrl("/") },
      { name: "hubspotutk", value: "hs-abc", url: h.fake.shopUrl("/") },
    ]);
    await o.page.goto(h.fake.shopUrl("/v"), { referer: "https://www.google.com/search?q=soap" });
    const call = await eventually(() => h.fake.to("/v1/users/configs/")[1], 5000, "the config call");
    const u = call.body.user;
    expect(u).toMatchObject({ anonymous: true, device_id: expect.any(String), latest_session_id: call.body.session_id, hubspotutk: "hs-abc" });
    expect(u.properties).toMatchObject({
      cf_browser_name: "Chrome",
      cf_os_name: "Linux",
      cf_device_type: "desktop",
      cf_cpu_architecture: "amd64",
      cf_screen_width: 1280,
      cf_ua: expect.stringContaining("Chrome/"),
      cf_browser_primary_language: expect.any(String),
      cf_timezone: expect.any(Number),
      referrer: "www.google.com",
      referrer_url: "https://www.google.com/search?q=soap",
      cf_current_page_url: h.fake.shopUrl("/v"),
      ga_device_id: "987654321.1700000000",
      hubspotutk: "hs-abc",
      is_first_time_visitor: true,
    });
    expect(u.properties.cf_timezone).toBe(0 - (await o.page.evaluate(() => new Date().getTimezoneOffset())));
    const cookie = (await o.context.cookies()).find((c) => c.name.endsWith("ucid"))!;
    expect(cookie.value).toBe(u.user_customer_id);
    const days = (cookie.expires * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(399);
    expect(days).toBeLessThan(401);

    // A new tab is a new session of the same visitor: not first-time any more, same customer id.
    const before = h.fake.to("/v1/users/configs/").length;
    const tab = await o.context.newPage();
    await tab.goto(h.fake.shopUrl("/v"));
    const later = await eventually(() => (h.fake.to("/v1/users/configs/").length > before ? h.fake.to("/v1/users/configs/").at(-1) : undefined), 5000, "the new tab's call");
    expect(later.body.user.user_customer_id).toBe(u.user_customer_id);
    expect(later.body.session_id).not.toBe(call.body.session_id);
    expect(later.body.user.properties.is_first_time_visitor).toBe(false);
    expect(later.body.user.properties.cf_last_page_url).toBe("");
  });
});

describe("page API (product.md §2)", () => {
  it("runs calls queued before the script loaded, then runs pushes at once", async () => {
    const o = await h.open("/api", {
      body: BODY,
      head: "",
      settings: {},
      after: "",
    }, { waitUntil: "commit" });
    void o;
    h.fake.page("/api2", {
      body: BODY,
      settings: {},
    });
    const page = o.page;
    await page.addInitScript(() => {
      const w = window as unknown as { storefitQueue: unknown[]; readyCalls: number };
      w.readyCalls = 0;
      w.storefitQueue = [
        ["setUserProperty", "plan", "gold"],
        ["addTags", ["vip"], "private"],
        (sf: { ready: (cb: () => void) => void }) => sf.ready(() => w.readyCalls++),
        ["setUserProperty", "bad", () => 1],
      ];
    });
    await page.goto(h.fake.shopUrl("/api2"));
    // The call of /api2 (the one the queued calls ran before), not a late one of the page before.
    const call = await eventually(() => h.fake.to("/v1/users/configs/").find((r) => r.body.current_page_path === "/api2"), 5000, "the config call");
    expect(call.body.user.properties.plan).toBe("gold");
    expect(call.body.user.properties.bad).toBeUndefined();
    expect(call.body.user.private_fields.tags).toEqual(["vip"]);
    await page.waitForFunction(() => (window as unknown as { readyCalls: number }).readyCalls === 1);
    const results = await page.evaluate(() => {
      const sf = window.storefit!;
      return {
        version: sf.version,
        emptyName: sf.track(""),
        tracked: [1, 2, 3, 4, 5].map((i) => sf.track(`evt_${i}`, { n: i, nested: { ok: true }, fn: (() => 1) as unknown as number })),
        pipe: sf.track("other.example|custom"),
        identify: sf.identify("cust-42", { tier: "b" }),
      };
    });
    expect(results).toMatchObject({ version: "0.0.21", emptyName: false, tracked: [true, true, true, true, true], pipe: true, identify: true });
    // Five TRACK events fill the queue (size 5, spec §9) and go out in one request.
    const batch = await eventually(() => h.fake.to("/v1/cfe/").find((r) => r.body.events[0].event_type === "TRACK"), 5000, "the TRACK batch");
    expect(batch.body.events.map((e: { event_customer_id: string }) => e.event_customer_id)).toEqual([1, 2, 3, 4, 5].map((i) => `shop.localhost|evt_${i}`));
    expect(batch.body.events[0].properties).toMatchObject({ n: 1, nested: { ok: true }, page_path: "/api2" });
    expect(batch.body.events[0].properties.fn).toBeUndefined();
    // The sixth waits in the queue until the page is left, then goes out as a beacon.
    await page.goto("about:blank");
    const last = await eventually(() => h.fake.to("/v1/cfe/").find((r) => r.body.events[0].event_customer_id === "other.example|custom"), 5000, "the flushed queue");
    expect(last.body.user.user_customer_id).toBe("cust-42");
    // A push after the script is ready runs at once.
  });

  it("storefitQueue.push after start runs at once; ready() after ready calls back at once", async () => {
    const o = await h.open("/late", { body: BODY });
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    const r = await o.page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let n = 0;
          window.storefitQueue!.push(["addTags", "late"], () => n++);
          window.storefit!.ready(() => resolve(n + 10));
        }),
    );
    expect(r).toBe(11);
  });
});

describe("robustness: the script never throws into the page", () => {
  it("runs with throwing storage, cookies and history, and the page shows with no uncaught error", async () => {
    const o = await h.open("/broken0", { body: BODY }, { waitUntil: "commit" });
    await o.page.addInitScript(() => {
      const boom = () => {
        throw new DOMException("denied", "SecurityError");
      };
      for (const name of ["localStorage", "sessionStorage"]) Object.defineProperty(window, name, { get: boom, configurable: true });
      Object.defineProperty(Document.prototype, "cookie", { get: boom, set: boom, configurable: true });
      history.replaceState = boom as never;
      history.pushState = boom as never;
    });
    h.fake.page("/broken", { body: BODY, settings: { spa_mode: true } });
    const errors: string[] = [];
    o.page.on("pageerror", (e) => errors.push(String(e)));
    await o.page.goto(h.fake.shopUrl("/broken?cfup_plan=x"));
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    expect(await o.visible()).toBe(true);
    const call = await eventually(() => h.fake.to("/v1/users/configs/").at(-1), 5000, "the config call");
    expect(call.body.user.properties.plan).toBe("x");
    await eventually(() => h.fake.to("/v1/cfe/")[0], 5000, "the PAGE event");
    expect(errors).toEqual([]);
  });
});

describe("getters (spec §5)", () => {
  it("storefit.getValue returns the config's value, or the default when missing or of another type", async () => {
    const value = (id: string, type: string, variation: unknown) => ({ config_customer_id: id, config_id: `cfg_${id}`, variation_id: "v", variation, variation_data_type: type });
    h.fake.configs({
      configs: {
        banner_text: value("banner_text", "STRING", "Free shipping"),
        discount: value("discount", "NUMBER", 15),
        show_badge: value("show_badge", "BOOLEAN", true),
        sizes: value("sizes", "LIST", ["S", "M"]),
        theme: value("theme", "JSON", { color: "green" }),
      } as never,
      user_id: "u",
    });
    const o = await h.open("/get", { body: BODY });
    await o.page.waitForFunction(() => !document.getElementById("storefit-hide"));
    const got = await o.page.evaluate(() => {
      const sf = window.storefit!;
      return [
        sf.getValue("banner_text", "default"),
        sf.getValue("discount", 0),
        sf.getValue("show_badge", false),
        sf.getValue("sizes", [] as string[]),
        sf.getValue("theme", {}),
        sf.getValue("missing", "fallback"),
        sf.getValue("discount", "a string default"),
        sf.getValue("banner_text", 7),
      ];
    });
    expect(got).toEqual(["Free shipping", 15, true, ["S", "M"], { color: "green" }, "fallback", "a string default", 7]);
  });
});
