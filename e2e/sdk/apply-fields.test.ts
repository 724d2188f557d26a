// The apply engine through storefit.js against the fake provider: every element field of a
// variation (spec §3 Variation fields, Appendix A), device sub-variations, waiting for missing
// elements and giving up (spec §8), depth order (spec §9), and the apply options cf_defer_apply,
// cf_delay_apply_time, cf_evt_load_time, cf_perform_click_action and cf_retain_value.

import { describe, expect, it } from "vitest";
import { eventually } from "../harness.js";
import { useSdkHarness } from "./sdk-harness.js";
import type { Opened } from "./sdk-harness.js";
import { answer, el } from "./fixtures/configs.js";

const h = useSdkHarness();

const PRODUCT = `
  <h1 id="title" class="title big">Soap</h1>
  <span id="price">$10.00</span>
  <img id="hero" src="/a.png" srcset="/a-1x.png 1x, /a-2x.png 2x" alt="">
  <input id="qty" value="1">
  <a id="buy" href="/cart">Buy</a>
  <div id="box" class="card old" style="color: green">box</div>`;

const appliedIds = async (o: Opened) => {
  const e = (await o.events()).find((x) => x.type === "storefit:applied");
  return (e?.detail as string[] | undefined)?.slice().sort();
};
const attr = (o: Opened, sel: string, name: string) => o.page.locator(sel).getAttribute(name);
const settled = (o: Opened) => o.page.waitForFunction(() => (window as unknown as { __sf: { type: string }[] }).__sf.some((e) => e.type === "storefit:applied"));

describe("element fields (spec §3 Variation fields)", () => {
  it("applies innerHTML, value, src, srcset, the style map, href_target and class edits, then reveals", async () => {
    h.fake.configs(
      answer(
        el("#price", { innerHTML: "<b>$8.00</b>" }, { id: "price" }),
        el("#qty", { value: "3" }, { id: "qty" }),
        el("#hero", { src: "/b.png", srcset: "/b-1x.png 1x, /b-2x.png 2x" }, { id: "hero" }),
        el("#buy", { href_target: { href: "/sale", target: "_blank" } }, { id: "buy" }),
        el("#box", {
          style: { color: "red", "background-color": "rgb(0, 0, 255) !important", fontSize: "20px" },
          cf_classes_edit_option: "add_remove_classes",
          cf_classes_add: ["sale", "wide"],
          cf_classes_remove: "old",
        }, { id: "box" }),
        el("#title", { cf_classes_edit_option: "overwrite_classes", cf_classes_overwrite: "headline  promo" }, { id: "title" }),
      ),
    );
    const o = await h.open("/p", { body: PRODUCT });
    await settled(o);
    expect(await o.visible()).toBe(true);
    expect(await o.page.locator("#price").innerHTML()).toBe("<b>$8.00</b>");
    expect(await o.page.locator("#qty").inputValue()).toBe("3");
    expect(await attr(o, "#hero", "src")).toBe("/b.png");
    expect(await attr(o, "#hero", "srcset")).toBe("/b-1x.png 1x, /b-2x.png 2x");
    expect(await attr(o, "#buy", "href")).toBe("/sale");
    expect(await attr(o, "#buy", "target")).toBe("_blank");
    const box = await o.page.evaluate(() => {
      const b = document.getElementById("box")!;
      return { cls: b.className, color: b.style.color, bg: b.style.getPropertyValue("background-color"), bgPrio: b.style.getPropertyPriority("background-color"), font: b.style.fontSize };
    });
    expect(box).toEqual({ cls: "card sale wide", color: "red", bg: "rgb(0, 0, 255)", bgPrio: "important", font: "20px" });
    expect(await attr(o, "#title", "class")).toBe("headline promo");
    // Elements we changed are marked (spec §4), with the number of applies.
    expect(await attr(o, "#price", "data-storefit")).toBe("1");
    expect(await appliedIds(o)).toEqual(["cfg_box", "cfg_buy", "cfg_hero", "cfg_price", "cfg_qty", "cfg_title"]);
    expect(o.errors).toEqual([]);
  });

  it("leaves classes alone with no_changes, and an empty srcset removes the attribute", async () => {
    h.fake.configs(
      answer(
        el("#box", { cf_classes_edit_option: "no_changes", cf_classes_add: "x", cf_classes_overwrite: "y" }, { id: "box" }),
        el("#hero", { src: "/c.png", srcset: "" }, { id: "hero" }),
      ),
    );
    const o = await h.open("/p", { body: PRODUCT });
    await settled(o);
    expect(await attr(o, "#box", "class")).toBe("card old");
    expect(await attr(o, "#hero", "src")).toBe("/c.png");
    expect(await attr(o, "#hero", "srcset")).toBeNull();
  });

  for (const device of ["desktop", "mobile"] as const) {
    it(`applies the ${device} sub-variation when config_modifications.device_specific is true`, async () => {
      const c = el("#price", { innerHTML: "base", style: { color: "red" }, desktop: { innerHTML: "desktop" }, mobile: { innerHTML: "mobile" } }, { id: "price" });
      c.experience_behaviour_response!.config_modifications = { device_specific: true };
      const plain = el("#title", { innerHTML: "base title", mobile: { innerHTML: "ignored" } }, { id: "title" });
      h.fake.configs(answer(c, plain));
      const ua =
        device === "mobile"
          ? "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
          : undefined;
      const o = await h.open("/p", { body: PRODUCT }, ua ? { userAgent: ua } : {});
      await settled(o);
      expect(await o.page.locator("#price").innerHTML()).toBe(device);
      // Fields the sub-variation does not set come from the base variation.
      expect(await o.page.evaluate(() => document.getElementById("price")!.style.color)).toBe("red");
      // Without device_specific the sub-variations are ignored.
      expect(await o.page.locator("#title").innerHTML()).toBe("base title");
    });
  }
});

