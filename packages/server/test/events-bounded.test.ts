// Live events never reads without bound (docs/api.md "Events" "Bounded search"): a search looks
// at a window of candidates nearest its cursor and answers where it stopped, a filtered count
// stops at its cap or its window and says it is not exact, an unfiltered total is counted
// forward from what this node counted before. On both backends, at the store (small windows) and
// through GET /api/events (its real window of 50,000 events, on SQLite).
import { describe, expect, it } from "vitest";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { EventListResponse, TrackedEvent } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import { newSecretKey } from "../src/auth/access.js";
import { EVENTS_COUNT_CAP, EVENTS_SEARCH_WINDOW } from "../src/routes/admin-events.js";
import type { EventFilter, Store } from "../src/store/types.js";
import { BACKENDS, openBackend } from "./support/stores.js";

const NOW = new Date().toISOString();
const SHOP = "shop.example";
const T0 = Date.UTC(2026, 10, 1);

type Spec = { type?: string; path?: string; user?: string };

/** Stores events in order (oldest first), `batch` per write, insert ids `${prefix}${offset + i}`. */
async function store(s: Store, accountId: string, specs: Spec[], prefix = "e", batch = 5000, offset = 0): Promise<void> {
  for (let from = 0; from < specs.length; from += batch) {
    const byUser = new Map<string, TrackedEvent[]>();
    specs.slice(from, from + batch).forEach((spec, k) => {
      const i = from + k;
      const user = spec.user ?? "shopper";
      const list = byUser.get(user) ?? [];
      list.push({
        event_type: spec.type ?? "PAGE",
        event_customer_id: `${SHOP}|page_view`,
        domain: SHOP,
        name: "page_view",
        insert_id: `${prefix}${offset + i}`,
        event_timestamp: T0 + i,
        properties: { page_path: spec.path ?? "/p" },
      });
      byUser.set(user, list);
    });
    // One write per visitor, in the order their first event comes: seqs follow the writes.
    await s.commitClientWrites(
      [...byUser].map(([user, events]) => ({ kind: "events", accountId, userId: `u_${user}`, user: { user_customer_id: user, anonymous: true }, touch: false, events, now: NOW })),
    );
  }
}

async function account(s: Store, id = "acc_a") {
  await s.createAccount({ id, name: id, client_key: `ck_${id}`, settings: { ...SETTINGS_DEFAULTS, domain: SHOP } });
}

const ids = (events: { insert_id: string }[]) => events.map((e) => e.insert_id);

/** Every page from the newest down, following the answer's cursor: what each page found. */
async function olderPages(s: Store, accountId: string, filter: EventFilter, limit: number, window: number) {
  const pages: { ids: string[]; more: boolean; end: number | null }[] = [];
  let before: number | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = await s.searchEvents(accountId, limit, { ...filter, ...(before !== undefined ? { before } : {}) }, window);
    pages.push({ ids: ids(page.events), more: page.more, end: page.end });
    const onward = page.more ? page.events.at(-1)!.seq : page.end;
    if (onward === null) return pages;
    before = onward;
  }
  throw new Error("paging did not end");
}

