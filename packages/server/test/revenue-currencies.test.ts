// The currencies of an experience's visitors' recent orders (docs/results.md "Currencies"): results add
// revenue amounts as sent, so the answer of an experience with a revenue goal says which
// currencies the orders came in. The store's read on both backends, the same answer for every
// event the service stores; odd rows written another way never fail the read; the field in the
// results answer only with a revenue goal, described by the OpenAPI document.
import { describe, expect, it } from "vitest";
import { REVENUE_CURRENCY_WINDOW, SETTINGS_DEFAULTS } from "@storefit/contract";
import type { ExperienceResults, GoalDefinition, Properties, RevenueCurrency, TrackedEvent } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import { newSecretKey } from "../src/auth/access.js";
import type { ClientWrite, Experience, Exposure, Store } from "../src/store/types.js";
import { BACKENDS, openBackend } from "./support/stores.js";
import type { Backend } from "./support/stores.js";

const SHOP = "shop.example";
const NOW = new Date(Date.UTC(2026, 10, 28)).toISOString();
const EXPOSED = Date.UTC(2026, 10, 10, 12);

let seq = 0;
function event(type: string, properties: Properties, id = `e${seq++}`): TrackedEvent {
  return { event_type: type, name: "order", event_customer_id: `${SHOP}|order`, domain: SHOP, insert_id: id, event_timestamp: EXPOSED + 60_000, properties };
}
const order = (currency: unknown, amount: unknown = 10, id?: string): TrackedEvent =>
  event("REVENUE", (currency === undefined ? { revenue_amount: amount } : { revenue_amount: amount, currency }) as Properties, id);

async function write(s: Store, accountId: string, events: TrackedEvent[], user = "u1"): Promise<void> {
  await s.commitClientWrites([{ kind: "events", accountId, userId: user, user: { user_customer_id: user, anonymous: true }, touch: false, events, now: NOW }]);
}

async function account(s: Store, id: string) {
  await s.createAccount({ id, name: id, client_key: `ck_${id}`, settings: { ...SETTINGS_DEFAULTS, domain: SHOP } });
}

/** `user` first exposed to experience "exp" of `accountId` at EXPOSED: their orders after it count. */
async function expose(s: Store, accountId: string, user = "u1"): Promise<void> {
  const exposure: Exposure = { config_id: "cfg", user_customer_id: user, user_id: user, session_id: "s", requested_time: EXPOSED, variation_id: "va", experience_id: "exp", rule_id: "r1", behaviour_id: "b1", probability: 0.5, split: null };
  await s.commitClientWrites([{ kind: "exposures", accountId, userId: user, user: { user_customer_id: user, anonymous: true }, touch: false, exposures: [exposure], now: NOW }]);
}

