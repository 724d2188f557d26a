// Repeat view against GrowthBook's script tag (docs/benchmarks.md "Repeat view", issue #19): how
// long after navigation start a returning visitor's page is revealed, with 30 changes on a product
// page and the service answering after BENCH_DELAY_MS (100 ms by default; 0 as well).
//
// Ours: storefit.js built from source as build.mjs does (its compile hint first), with the settings a snippet gives (its
// `revision`), its config answer marked cacheable (docs/api.md "Answer cache"): a repeat view
// applies the kept answer and reveals without waiting, then asks behind the reveal.
// GrowthBook: @growthbook/growthbook's auto.min.js (its documented script tag), loaded the same
// way (synchronously in <head>, so its anti-flicker hides the page before the first paint), with
// `data-anti-flicker` and no streaming; its features endpoint answers one visual experiment whose
// variation makes the same 30 changes as DOM mutations, for every visitor (weights 0/1). Its
// repeat view reads the features it cached in localStorage.
//
// Each trial is a fresh visitor (browser context) that opens the page twice; the second view is
// measured: navigation start to the reveal (`storefit:revealed`; GrowthBook: the
// `gb-anti-flicker` class removed), how many config or features calls had completed by then
// (Resource Timing), and that all 30 changes are on the page after load. Trials alternate the two
// scripts; medians are printed with their ratio and the load average. Env: BENCH_TRIALS (15),
// BENCH_DELAY_MS (comma-separated; "100,0").

/* global window, document, MutationObserver -- functions passed to page.evaluate run in the page */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { COMPILE_HINT } from "../packages/sdk/compile-hint.mjs";
import { CHANGE_KINDS, DESKTOP_UA, GIF, bundle, launch, median, ms, productSections, root, serve } from "./sdk-lib.mjs";

const TRIALS = Number(process.env.BENCH_TRIALS ?? 15);
const DELAYS = (process.env.BENCH_DELAY_MS ?? "100,0").split(",").map(Number);
const N = 30;
const kinds = CHANGE_KINDS;
/** Ours: 30 configs, one per element (the flicker benchmark's page). */
const { body, configs } = productSections(N);
const ourAnswer = JSON.stringify({ configs, user_id: "u_bench", cache: { revision: 1, attributes: [] } });

/** GrowthBook: the same 30 changes as one visual experiment's DOM mutations. */
const domMutations = Array.from({ length: N }, (_, i) => {
  const selector = `#e${i}`;
  switch (kinds[i % kinds.length]) {
    case "html":
      return [{ selector, action: "set", attribute: "html", value: `New copy ${i} <b>now 20% off</b>` }];
    case "src":
      return [{ selector, action: "set", attribute: "src", value: GIF }];
    case "style":
      return [{ selector, action: "set", attribute: "style", value: "color: rgb(200, 0, 0); font-weight: 700" }];
    case "class":
      return [
        { selector, action: "append", attribute: "class", value: "sale" },
        { selector, action: "remove", attribute: "class", value: "copy" },
      ];
    default:
      return [{ selector, action: "set", attribute: "href", value: `/new/${i}` }];
  }
}).flat();
const gbPayload = JSON.stringify({
  features: {},
  experiments: [{ key: "bench-visual", hashAttribute: "id", weights: [0, 1], coverage: 1, variations: [{}, { domMutations }], urlPatterns: [{ type: "simple", include: true, pattern: "/gb/p" }] }],
});

const ours = COMPILE_HINT + (await bundle(`import "./packages/sdk/src/boot/index.ts";`));
const growthbook = readFileSync(join(root, "node_modules/@growthbook/growthbook/dist/bundles/auto.min.js"), "utf8");

