// The service's modules for a benchmark that drives them in its own process: `exports` (lines such
// as `export { buildApp } from "../packages/server/src/app.js";`, relative to bench/) bundled as
// the service is built (packages/server/bundle.mjs), then imported. The bundle lives beside the
// service's node_modules, where some of its dependencies are installed, so that it resolves them.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { serverBundleOptions } from "../packages/server/bundle.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const cacheDir = join(here, "..", "packages", "server", "node_modules", ".cache", "storefit-bench");

/** Bundles `exports` as `${name}.mjs` and imports it. */
export async function importServerModules(name, exports) {
  mkdirSync(cacheDir, { recursive: true });
  const outfile = join(cacheDir, `${name}.mjs`);
  await build({ ...serverBundleOptions, stdin: { contents: exports, resolveDir: here, loader: "ts", sourcefile: `${name}.ts` }, outfile });
  return import(pathToFileURL(outfile).href);
}
