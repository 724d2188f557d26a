// Storefront script benchmark 1 (docs/benchmarks.md, "Storefront script"): apply 1,000 changes to
// one page in Chromium with our apply engine and with GrowthBook's dom-mutator, in the same run,
// and print the ratio (ours / dom-mutator; below 1 means we are faster). Revert of all 1,000 is
// measured the same way.
//
// The 1,000 changes are the same DOM work for both, one per element, in four kinds: innerHTML,
// add a class, set an href, set a style. Each trial opens a fresh page (no state carries over),
// loads one bundle, applies, and forces style and layout (what the visitor waits for before the
// next paint). Trials alternate the two; medians are reported. Env: BENCH_TRIALS (15),
// DOM_MUTATOR_DIR (a dom-mutator package directory, when it is not installed in node_modules).

/* global window, document -- functions passed to page.evaluate run in the page */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { DESKTOP_UA, bundle, launch, median, ms, serve } from "./sdk-lib.mjs";

const N = 1000;
const TRIALS = Number(process.env.BENCH_TRIALS ?? 15);

function domMutatorEntry() {
  if (process.env.DOM_MUTATOR_DIR) return join(process.env.DOM_MUTATOR_DIR, "dist/dom-mutator.esm.js");
  try {
    // Its ES module build: the CommonJS entry picks a file by process.env, which a page lacks.
    const pkg = createRequire(import.meta.url).resolve("dom-mutator/package.json");
    return join(dirname(pkg), JSON.parse(readFileSync(pkg, "utf8")).module);
  } catch {
    console.error("dom-mutator is not installed: add dom-mutator@0.7.0 as a devDependency of @storefit/bench (or set DOM_MUTATOR_DIR).");
    process.exit(1);
  }
}

const kinds = ["html", "class", "href", "style"];
const page = `<!doctype html><html><head><meta charset="utf-8"></head><body>${Array.from({ length: N }, (_, i) =>
  kinds[i % 4] === "href" ? `<a id="e${i}" href="/old/${i}">link ${i}</a>` : `<div id="e${i}" class="row">item ${i}</div>`,
).join("")}</body></html>`;

/** Our configs (spec §3 Config), one change each. */
const configs = Array.from({ length: N }, (_, i) => {
  const k = kinds[i % 4];
  const variation =
    k === "html" ? { innerHTML: `<b>new ${i}</b>` } : k === "class" ? { cf_classes_add: ["sale"] } : k === "href" ? { href_target: { href: `/new/${i}` } } : { style: { color: "red" } };
  return { config_customer_id: `c${i}`, config_id: `cfg_${i}`, variation_id: "v", variation_data_type: "HTML_ELEMENT", variation, properties: { element_path: `#e${i}` } };
});
/** The same changes as dom-mutator declarative mutations. */
const mutations = Array.from({ length: N }, (_, i) => {
  const k = kinds[i % 4];
  const selector = `#e${i}`;
  return k === "html"
    ? { selector, action: "set", attribute: "html", value: `<b>new ${i}</b>` }
    : k === "class"
      ? { selector, action: "append", attribute: "class", value: "sale" }
      : k === "href"
        ? { selector, action: "set", attribute: "href", value: `/new/${i}` }
        : { selector, action: "set", attribute: "style", value: "color: red" };
});

const [ours, theirs] = await Promise.all([
  bundle(`import { createEngine } from "./packages/sdk/src/dom/engine.ts"; import { createScope } from "./packages/sdk/src/core/scope.ts"; window.storefitBench = { createEngine, createScope };`),
  bundle(`import mutate from "dom-mutator"; window.storefitBench = mutate;`, { alias: { "dom-mutator": domMutatorEntry() } }),
]);

const server = await serve({ "/page": () => ({ body: page }) });
const browser = await launch();
const context = await browser.newContext({ userAgent: DESKTOP_UA });

async function trial(which) {
  const p = await context.newPage();
  await p.goto(`http://shop.localhost:${server.port}/page`);
  await p.addScriptTag({ content: which === "ours" ? ours : theirs });
  const r = await p.evaluate(
    async ({ which, configs, mutations }) => {
      const b = window.storefitBench;
      let revert;
      const t0 = performance.now();
      if (which === "ours") {
        const engine = b.createEngine({ scope: b.createScope(), settings: { api_host: "x", element_timeout_ms: 3000, reapply_timer_ms: 2000 }, device: "desktop", track: () => {} });
        await engine.apply(configs);
        revert = () => engine.revert();
      } else {
        const controllers = mutations.map((m) => b.declarative(m));
        revert = () => controllers.forEach((c) => c.revert());
      }
      void document.body.offsetHeight;
      const t1 = performance.now();
      const check = [document.getElementById("e0").innerHTML, document.getElementById("e1").className, document.getElementById("e2").getAttribute("href"), document.getElementById("e3").style.color];
      const t2 = performance.now();
      revert();
      void document.body.offsetHeight;
      const t3 = performance.now();
      const after = [document.getElementById("e0").innerHTML, document.getElementById("e1").className, document.getElementById("e2").getAttribute("href"), document.getElementById("e3").style.color];
      return { apply: t1 - t0, revert: t3 - t2, check, after };
    },
    { which, configs, mutations },
  );
  await p.close();
  const want = ["<b>new 0</b>", "row sale", "/new/2", "red"];
  if (JSON.stringify(r.check) !== JSON.stringify(want)) throw new Error(`${which} did not apply: ${JSON.stringify(r.check)}`);
  if (JSON.stringify(r.after) !== JSON.stringify(["item 0", "row", "/old/2", ""])) throw new Error(`${which} did not revert: ${JSON.stringify(r.after)}`);
  return r;
}

// One warm-up of each (JIT, caches), not counted.
await trial("ours");
await trial("theirs");
const res = { ours: [], theirs: [] };
for (let i = 0; i < TRIALS; i++) for (const w of i % 2 ? ["theirs", "ours"] : ["ours", "theirs"]) res[w].push(await trial(w));

await browser.close();
await server.close();

const row = (what, key) => {
  const o = median(res.ours.map((r) => r[key]));
  const t = median(res.theirs.map((r) => r[key]));
  console.log(`${what.padEnd(34)} ours ${ms(o).padStart(9)}   dom-mutator ${ms(t).padStart(9)}   ratio ${(o / t).toFixed(2)}`);
};
console.log(`Storefront script: apply engine vs dom-mutator, ${N} changes, median of ${TRIALS} trials (Chromium)`);
row(`apply ${N} changes + style/layout`, "apply");
row(`revert ${N} changes + style/layout`, "revert");
