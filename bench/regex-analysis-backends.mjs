// How long recheck's analysis (packages/server/src/admin/patterns.ts) takes on common patterns —
// the docs' examples, the dashboard's escaped conditions, typical page and referrer patterns —
// with the backend RECHECK_BACKEND names: auto (the native binary where recheck ships one, else
// the JAR with java, else a worker thread), native, java, worker. Two rounds (the first pays the
// backend's warm-up); the load average beside each figure. docs/security.md "Regular expressions".
//   node bench/regex-analysis-backends.mjs; RECHECK_BACKEND=worker node bench/regex-analysis-backends.mjs
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(new URL("../packages/server/package.json", import.meta.url));
const { check } = require("recheck");
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ")[0];
const slugs = Array.from({ length: 60 }, (_, i) => `summer-dress-${i}`).join("|");
const patterns = [
  "^/products/[^/]+$",
  "/products/.*/reviews",
  ".*checkout.*",
  "^/(en|fr)/collections/",
  "^(?!/admin)/",
  "sale",
  "^gold",
  "\\.co\\.uk$",
  "^/(collections|products)/[^/]+/?$",
  "^/blogs/[a-z0-9-]+/[a-z0-9-]+(\\?.*)?$",
  "^https?://(www\\.)?(google|bing|duckduckgo)\\.[a-z.]+/.*",
  `^/(en|fr|de|es)/(products|collections)/(${slugs})(\\?.*)?$`,
  "^/(a|a)*$",
  "^/(\\w|\\d)+$",
  "a.*b.*c",
];
const budget = Number(process.env.BUDGET ?? 2000);
const backend = process.env.RECHECK_BACKEND || "auto";
const started = Date.now();
await check("a", "");
console.log(`${backend}: first check (starts the backend) ${Date.now() - started} ms, load ${load()}`);
for (let round = 1; round <= 2; round++) {
  for (const p of patterns) {
    const before = load();
    const t = Date.now();
    const d = await check(p, "", { timeout: budget });
    const verdict = d.status === "vulnerable" ? `${d.complexity.type}${d.complexity.degree ?? ""}` : d.status === "unknown" ? d.error.kind : d.status;
    console.log(`${backend}\tround ${round}\t${Date.now() - t} ms\t${verdict}\tload ${before}\t${p.length > 60 ? p.slice(0, 57) + "…" : p}`);
  }
}
process.exit(0);
