// What the apply engine's observer looks at when the page changes (dom/engine.ts, spec §4 Config
// replacement): configs whose element the added nodes could be get their selector queried and are
// re-applied; a page's churn elsewhere queries no config's selector; selectors any change may
// concern (sibling combinators, pseudo-classes) are still re-checked on every change. The
// re-apply timer is set far out, so only the observer can have done what these tests see.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Config } from "@storefit/contract";
import { launchBrowser, newVisitor } from "../browser.js";
import { applyInPage } from "./fixtures/engine-bundle.js";
import { el } from "./fixtures/configs.js";
import { startStaticServer } from "./fixtures/static-server.js";
import type { StaticServer } from "./fixtures/static-server.js";
import type { ApplyResult } from "../../packages/sdk/src/dom/engine.js";

let browser: Browser;
let server: StaticServer;
const contexts: BrowserContext[] = [];
beforeAll(
  async () => void ([browser, server] = await Promise.all([launchBrowser(), startStaticServer()])),
);
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
  server.reset();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(body: string, doctype = "<!doctype html>"): Promise<Page> {
  server.set("/page", `${doctype}<html><head><meta charset="utf-8"></head><body>${body}</body></html>`);
  const context = await newVisitor(browser);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(server.url("/page", "shop.localhost"));
  return page;
}
const FAR = { settings: { reapply_timer_ms: 600_000 } };
const apply = (page: Page, configs: Config[]) => applyInPage(page, configs, FAR);
const counts = (page: Page) =>
  page.evaluate(() => (window as unknown as { __result: ApplyResult }).__result.counts!);

/** Counts, from now on, the selector queries (document or element, all or one, `matches`) whose selector is one of `selectors`. */
const countQueries = (page: Page, selectors: string[]) =>
  page.evaluate((selectors) => {
    const w = window as unknown as { __queries: number };
    w.__queries = 0;
    for (const proto of [
      Document.prototype,
      Element.prototype,
      DocumentFragment.prototype,
    ] as unknown as Record<string, (s: string) => unknown>[])
      for (const name of ["querySelectorAll", "querySelector", "matches", "closest"]) {
        const own = Object.getOwnPropertyDescriptor(proto, name);
        if (!own) continue;
        const original = own.value as (this: unknown, s: string) => unknown;
        proto[name] = function (this: unknown, s: string) {
          if (selectors.includes(s)) w.__queries++;
          return original.call(this, s);
        };
      }
  }, selectors);
const queries = (page: Page) =>
  page.evaluate(() => (window as unknown as { __queries: number }).__queries);
/** Waits until the observer's callbacks ran (a task after the mutation's microtasks). */
const settle = (page: Page) => page.evaluate(() => new Promise((r) => setTimeout(r, 50)));

const PRODUCT = `<div id="product"><h2 class="name">Soap</h2><p class="price">$10</p><img id="hero" src="/a.png" alt=""></div>`;
const configs = () => [
  el("#product .name", { innerHTML: "Gentle soap" }),
  el(".price", { innerHTML: "$8" }),
  el("#hero", { src: "/b.png" }),
  el("#footer-note", { innerHTML: "Free shipping" }),
];

describe("the observer looks at the configs the added nodes could concern", () => {
  // The targets right inside the re-rendered block, and among many other new nodes.
  const LARGE = `<div id="product"><h2 class="name">Soap</h2>${"<div><span>filler</span></div>".repeat(10)}<p class="price">$10</p><img id="hero" src="/a.png" alt=""></div>`;
  for (const [what, block] of [
    ["a small block", PRODUCT],
    ["a large block", LARGE],
  ] as const)
    it(`re-applies every config whose element a re-render re-added, deep inside the added node too (${what})`, async () => {
      const page = await open(`<main id="app">${block}</main><p id="footer-note">Shipping</p>`);
      await apply(page, configs());
      expect(await counts(page)).toEqual({ applies: 4, readded: 0, drift: 0 });
      for (let i = 1; i <= 3; i++) {
        // A framework re-renders the product block: three targets are new nodes, inside a new node.
        await page.evaluate((block) => (document.getElementById("app")!.innerHTML = block), block);
        await settle(page);
        expect(
          await page.evaluate(() => [
            document.querySelector(".name")!.innerHTML,
            document.querySelector(".price")!.innerHTML,
            document.getElementById("hero")!.getAttribute("src"),
          ]),
        ).toEqual(["Gentle soap", "$8", "/b.png"]);
        expect(await counts(page)).toEqual({ applies: 4 + 3 * i, readded: 3 * i, drift: 0 });
      }
      expect(await page.locator("#footer-note").innerHTML()).toBe("Free shipping");
    });

  it("queries no config's selector when the page adds and removes nodes elsewhere", async () => {
    const page = await open(
      `<main id="app">${PRODUCT}</main><p id="footer-note">Shipping</p><ul id="feed"></ul>`,
    );
    const list = configs();
    await apply(page, list);
    await countQueries(
      page,
      list.map((c) => c.properties!.element_path as string),
    );
    for (let i = 0; i < 5; i++) {
      await page.evaluate((i) => {
        const feed = document.getElementById("feed")!;
        feed.insertAdjacentHTML(
          "beforeend",
          `<li class="review"><b>Review ${i}</b> <span>great soap</span></li>`,
        );
        if (i > 2) feed.firstElementChild!.remove();
      }, i);
      await settle(page);
    }
    expect(await queries(page)).toBe(0);
    // A node the page adds that one config's selector needs gets that config, and only it, queried.
    await page.evaluate(() =>
      document
        .getElementById("feed")!
        .insertAdjacentHTML("beforeend", '<li><p class="price">$12</p></li>'),
    );
    await settle(page);
    expect(await queries(page)).toBe(1);
    expect(await page.locator("#feed .price").innerHTML()).toBe("$8");
  });

  it("on a quirks-mode page, where classes match in any case, a re-added element is still found", async () => {
    const page = await open(`<div id="app"><p class="price">$10</p></div>`, "");
    expect(await page.evaluate(() => document.compatMode)).toBe("BackCompat");
    await apply(page, [el(".Price", { innerHTML: "$8" })]);
    await page.evaluate(() => (document.getElementById("app")!.innerHTML = '<p class="price">$10</p>'));
    await settle(page);
    expect(await page.locator("#app p").innerHTML()).toBe("$8");
  });

  it("re-checks a selector any change may concern (a pseudo-class) on every change", async () => {
    const page = await open(`<ul id="list"><li>A</li><li>B</li></ul>`);
    await apply(page, [el("#list > li:nth-of-type(2)", { cf_classes_add: "picked" })]);
    expect(await page.evaluate(() => document.querySelector(".picked")!.textContent)).toBe("B");
    // The new first item is not the second: the element that now is, A, was not added.
    await page.evaluate(() =>
      document.getElementById("list")!.insertAdjacentHTML("afterbegin", "<li>Z</li>"),
    );
    await settle(page);
    expect(
      await page.evaluate(() =>
        Array.from(document.querySelectorAll(".picked"), (e) => e.textContent),
      ),
    ).toEqual(["A", "B"]);
  });
});
