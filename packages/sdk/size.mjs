// The byte budgets of the shipped browser files (conventions, habit 1): prints each file's gzip
// size and fails when one is over its budget. storefit.js sits on the shop's first paint;
// storefit-ext.js loads after the page is shown, but every visitor still downloads it.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

export const BUDGETS_BYTES = { "storefit.js": 16 * 1024, "storefit-ext.js": 8 * 1024, "shopify-pixel.js": 3 * 1024, "storefit-editor.js": 12 * 1024 };

// `node size.mjs FILE BUDGET` checks another file (the budget's own test uses it).
const files = process.argv[2]
  ? [[process.argv[2], Number(process.argv[3] ?? BUDGETS_BYTES["storefit.js"])]]
  : Object.entries(BUDGETS_BYTES).map(([name, budget]) => [new URL(`./dist/${name}`, import.meta.url), budget]);

let failed = false;
for (const [file, budget] of files) {
  const raw = readFileSync(file);
  const gz = gzipSync(raw, { level: 9 }).length;
  const name = typeof file === "string" ? file : file.pathname.split("/").pop();
  console.log(`${name}: ${raw.length} bytes, ${gz} bytes gzip (budget ${budget} bytes gzip, ${((gz / budget) * 100).toFixed(1)}% used)`);
  if (gz > budget) {
    console.error(`${name} is over its gzip budget by ${gz - budget} bytes`);
    failed = true;
  }
}
if (failed) process.exit(1);
