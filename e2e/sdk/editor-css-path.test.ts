// The visual editor's CSS paths (packages/sdk/src/editor/css-path.ts, docs/visual-editor.md) on
// tricky pages, in Chromium: every path must match its element and nothing else, avoid what a
// framework generates, prefer ids and data attributes, and keep finding the element when the page
// is rebuilt (new hashes, a new sibling in front). Targets are found with test-only selectors that
// add nothing to the page the generator could use. The name classifiers are plain functions and
// are tested from tables in Node.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "../browser.js";
import { pathPage } from "./fixtures/editor-bundle.js";
import {
  isGeneratedId,
  isStableDataAttribute,
  isUnstableClass,
} from "../../packages/sdk/src/editor/css-path.js";
import type * as CssPath from "../../packages/sdk/src/editor/css-path.js";

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
});

type Probe = { path: string; count: number; same: boolean; inDocument: number };

/** The path of the element `locate` finds (inside `host`'s shadow root when given), and what it matches. */
function probe(locate: string, host?: string): Promise<Probe> {
  return page.evaluate(
    ({ locate, host }) => {
      const P = (window as unknown as { storefitCssPath: typeof CssPath }).storefitCssPath;
      const root: Document | ShadowRoot = host
        ? document.querySelector(host)!.shadowRoot!
        : document;
      const target = root.querySelector(locate);
      if (!target) throw new Error(`no test target ${locate}`);
      const path = P.cssPath(target);
      const found = root.querySelectorAll(path);
      return {
        path,
        count: found.length,
        same: found[0] === target,
        inDocument: P.countMatches(path, document),
      };
    },
    { locate, host },
  );
}

/** The path of `locate`, checked to be unique and to match it. */
async function unique(locate: string, host?: string): Promise<string> {
  const p = await probe(locate, host);
  expect(p, `path ${p.path} of ${locate}`).toMatchObject({ count: 1, same: true });
  return p.path;
}

const textAt = (path: string) =>
  page.evaluate((p) => Array.from(document.querySelectorAll(p)).map((e) => e.textContent), path);

describe("repeated siblings", () => {
  const LISTS = `<ul class="menu"><li>One</li><li>Two</li><li>Three</li></ul><ul class="menu"><li>A</li><li>B</li></ul>`;

  it("tells siblings and lookalike parents apart with :nth-of-type under child combinators", async () => {
    await pathPage(page, LISTS);
    expect(await unique("ul:nth-of-type(2) > li:nth-child(2)")).toBe(
      "body > ul:nth-of-type(2) > li:nth-of-type(2)",
    );
    expect(await unique("ul:nth-of-type(1) > li:nth-child(3)")).toBe(
      "body > ul:nth-of-type(1) > li:nth-of-type(3)",
    );
  });

  it("anchors on a unique id and takes the shortest tail that stays unique", async () => {
    await pathPage(
      page,
      `<ul id="cart"><li><a>x</a></li><li><a>y</a></li></ul><ul><li><a>z</a></li></ul><div id="main"><p>a</p><p class="price">b</p></div>`,
    );
    expect(await unique("#cart li:nth-child(2)")).toBe("#cart > li:nth-of-type(2)");
    expect(await unique("#cart li:nth-child(2) a")).toBe("#cart > li:nth-of-type(2) > a");
    expect(await unique(".price")).toBe(".price");
    expect(await unique("#main p:first-child")).toBe("#main > p:nth-of-type(1)");
  });

  it("counts :nth-of-type per tag, not per child", async () => {
    await pathPage(page, `<div id="box"><h2>t</h2><p>1</p><span>s</span><p>2</p></div>`);
    expect(await unique("#box p:last-of-type")).toBe("#box > p:nth-of-type(2)");
    expect(await unique("#box span")).toBe("#box > span");
  });
});

