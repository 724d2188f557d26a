// The names the goal editor offers (GET /api/events/names, docs/api.md "Event names"): the distinct
// names of one event type among the account's newest events, the most recently received first,
// never beyond a window of events, on both backends; the route for any role, its type checked.
import { describe, expect, it } from "vitest";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { TrackedEvent } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import { newSecretKey } from "../src/auth/access.js";
import { EVENT_NAMES_WINDOW } from "../src/routes/admin-event-names.js";
import type { EventNamesResponse } from "../src/routes/admin-event-names.js";
import type { Store } from "../src/store/types.js";
import { addOperator, call, MEMBER_PASSWORD, signIn, makeApp } from "./helpers.js";
import { BACKENDS, openBackend } from "./support/stores.js";

const NOW = new Date().toISOString();
const SHOP = "shop.example";

/** [type, name] in the order stored (oldest first); a name of `null` is sent in event_customer_id only. */
type Spec = [type: string, name: string | null, id?: string];

let n = 0;
async function store(s: Store, accountId: string, specs: readonly Spec[], batch = 5000): Promise<void> {
  for (let from = 0; from < specs.length; from += batch) {
    const events = specs.slice(from, from + batch).map(([type, name, id]): TrackedEvent => ({
      event_type: type,
      event_customer_id: `${SHOP}|${id ?? name ?? ""}`,
      domain: SHOP,
      ...(name !== null ? { name } : {}),
      insert_id: `n${n++}`,
      event_timestamp: Date.UTC(2026, 10, 1) + n,
      properties: { page_path: "/p" },
    }));
    await s.commitClientWrites([{ kind: "events", accountId, userId: "u_shopper", user: { user_customer_id: "shopper", anonymous: true }, touch: false, events, now: NOW }]);
  }
}

async function account(s: Store, id: string) {
  await s.createAccount({ id, name: id, client_key: `ck_${id}`, settings: { ...SETTINGS_DEFAULTS, domain: SHOP } });
}

describe.each(BACKENDS)("recentEventNames on %s", (backend) => {
  it("the distinct names of one type, most recently received first, with their numbers; another account's never", async () => {
    const { store: s } = await openBackend(backend);
    await account(s, "acc_a");
    await account(s, "acc_b");
    await store(s, "acc_a", [
      ["TRACK", "add_to_cart"],
      ["TRACK", "checkout_started"],
      ["CLICK", "Add_To_Cart"],
      ["TRACK", null, "from_customer_id"],
      ["FORM", "newsletter"],
      ["TRACK", ""],
      ["TRACK", "x".repeat(201)],
      ["TRACK", "add_to_cart"],
      ["PAGE", "page_view"],
    ]);
    await store(s, "acc_b", [["TRACK", "other_shop_event"]]);

    expect(await s.recentEventNames("acc_a", "TRACK", 1000, 100)).toEqual({
      // Empty names and names longer than a goal can hold are left out.
      names: [
        { name: "add_to_cart", events: 2 },
        { name: "from_customer_id", events: 1 },
        { name: "checkout_started", events: 1 },
      ],
      complete: true,
    });
    expect(await s.recentEventNames("acc_a", "CLICK", 1000, 100)).toEqual({ names: [{ name: "Add_To_Cart", events: 1 }], complete: true });
    expect(await s.recentEventNames("acc_a", "FORM", 1000, 100)).toEqual({ names: [{ name: "newsletter", events: 1 }], complete: true });
    expect((await s.recentEventNames("acc_a", "TRACK", 1000, 1)).names).toEqual([{ name: "add_to_cart", events: 2 }]);
    expect(await s.recentEventNames("acc_b", "TRACK", 1000, 100)).toEqual({ names: [{ name: "other_shop_event", events: 1 }], complete: true });
    expect(await s.recentEventNames("acc_none", "TRACK", 1000, 100)).toEqual({ names: [], complete: true });
  });

  it("looks at the `window` newest events only, and says when older ones were not looked at", async () => {
    const { store: s } = await openBackend(backend);
    await account(s, "acc_a");
    await store(s, "acc_a", [["TRACK", "oldest"], ["TRACK", "older"], ["PAGE", "page_view"], ["TRACK", "newest"]]);
    // The newest 3: "oldest" is beyond them; the account holds more than the window.
    expect(await s.recentEventNames("acc_a", "TRACK", 3, 100)).toEqual({
      names: [
        { name: "newest", events: 1 },
        { name: "older", events: 1 },
      ],
      complete: false,
    });
    // A window of exactly the account's events holds them all.
    expect((await s.recentEventNames("acc_a", "TRACK", 4, 100)).complete).toBe(true);
    expect((await s.recentEventNames("acc_a", "TRACK", 4, 100)).names.map((x) => x.name)).toEqual(["newest", "older", "oldest"]);
  });
});

describe("GET /api/events/names", () => {
  it("answers any role the names of a named type; refuses another type, no type, no session", async () => {
    const t = await makeApp();
    try {
      await store(t.store, t.account.id, [["TRACK", "add_to_cart"], ["CLICK", "buy_now"], ["TRACK", "signup"]]);
      await addOperator(t.store, t.account.id, "viewer@test.example", "viewer");
      const viewer = await signIn(t.app, { email: "viewer@test.example", password: MEMBER_PASSWORD });
      const res = await call(t.app, viewer, "GET", "/api/events/names?type=TRACK");
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as EventNamesResponse;
      expect(body).toEqual({ type: "TRACK", names: [{ name: "signup", events: 1 }, { name: "add_to_cart", events: 1 }], window: EVENT_NAMES_WINDOW, complete: true });
      expect((await call(t.app, viewer, "GET", "/api/events/names?type=CLICK")).json()).toMatchObject({ names: [{ name: "buy_now", events: 1 }] });

      for (const query of ["?type=PAGE", "?type=track", ""]) {
        const bad = await call(t.app, viewer, "GET", `/api/events/names${query}`);
        expect(bad.statusCode, query).toBe(400);
      }
      expect((await call(t.app, null, "GET", "/api/events/names?type=TRACK")).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it("never reads past its window: a name older than the newest 50,000 events is not offered, and the answer says so (SQLite)", { timeout: 120_000 }, async () => {
    const { store: s } = await openBackend("sqlite");
    await account(s, "acc_a");
    const key = newSecretKey();
    await s.createSecretKey({ id: "key_a", account_id: "acc_a", name: "test", prefix: key.prefix, created_at: NOW }, key.hash);
    await store(s, "acc_a", [["TRACK", "before_the_window"], ...Array.from({ length: EVENT_NAMES_WINDOW - 1 }, (): Spec => ["PAGE", "page_view"]), ["TRACK", "recent"]], 20_000);
    const app = await buildApp({ store: s, log: false });
    try {
      const res = await app.inject({ method: "GET", url: "/api/events/names?type=TRACK", headers: { authorization: `Bearer ${key.secret}` } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ type: "TRACK", names: [{ name: "recent", events: 1 }], window: EVENT_NAMES_WINDOW, complete: false });
    } finally {
      await app.close();
    }
  });
});
