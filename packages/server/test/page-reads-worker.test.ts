// The page views and page visitors (the overlaps endpoint's sample pages, the Results
// diagnostics) on a SQLite file are read on the store's read worker (store/sqlite/read-worker.ts,
// docs/storage.md "Read worker"): the answers are the ones the node's own connection gives, to
// the row, and the event loop keeps turning while the worker reads. A ":memory:" database is read
// in the thread.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TrackedEvent } from "@storefit/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SqliteDb } from "../src/store/sqlite/db.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { SqliteStore } from "../src/store/sqlite/index.js";
import { sqliteResults } from "../src/store/sqlite/results.js";
import type { SqliteResults } from "../src/store/sqlite/results.js";
import type { ClientWrite, ResultsRange } from "../src/store/types.js";
import { SHOP, random } from "./support/results-data.js";

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 1);
/** Domains as shoppers' browsers send them: the shop in two cases, with a port, and another site. */
const DOMAINS = ["shop.example", "Shop.Example", "shop.example:8080", "elsewhere.test"];
/** Paths stored as sent: with and without a trailing slash, with query strings, none at all. */
const PATHS = ["/", "/cart", "/cart/", "/product?id=1", "/product?id=2", "/product", "/product/?id=1", "/checkout/step", "/a%20b", undefined];
const RANGES: ResultsRange[] = [
  {},
  { from_ms: START + 2 * DAY, to_ms: START + 5 * DAY },
  { from_ms: START + 7 * DAY },
  { to_ms: START + DAY },
  { from_ms: START + 30 * DAY },
];

const dir = mkdtempSync(join(tmpdir(), "storefit-page-reads-"));
const file = join(dir, "s.sqlite");
let store: SqliteStore;
/** The same file read by a connection of its own, in this thread (no read worker). */
let inThread: SqliteResults;
let inThreadDb: SqliteDb;

/** `users` visitors of `accountId` (ids and insert ids start with `prefix`), each with up to 20 PAGE views over ten days. */
function pageWrites(next: () => number, accountId: string, users: number, prefix: string): ClientWrite[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const writes: ClientWrite[] = [];
  for (let n = 0; n < users; n++) {
    const u = `${prefix}u${n}`;
    const events: TrackedEvent[] = [];
    for (let i = Math.floor(next() * 20); i > 0; i--) {
      const path = pick(PATHS);
      const domain = pick(DOMAINS);
      events.push({
        event_type: "PAGE",
        event_customer_id: `${domain}|${path ?? ""}`,
        domain,
        insert_id: `${prefix}${n}-${i}`,
        event_timestamp: START + Math.floor(next() * 10 * DAY),
        ...(path !== undefined ? { properties: { page_path: path } } : {}),
      });
    }
    // A click on a page: not a page view.
    events.push({ event_type: "CLICK", event_customer_id: "shop.example|buy", domain: "shop.example", insert_id: `${prefix}${n}-c`, event_timestamp: START + DAY, properties: { page_path: "/cart" } });
    writes.push({ kind: "events", accountId, userId: u, user: { user_customer_id: u, anonymous: true }, touch: false, events, now: new Date(START + 20 * DAY).toISOString() });
  }
  return writes;
}

beforeAll(() => {
  store = openSqliteStore(file);
  store.migrate();
  store.createAccount(SHOP);
  store.createAccount({ ...SHOP, id: "other", client_key: "key-other" });
  const next = random(2027);
  // About 50,000 page views: reading them takes many event-loop turns' time.
  for (let r = 0; r < 10; r++) store.commitClientWrites(pageWrites(next, "acc", 500, `r${r}-`));
  // Another account's views of the same pages count for it alone.
  store.commitClientWrites(pageWrites(next, "other", 300, "o-"));
  inThreadDb = new SqliteDb(file);
  inThread = sqliteResults(inThreadDb, null);
});

afterAll(() => {
  store.close();
  inThreadDb.close();
  rmSync(dir, { recursive: true, force: true });
});

