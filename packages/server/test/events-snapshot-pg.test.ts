// Live events on PostgreSQL: a page and its window's end are read from one snapshot. Read in two
// statements, events a live shop stored between them moved the window's end up, and the next
// "Older events" page listed a match a second time (found in review, with this repro).

import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { TrackedEvent } from "@storefit/contract";
import { postgresEvents } from "../src/store/postgres/events.js";
import { openPostgresStore } from "../src/store/postgres/index.js";
import type { PostgresStore } from "../src/store/postgres/index.js";
import { freshDatabase } from "./support/postgres.js";
import type { FreshDatabase } from "./support/postgres.js";

const NOW = new Date().toISOString();
let db: FreshDatabase;
let store: PostgresStore;
let pool: pg.Pool;
let n = 0;

const put = async (type: string) => {
  const i = n++;
  const event: TrackedEvent = {
    event_type: type,
    event_customer_id: "shop.example|x",
    domain: "shop.example",
    name: "x",
    insert_id: `e${i}`,
    event_timestamp: Date.UTC(2026, 10, 1) + i,
    properties: { page_path: "/p" },
  };
  await store.commitClientWrites([{ kind: "events", accountId: "acc_a", userId: "u_x", user: { user_customer_id: "x", anonymous: true }, touch: false, events: [event], now: NOW }]);
};

beforeAll(async () => {
  db = await freshDatabase();
  store = await openPostgresStore(db.url);
  await store.migrate();
  pool = new pg.Pool({ connectionString: db.url });
  // As in postgres-store.test.ts: a connection the database's drop ends after pool.end() resolved.
  pool.on("error", () => {});
  await store.createAccount({ id: "acc_a", name: "a", client_key: "ck_a", settings: { ...SETTINGS_DEFAULTS, domain: "shop.example" } });
  // 20 events: the oldest of the newest 10 is the only CLICK among them.
  for (let i = 0; i < 20; i++) await put(i === 10 ? "CLICK" : "PAGE");
});
afterAll(async () => {
  await pool?.end();
  await store?.close();
  await db?.drop();
});

it("events stored between a page's statements neither repeat nor skip a match on the next page", async () => {
  // Every statement after the first of a search is preceded by 3 more events stored, as a live
  // shop's would be.
  let selects = 0;
  const racing = new Proxy(pool, {
    get(target, prop) {
      const wrap = (q: (...a: unknown[]) => Promise<unknown>) => async (...args: unknown[]) => {
        const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string }).text ?? "";
        if (/^\s*SELECT/i.test(text) && selects++ > 0) for (let k = 0; k < 3; k++) await put("PAGE");
        return q(...args);
      };
      if (prop === "query") return wrap(target.query.bind(target) as never);
      if (prop === "connect")
        return async () => {
          const client = await target.connect();
          return new Proxy(client, { get: (c, p) => (p === "query" ? wrap(c.query.bind(c) as never) : (c as never)[p]) });
        };
      const v = (target as never)[prop] as unknown;
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const events = postgresEvents(racing as pg.Pool);
  const first = await events.searchEvents("acc_a", 5, { type: "CLICK" }, 10);
  expect(first.events.map((e) => e.insert_id)).toEqual(["e10"]);
  expect(first.more).toBe(false);
  const older = await store.searchEvents("acc_a", 5, { type: "CLICK", before: first.end! }, 10);
  expect(older.events.map((e) => e.insert_id)).not.toContain("e10");
});