describe("finding elements (spec §4, §8, §9)", () => {
  it("waits for an element added later, gives up on missing ones and on invalid selectors, and reveals after element_timeout_ms", async () => {
    h.fake.configs(
      answer(
        el("#late", { innerHTML: "found" }, { id: "late" }),
        el("#never", { innerHTML: "x" }, { id: "never" }),
        el("#", { innerHTML: "x" }, { id: "invalid" }),
        el("div[", { innerHTML: "x" }, { id: "invalid2" }),
        el("#price", { innerHTML: "$8.00" }, { id: "price" }),
      ),
    );
    const o = await h.open("/p", {
      body: PRODUCT + `<script>setTimeout(() => { const d = document.createElement("div"); d.id = "late"; d.textContent = "late"; document.body.append(d); }, 300);</script>`,
      settings: { element_timeout_ms: 1200 },
    });
    await settled(o);
    expect(await o.page.locator("#late").innerHTML()).toBe("found");
    expect(await appliedIds(o)).toEqual(["cfg_late", "cfg_price"]);
    const ev = await o.events();
    const revealed = ev.find((e) => e.type === "storefit:revealed")!;
    expect(revealed.at).toBeLessThan(5000);
    expect(o.errors).toEqual([]);
  });

  it("hides a waiting element (opacity 0, blur for media) until it is applied", async () => {
    h.fake.configs(
      answer(
        // Broken selectors lose only their own hiding rule; none can swallow or inject others.
        el("div[", { innerHTML: "x" }, { id: "bad1" }),
        el("a/*", { innerHTML: "x" }, { id: "bad2" }),
        el("p{}body", { innerHTML: "x" }, { id: "bad3" }),
        el("div\\", { innerHTML: "x" }, { id: "bad4" }),
        el("#later", { innerHTML: "done" }, { id: "later", properties: { element_path: "#later" } }),
        el("#gallery img", { src: "/b.png" }, { id: "img" }),
        el(".media-box", { innerHTML: "m" }, { id: "hint", properties: { element_path: ".media-box", element_hint: "media" } }),
      ),
    );
    // The page is revealed early (sdk_timeout_ms) while the elements are still missing.
    const o = await h.open(
      "/p",
      {
        body: `<div id="gallery"></div><script>
          window.__seen = [];
          const probe = (html, parent) => { const t = document.createElement("template"); t.innerHTML = html; const n = t.content.firstElementChild; document.querySelector(parent).append(n); const s = getComputedStyle(n); const r = [s.opacity, s.filter]; n.remove(); return r; };
          setTimeout(() => {
            // Just before the elements appear: the page is revealed (sdk_timeout_ms), the answer
            // is in, and the elements it waits for must be hidden when they come.
            window.__seen = [probe('<span id="later"></span>', "body"), probe('<img src="/a.png">', "#gallery"), probe('<p class="media-box"></p>', "body")];
            window.__revealed = !document.getElementById("storefit-hide");
            for (const [tag, html, parent] of [["div", '<span id="later">x</span>', "body"], ["img", "", "#gallery"], ["div", '<p class="media-box">y</p>', "body"]]) {
              const t = document.createElement("template"); t.innerHTML = html || '<img src="/a.png">';
              const n = t.content.firstElementChild; document.querySelector(parent).append(n);
            }
          }, 1500);
        </script>`,
        settings: { sdk_timeout_ms: 300, element_timeout_ms: 2500 },
      },
      { waitUntil: "commit" },
    );
    await settled(o);
    const seen = await o.page.evaluate(() => (window as unknown as { __seen: string[][] }).__seen);
    expect(seen).toEqual([["0", "none"], ["1", "blur(10px)"], ["1", "blur(10px)"]]);
    expect(await o.page.evaluate(() => (window as unknown as { __revealed: boolean }).__revealed)).toBe(true);
    // Once applied, nothing is hidden any more.
    const after = await o.page.evaluate(() => [getComputedStyle(document.getElementById("later")!).opacity, getComputedStyle(document.querySelector("#gallery img")!).filter]);
    expect(after).toEqual(["1", "none"]);
    expect(await o.page.locator("#later").innerHTML()).toBe("done");
  });

  it("applies a parent's change before its child's, whatever the order of the answer (spec §9 depth)", async () => {
    h.fake.configs(
      answer(
        // The duplicate runs only when the config is first applied: it shows that the child's
        // change was applied to the parent's new child in the same pass, not caught up later.
        el("#wrap .inner", { innerHTML: "child change", customfit_meta: { duplicate_actions: [{ position: "below" }] } }, { id: "child" }),
        el("#wrap", { innerHTML: '<p class="inner">new child</p>' }, { id: "parent" }),
      ),
    );
    const o = await h.open("/p", { body: `<div id="wrap"><p class="inner">old child</p></div>` });
    await settled(o);
    expect(await o.page.locator("#wrap").innerHTML()).toBe('<p class="inner" data-storefit="1">child change</p><p class="inner" data-storefit="1">child change</p>');
    expect(await appliedIds(o)).toEqual(["cfg_child", "cfg_parent"]);
  });

  it("applies a class selector to every matching element", async () => {
    h.fake.configs(answer(el(".tag", { innerHTML: "sale" }, { id: "tags" })));
    const o = await h.open("/p", { body: `<i class="tag">a</i><i class="tag">b</i><i class="tag">c</i>` });
    await settled(o);
    expect(await o.page.locator(".tag").allInnerTexts()).toEqual(["sale", "sale", "sale"]);
  });
});

