// How the service's TypeScript is bundled for Node, in one place: by its build (dist/main.js) and
// by the scripts and benchmarks that run its modules from source (scripts/demo-data.mjs, bench/).
// Workspace packages are bundled from source; npm dependencies stay external.
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));

export const serverBundleOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: ["source"],
  external: Object.keys(pkg.dependencies).filter((d) => !d.startsWith("@storefit/")),
  logLevel: "warning",
  // Bundled CommonJS code may require() Node built-ins at run time (@storefit/stats' stdlib
  // t-quantile pulls in `debug`, which requires "tty"); an ES module has no `require` of its own.
  banner: { js: 'import { createRequire as __storefitCreateRequire } from "node:module"; const require = __storefitCreateRequire(import.meta.url);' },
};