let delay = 100;
let port = 0;
const later = (body) => new Promise((r) => setTimeout(() => r({ type: "application/json", body }), delay));
// A product page as shops have them: a header, the product's sections, a footer of links.
const header = `<header><nav>${["Bath", "Skin", "Hair", "Gifts", "Sale"].map((n) => `<a href="/c/${n}">${n}</a>`).join(" ")}</nav></header>`;
const footer = `<footer>${Array.from({ length: 20 }, (_, i) => `<a href="/info/${i}">Information ${i}</a>`).join(" ")}<p>© Little Sprouts</p></footer>`;
const page = (head) => ({ body: `<!doctype html><html><head><meta charset="utf-8"><title>Soap</title>${head}</head><body>${header}<main><h1>Gentle soap</h1>${body}</main>${footer}</body></html>` });
const server = await serve({
  "/ours/p": () =>
    page(`<script>window.storefitSettings=${JSON.stringify({ client_key: "ck_bench", api_host: `http://api.localhost:${port}`, domain: "shop.localhost", revision: 1 })}</script><script src="/sdk/storefit.js"></script>`),
  "/gb/p": () => page(`<script src="/gb/auto.min.js" data-client-key="sdk-bench" data-api-host="http://api.localhost:${port}" data-anti-flicker="true" data-no-streaming="true" data-tracking="none"></script>`),
  // Both scripts cacheable, so a repeat view runs them from the HTTP cache, as a shop's visitor does.
  "/sdk/storefit.js": () => ({ type: "application/javascript", body: ours, headers: { "cache-control": "public, max-age=300" } }),
  "/gb/auto.min.js": () => ({ type: "application/javascript", body: growthbook, headers: { "cache-control": "public, max-age=300" } }),
  "/v1/users/configs/": () => later(ourAnswer),
  "/api/features/sdk-bench": () => later(gbPayload),
  "/v1/*": () => ({ type: "application/json", body: '{"accepted":1}' }),
});
port = server.port;
const browser = await launch();

/** The page's state once loaded: reveal time, calls completed before it, changes on the page. */
async function view(tab, who) {
  await tab.goto(`http://shop.localhost:${port}/${who}/p`);
  await tab.waitForFunction(() => window.__t.revealed !== undefined, null, { timeout: 15_000 });
  // GrowthBook applies its mutations as their elements appear, ours once the DOM is parsed: wait for all.
  await tab.waitForFunction((n) => document.querySelectorAll("p.sale").length === n, N / kinds.length, { timeout: 15_000 });
  // The first paint with content, once there is one (a hidden page paints none).
  await tab.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0, null, { timeout: 15_000 });
  return tab.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    return { revealed: window.__t.revealed, complete: window.__t.complete, fcp: performance.getEntriesByName("first-contentful-paint")[0].startTime, callsBefore: window.__t.callsBefore, html: document.querySelector("#e0").innerHTML, responseEnd: nav.responseEnd, dcl: nav.domContentLoadedEventStart };
  });
}

async function trial(who) {
  const context = await browser.newContext({ userAgent: DESKTOP_UA });
  await context.addInitScript(() => {
    window.__t = {};
    const calls = () => performance.getEntriesByType("resource").filter((r) => /\/v1\/users\/configs\/|\/api\/features\//.test(r.name)).length;
    const mark = () => {
      if (window.__t.revealed === undefined) Object.assign(window.__t, { revealed: performance.now(), callsBefore: calls() });
    };
    // When every change is on the page (the last element is the last parsed).
    const complete = () =>
      document.querySelectorAll("p.sale").length === 6 && document.getElementById("e29")?.getAttribute("href") === "/new/29" && document.getElementById("e0")?.innerHTML.startsWith("New copy");
    new MutationObserver(() => {
      if (window.__t.complete === undefined && complete()) window.__t.complete = performance.now();
    }).observe(document, { attributes: true, childList: true, subtree: true });
    document.addEventListener("storefit:revealed", mark);
    // GrowthBook's anti-flicker: a class on <html>, removed when it is ready. (<html> does not
    // exist yet when this runs: the document is watched.)
    let hidden = false;
    new MutationObserver((records) => {
      if (!records.some((r) => r.target === document.documentElement)) return;
      const has = document.documentElement.classList.contains("gb-anti-flicker");
      if (has) hidden = true;
      else if (hidden) mark();
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["class"] });
  });
  const tab = await context.newPage();
  await view(tab, who);
  const repeat = await view(tab, who);
  await context.close();
  if (!repeat.html.startsWith("New copy 0")) throw new Error(`${who}: the change is not on the page (${repeat.html})`);
  if (process.env.BENCH_VERBOSE) console.log(who, JSON.stringify(repeat, (k, v) => (typeof v === "number" ? Math.round(v) : k === "html" ? undefined : v)));
  return repeat;
}

console.log(`Repeat view: navigation start to reveal, ${N} changes, median of ${TRIALS} visitors (Chromium); load average ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
for (const d of DELAYS) {
  delay = d;
  await trial("ours");
  await trial("gb");
  const res = { ours: [], gb: [] };
  for (let i = 0; i < TRIALS; i++) for (const who of i % 2 ? ["gb", "ours"] : ["ours", "gb"]) res[who].push(await trial(who));
  const before = (list) => list.reduce((s, v) => s + v.callsBefore, 0);
  console.log(`service answering after ${d} ms (load ${loadavg()[0].toFixed(1)}); config or features calls completed before the reveal: ours ${before(res.ours)}/${TRIALS}, GrowthBook ${before(res.gb)}/${TRIALS}`);
  // Shown with every change: both reveal when their kept answer is read, in <head>; GrowthBook
  // changes elements as they are parsed, ours once the DOM is parsed (docs/decisions.md "When the
  // page is revealed").
  for (const [what, f] of [["reveal", (v) => v.revealed], ["shown with all 30 changes", (v) => Math.max(v.revealed, v.complete)], ["first contentful paint", (v) => v.fcp]]) {
    const o = median(res.ours.map(f));
    const g = median(res.gb.map(f));
    console.log(`  navigation start to ${what.padEnd(26)} ours ${ms(o).padStart(9)}   GrowthBook ${ms(g).padStart(9)}   ratio ${(o / g).toFixed(2)}`);
  }
}
await browser.close();
await server.close();
