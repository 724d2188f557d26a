// Type-checks every workspace with its own tsconfig (browser code gets DOM types, server code
// gets Node's). Projects are checked one after another: the CI machine has two cores.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const projects = [
  "packages/contract",
  "packages/stats",
  "packages/sdk",
  "packages/server",
  "packages/dashboard",
  "packages/dashboard/test",
  "apps/demo-shop",
  "apps/shopify-theme",
  "e2e",
  "bench",
  "test",
];
let failed = 0;
for (const dir of projects) {
  if (!existsSync(`${dir}/tsconfig.json`)) continue;
  const r = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", dir], { stdio: "inherit" });
  if (r.status !== 0) {
    failed++;
    console.error(`typecheck failed: ${dir}`);
  }
}
process.exit(failed ? 1 : 0);
