// Storefront script benchmark 3 (docs/benchmarks.md, "Storefront script"): the apply engine's
// main-thread time per frame while the page keeps changing, inside its re-apply watch window
// (spec §4 Config replacement), with 30 configs, in Chromium, against GrowthBook's dom-mutator
// doing the same 30 changes, in the same run. Two pages' behaviours:
//
// - re-render storm: every frame the page re-renders the product block, so the 30 elements the
//   configs target are new nodes that both libraries must find and change again;
// - unrelated churn: every frame the page adds a review to a feed elsewhere and drops the oldest;
//   no config's element is concerned.
//
// Per frame, in a requestAnimationFrame callback: the page's mutation, then every microtask
// (mutation observer callbacks run there, and their own mutations' callbacks after them). The
// engine's part is that time minus the same page's with no library (`none`, same run). Also shown:
// the time spent inside the libraries' MutationObserver callbacks (the constructor is wrapped
// before either library loads). Each trial is a fresh page: FRAMES measured frames after WARM
// frames; the medians of the trials' per-frame medians are printed. dom-mutator keeps a record of
// every element it ever changed and walks them all on each change, so its storm cost grows with
// the number of frames: trials stay short (1 s). Env: BENCH_TRIALS (7), BENCH_FRAMES (60).

/* global window, document, requestAnimationFrame */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { DESKTOP_UA, bundle, launch, median, serve } from "./sdk-lib.mjs";

const N = 30;
const TRIALS = Number(process.env.BENCH_TRIALS ?? 7);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 60);
const WARM = 10;
const kinds = ["html", "src", "style", "class", "href"];

function domMutatorEntry() {
  if (process.env.DOM_MUTATOR_DIR)
    return join(process.env.DOM_MUTATOR_DIR, "dist/dom-mutator.esm.js");
  try {
    const pkg = createRequire(import.meta.url).resolve("dom-mutator/package.json");
    return join(dirname(pkg), JSON.parse(readFileSync(pkg, "utf8")).module);
  } catch {
    console.error(
      "dom-mutator is not installed: add dom-mutator@0.7.0 as a devDependency of @storefit/bench (or set DOM_MUTATOR_DIR).",
    );
    process.exit(1);
  }
}

// Two thirds of the configs name their element by id, a third by a class inside the block.
const selectorOf = (i) => (i % 3 === 2 ? `.product .t${i}` : `#e${i}`);
const target = (i) => {
  const k = kinds[i % kinds.length];
  const attrs = `id="e${i}" class="t${i}${k === "class" ? " copy" : ""}"`;
  return k === "src"
    ? `<img ${attrs} src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="">`
    : k === "href"
      ? `<a ${attrs} href="/old/${i}">link ${i}</a>`
      : `<div class="row"><h3>Section ${i}</h3><p ${attrs}>Product copy ${i}, gentle and fragrance free.</p></div>`;
};
const product = `<div class="product">${Array.from({ length: N }, (_, i) => target(i)).join("")}</div>`;
// The rest of a shop's page: navigation and a grid of other products (about 400 elements).
const filler = `<nav>${Array.from({ length: 40 }, (_, i) => `<a class="nav-link" href="/c/${i}">Category ${i}</a>`).join("")}</nav><section class="grid">${Array.from(
  { length: 60 },
  (_, i) =>
    `<article class="card"><img alt="" src="data:,"><h4 class="card-title">Item ${i}</h4><span class="card-price">$${i}.00</span><button class="add">Add</button></article>`,
).join("")}</section>`;
const page = `<!doctype html><html><head><meta charset="utf-8"><title>Soap</title></head><body><header><h1>Gentle soap</h1></header>${filler}<main id="app">${product}</main><ul id="feed"></ul></body></html>`;

const ours = Array.from({ length: N }, (_, i) => {
  const k = kinds[i % kinds.length];
  const variation =
    k === "html"
      ? { innerHTML: `New copy ${i} <b>now 20% off</b>` }
      : k === "src"
        ? { src: "data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=" }
        : k === "style"
          ? { style: { color: "red" } }
          : k === "class"
            ? { cf_classes_add: ["sale"] }
            : { href_target: { href: `/new/${i}` } };
  return {
    config_customer_id: `c${i}`,
    config_id: `cfg_${i}`,
    variation_id: "v",
    variation_data_type: "HTML_ELEMENT",
    variation,
    properties: { element_path: selectorOf(i) },
  };
});
const theirs = Array.from({ length: N }, (_, i) => {
  const k = kinds[i % kinds.length];
  const selector = selectorOf(i);
  return k === "html"
    ? { selector, action: "set", attribute: "html", value: `New copy ${i} <b>now 20% off</b>` }
    : k === "src"
      ? {
          selector,
          action: "set",
          attribute: "src",
          value: "data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=",
        }
      : k === "style"
        ? { selector, action: "set", attribute: "style", value: "color: red;" }
        : k === "class"
          ? { selector, action: "append", attribute: "class", value: "sale" }
          : { selector, action: "set", attribute: "href", value: `/new/${i}` };
});

const [oursJs, theirsJs] = await Promise.all([
  bundle(
    `import { createEngine } from "./packages/sdk/src/dom/engine.ts"; import { createScope } from "./packages/sdk/src/core/scope.ts"; window.storefitBench = { createEngine, createScope };`,
  ),
  bundle(`import mutate from "dom-mutator"; window.storefitBench = mutate;`, {
    alias: { "dom-mutator": domMutatorEntry() },
  }),
]);
// Before either library: the time spent inside every MutationObserver callback.
const wrapObserver = `(() => { const O = MutationObserver; window.__inCallbacks = 0;
  window.MutationObserver = class extends O { constructor(cb) { super((r, o) => { const t = performance.now(); try { cb(r, o); } finally { window.__inCallbacks += performance.now() - t; } }); } }; })();`;

