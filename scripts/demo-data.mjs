// `npm run demo-data`: fills the demo account with 14 days of simulated history — visitors,
// exposures with their assignment probabilities, and conversions with a known true lift (+12 %
// add-to-cart on the free-shipping price message) — so the results screen shows something
// meaningful (packages/server/src/seed/demo-data.ts; docs/results.md, "Demo data").
//
// Writes to the service's own SQLite file: DATA_DIR (default ./data)/storefit.sqlite, creating
// and seeding it as the service would on first start (STOREFIT_ADMIN_EMAIL/PASSWORD). It may run
// while the service runs (WAL). It refuses to fill the same account twice.
import { build } from "esbuild";
import { serverBundleOptions } from "../packages/server/bundle.mjs";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = resolve(process.env.DATA_DIR ?? "./data");

// The server's modules bundled from source as packages/server/build.mjs does (npm dependencies
// external), beside the service's own node_modules: the bundle resolves the service's
// dependencies (some are installed there, not at the root) from where it is written.
const cacheDir = join(root, "packages", "server", "node_modules", ".cache", "storefit-demo-data");
mkdirSync(cacheDir, { recursive: true });
const bundle = join(cacheDir, "demo-data.mjs");
await build({
  ...serverBundleOptions,
  stdin: {
    contents: `
      export { openSqliteStore } from "./packages/server/src/store/sqlite/index.js";
      export { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, seedDemo } from "./packages/server/src/seed/demo.js";
      export { fillDemoHistory } from "./packages/server/src/seed/demo-data.js";
    `,
    resolveDir: root,
    loader: "ts",
    sourcefile: "demo-data-entry.ts",
  },
  outfile: bundle,
});
const { openSqliteStore, DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, seedDemo, fillDemoHistory } = await import(pathToFileURL(bundle).href);

mkdirSync(dataDir, { recursive: true });
const file = join(dataDir, "storefit.sqlite");
const store = openSqliteStore(file);
try {
  store.migrate();
  await seedDemo(store, {
    email: process.env.STOREFIT_ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL,
    password: process.env.STOREFIT_ADMIN_PASSWORD ?? DEFAULT_ADMIN_PASSWORD,
  });
  const started = Date.now();
  const result = await fillDemoHistory(store);
  if (!result.filled) {
    console.log(
      result.experiences.length
        ? `The demo account in ${file} already has its simulated history: nothing written.`
        : `None of the demo experiences is running in ${file}: nothing to simulate.`,
    );
  } else {
    console.log(
      `Filled the demo account in ${file}: ${result.visitors.toLocaleString("en-US")} visitors, ` +
        `${result.exposures.toLocaleString("en-US")} exposures, ${result.events.toLocaleString("en-US")} events over 14 days ` +
        `(${result.experiences.join(", ")}) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  }
} finally {
  store.close();
}