describe.each(BACKENDS)("recentRevenueCurrencies on %s", (backend) => {
  it("counts the orders per currency: codes upper-cased, any other value 'other', none null; only orders that count, only this account, within the window", async () => {
    const { store: s } = await openBackend(backend);
    await account(s, "acc");
    await account(s, "acc_b");
    await expose(s, "acc");
    await expose(s, "acc_b");
    await write(s, "acc", [
      order("USD"), order("USD"), order("USD"), order("usd"),
      order("GBP"), order("GBP", "38.00 GBP"),
      // Present but not three ASCII letters.
      order("GBP "), order("US$"), order(978), order({ code: "USD" }), order("\u0000SD"), order("\u0131SD"), order(true),
      // None.
      order(null), order(undefined),
      // No order: an amount that counts 0 (free, refund, invalid, above the limit).
      order("EUR", 0), order("EUR", -5), order("EUR", "abc"), order("EUR", 2e12),
      // Not a REVENUE event.
      event("PAGE", { page_path: "/", currency: "JPY" }),
      // Escapes elsewhere in the event (a product name a shop sent): the currency still reads.
      event("REVENUE", { revenue_amount: 5, currency: "USD", product: "a\u0000b \ud800 \\u0000 \u00e9" }),
      order("\ud800SD"),
      order("SEK"), event("PAGE", { page_path: "/" }), order("sek"),
    ]);
    await write(s, "acc_b", [order("CAD")]);

    expect(await s.recentRevenueCurrencies("acc", "exp", 1000)).toEqual<RevenueCurrency[]>([
      { currency: "other", orders: 8 },
      { currency: "USD", orders: 5 },
      { currency: "GBP", orders: 2 },
      { currency: "SEK", orders: 2 },
      { currency: null, orders: 2 },
    ]);
    // The 3 newest events: two SEK orders and a page view.
    expect(await s.recentRevenueCurrencies("acc", "exp", 3)).toEqual([{ currency: "SEK", orders: 2 }]);
    expect(await s.recentRevenueCurrencies("acc_b", "exp", 1000)).toEqual([{ currency: "CAD", orders: 1 }]);
    expect(await s.recentRevenueCurrencies("acc_none", "exp", 1000)).toEqual([]);
    // Only orders of the experience's visitors after their first exposure: anyone with the
    // client key can send orders, but not into another experience's count.
    expect(await s.recentRevenueCurrencies("acc", "exp_other", 1000)).toEqual([]);
    await write(s, "acc", [order("JPY"), order("JPY")], "not-exposed");
    await expose(s, "acc", "late");
    await write(s, "acc", [{ ...order("CHF"), event_timestamp: EXPOSED - 1 }], "late");
    expect((await s.recentRevenueCurrencies("acc", "exp", 1000)).map((c) => c.currency)).toEqual(["other", "USD", "GBP", "SEK", null]);
  });

  it("odd stored rows, written around the service, never fail the read", async () => {
    const b = await openBackend(backend);
    await account(b.store, "acc");
    await expose(b.store, "acc");
    // JSON both backends can hold in event_json: what each row reads as.
    const deep = `${"[".repeat(500)}${"]".repeat(500)}`;
    const odd: [json: string, reads: string | null][] = [
      ["[1,2,3]", null],
      ['"USD"', null],
      ["null", null],
      ["42", null],
      ['{"properties":"USD"}', null],
      ['{"properties":[{"currency":"USD"}]}', null],
      ['{"properties":{"currency":null}}', null],
      // Escapes are read as written, not decoded (revenue-currencies.ts): a code is plain letters.
      ['{"properties":{"currency":"\\u0055SD"}}', "other"],
      ['{"properties":{"currency":"US\\u0000"}}', "other"],
      ['{"properties":{"currency":"\\u0000"}}', "other"],
      [`{"properties":{"currency":"${"x".repeat(100_000)}"}}`, "other"],
      [`{"properties":{"deep":${deep},"currency":"eur"}}`, "EUR"],
      ['{ "properties" : { "currency" : "chf" } }', "CHF"],
    ];
    const events = odd.map((_, i) => order("XXX", 10, `odd${i}`));
    await write(b.store, "acc", events);
    for (const [i, [json]] of odd.entries()) await setJson(b, `odd${i}`, quote(json));
    const expected = new Map<string | null, number>();
    for (const [, reads] of odd) expected.set(reads, (expected.get(reads) ?? 0) + 1);

    if (backend === "sqlite") {
      // What only SQLite's untyped column can hold: none of it parses, so none has a currency.
      const sqliteOnly = ["'{not json'", "X'7B7D'", "X'00'", quote(`{"properties":{"currency":${"[".repeat(2000)}${"]".repeat(2000)}}}`), quote("{properties:{currency:'USD'}}")];
      await write(b.store, "acc", sqliteOnly.map((_, i) => order("XXX", 10, `sq${i}`)));
      for (const [i, literal] of sqliteOnly.entries()) await setJson(b, `sq${i}`, literal);
      expected.set(null, (expected.get(null) ?? 0) + sqliteOnly.length);
    }
    const got = await b.store.recentRevenueCurrencies("acc", "exp", 1000);
    expect(new Map(got.map((c) => [c.currency, c.orders]))).toEqual(expected);
  });
});

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

async function setJson(b: Backend, insertId: string, literal: string): Promise<void> {
  await b.exec(`UPDATE events SET event_json = ${literal} WHERE insert_id = '${insertId}'`);
}

// ---- in the results answer ----

const REVENUE: GoalDefinition = { id: "g_rev", name: "Revenue", kind: "revenue" };
const CART: GoalDefinition = { id: "g_cart", name: "Add to cart", kind: "track", event_name: "add_to_cart" };

