// Builds the storefront script (product.md §2): dist/storefit.js, minified, log messages
// compiled out (only codes stay), and dist/storefit.debug.js, the same code with messages; and
// the same pair for the lazy extension (storefit-ext.js, core/ext.ts), which storefit.js loads
// after the page is shown.
import { build } from "esbuild";

const common = {
  bundle: true,
  format: "iife",
  platform: "browser",
  // Every browser a shop still sees supports ES2019; async/await stays native.
  target: "es2019",
  conditions: ["source"],
  legalComments: "none",
  logLevel: "warning",
};

const bundles = [
  ["src/boot/index.ts", "storefit"],
  ["src/ext/index.ts", "storefit-ext"],
  // The Shopify web pixel (product.md §2), run by Shopify's pixel sandbox, not by storefit.js.
  ["src/shopify/pixel.ts", "shopify-pixel"],
];

await Promise.all(
  bundles.flatMap(([entry, name]) => [
    build({
      ...common,
      entryPoints: [entry],
      outfile: `dist/${name}.js`,
      minify: true,
      define: { __DEBUG__: "false" },
      // Minifier-friendly private names (conventions, habit 2): `_x` properties are ours to shorten.
      mangleProps: /^_/,
    }),
    build({
      ...common,
      entryPoints: [entry],
      outfile: `dist/${name}.debug.js`,
      minify: false,
      define: { __DEBUG__: "true" },
    }),
  ]),
);