// Cross-origin isolated, so performance.now() has 5 µs resolution rather than 100 µs.
const isolated = {
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-embedder-policy": "require-corp",
};
const server = await serve({ "/page": () => ({ body: page, headers: isolated }) });
const browser = await launch();
const context = await browser.newContext({ userAgent: DESKTOP_UA });

async function trial(which, scenario) {
  const p = await context.newPage();
  await p.goto(`http://shop.localhost:${server.port}/page`);
  await p.addScriptTag({ content: wrapObserver });
  if (which !== "none") await p.addScriptTag({ content: which === "ours" ? oursJs : theirsJs });
  const r = await p.evaluate(
    async ({ which, scenario, ours, theirs, frames, warm }) => {
      const b = window.storefitBench;
      const app = document.getElementById("app");
      const feed = document.getElementById("feed");
      // What the page's framework renders: its own content, never ours.
      const html = app.innerHTML;
      if (which === "ours") {
        const engine = b.createEngine({
          scope: b.createScope(),
          settings: { api_host: "x", element_timeout_ms: 3000, reapply_timer_ms: 2000 },
          device: "desktop",
          track: () => {},
        });
        await engine.apply(ours);
      } else if (which === "theirs") theirs.forEach((m) => b.declarative(m));
      let n = 0;
      const mutate =
        scenario === "storm"
          ? () => (app.innerHTML = html)
          : () => {
              feed.insertAdjacentHTML(
                "beforeend",
                `<li class="review"><b>Review ${n++}</b> <span>great soap, would buy again</span></li>`,
              );
              if (feed.children.length > 20) feed.firstElementChild.remove();
            };
      const times = [];
      const inCallbacks = [];
      for (let f = 0; f < warm + frames; f++) {
        await new Promise((r) => requestAnimationFrame(r));
        const c0 = window.__inCallbacks;
        const t0 = performance.now();
        mutate();
        // Each hop lets one more level of observer callbacks (and those their changes cause) run.
        for (let i = 0; i < 10; i++) await null;
        const t1 = performance.now();
        if (f >= warm) {
          times.push(t1 - t0);
          inCallbacks.push(window.__inCallbacks - c0);
        }
      }
      const e = (i) => document.getElementById(`e${i}`);
      return {
        times,
        inCallbacks,
        check: [
          e(0).innerHTML,
          e(1).getAttribute("src").length,
          e(2).style.color,
          e(3).classList.contains("sale"),
          e(4).getAttribute("href"),
        ],
      };
    },
    { which, scenario, ours, theirs, frames: FRAMES, warm: WARM },
  );
  await p.close();
  const want =
    which === "none"
      ? ["Product copy 0, gentle and fragrance free.", 42, "", false, "/old/4"]
      : ["New copy 0 <b>now 20% off</b>", 70, "red", true, "/new/4"];
  if (JSON.stringify(r.check) !== JSON.stringify(want))
    throw new Error(
      `${which} (${scenario}) left ${JSON.stringify(r.check)} on the page, expected ${JSON.stringify(want)}`,
    );
  return { frame: median(r.times), inCallbacks: median(r.inCallbacks) };
}

const variants = ["ours", "theirs", "none"];
const out = {};
const loads = [];
for (const scenario of ["storm", "churn"]) {
  for (const w of variants) await trial(w, scenario); // warm-up, not counted
  const res = { ours: [], theirs: [], none: [] };
  for (let i = 0; i < TRIALS; i++)
    for (const w of i % 2 ? [...variants].reverse() : variants)
      res[w].push(await trial(w, scenario));
  loads.push(readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "));
  out[scenario] = Object.fromEntries(
    variants.map((w) => [
      w,
      {
        frame: median(res[w].map((r) => r.frame)),
        inCallbacks: median(res[w].map((r) => r.inCallbacks)),
      },
    ]),
  );
}
await browser.close();
await server.close();

const us = (x) => `${(x * 1000).toFixed(0)} µs`;
console.log(
  `Storefront script: engine main-thread time per frame, ${N} configs, median of ${TRIALS} trials × ${FRAMES} frames (Chromium)`,
);
for (const [scenario, what] of [
  ["storm", "re-render storm (30 targets replaced)"],
  ["churn", "unrelated churn (a feed elsewhere)"],
]) {
  const r = out[scenario];
  const o = r.ours.frame - r.none.frame;
  const t = r.theirs.frame - r.none.frame;
  console.log(
    `${what.padEnd(38)} ours ${us(o).padStart(7)}   dom-mutator ${us(t).padStart(7)}   ratio ${(o / t).toFixed(2)}   (frame: ours ${us(r.ours.frame)}, dom-mutator ${us(r.theirs.frame)}, none ${us(r.none.frame)})`,
  );
  console.log(
    `${"  inside observer callbacks".padEnd(38)} ours ${us(r.ours.inCallbacks).padStart(7)}   dom-mutator ${us(r.theirs.inCallbacks).padStart(7)}   ratio ${(r.ours.inCallbacks / r.theirs.inCallbacks).toFixed(2)}`,
  );
}
console.log(`load average after each scenario: ${loads.join(" / ")}`);