describe("hashed and generated class names are never used", () => {
  const GRID = (hash: string, extra = "") => `
    <main>
      <div class="css-${hash}x grid" data-testid="product-grid">
        ${extra}
        <div class="sc-bdVaJa kDBpUh _${hash} card" data-product-id="101"><h2 class="jsx-${hash.replace(/\D/g, "")}12 title">Hat</h2><span class="css-${hash} price">$10</span></div>
        <div class="sc-bdVaJa kDBpUh _${hash} card" data-product-id="102"><h2 class="jsx-${hash.replace(/\D/g, "")}12 title">Scarf</h2><span class="css-${hash} price">$12</span></div>
      </div>
    </main>`;

  it("uses data attributes and stable classes, and the path survives a rebuild with new hashes and a new card in front", async () => {
    await pathPage(page, GRID("1x2y3z"));
    const price = await unique("[data-product-id='102'] span");
    expect(price).toBe('[data-product-id="102"] .price');
    expect(await unique("[data-product-id='101']")).toBe('[data-product-id="101"]');
    expect(await unique("main > div")).toBe('[data-testid="product-grid"]');
    const title = await unique("[data-product-id='101'] h2");
    expect(title).toBe('[data-product-id="101"] .title');
    for (const p of [price, title]) expect(p).not.toMatch(/css-|sc-|kDBpUh|_1x2y3z|jsx-/);

    await pathPage(
      page,
      GRID(
        "9q8w7e",
        `<div class="sc-bdVaJa kDBpUh card" data-product-id="100"><h2>New</h2><span class="price">$1</span></div>`,
      ),
    );
    expect(await textAt(price)).toEqual(["$12"]);
    expect(await textAt(title)).toEqual(["Hat"]);
  });

  it("skips Tailwind utility soup and falls back to structure", async () => {
    await pathPage(
      page,
      `<div class="flex items-center justify-between px-4 py-2 md:px-6 bg-white/80 shadow-sm">
         <a class="text-sm font-medium text-gray-700 hover:bg-gray-50 rounded-lg w-1/2 !mt-0 translate-x-[3px]" href="/a">A</a>
         <a class="text-sm font-medium text-gray-700 hover:bg-gray-50 rounded-lg" href="/b">B</a>
       </div>
       <div class="grid grid-cols-3 gap-4"><a class="block p-2">C</a><a class="block p-2">D</a></div>`,
    );
    expect(await unique("div:first-child a:nth-child(2)")).toBe(
      "body > div:nth-of-type(1) > a:nth-of-type(2)",
    );
    expect(await unique("div:nth-child(2) a")).toBe("body > div:nth-of-type(2) > a:nth-of-type(1)");
  });

  it("keeps a semantic class that sits among utilities", async () => {
    await pathPage(
      page,
      `<div class="flex px-4"><button class="mt-2 text-sm add-to-cart rounded">Add</button><button class="mt-2 text-sm rounded">Other</button></div>`,
    );
    expect(await unique("button")).toBe(".add-to-cart");
  });

  it("ignores state classes and the script's own marks", async () => {
    await pathPage(
      page,
      `<nav><a class="link active is-open">1</a><a class="link">2</a></nav><p class="cf-template-close storefit-x">x</p><p>y</p>`,
    );
    expect(await unique("a")).toBe("nav > a:nth-of-type(1)");
    expect(await unique("p")).toBe("body > p:nth-of-type(1)");
  });
});

