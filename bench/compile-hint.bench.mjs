// Storefront script: what V8's compile hint in storefit.js pays (packages/sdk/compile-hint.mjs).
// The same storefit.js served twice, with and without its first line `//# allFunctionsCalledOnLoad`,
// on the flicker benchmark's product page (30 configs), the service answering after BENCH_DELAY_MS
// (100). Each trial is a fresh visitor (browser context) opening the page three times; trials
// alternate the two files. Printed, medians: on the first view the hidden time after the config
// answer (its Resource Timing responseEnd to `storefit:revealed`), and on every view navigation
// start to the reveal (repeat views reveal from the kept answer, before their call), with the
// ratio hinted / plain and the load average.
// BENCH_SNIPPET=1 serves each file as the service's snippet does (routes/assets.ts snippetOf): the
// hint (when the file has it), the settings line, then the script.
// Env: BENCH_TRIALS (24), BENCH_DELAY_MS (100), BENCH_SNIPPET (0).

/* global window, document */
import { loadavg } from "node:os";
import { COMPILE_HINT } from "../packages/sdk/compile-hint.mjs";
import { DESKTOP_UA, bundle, launch, median, ms, productSections, serve } from "./sdk-lib.mjs";

const TRIALS = Number(process.env.BENCH_TRIALS ?? 24);
const DELAY = Number(process.env.BENCH_DELAY_MS ?? 100);
const SNIPPET = process.env.BENCH_SNIPPET === "1";
const load = () => loadavg().map((x) => x.toFixed(1)).join(" ");
const loadBefore = load();
const { body, configs } = productSections(30);
const plain = await bundle(`import "./packages/sdk/src/boot/index.ts";`);
const files = { plain, hinted: COMPILE_HINT + plain };

let port = 0;
const settings = () =>
  `window.storefitSettings=${JSON.stringify({ client_key: "ck_bench", api_host: `http://api.localhost:${port}`, domain: "shop.localhost", revision: 1 })};`;
const page = (name) => ({
  body: `<!doctype html><html><head><meta charset="utf-8"><title>Soap</title>${SNIPPET ? "" : `<script>${settings()}</script>`}<script src="/sdk/${name}.js"></script></head><body><h1>Gentle soap</h1>${body}</body></html>`,
});
const script = (name) => () => ({
  type: "application/javascript",
  body: SNIPPET ? (name === "hinted" ? COMPILE_HINT : "") + `${settings()}\n${plain}` : files[name],
  headers: { "cache-control": "public, max-age=300" },
});
const server = await serve({
  "/plain": () => page("plain"),
  "/hinted": () => page("hinted"),
  "/sdk/plain.js": script("plain"),
  "/sdk/hinted.js": script("hinted"),
  // Cacheable, as the service marks an answer without per-visit audiences: repeat views reveal from it.
  "/v1/users/configs/": () =>
    new Promise((r) => setTimeout(() => r({ type: "application/json", body: JSON.stringify({ configs, user_id: "u_bench", cache: { revision: 1, attributes: [] } }) }), DELAY)),
  "/v1/*": () => ({ type: "application/json", body: '{"accepted":1}' }),
});
port = server.port;
const browser = await launch();

async function view(p, name) {
  await p.goto(`http://shop.localhost:${port}/${name}`);
  await p.waitForFunction(() => window.__t.revealed !== undefined);
  return p.evaluate(() => {
    const call = performance.getEntriesByType("resource").find((r) => r.name.includes("/v1/users/configs/"));
    return { hidden: window.__t.revealed - (call ? call.responseEnd : NaN), revealed: window.__t.revealed };
  });
}

const res = { plain: [], hinted: [] };
for (let i = 0; i < TRIALS; i++)
  for (const name of i % 2 ? ["plain", "hinted"] : ["hinted", "plain"]) {
    const context = await browser.newContext({ userAgent: DESKTOP_UA });
    await context.addInitScript(() => {
      window.__t = {};
      document.addEventListener("storefit:revealed", () => (window.__t.revealed = performance.now()));
    });
    const p = await context.newPage();
    res[name].push([await view(p, name), await view(p, name), await view(p, name)]);
    await context.close();
  }
await browser.close();
await server.close();

console.log(`storefit.js with and without its compile hint${SNIPPET ? " (as the snippet: the hint, the settings line, the script)" : ""}, 30 configs, service after ${DELAY} ms, median of ${TRIALS} visitors each (Chromium)`);
["first view", "second view", "third view"].forEach((label, k) => {
  const measures = [["navigation to reveal", (v) => v.revealed]];
  if (k === 0) measures.unshift(["hidden after the answer", (v) => v.hidden]);
  for (const [what, f] of measures) {
    const [a, b] = [median(res.plain.map((t) => f(t[k]))), median(res.hinted.map((t) => f(t[k])))];
    console.log(`  ${(label + ", " + what).padEnd(42)} plain ${ms(a).padStart(9)}   hinted ${ms(b).padStart(9)}   ratio ${(b / a).toFixed(2)}`);
  }
});
console.log(`load average before / after: ${loadBefore} / ${load()}`);
