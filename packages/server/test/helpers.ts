import { buildApp } from "../src/app.js";
import { SqliteStore } from "../src/store/sqlite.js";
import { seedDemo, DEMO_CLIENT_KEY } from "../src/seed/demo.js";

export const OWNER = { email: "owner@test.example", password: "correct horse battery" };
export const SHOP_ORIGIN = "http://littlesprouts.localhost:4200";
export const UK_ORIGIN = "http://littlesprouts-uk.localhost:4200";
export const FIXED_NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

/** A fresh app on a fresh real SQLite database (in memory), seeded with the demo account. */
export async function makeApp() {
  const store = new SqliteStore(":memory:");
  store.migrate();
  await seedDemo(store, OWNER);
  const app = await buildApp({ store, clock: () => FIXED_NOW });
  const account = store.getAccountByClientKey(DEMO_CLIENT_KEY)!;
  return { app, store, account };
}

export const FORM = "application/x-www-form-urlencoded";

export function user(id = "visitor-1") {
  return { user_customer_id: id, anonymous: true };
}
