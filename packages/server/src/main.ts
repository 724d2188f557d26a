// Reads the environment (product.md §3 "Settings"), opens the store (PostgreSQL when
// DATABASE_URL is set, else the embedded SQLite file in DATA_DIR), seeds the demo account on first
// start, and listens.

import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildApp } from "./app.js";
import { openSqliteStore } from "./store/sqlite/index.js";
import type { Store } from "./store/types.js";
import type { RateLimit, RateLimits } from "./http/rate-limit.js";
import { CLIENT_BODY_LIMIT, DEFAULT_SERVER_LIMITS } from "./http/edge.js";
import type { ServerLimits } from "./http/edge.js";
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, seedDemo } from "./seed/demo.js";
import { fillDemoHistory } from "./seed/demo-data.js";
import { DEMO_SHOP_PORT, demoSiteOrigins } from "./seed/demo-pages.js";

const port = Number(process.env.PORT ?? 4100);
const host = process.env.HOST ?? "127.0.0.1";
const dataDir = resolve(process.env.DATA_DIR ?? "./data");
const adminEmail = process.env.STOREFIT_ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL;
const adminPassword = process.env.STOREFIT_ADMIN_PASSWORD ?? DEFAULT_ADMIN_PASSWORD;
const publicUrl = process.env.PUBLIC_URL;
// Without PUBLIC_URL, the origins the snippet may name as api_host when a request's Host header
// is one of them (docs/security.md); the default keeps `npm start`'s demo working on this machine.
const publicOrigins = (process.env.PUBLIC_ORIGINS ?? `http://localhost:${port},http://127.0.0.1:${port}`)
  .split(",")
  .map((o) => o.trim())
  .filter(Boolean);

/** A whole number ≥ 0 from the environment, or the default; anything else stops the start. */
function count(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`${name} must be a whole number ≥ 0, not "${text}"`);
    process.exit(1);
  }
  return value;
}
const serverLimits: ServerLimits = {
  ...DEFAULT_SERVER_LIMITS,
  requestTimeoutMs: count("REQUEST_TIMEOUT_MS", DEFAULT_SERVER_LIMITS.requestTimeoutMs),
  headersTimeoutMs: count("HEADERS_TIMEOUT_MS", DEFAULT_SERVER_LIMITS.headersTimeoutMs),
  keepAliveTimeoutMs: count("KEEP_ALIVE_TIMEOUT_MS", DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs),
  maxConnections: count("MAX_CONNECTIONS", DEFAULT_SERVER_LIMITS.maxConnections),
  maxConnectionsPerAddress: count("MAX_CONNECTIONS_PER_ADDRESS", DEFAULT_SERVER_LIMITS.maxConnectionsPerAddress),
  maxRequestsPerSocket: count("MAX_REQUESTS_PER_SOCKET", DEFAULT_SERVER_LIMITS.maxRequestsPerSocket),
};
// Node refuses a header time-out longer than the request's (both are checked on one timer).
if (serverLimits.requestTimeoutMs > 0 && serverLimits.headersTimeoutMs > serverLimits.requestTimeoutMs) {
  console.error(`HEADERS_TIMEOUT_MS (${serverLimits.headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${serverLimits.requestTimeoutMs})`);
  process.exit(1);
}
// Requests per second per client key on this node (burst: twice that); 0 turns the limit off.
// CLIENT_IP_RATE_LIMIT_PER_S: the same per client address, taken first (docs/security.md).
const ratePerS = (name: string): RateLimit | false | undefined => {
  const text = process.env[name];
  if (text === undefined) return undefined;
  const perSecond = Number(text);
  if (!(perSecond >= 0) || text.trim() === "") {
    console.error(`${name} must be a number ≥ 0, not "${text}"`);
    process.exit(1);
  }
  return perSecond === 0 ? false : { perSecond, burst: 2 * perSecond };
};
const clientKeyLimit = ratePerS("CLIENT_RATE_LIMIT_PER_S");
const clientIpLimit = ratePerS("CLIENT_IP_RATE_LIMIT_PER_S");
// Body bytes per second per client address on the client API; the burst is four seconds' worth,
// and at least the largest client body (a smaller one would refuse that body for ever).
const clientIpBytes = ratePerS("CLIENT_IP_BYTES_PER_S");
// Admin API requests per second per signed-in operator on this node, all but the expensive reads
// (burst: ten seconds' worth); ADMIN_HEAVY_RATE_LIMIT_PER_S: the expensive reads per operator and
// per secret key (burst: fifteen seconds' worth, a search typed a keystroke at a time).
// Defaults in http/rate-limit.ts; docs/security.md.
const withBurst = (limit: RateLimit | false | undefined, seconds: number) =>
  limit ? { perSecond: limit.perSecond, burst: Math.max(1, seconds * limit.perSecond) } : limit;
