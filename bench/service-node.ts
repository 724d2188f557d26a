// The provider service as the decision benchmark runs it (bench/service.bench.mjs bundles this
// file with esbuild and starts it in a child process): the real app on a real SQLite file, the
// demo account, and 26 more running experiences — 30 in all — with audiences, several rules,
// traffic allocations and a few elements that two experiences compete for.
//
// Prints `{"port":…}` on stdout once listening. Env: BENCH_DATA_DIR (required on SQLite, the
// default), or DATABASE_URL: the PostgreSQL store on that database instead (bench/storage.bench.mjs;
// nodes started one after another may share one database: the second finds the seeded account).

import { join } from "node:path";
import { buildApp } from "../packages/server/src/app.js";
import { openSqliteStore } from "../packages/server/src/store/sqlite/index.js";
import { DEMO_ACCOUNT_ID, seedDemo } from "../packages/server/src/seed/demo.js";
import { DEMO_DOMAIN, DEMO_PAGES } from "../packages/server/src/seed/demo-pages.js";
import type { NewExperience, Store, VariationDefinition } from "../packages/server/src/store/types.js";

export const BENCH_EXPERIENCES = 26;

function variations(i: number, element: string): VariationDefinition[] {
  const count = 2 + (i % 2);
  return Array.from({ length: count }, (_, v) => ({
    id: `var_bench_${i}_${v}`,
    name: `Variation ${v}`,
    weight: v + 1,
    configs: [
      {
        config_customer_id: `bench_${i}`,
        config_id: `cfg_bench_${i}`,
        variation_data_type: "HTML_ELEMENT" as const,
        variation: { innerHTML: `Bench experience ${i}, variation ${v}: a sentence of realistic length.`, style: { color: "#2f6b4f" } },
        properties: { element_path: element, domain: DEMO_DOMAIN },
      },
    ],
  }));
}

function benchExperiences(): NewExperience[] {
  const usPages = DEMO_PAGES.filter((p) => p.domain === DEMO_DOMAIN);
  return Array.from({ length: BENCH_EXPERIENCES }, (_, i): NewExperience => {
    const page =
      i % 3 === 0
        ? { domain: DEMO_DOMAIN, page_path: "/products/", page_match: "contains" as const }
        : i % 3 === 1
          ? { domain: DEMO_DOMAIN, page_path: usPages[i % usPages.length]!.page_path, page_match: "exact_match" as const }
          : { domain: DEMO_DOMAIN, page_path: "^/products/[a-m]", page_match: "regex" as const };
    // Every fourth experience competes for the product title: priority decides.
    const element = i % 4 === 0 ? ".product-title" : `.bench-el-${i}`;
    const everyone = {
      id: `rule_bench_${i}_all`,
      audience_id: null,
      audience_name: "Everyone",
      behaviour: { id: `beh_bench_${i}_all`, name: "All", traffic_allocation: 0.5 + (i % 5) * 0.125, variations: variations(i, element) },
    };
    const targeted = {
      id: `rule_bench_${i}_aud`,
      // Targeted rules are on even experiences: half of them on the campaign, half on the device.
      audience_id: i % 4 === 2 ? "aud_bench_campaign" : "aud_bench_mobile",
      behaviour: { id: `beh_bench_${i}_aud`, name: "Targeted", traffic_allocation: 1, variations: variations(i + 100, element) },
    };
    return {
      id: `exp_bench_${String(i).padStart(2, "0")}`,
      account_id: DEMO_ACCOUNT_ID,
      name: `Bench experience ${i}`,
      status: "running",
      kind: i % 2 ? "personalization" : "ab_test",
      priority: i % 7,
      pages: [page],
      rules: i % 2 === 0 ? [targeted, everyone] : [everyone],
      goals: [],
    };
  });
}

const databaseUrl = process.env.DATABASE_URL;
const dir = process.env.BENCH_DATA_DIR;
if (!databaseUrl && !dir) throw new Error("BENCH_DATA_DIR (or DATABASE_URL) is required");
const store: Store = databaseUrl
  ? await (await import("../packages/server/src/store/postgres/index.js")).openPostgresStore(databaseUrl)
  : openSqliteStore(join(dir!, "service.sqlite"));
// Counts the revision reads (one per event-loop turn of config calls, decide/snapshots.ts), which
// the benchmark prints per call beside the CPU per call.
let revisionReads = 0;
const getAccountRevision = store.getAccountRevision.bind(store);
store.getAccountRevision = (...args) => {
  revisionReads++;
  return getAccountRevision(...args);
};
await store.migrate();
await seedDemo(store, { email: "bench@storefit.test", password: "bench-password-1" });
await store.saveAudience({ id: "aud_bench_mobile", account_id: DEMO_ACCOUNT_ID, name: "Mobile", description: "", condition: { cf_device_type: "mobile" } });
await store.saveAudience({
  id: "aud_bench_campaign",
  account_id: DEMO_ACCOUNT_ID,
  name: "Spring campaign, known tier",
  description: "",
  condition: { $and: [{ utm_campaign: { $in: ["spring", "summer"] } }, { "private.tier": { $exists: true } }] },
});
for (const e of benchExperiences()) await store.saveExperience(e);
const running = (await store.listRunningExperiences(DEMO_ACCOUNT_ID)).length;
if (running !== 30) throw new Error(`expected 30 running experiences, found ${running}`);

// The limiter stays on (it is on the hot path in production) with a bucket the load never empties.
const app = await buildApp({ store, rateLimits: { clientKey: { burst: 1e9, perSecond: 1e9 } } });
await app.listen({ port: 0, host: "127.0.0.1" });
const address = app.server.address();
process.stdout.write(JSON.stringify({ port: typeof address === "object" && address ? address.port : 0, running }) + "\n");

// The benchmark asks for this process's CPU time over IPC (free of other processes' load).
process.on("message", () => process.send?.({ ...process.cpuUsage(), revisionReads }));
process.on("SIGTERM", () => {
  void app
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
});
