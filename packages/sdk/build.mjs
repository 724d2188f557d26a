// Builds the storefront script (product.md §2): dist/storefit.js, minified, log messages
// compiled out (only codes stay), and dist/storefit.debug.js, the same code with messages; and
// the same pair for the lazy extension (storefit-ext.js, core/ext.ts), which storefit.js loads
// after the page is shown.
import { mkdirSync, writeFileSync } from "node:fs";
import { build } from "esbuild";
import { minify } from "terser";
import { COMPILE_HINT } from "./compile-hint.mjs";

const common = {
  bundle: true,
  format: "iife",
  platform: "browser",
  // ES2020 (Chrome and Edge 80, Firefox 74, Safari 13.1, all from early 2020) keeps `?.` and `??`
  // native: 255 bytes gzip less than ES2019's spelled-out forms. An older browser fails to parse
  // the file, so nothing of ours runs there: the page shows as it is, unhidden and unchanged.
  target: "es2020",
  conditions: ["source"],
  legalComments: "none",
  logLevel: "warning",
};

mkdirSync("dist", { recursive: true });

const bundles = [
  ["src/boot/index.ts", "storefit"],
  ["src/ext/index.ts", "storefit-ext"],
  // The Shopify web pixel (product.md §2), run by Shopify's pixel sandbox, not by storefit.js. It
  // stays ES2019: a shop pastes it into Shopify's own editor, whose parser we do not control, and
  // its budget has room for the spelled-out `?.` and `??`.
  ["src/shopify/pixel.ts", "shopify-pixel", 2019],
  // The visual editor's bridge (docs/visual-editor.md), loaded by storefit.js in edit mode only.
  ["src/editor/index.ts", "storefit-editor"],
];

// The shipped files: esbuild bundles (and shortens our `_x` properties), then terser compresses;
// terser's extra passes save about 4 % gzip over esbuild's minifier alone (measured on
// storefit.js: 15,379 → ~14,800 bytes), which matters under a 16 KiB budget.
async function shipped(entry, name, ecma) {
  const out = await build({
    ...common,
    target: `es${ecma}`,
    entryPoints: [entry],
    write: false,
    minify: true,
    define: { __DEBUG__: "false" },
    // Minifier-friendly private names (conventions, habit 2): `_x` properties are ours to shorten.
    mangleProps: /^_/,
  });
  const result = await minify(out.outputFiles[0].text, {
    ecma,
    toplevel: true,
    compress: { passes: 3, pure_getters: true },
    mangle: true,
    format: { comments: false },
  });
  writeFileSync(`dist/${name}.js`, (name === "storefit" ? COMPILE_HINT : "") + result.code);
}

await Promise.all(
  bundles.flatMap(([entry, name, ecma = 2020]) => [
    shipped(entry, name, ecma),
    build({
      ...common,
      target: `es${ecma}`,
      entryPoints: [entry],
      outfile: `dist/${name}.debug.js`,
      minify: false,
      define: { __DEBUG__: "true" },
    }),
  ]),
);