describe("apply options (spec §3 Variation fields, §4 Delayed and deferred applies)", () => {
  // What the page saw: the price and its opacity when storefit:applied fired, and when the
  // change and the load event happened.
  type Seen = { applied?: string; appliedAt?: number; changedAt?: number; loadAt?: number };
  const record = `<script>
    const seen = (window.__seen = {});
    new MutationObserver(() => { const p = document.getElementById("price"); if (p && p.textContent === "$8.00" && !seen.changedAt) seen.changedAt = performance.now(); }).observe(document, { subtree: true, childList: true, characterData: true });
    document.addEventListener("storefit:applied", () => { const p = document.getElementById("price"); seen.applied = p.textContent + ":" + getComputedStyle(p).opacity; seen.appliedAt = performance.now(); });
    window.addEventListener("load", () => (seen.loadAt = performance.now()));
  </script>`;
  const changed = async (o: Opened): Promise<Seen> => {
    // With waitUntil "commit" the fixture's own script may not have run yet.
    await o.page.waitForFunction(() => (window as unknown as { __seen?: Seen }).__seen?.changedAt, null, { timeout: 10_000 });
    return o.page.evaluate(() => (window as unknown as { __seen: Seen }).__seen);
  };

  it("cf_defer_apply waits for the load event; the element stays hidden until then", async () => {
    // The load event comes late (a slow image): far after the answer even on a busy machine.
    h.fake.answer("/v1/slow-image/", () => ({ delayMs: 2500, json: {} }));
    h.fake.configs(answer(el("#price", { innerHTML: "$8.00", cf_defer_apply: true }, { id: "price" })));
    const o = await h.open("/p", { body: PRODUCT + `<img src="${h.fake.apiUrl}/v1/slow-image/" alt="">` + record }, { waitUntil: "commit" });
    const seen = await changed(o);
    expect(seen.applied).toBe("$10.00:0");
    expect(seen.loadAt! - seen.appliedAt!).toBeGreaterThan(500);
    expect(seen.changedAt).toBeGreaterThanOrEqual(seen.loadAt!);
    expect(await o.page.evaluate(() => getComputedStyle(document.getElementById("price")!).opacity)).toBe("1");
    expect(await appliedIds(o)).toEqual([]);
  });

  it("cf_delay_apply_time waits that many milliseconds; the element stays hidden until then", async () => {
    h.fake.configs(answer(el("#price", { innerHTML: "$8.00", cf_delay_apply_time: 700 }, { id: "price" })));
    const o = await h.open("/p", { body: PRODUCT + record });
    const seen = await changed(o);
    expect(seen.applied).toBe("$10.00:0");
    // The 700 ms start when the page is ready, which can be before storefit:applied is dispatched
    // (a loaded machine once put 150 ms between them): an apply without the delay comes within a
    // frame, so 400 still tells the two apart.
    expect(seen.changedAt! - seen.appliedAt!).toBeGreaterThanOrEqual(400);
    expect(await o.page.evaluate(() => getComputedStyle(document.getElementById("price")!).opacity)).toBe("1");
  });

  it("cf_perform_click_action clicks the element after applying", async () => {
    h.fake.configs(answer(el("#buy", { innerHTML: "Buy now", cf_perform_click_action: true }, { id: "buy" })));
    const o = await h.open("/p", {
      body: PRODUCT + `<script>window.__clicks = []; document.getElementById("buy").addEventListener("click", (e) => { e.preventDefault(); window.__clicks.push(e.target.textContent); });</script>`,
    });
    await o.page.waitForFunction(() => (window as unknown as { __clicks: string[] }).__clicks.length > 0);
    expect(await o.page.evaluate(() => (window as unknown as { __clicks: string[] }).__clicks)).toEqual(["Buy now"]);
  });

  it("cf_evt_load_time sends a load-time event through tracking", async () => {
    h.fake.configs(answer(el("#price", { innerHTML: "$8.00", cf_evt_load_time: true }, { id: "price" })));
    const o = await h.open("/p", { body: PRODUCT });
    await settled(o);
    // Queued events are flushed when the page is left (spec §7, tracker).
    await o.page.goto(h.fake.shopUrl("/p"));
    const ev = await eventually(
      () => h.fake.to("/v1/cfe/").flatMap((r) => r.body?.events ?? []).find((e: { name?: string }) => e.name === "cf_load_time"),
      8000,
      "the load-time event",
    );
    expect(ev).toMatchObject({ event_type: "TRACK", properties: { config_id: "cfg_price", variation_id: "var_price", experience_id: "exp_price" } });
    expect(ev.properties.load_time_ms).toEqual(expect.any(Number));
  });

  const retainCase = (retain: boolean) =>
    it(`${retain ? "keeps" : "does not keep"} our text when the page rewrites it later ${retain ? "with" : "without"} cf_retain_value`, async () => {
      h.fake.configs(answer(el("#price", { innerHTML: "$8.00", cf_retain_value: retain }, { id: "price" })));
      const o = await h.open("/p", {
        body: PRODUCT + `<script>document.addEventListener("storefit:applied", () => setTimeout(() => { document.getElementById("price").firstChild.data = "$11.00"; window.__rewritten = true; }, 200));</script>`,
      });
      await o.page.waitForFunction(() => (window as unknown as { __rewritten?: boolean }).__rewritten);
      await o.page.waitForTimeout(100);
      expect(await o.page.locator("#price").innerText()).toBe(retain ? "$8.00" : "$11.00");
    });
  retainCase(true);
  retainCase(false);
});