function experience(id: string, goals: GoalDefinition[]): Omit<Experience, "created_at" | "updated_at"> {
  return {
    id,
    account_id: "acc",
    name: id,
    status: "running",
    kind: "ab_test",
    priority: 0,
    pages: [{ domain: SHOP, page_path: "/", page_match: "exact_match" }],
    rules: [{ id: "r1", audience_id: null, behaviour: { id: "b1", name: "B", traffic_allocation: 1, variations: [{ id: "va", name: "A", weight: 1, configs: [] }, { id: "vb", name: "B", weight: 1, configs: [] }] } }],
    goals,
    exclusion_group: null,
  };
}

function exposed(user: string, experienceId: string, variation: string): ClientWrite {
  const exposure: Exposure = { config_id: "cfg", user_customer_id: user, user_id: user, session_id: "s", requested_time: EXPOSED, variation_id: variation, experience_id: experienceId, rule_id: "r1", behaviour_id: "b1", probability: 0.5, split: '{"va":0.5,"vb":0.5}' };
  return { kind: "exposures", accountId: "acc", userId: user, user: { user_customer_id: user, anonymous: true }, touch: false, exposures: [exposure], now: NOW };
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; required?: string[] };

describe.each(BACKENDS)("revenue_currencies in the results answer on %s", (backend) => {
  it("with a revenue goal, the currencies of its visitors' orders, cached with the results until new events; without one, no field", async () => {
    const { store } = await openBackend(backend);
    await account(store, "acc");
    const key = newSecretKey();
    await store.createSecretKey({ id: "key", account_id: "acc", name: "test", prefix: key.prefix, created_at: NOW }, key.hash);
    await store.saveExperience(experience("exp_rev", [CART, REVENUE]));
    await store.saveExperience(experience("exp_cart", [CART]));
    const app = await buildApp({ store, log: false });
    const get = async (url: string): Promise<ExperienceResults> => {
      const res = await app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key.secret}` } });
      expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
      return res.json() as ExperienceResults;
    };
    try {
      const writes: ClientWrite[] = [];
      for (let i = 0; i < 10; i++) {
        writes.push(exposed(`v${i}`, "exp_rev", i % 2 ? "vb" : "va"), exposed(`v${i}`, "exp_cart", i % 2 ? "vb" : "va"));
      }
      await store.commitClientWrites(writes);
      // The demo shop's two storefronts: 6 orders in dollars, 4 in pounds.
      for (let i = 0; i < 10; i++) await write(store, "acc", [order(i < 6 ? "USD" : "GBP", i < 6 ? 27 : 38)], `v${i}`);

      const rev = await get("/api/results/exp_rev");
      expect(rev.revenue_currencies).toEqual([{ currency: "USD", orders: 6 }, { currency: "GBP", orders: 4 }]);
      // Revenue itself is unchanged: the amounts added as sent.
      const rpv = rev.rules[0]!.metrics.find((m) => m.metric === "revenue_per_visitor")!;
      expect(rpv.variations.reduce((sum, v) => sum + (v.revenue ?? 0), 0)).toBe(6 * 27 + 4 * 38);
      expect((await get("/api/results/exp_rev?from=2026-11-01&to=2026-11-30")).revenue_currencies).toEqual(rev.revenue_currencies);
      expect(await get("/api/results/exp_cart")).not.toHaveProperty("revenue_currencies");

      await write(store, "acc", [order("EUR", 5)], "v0");
      expect((await get("/api/results/exp_rev")).revenue_currencies).toEqual([
        { currency: "USD", orders: 6 },
        { currency: "GBP", orders: 4 },
        { currency: "EUR", orders: 1 },
      ]);

      // The OpenAPI document describes the field (the serialiser drops what its schema lacks).
      const doc = (await app.inject("/api/openapi.json")).json() as { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>> };
      const schema = doc.paths["/api/results/{experienceId}"]!.get!.responses["200"]!.content["application/json"]!.schema;
      const field = schema.properties!.revenue_currencies!;
      expect(schema.required).not.toContain("revenue_currencies");
      expect(field.type).toBe("array");
      expect(field.items!.required).toEqual(["currency", "orders"]);
      expect(field.items!.properties!.currency!.type).toEqual(["string", "null"]);
      expect(REVENUE_CURRENCY_WINDOW).toBe(50_000);
    } finally {
      await app.close();
    }
  });
});
