// The byte budget of storefit.js (conventions, habit 1): prints the gzip size and fails above it.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

export const BUDGET_BYTES = 16 * 1024;
// An argument names another file (the budget's own test uses it).
const file = process.argv[2] ?? new URL("./dist/storefit.js", import.meta.url);
const raw = readFileSync(file);
const gz = gzipSync(raw, { level: 9 }).length;
console.log(
  `${process.argv[2] ?? "storefit.js"}: ${raw.length} bytes, ${gz} bytes gzip (budget ${BUDGET_BYTES} bytes gzip, ${((gz / BUDGET_BYTES) * 100).toFixed(1)}% used)`,
);
if (gz > BUDGET_BYTES) {
  console.error(`storefit.js is over its gzip budget by ${gz - BUDGET_BYTES} bytes`);
  process.exit(1);
}
