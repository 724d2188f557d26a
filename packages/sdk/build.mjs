// Builds the storefront script (product.md §2): dist/storefit.js, minified, log messages
// compiled out (only codes stay), and dist/storefit.debug.js, the same code with messages.
import { build } from "esbuild";

const common = {
  entryPoints: ["src/boot/index.ts"],
  bundle: true,
  format: "iife",
  platform: "browser",
  // Every browser a shop still sees supports ES2019; async/await stays native.
  target: "es2019",
  conditions: ["source"],
  legalComments: "none",
  logLevel: "warning",
};

await Promise.all([
  build({
    ...common,
    outfile: "dist/storefit.js",
    minify: true,
    define: { __DEBUG__: "false" },
    // Minifier-friendly private names (conventions, habit 2): `_x` properties are ours to shorten.
    mangleProps: /^_/,
  }),
  build({
    ...common,
    outfile: "dist/storefit.debug.js",
    minify: false,
    define: { __DEBUG__: "true" },
  }),
]);
