// Bundles the service into dist/main.js (options shared with the scripts and benchmarks that run
// the service's modules from source: bundle.mjs).
import { build } from "esbuild";
import { serverBundleOptions } from "./bundle.mjs";

// The read worker's thread is a file of its own (src/store/sqlite/read-worker.ts finds it beside main.js).
await build({
  ...serverBundleOptions,
  entryPoints: { main: "src/main.ts", "read-worker": "src/store/sqlite/read-worker-entry.mjs" },
  outdir: "dist",
  sourcemap: true,
});
