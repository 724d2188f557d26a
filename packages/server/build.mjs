// Bundles the service into dist/main.js.
// Workspace packages are bundled from source; npm dependencies stay external.
import { build } from "esbuild";
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith("@storefit/"));

await build({
  entryPoints: { main: "src/main.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: ["source"],
  external,
  sourcemap: true,
  logLevel: "warning",
  // Bundled CommonJS code may require() Node built-ins at run time (@storefit/stats' stdlib
  // t-quantile pulls in `debug`, which requires "tty"); an ES module has no `require` of its own.
  banner: { js: 'import { createRequire as __storefitCreateRequire } from "node:module"; const require = __storefitCreateRequire(import.meta.url);' },
});
