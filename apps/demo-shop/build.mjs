// Bundles the demo shop for Node: dist/main.js (the runnable server) and dist/index.js (the
// library the e2e tests and the start script import). Only Node built-ins are used, so the
// bundles are self-contained.
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL(".", import.meta.url));
rmSync(new URL("dist/", import.meta.url), { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: ["src/main.ts", "src/index.ts"],
  outdir: "dist",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  conditions: ["source"],
  sourcemap: true,
  logLevel: "warning",
});