describe.each(BACKENDS)("bounded events search and count on %s", (backend) => {
  it("a search stops at its window and answers where; following it finds a match older than the window, nothing skipped or twice", async () => {
    const { store: s } = await openBackend(backend);
    await account(s);
    await account(s, "acc_other");
    // e0 is the needle; every third event after it is a CLICK; another account's events between.
    const specs: Spec[] = Array.from({ length: 40 }, (_, i) => (i === 0 ? { path: "/needle" } : { type: i % 3 === 0 ? "CLICK" : "PAGE" }));
    await store(s, "acc_a", specs.slice(0, 20));
    await store(s, "acc_other", Array.from({ length: 15 }, () => ({ path: "/needle" })), "o");
    await store(s, "acc_a", specs.slice(20), "e", 5000, 20);
    const seq = new Map((await s.listEvents("acc_a", 100)).map((e) => [e.insert_id, e.seq]));
    const eSeq = (i: number) => seq.get(`e${i}`)!;

    // The newest 10 of 40 hold no needle: nothing found, the search stopped at the 10th newest (e30).
    const first = await s.searchEvents("acc_a", 5, { q: "NEEDLE" }, 10);
    expect(first).toEqual({ events: [], more: false, end: eSeq(30) });
    // Followed: the next windows below it, then the needle (the other account's are not candidates).
    const pages = await olderPages(s, "acc_a", { q: "needle" }, 5, 10);
    expect(pages.map((p) => p.ids)).toEqual([[], [], [], ["e0"]]);
    expect(pages.at(-1)).toMatchObject({ more: false, end: null });

    // A filter matching every third: pages of 2 in windows of 7; every CLICK once, newest first.
    const clicks = specs.flatMap((spec, i) => (spec.type === "CLICK" ? [`e${i}`] : [])).reverse();
    const paged = await olderPages(s, "acc_a", { type: "CLICK" }, 2, 7);
    expect(paged.flatMap((p) => p.ids)).toEqual(clicks);
    expect(paged.some((p) => !p.more && p.end !== null)).toBe(true); // some page stopped at its window
    // The same with a page bigger than any window's matches, and with a window past the end.
    expect((await olderPages(s, "acc_a", { type: "CLICK" }, 50, 5)).flatMap((p) => p.ids)).toEqual(clicks);
    expect(await olderPages(s, "acc_a", { type: "CLICK" }, 50, 1000)).toEqual([{ ids: clicks, more: false, end: null }]);

    // Upward from the needle (`after`): windows of the nearest above, pages still newest first.
    const up: string[] = [];
    let after = eSeq(0);
    for (let guard = 0; guard < 100; guard++) {
      const page = await s.searchEvents("acc_a", 2, { type: "CLICK", after }, 7);
      up.unshift(...ids(page.events));
      const onward = page.more ? page.events[0]!.seq : page.end;
      if (onward === null) break;
      after = onward;
    }
    expect(up).toEqual(clicks);
  });

  it("a visitor's events are the candidates when the filter names visitors", async () => {
    const { store: s } = await openBackend(backend);
    await account(s);
    await store(s, "acc_a", [{ user: "rare", path: "/mine" }, ...Array.from({ length: 30 }, () => ({ user: "busy" })), { user: "rare" }]);
    // The account's newest 5 hold one event of "rare"; its own two are both within a window of 5.
    const page = await s.searchEvents("acc_a", 10, { visitorIds: ["u_rare", "u_nobody"] }, 5);
    expect(page).toMatchObject({ more: false, end: null });
    expect(page.events.map((e) => e.page_path)).toEqual(["/p", "/mine"]);
    expect(await s.countEventsBounded("acc_a", { visitorIds: ["u_rare"], q: "mine" }, 5, 100)).toEqual({ n: 1, exact: true });
  });

  it("a filtered count stops at its cap or its window and says so; the cursor is ignored", async () => {
    const { store: s } = await openBackend(backend);
    await account(s);
    await store(s, "acc_a", Array.from({ length: 30 }, (_, i) => ({ type: i < 10 ? "CLICK" : "PAGE" })));
    expect(await s.countEventsBounded("acc_a", { type: "PAGE" }, 100, 50)).toEqual({ n: 20, exact: true });
    expect(await s.countEventsBounded("acc_a", { type: "PAGE" }, 100, 20)).toEqual({ n: 20, exact: true });
    expect(await s.countEventsBounded("acc_a", { type: "PAGE" }, 100, 19)).toEqual({ n: 19, exact: false });
    // The newest 25 hold 20 PAGE and 5 of the CLICKs: the window cut the CLICKs' count.
    expect(await s.countEventsBounded("acc_a", { type: "CLICK" }, 25, 50)).toEqual({ n: 5, exact: false });
    expect(await s.countEventsBounded("acc_a", { type: "CLICK" }, 30, 50)).toEqual({ n: 10, exact: true });
    const newest = (await s.listEvents("acc_a", 1))[0]!.seq;
    expect(await s.countEventsBounded("acc_a", { type: "CLICK", before: newest - 25 }, 30, 50)).toEqual({ n: 10, exact: true });
  });

  it("countEventsAfter: the first `max` after a seq, and the last one's seq", async () => {
    const { store: s } = await openBackend(backend);
    await account(s);
    await account(s, "acc_other");
    await store(s, "acc_a", Array.from({ length: 7 }, () => ({})));
    await store(s, "acc_other", [{}], "o");
    const seqs = (await s.listEvents("acc_a", 10)).map((e) => e.seq).reverse();
    expect(await s.countEventsAfter("acc_a", 0, 5)).toEqual({ n: 5, last: seqs[4] });
    expect(await s.countEventsAfter("acc_a", seqs[4]!, 5)).toEqual({ n: 2, last: seqs[6] });
    expect(await s.countEventsAfter("acc_a", seqs[6]!, 5)).toEqual({ n: 0, last: null });
  });

  it("GET /api/events: total_exact and searched on a small account", async () => {
    const { store: s } = await openBackend(backend);
    await account(s);
    const key = newSecretKey();
    await s.createSecretKey({ id: "key_a", account_id: "acc_a", name: "test", prefix: key.prefix, created_at: NOW }, key.hash);
    await store(s, "acc_a", Array.from({ length: 12 }, (_, i) => ({ type: i % 2 ? "CLICK" : "PAGE" })));
    const app = await buildApp({ store: s, log: false });
    try {
      const get = async (query: string) => {
        const res = await app.inject({ method: "GET", url: `/api/events${query}`, headers: { authorization: `Bearer ${key.secret}` } });
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as EventListResponse;
      };
      expect(await get("?limit=5")).toMatchObject({ total: 12, total_exact: true, searched: null, newer: null });
      const clicks = await get("?type=click&limit=4");
      expect(clicks).toMatchObject({ total: 6, total_exact: true, searched: null });
      const rest = await get(`?type=click&limit=4&before=${clicks.older}`);
      expect(rest).toMatchObject({ total: 6, total_exact: true, searched: null, older: null, newer: rest.events[0]!.seq });
      expect(rest.events).toHaveLength(2);
      // The unfiltered total follows new events (counted forward from the node's last count).
      await store(s, "acc_a", [{}, {}], "late");
      expect((await get("")).total).toBe(14);
    } finally {
      await app.close();
    }
  });
});