it("the page views, read by the worker, equal the in-thread answers exactly", async () => {
  for (const range of RANGES) {
    for (const limit of [1, 5, 200]) {
      const views = store.pageViews("acc", range, limit);
      // Answered later, by the worker (a value here would have been read in this thread).
      expect(views).toBeInstanceOf(Promise);
      expect(await views).toEqual(inThread.pageViews("acc", range, limit));
    }
  }
  // The data has the cases the comparison is about: every domain, trailing slashes, query strings.
  const all = await store.pageViews("acc", {}, 200);
  expect(all.byDomain.map((d) => d.domain).sort()).toEqual([...DOMAINS].sort());
  const paths = new Set(all.pages.map((p) => p.page_path));
  for (const p of ["/cart", "/cart/", "/product?id=1", "/product/?id=1", "/a%20b"]) expect(paths).toContain(p);
  expect(all.pages).toHaveLength(DOMAINS.length * (PATHS.length - 1));
  // Views without a path count per domain, not as a page.
  expect(all.byDomain.reduce((n, d) => n + d.views, 0)).toBeGreaterThan(all.pages.reduce((n, p) => n + p.views, 0));
  expect(await store.pageViews("other", {}, 200)).toEqual(inThread.pageViews("other", {}, 200));
  expect(await store.pageViews("no-such-account", {}, 200)).toEqual({ byDomain: [], pages: [] });
  // Read in the thread before, nothing else: one worker.
  expect(store.reader!.started).toBe(1);
});

it("the page visitors, read by the worker, equal the in-thread answers exactly", async () => {
  const p = (domain: string, page_path: string) => ({ domain, page_path });
  const pageSets = [
    [p("shop.example", "/cart")],
    // The other spelling of a page is another page: domain and path as stored.
    [p("shop.example", "/cart/")],
    [p("Shop.Example", "/cart"), p("shop.example", "/cart")],
    [p("shop.example", "/product?id=1"), p("shop.example", "/product?id=2"), p("shop.example:8080", "/product")],
    [p("elsewhere.test", "/"), p("shop.example", "/product/?id=1"), p("shop.example", "/a%20b")],
    DOMAINS.flatMap((d) => PATHS.filter((x) => x !== undefined).map((x) => p(d, x))),
    [p("shop.example", "/never-viewed")],
  ];
  for (const range of RANGES) {
    for (const pages of pageSets) {
      const visitors = store.pageVisitors("acc", range, pages);
      expect(visitors).toBeInstanceOf(Promise);
      expect(await visitors).toBe(inThread.pageVisitors("acc", range, pages));
    }
  }
  expect(await store.pageVisitors("acc", {}, pageSets[0]!)).toBeGreaterThan(0);
  expect(await store.pageVisitors("acc", {}, pageSets.at(-1)!)).toBe(0);
  expect(await store.pageVisitors("other", {}, pageSets[5]!)).toBe(inThread.pageVisitors("other", {}, pageSets[5]!));
  // No pages: no statement.
  expect(store.pageVisitors("acc", {}, [])).toBe(0);
});

/** Turns of a setImmediate timer while `read` is awaited. */
async function turnsDuring(read: () => unknown): Promise<number> {
  let turns = 0;
  let probing = true;
  const probe = () => {
    turns++;
    if (probing) setImmediate(probe);
  };
  const pending = read();
  setImmediate(probe);
  await pending;
  probing = false;
  return turns;
}

it("the event loop keeps turning during the page views and the page visitors", async () => {
  const month = { from_ms: START - 20 * DAY };
  // In the thread the statements would have run before the timer's first turn.
  expect(await turnsDuring(() => store.pageViews("acc", month, 200))).toBeGreaterThan(0);
  expect(await turnsDuring(() => store.pageVisitors("acc", month, [{ domain: "shop.example", page_path: "/cart" }]))).toBeGreaterThan(0);
});

it("a ':memory:' database has no worker: its page views and visitors answer in the thread", () => {
  const memory = openSqliteStore(":memory:");
  memory.migrate();
  memory.createAccount(SHOP);
  memory.commitClientWrites(pageWrites(random(1), "acc", 5, ""));
  expect(memory.reader).toBeNull();
  const views = memory.pageViews("acc", {}, 10);
  expect(views).not.toBeInstanceOf(Promise);
  expect((views as { byDomain: unknown[] }).byDomain.length).toBeGreaterThan(0);
  expect(typeof memory.pageVisitors("acc", {}, [{ domain: "shop.example", page_path: "/cart" }])).toBe("number");
  memory.close();
});
