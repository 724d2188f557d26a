// Shared parts of the storefront-script benchmarks (bench/sdk-*.bench.mjs): Debian's Chromium
// through playwright-core (the browser the e2e tests drive), esbuild bundles of code under test,
// a loopback server for fixture pages, and median / ratio helpers. Benches do not import e2e/
// (ARCHITECTURE.md, import rules), so the few lines they share with it are repeated here.

import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** A normal desktop browser: headless Chromium's own UA is a bot to the script (spec §6). */
export const DESKTOP_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

export async function launch() {
  const path = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => p && existsSync(p));
  if (!path) throw new Error("Chromium is missing: run `node scripts/ensure-chromium.mjs`.");
  return chromium.launch({
    executablePath: path,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-quic", "--disable-sync"],
  });
}

/** Bundles `contents` (an entry module's text, resolved from the repository root) into an IIFE. */
export async function bundle(contents, { alias, minify = true } = {}) {
  const r = await build({
    stdin: { contents, resolveDir: root, loader: "ts" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    conditions: ["source"],
    define: { __DEBUG__: "false" },
    mangleProps: /^_/,
    minify,
    alias,
    logLevel: "error",
  });
  return r.outputFiles[0].text;
}

/**
 * A loopback server: `routes` maps a path to a handler `(req, url, body) => { status?, type?,
 * body, headers? }` (or a promise of it). Every response allows any origin and exposes timing.
 */
export async function serve(routes) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const handler = routes[url.pathname] ?? Object.entries(routes).find(([p]) => p.endsWith("*") && url.pathname.startsWith(p.slice(0, -1)))?.[1];
    const headers = { "access-control-allow-origin": req.headers.origin ?? "*", "timing-allow-origin": "*", "cache-control": "no-store" };
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...headers, "access-control-allow-headers": "content-type" });
      return res.end();
    }
    if (!handler) {
      res.writeHead(404, headers);
      return res.end();
    }
    const out = await handler(req, url, Buffer.concat(chunks).toString("utf8"));
    res.writeHead(out.status ?? 200, { ...headers, "content-type": out.type ?? "text/html; charset=utf-8", ...out.headers });
    res.end(out.body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { port: server.address().port, close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const ms = (x) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;

/** The changes of the flicker and repeat-view benchmarks: innerHTML, src, style, a class, href. */
export const CHANGE_KINDS = ["html", "src", "style", "class", "href"];
export const GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=";

/**
 * A product page's `n` sections, element `#e{i}` of each changed by config `c{i}` (of kind
 * CHANGE_KINDS[i % 5]): the body's HTML and the config answer's `configs`.
 */
export function productSections(n) {
  const kindOf = (i) => CHANGE_KINDS[i % CHANGE_KINDS.length];
  const body = Array.from({ length: n }, (_, i) => {
    const k = kindOf(i);
    return k === "src"
      ? `<img id="e${i}" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="">`
      : k === "href"
        ? `<a id="e${i}" href="/old/${i}">link ${i}</a>`
        : `<div class="section"><h2>Section ${i}</h2><p id="e${i}" class="copy">Product copy ${i} — gentle, fragrance free.</p></div>`;
  }).join("\n");
  const configs = Object.fromEntries(
    Array.from({ length: n }, (_, i) => {
      const k = kindOf(i);
      const variation =
        k === "html"
          ? { innerHTML: `New copy ${i} <b>now 20% off</b>` }
          : k === "src"
            ? { src: GIF }
            : k === "style"
              ? { style: { color: "rgb(200, 0, 0)", "font-weight": "700" } }
              : k === "class"
                ? { cf_classes_edit_option: "add_remove_classes", cf_classes_add: ["sale"], cf_classes_remove: ["copy"] }
                : { href_target: { href: `/new/${i}`, target: "_self" } };
      const config = {
        config_customer_id: `c${i}`,
        config_id: `cfg_${i}`,
        variation_id: `var_${i}`,
        version: 1,
        variation_data_type: "HTML_ELEMENT",
        variation,
        properties: { element_path: `#e${i}` },
        experience_behaviour_response: { experience_id: `exp_${i}`, behaviour_id: "b", rule_id: "r" },
      };
      return [`c${i}`, config];
    }),
  );
  return { body, configs };
}