const adminSession = withBurst(ratePerS("ADMIN_RATE_LIMIT_PER_S"), 10);
const adminHeavy = withBurst(ratePerS("ADMIN_HEAVY_RATE_LIMIT_PER_S"), 15);
const rateLimits: RateLimits = {
  ...(adminSession !== undefined ? { adminSession } : {}),
  ...(adminHeavy !== undefined ? { adminHeavy } : {}),
  ...(clientKeyLimit !== undefined ? { clientKey: clientKeyLimit } : {}),
  ...(clientIpLimit !== undefined ? { clientIp: clientIpLimit } : {}),
  ...(clientIpBytes !== undefined
    ? { clientIpBytes: clientIpBytes && { perSecond: clientIpBytes.perSecond, burst: Math.max(4 * clientIpBytes.perSecond, CLIENT_BODY_LIMIT) } }
    : {}),
};
// TRUST_PROXY: "true" trusts X-Forwarded-For from any peer (only behind a proxy that sets it and
// that nothing can bypass); otherwise a comma-separated list of the proxies' addresses or CIDR
// ranges ("127.0.0.1,10.0.0.0/8", or "loopback"); unset or "false": the header is ignored.
const trustProxyText = (process.env.TRUST_PROXY ?? "").trim();
const trustProxy: boolean | string[] =
  trustProxyText === "true" ? true : trustProxyText === "" || trustProxyText === "false" ? false : trustProxyText.split(",").map((s) => s.trim()).filter(Boolean);

const databaseUrl = process.env.DATABASE_URL?.trim();
/** PostgreSQL for several nodes on one database (docs/storage.md); `pg` is loaded only then. */
async function openStore(): Promise<{ store: Store; where: string }> {
  if (databaseUrl) {
    const url = URL.canParse(databaseUrl) ? new URL(databaseUrl) : null;
    if (!url || !/^postgres(ql)?:$/.test(url.protocol)) {
      console.error("DATABASE_URL must be a postgres:// address (postgres://user:password@host:5432/database)");
      process.exit(1);
    }
    const { openPostgresStore } = await import("./store/postgres/index.js");
    return { store: await openPostgresStore(databaseUrl), where: `PostgreSQL ${url.host}${url.pathname}` };
  }
  mkdirSync(dataDir, { recursive: true });
  return { store: openSqliteStore(join(dataDir, "storefit.sqlite")), where: dataDir };
}
const { store, where } = await openStore();
await store.migrate();
// The demo shop's port (scripts/start.mjs), so the dashboard opens the demo's pages where they are.
const { created } = await seedDemo(store, { email: adminEmail, password: adminPassword }, { siteOrigins: demoSiteOrigins(process.env.DEMO_SHOP_PORT || DEMO_SHOP_PORT) });
// A new demo account comes with 14 days of simulated history (seed/demo-data.ts), so the results
// screen has something to show from the first minute; DEMO_HISTORY=0 leaves it empty.
const history = created && process.env.DEMO_HISTORY !== "0" ? await fillDemoHistory(store) : null;

const app = await buildApp({ store, log: process.env.LOG !== "0", rateLimits, trustProxy, publicOrigins, serverLimits, ...(publicUrl ? { publicUrl } : {}) });
await app.listen({ port, host });

const origin = publicUrl ?? `http://localhost:${port}`;
console.log(`Storefit service on ${origin} (data in ${where})`);
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