describe("GET /api/events at more events than one search looks at (SQLite)", () => {
  it("a rare match older than the window: an empty page that says where it stopped, then the match by `older`; capped counts", { timeout: 120_000 }, async () => {
    const { store: s } = await openBackend("sqlite");
    await account(s);
    const key = newSecretKey();
    await s.createSecretKey({ id: "key_a", account_id: "acc_a", name: "test", prefix: key.prefix, created_at: NOW }, key.hash);
    const total = EVENTS_SEARCH_WINDOW + 5_000;
    await store(s, "acc_a", Array.from({ length: total }, (_, i) => (i === 0 ? { path: "/needle" } : i % 4 === 0 ? { type: "CLICK" } : {})), "e", 20_000);
    const app = await buildApp({ store: s, log: false });
    try {
      const get = async (query: string) => {
        const res = await app.inject({ method: "GET", url: `/api/events${query}`, headers: { authorization: `Bearer ${key.secret}` } });
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as EventListResponse;
      };
      const first = await get("?q=needle");
      expect(first).toMatchObject({ events: [], total: 0, total_exact: false, searched: EVENTS_SEARCH_WINDOW, newer: null });
      expect(first.older).not.toBeNull();
      const found = await get(`?q=needle&before=${first.older}`);
      expect(found.events.map((e) => e.page_path)).toEqual(["/needle"]);
      expect(found).toMatchObject({ older: null, searched: null, total: 0, total_exact: false });
      // Back up from the found page: a newer page is offered (the window above has more to search).
      expect(found.newer).toBe(found.events[0]!.seq);

      // Dense filters fill their pages at once; their totals stop at the cap.
      const pages = await get("?type=page");
      expect(pages).toMatchObject({ total: EVENTS_COUNT_CAP, total_exact: false, searched: null });
      expect(pages.events).toHaveLength(50);
      // The unfiltered total stays exact.
      expect(await get("?limit=1")).toMatchObject({ total, total_exact: true });
    } finally {
      await app.close();
    }
  });
});
