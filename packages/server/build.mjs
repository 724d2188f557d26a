// Bundles the service into dist/main.js (options shared with the scripts and benchmarks that run
// the service's modules from source: bundle.mjs).
import { build } from "esbuild";
import { serverBundleOptions } from "./bundle.mjs";

await build({ ...serverBundleOptions, entryPoints: { main: "src/main.ts" }, outdir: "dist", sourcemap: true });