describe("ids", () => {
  it("uses a stable unique id, and prefers it to data attributes and classes", async () => {
    await pathPage(
      page,
      `<section id="hero" data-testid="hero" class="hero">x</section><section>y</section>`,
    );
    expect(await unique("section")).toBe("#hero");
  });

  it("does not use an id that is not unique", async () => {
    await pathPage(
      page,
      `<div class="product"><span id="price">$1</span></div><div class="product"><span id="price">$2</span></div>`,
    );
    const p = await unique("div:nth-child(2) span");
    expect(p).toBe("body > div:nth-of-type(2) > #price");
    expect(await textAt(p)).toEqual(["$2"]);
  });

  it("never uses numeric or generated ids (ember123, :r1:, «r2», UUIDs, 123)", async () => {
    await pathPage(
      page,
      `<section id="ember123" class="ember-view"><button id=":r1:" class="btn">Buy</button></section>
       <section id="ember124" class="ember-view"><button id=":r2:" class="btn">Sell</button></section>
       <div id="3f2504e0-4f89-11d3-9a0c-0305e82c3301"><span id="«r5»">u</span></div>
       <div id="123"><p>n</p></div>`,
    );
    const sell = await unique("section:nth-of-type(2) button");
    expect(sell).toBe("body > section:nth-of-type(2) > button.btn");
    const u = await unique("div:nth-of-type(1) span");
    const n = await unique("div:nth-of-type(2) p");
    for (const p of [sell, u, n]) expect(p).not.toMatch(/ember|:r|«|3f2504e0|#123|#\\31/);
  });
});

describe("data-* preference", () => {
  it("prefers test ids, then other data attributes, to classes; skips state and framework attributes", async () => {
    await pathPage(
      page,
      `<button class="btn primary" data-track="x" data-testid="add-to-cart">Add</button>
       <button class="btn" data-action="wishlist">Wish</button>
       <div class="promo" data-section="hero" data-cy="promo">P</div>
       <div class="banner" data-v-7ba5bd90 data-state="open" data-storefit="1" data-index="0">B</div>
       <div class="banner other" data-state="closed">C</div>`,
    );
    expect(await unique("button:nth-of-type(1)")).toBe('[data-testid="add-to-cart"]');
    expect(await unique("button:nth-of-type(2)")).toBe('[data-action="wishlist"]');
    expect(await unique(".promo")).toBe('[data-cy="promo"]');
    // data-v-…, data-state, data-storefit and data-index say nothing lasting: structure it is.
    expect(await unique("div[data-state=open]")).toBe("body > div:nth-of-type(2)");
  });

  it("keeps finding the element by its data attribute when siblings are added in front", async () => {
    await pathPage(page, `<ul><li data-sku="A1">a</li><li data-sku="B2">b</li></ul>`);
    const p = await unique("li:nth-child(2)");
    expect(p).toBe('[data-sku="B2"]');
    await page.evaluate(() =>
      document
        .querySelector("ul")!
        .insertAdjacentHTML("afterbegin", "<li data-sku='Z0'>z</li><li>w</li>"),
    );
    expect(await textAt(p)).toEqual(["b"]);
  });
});

describe("SVG", () => {
  it("paths into inline SVG, keeping the case of SVG tag names", async () => {
    await pathPage(
      page,
      `<svg id="logo" viewBox="0 0 10 10"><g class="layer"><circle r="1"/><circle r="2"/></g><path d="M0 0"/></svg>
       <svg><defs><linearGradient><stop offset="0"/></linearGradient><linearGradient><stop offset="0"/><stop offset="1"/></linearGradient></defs><g><rect/></g></svg>`,
    );
    expect(await unique("#logo circle:nth-of-type(2)")).toBe(".layer > circle:nth-of-type(2)");
    expect(await unique("#logo path")).toBe("#logo > path");
    const stop = await unique(
      "svg:nth-of-type(2) linearGradient:nth-of-type(2) stop:nth-of-type(2)",
    );
    expect(stop).toBe(
      "body > svg:nth-of-type(2) > defs > linearGradient:nth-of-type(2) > stop:nth-of-type(2)",
    );
    expect(await unique("svg:nth-of-type(2) rect")).toBe("body > svg:nth-of-type(2) > g > rect");
  });
});

describe("custom elements and shadow roots", () => {
  const WIDGETS = `
    <product-card data-sku="A1"><span slot="title">Hat</span></product-card>
    <product-card data-sku="B2"><span slot="title">Scarf</span></product-card>
    <my-widget></my-widget><flat-widget></flat-widget><nest-widget></nest-widget>
    <script>
      document.querySelector("nest-widget").attachShadow({ mode: "open" }).innerHTML =
        "<div><p>a</p><div><p>b</p></div></div>";
      document.querySelector("my-widget").attachShadow({ mode: "open" }).innerHTML =
        '<div class="wrap"><button class="buy">Buy</button><button class="buy">Later</button></div>';
      document.querySelector("flat-widget").attachShadow({ mode: "open" }).innerHTML = "<p>One</p><p>Two</p>";
    </script>`;

  it("paths through custom elements' light DOM", async () => {
    await pathPage(page, WIDGETS);
    expect(await unique("product-card:nth-of-type(2) span")).toBe('[data-sku="B2"] > span');
    expect(await unique("my-widget")).toBe("body > my-widget");
  });

  it("inside an open shadow root, the path is unique within that root (the document has no match)", async () => {
    await pathPage(page, WIDGETS);
    const inner = await probe("button:nth-of-type(2)", "my-widget");
    expect(inner).toMatchObject({
      path: ".wrap > button:nth-of-type(2)",
      count: 1,
      same: true,
      inDocument: 0,
    });
    // Elements at the top of a shadow root have no parent element to anchor on.
    expect(await probe("p:nth-of-type(2)", "flat-widget")).toMatchObject({
      path: "p:nth-of-type(2)",
      count: 1,
      same: true,
      inDocument: 0,
    });
    // Nor does a path that climbs to the top: `div > p` would match the nested one too, so the
    // top step keeps to the root's top level.
    expect(await probe("p", "nest-widget")).toMatchObject({
      path: "div:not(* *) > p",
      count: 1,
      same: true,
      inDocument: 0,
    });
    expect(await unique("div div p", "nest-widget")).toBe("div > div > p");
  });
});

describe("names that need CSS.escape", () => {
  it("escapes ids, attribute values and tag names", async () => {
    await pathPage(
      page,
      `<div id="cart.total">1</div><div id="price$">2</div><div id="1st-place">3</div><div id="-1x">4</div><div id="über-uns">5</div>
       <span data-label='say "hi" \\ now'>6</span><span data-label="a]b">7</span><x-ø-widget>8</x-ø-widget><x-ø-widget>9</x-ø-widget>`,
    );
    expect(await unique("div:nth-of-type(1)")).toBe("#cart\\.total");
    expect(await unique("div:nth-of-type(2)")).toBe("#price\\$");
    expect(await unique("div:nth-of-type(3)")).toBe("#\\31 st-place");
    expect(await unique("div:nth-of-type(4)")).toBe("#-\\31 x");
    expect(await unique("div:nth-of-type(5)")).toBe("#über-uns");
    expect(await unique("span:nth-of-type(1)")).toBe('[data-label="say \\"hi\\" \\\\ now"]');
    expect(await unique("span:nth-of-type(2)")).toBe('[data-label="a]b"]');
    await unique("x-ø-widget:nth-of-type(2)");
  });
});

describe("the page's own landmarks", () => {
  it("names the body, a single main or h1, and stable unique classes", async () => {
    await pathPage(
      page,
      `<header class="site-header"><h1>Shop</h1></header><main><p>a</p></main><footer><p>b</p></footer>`,
    );
    expect(await unique("body")).toBe("body");
    expect(await unique("header")).toBe(".site-header");
    expect(await unique("h1")).toBe("h1");
    expect(await unique("main p")).toBe("main > p");
    expect(await unique("footer p")).toBe("footer > p");
  });

  it("counts matches; an invalid selector is -1", async () => {
    await pathPage(page, `<p>a</p><p>b</p>`);
    const counts = await page.evaluate(() => {
      const P = (window as unknown as { storefitCssPath: typeof CssPath }).storefitCssPath;
      return [P.countMatches("p"), P.countMatches("li"), P.countMatches("##")];
    });
    expect(counts).toEqual([2, 0, -1]);
  });
});

describe("the name classifiers (Node)", () => {
  it.each([
    "css-1x2y3z",
    "css-1x2y3z-Button",
    "sc-bdVaJa",
    "kDBpUh",
    "_a1b2c3",
    "_3xPq9",
    "jsx-123456",
    "svelte-1ab2cd",
    "Button_primary__3xK9a",
    "header-module--title--2bVnK",
    "ng-star-inserted",
    "e1x2y3z",
    "md:flex",
    "w-1/2",
    "!mt-0",
    "py-0.5",
    "translate-x-[3px]",
    "px-4",
    "text-gray-700",
    "bg-white",
    "rounded-lg",
    "flex",
    "hidden",
    "d-flex",
    "col-md-6",
    "top-0",
    "active",
    "is-open",
    "storefit-x",
    "cf-template-close",
  ])("%s is not stable", (c) => expect(isUnstableClass(c)).toBe(true));

  it.each([
    "price",
    "product-title",
    "site-header",
    "add-to-cart",
    "card",
    "menu",
    "top-bar",
    "list-item",
    "content-wrapper",
    "navBar",
    "btn-primary",
    "product__price",
    "ember-view",
  ])("%s is stable", (c) => expect(isUnstableClass(c)).toBe(false));

  it.each([
    "ember123",
    ":r1:",
    "«r2»",
    "radix-:r0:",
    "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
    "123",
    "ext-gen1234",
    "mui-12",
    "headlessui-menu-button-1",
    "shopify-section-template--16012345__main",
    "a1b2c3d4",
    "with space",
  ])("id %s is generated", (id) => expect(isGeneratedId(id)).toBe(true));

  it.each([
    "main",
    "cart",
    "cart.total",
    "1st-place",
    "section-2",
    "product-title",
    "myNavBar",
    "über-uns",
  ])("id %s is stable", (id) => expect(isGeneratedId(id)).toBe(false));

  it.each([
    ["data-testid", "add", true],
    ["data-product-id", "12345", true],
    ["data-section", "", true],
    ["data-state", "open", false],
    ["data-v-7ba5bd90", "", false],
    ["data-storefit", "1", false],
    ["data-src", "/a.jpg", false],
    ["data-id", ":r1:", false],
    ["data-json", '{"a":1}', false],
    ["data-long", "x".repeat(101), false],
  ] as const)("%s=%j usable: %s", (name, value, ok) =>
    expect(isStableDataAttribute(name, value)).toBe(ok),
  );
});
