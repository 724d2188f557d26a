// Reads the environment (product.md §3 "Settings"), opens the SQLite store, seeds the demo
// account on first start, and listens.

import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildApp } from "./app.js";
import { SqliteStore } from "./store/sqlite.js";
import type { RateLimits } from "./http/rate-limit.js";
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, seedDemo } from "./seed/demo.js";
import { fillDemoHistory } from "./seed/demo-data.js";

const port = Number(process.env.PORT ?? 4100);
const host = process.env.HOST ?? "127.0.0.1";
const dataDir = resolve(process.env.DATA_DIR ?? "./data");
const adminEmail = process.env.STOREFIT_ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL;
const adminPassword = process.env.STOREFIT_ADMIN_PASSWORD ?? DEFAULT_ADMIN_PASSWORD;
const publicUrl = process.env.PUBLIC_URL;
// Requests per second per client key on this node (burst: twice that); 0 turns the limit off.
const clientRatePerS = process.env.CLIENT_RATE_LIMIT_PER_S === undefined ? undefined : Number(process.env.CLIENT_RATE_LIMIT_PER_S);
if (clientRatePerS !== undefined && !(clientRatePerS >= 0)) {
  console.error(`CLIENT_RATE_LIMIT_PER_S must be a number ≥ 0, not "${process.env.CLIENT_RATE_LIMIT_PER_S}"`);
  process.exit(1);
}
const rateLimits: RateLimits =
  clientRatePerS === undefined ? {} : { clientKey: clientRatePerS === 0 ? false : { perSecond: clientRatePerS, burst: 2 * clientRatePerS } };

mkdirSync(dataDir, { recursive: true });
const store = new SqliteStore(join(dataDir, "storefit.sqlite"));
await store.migrate();
const { created } = await seedDemo(store, { email: adminEmail, password: adminPassword });
// A new demo account comes with 14 days of simulated history (seed/demo-data.ts), so the results
// screen has something to show from the first minute; DEMO_HISTORY=0 leaves it empty.
const history = created && process.env.DEMO_HISTORY !== "0" ? await fillDemoHistory(store) : null;

const app = await buildApp({ store, log: process.env.LOG !== "0", rateLimits, ...(publicUrl ? { publicUrl } : {}) });
await app.listen({ port, host });

const origin = publicUrl ?? `http://localhost:${port}`;
console.log(`Storefit service on ${origin} (data in ${dataDir})`);
if (created) console.log("Seeded the demo account Little Sprouts (client key ck_demo_littlesprouts).");
if (history?.filled) {
  console.log(`Simulated 14 days of demo history: ${history.visitors.toLocaleString("en-US")} visitors, ${history.events.toLocaleString("en-US")} events.`);
}
if (!process.env.STOREFIT_ADMIN_PASSWORD) {
  console.log(`Demo mode: dashboard ${origin}/ — sign in as ${adminEmail} / ${adminPassword}`);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void app
      .close()
      .then(() => store.close())
      .then(() => process.exit(0));
  });
}
