// Ids named like Object.prototype members (`__proto__`, `toString`, `constructor`, …). They fit
// the id characters, and plain objects keyed by them lose or garble their entries:
// `seen["__proto__"] = 1` sets a prototype, `(seen.toString ?? 0) + 1` is text. The admin API
// refuses such ids (schemas/common.ts RESERVED_IDS); results stored with them before (or by
// another path) still read right on both backends.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { ExperienceResults, GoalDefinition, TrackedEvent } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import { newSecretKey } from "../src/auth/access.js";
import { splitOf } from "../src/decide/decide.js";
import { RESERVED_IDS } from "../src/schemas/common.js";
import type { BehaviourDefinition, ClientWrite, Experience, Exposure, Store } from "../src/store/types.js";
import { call, experienceBody, makeApp, signIn } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";
import { BACKENDS, openBackend } from "./support/stores.js";

describe("the admin API refuses reserved ids", () => {
  let t: TestApp;
  let owner: Auth;
  beforeAll(async () => {
    t = await makeApp();
    owner = await signIn(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it("derives the list from Object.prototype, with __proto__ and prototype", () => {
    for (const name of ["__proto__", "prototype", "constructor", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "__defineGetter__"]) {
      expect(RESERVED_IDS).toContain(name);
    }
    for (const name of Object.getOwnPropertyNames(Object.prototype)) expect(RESERVED_IDS).toContain(name);
  });

  type Body = ReturnType<typeof experienceBody>;
  const variation = (body: Body, i: number) => body.rules[0]!.behaviour.variations[i]!;
  const places: [string, (name: string) => Body][] = [
    ["a variation id", (name) => { const b = experienceBody(); variation(b, 1).id = name; return b; }],
    ["a behaviour id", (name) => { const b = experienceBody(); b.rules[0]!.behaviour.id = name; return b; }],
    ["a rule id", (name) => { const b = experienceBody(); b.rules[0]!.id = name; return b; }],
    ["a goal id", (name) => experienceBody({ goals: [{ id: name, name: "Cart", kind: "track", event_name: "add_to_cart" }] })],
    ["a config's config_customer_id", (name) => { const b = experienceBody(); variation(b, 0).configs[0]!.config_customer_id = name; return b; }],
    ["a config's config_id", (name) => { const b = experienceBody(); variation(b, 1).configs[0]!.config_id = name; return b; }],
    ["an audience id", (name) => { const b = experienceBody(); (b.rules[0] as { audience_id: string | null }).audience_id = name; return b; }],
  ];

  for (const [place, make] of places) {
    it(`${place}: 400 invalid_body naming the field, for POST and PUT; nothing stored`, async () => {
      const before = JSON.stringify(t.store.listExperiences(t.account.id));
      for (const name of ["__proto__", "toString", "constructor", "prototype", "valueOf"]) {
        for (const [method, url] of [["POST", "/api/experiences"], ["PUT", "/api/experiences/exp_price_message"]] as const) {
          const res = await call(t.app, owner, method, url, make(name));
          expect(res.statusCode, `${method} ${place} ${name}: ${res.body}`).toBe(400);
          const error = (res.json() as { error: { code: string; message: string } }).error;
          expect(error.code).toBe("invalid_body");
          if (place !== "an audience id") expect(error.message).toMatch(/\/(id|config_customer_id|config_id) must not be a name every JavaScript object has \(.*__proto__.*\)$/);
          expect(res.headers["x-content-type-options"]).toBe("nosniff");
        }
      }
      expect(JSON.stringify(t.store.listExperiences(t.account.id))).toBe(before);
    });
  }

  it("ids that only contain such a name, or differ in case, are still ids", async () => {
    const b = experienceBody();
    variation(b, 0).id = "__proto__x";
    variation(b, 1).id = "ToString";
    const res = await call(t.app, owner, "POST", "/api/experiences", b);
    expect(res.statusCode, res.body).toBe(201);
  });
});

// ---- results stored with such ids (before the rule, or by another path) ----

const SHOP = "shop.example";
const EXPOSED = Date.UTC(2026, 10, 10, 12);
const NOW = new Date(Date.UTC(2026, 10, 28)).toISOString();
const GOAL: GoalDefinition = { id: "__proto__", name: "Add to cart", kind: "track", event_name: "add_to_cart" };
const BEHAVIOUR: BehaviourDefinition = {
  id: "b1",
  name: "B",
  traffic_allocation: 1,
  variations: [
    { id: "__proto__", name: "Proto", weight: 1, configs: [] },
    { id: "toString", name: "ToString", weight: 1, configs: [] },
  ],
};
const EXPERIENCE: Omit<Experience, "created_at" | "updated_at"> = {
  id: "exp_p",
  account_id: "acc",
  name: "Proto",
  status: "running",
  kind: "ab_test",
  priority: 0,
  pages: [{ domain: SHOP, page_path: "/", page_match: "exact_match" }],
  rules: [{ id: "r1", audience_id: null, behaviour: BEHAVIOUR }],
  goals: [GOAL],
  exclusion_group: null,
};

let seq = 0;
/** A visitor exposed to `variation` under the split the decision stores; `cart`: adds to cart after. */
function visitor(user: string, variation: string, cart: boolean): ClientWrite[] {
  const u = { user_customer_id: user, anonymous: true };
  const exposure: Exposure = { config_id: "cfg", user_customer_id: user, user_id: user, session_id: "s", requested_time: EXPOSED, variation_id: variation, experience_id: "exp_p", rule_id: "r1", behaviour_id: "b1", probability: 0.5, split: splitOf(BEHAVIOUR) };
  const event: TrackedEvent = { event_type: "TRACK", name: "add_to_cart", event_customer_id: `${SHOP}|add_to_cart`, domain: SHOP, insert_id: `${user}-${seq++}`, event_timestamp: EXPOSED + 60_000, properties: {} };
  return [
    { kind: "exposures", accountId: "acc", userId: user, user: u, touch: false, exposures: [exposure], now: NOW },
    ...(cart ? [{ kind: "events" as const, accountId: "acc", userId: user, user: u, touch: false, events: [event], now: NOW }] : []),
  ];
}

async function setUp(store: Store) {
  await store.createAccount({ id: "acc", name: "Shop", client_key: "ck_p", settings: { ...SETTINGS_DEFAULTS, domain: SHOP } });
  const key = newSecretKey();
  await store.createSecretKey({ id: "key_p", account_id: "acc", name: "test", prefix: key.prefix, created_at: NOW }, key.hash);
  // Straight into the store: the API would refuse these ids now.
  await store.saveExperience(EXPERIENCE);
  const app = await buildApp({ store, log: false });
  const get = async (url: string): Promise<ExperienceResults> => {
    const res = await app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key.secret}` } });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
    return res.json() as ExperienceResults;
  };
  return { app, get };
}

describe("the split a decision stores", () => {
  it("holds every variation, __proto__ included", () => {
    expect(JSON.parse(splitOf(BEHAVIOUR))).toEqual(JSON.parse('{"__proto__":0.5,"toString":0.5}'));
    expect(Object.keys(JSON.parse(splitOf(BEHAVIOUR)) as object)).toEqual(["__proto__", "toString"]);
  });
});

describe.each(BACKENDS)("results with variations __proto__ and toString and a goal __proto__ on %s", (name) => {
  it("count every visitor per variation, the SRM check expects the stored split, the daily conversions keep the goal; after a build and after a fold", async () => {
    const b = await openBackend(name);
    const { app, get } = await setUp(b.store);
    try {
      const expectResults = async (proto: number, toString: number, protoCart: number, toStringCart: number) => {
        for (const range of ["", "?from=2026-11-01&to=2026-11-30"]) {
          const r = await get(`/api/results/exp_p${range}`);
          expect(r.total_visitors, range).toBe(proto + toString);
          expect(r.variations.map((v) => [v.variation_id, v.visitors]), range).toEqual([["__proto__", proto], ["toString", toString]]);
          const rule = r.rules[0]!;
          expect(rule.srm.observed, range).toEqual([proto, toString]);
          expect(rule.srm.expected, range).toEqual([(proto + toString) / 2, (proto + toString) / 2]);
          expect(rule.metrics[0]!.variations.map((v) => [v.visitors, v.conversions]), range).toEqual([[proto, protoCart], [toString, toStringCart]]);
          const day = rule.daily.find((d) => d.date === "2026-11-10")!;
          expect(day.variations.map((v) => [v.variation_id, v.visitors, Object.entries(v.conversions)]), range).toEqual([
            ["__proto__", proto, [["__proto__", protoCart]]],
            ["toString", toString, [["__proto__", toStringCart]]],
          ]);
        }
      };
      const writes: ClientWrite[] = [];
      for (let i = 0; i < 7; i++) writes.push(...visitor(`p${i}`, "__proto__", i < 3));
      for (let i = 0; i < 5; i++) writes.push(...visitor(`t${i}`, "toString", i < 1));
      await b.store.commitClientWrites(writes);
      // Built from nothing.
      await expectResults(7, 5, 3, 1);
      // Folded into the stored state (read back from its JSON).
      const more: ClientWrite[] = [];
      for (let i = 7; i < 10; i++) more.push(...visitor(`p${i}`, "__proto__", true));
      for (let i = 5; i < 10; i++) more.push(...visitor(`t${i}`, "toString", false));
      await b.store.commitClientWrites(more);
      await expectResults(10, 10, 6, 1);
    } finally {
      await app.close();
      await b.close();
    }
  });
});

describe.each(BACKENDS)("a results state stored by the format before on %s", (name) => {
  it("(the __proto__ count lost, toString's stored as text) is made again, not folded into", async () => {
    const b = await openBackend(name);
    const { app, get } = await setUp(b.store);
    try {
      const writes: ClientWrite[] = [];
      for (let i = 0; i < 7; i++) writes.push(...visitor(`p${i}`, "__proto__", false));
      for (let i = 0; i < 5; i++) writes.push(...visitor(`t${i}`, "toString", false));
      await b.store.commitClientWrites(writes);
      expect((await get("/api/results/exp_p")).variations.map((v) => v.visitors)).toEqual([7, 5]);
      // What format 5 stored for these visitors: no __proto__ key, and text for toString.
      const [state] = await b.query<{ goals: string; totals: string }>("SELECT goals, totals FROM results_state WHERE experience_id = 'exp_p'");
      const totals = JSON.parse(state!.totals) as { seen: Record<string, unknown> };
      expect(state!.goals).toMatch(/^6 /);
      totals.seen = { toString: `${String(Object.prototype.toString)}11111` };
      const text = (x: string) => `'${x.replace(/'/g, "''")}'`;
      await b.exec(`UPDATE results_state SET goals = ${text(state!.goals.replace(/^6 /, "5 "))}, totals = ${text(JSON.stringify(totals))} WHERE experience_id = 'exp_p'`);
      await b.store.commitClientWrites(visitor("p7", "__proto__", false));
      expect((await get("/api/results/exp_p")).variations.map((v) => [v.variation_id, v.visitors])).toEqual([["__proto__", 8], ["toString", 5]]);
    } finally {
      await app.close();
      await b.close();
    }
  });
});

// ---- paths the router cannot read ----

describe("a path the router cannot read answers in the service's error shape", () => {
  let t: TestApp;
  let owner: Auth;
  beforeAll(async () => {
    t = await makeApp();
    owner = await signIn(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it("bad percent-encoding: 400 bad_request with nosniff, the path not echoed", async () => {
    for (const url of ["/api/experiences/%ff", "/api/results/%ff", "/v1/accounts/%ff/snippet.js", "/api/audiences/%E0%A4%A"]) {
      const res = await call(t.app, owner, "GET", url);
      expect(res.statusCode, url).toBe(400);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.json()).toEqual({ error: { code: "bad_request", message: "The path is not valid percent-encoded UTF-8" } });
    }
  });

  it("a path segment over 512 characters: 414 bad_request, short, with nosniff", async () => {
    for (const url of [`/v1/accounts/${"k".repeat(3000)}/snippet.js`, `/api/experiences/${"e".repeat(600)}`]) {
      const res = await call(t.app, owner, "GET", url);
      expect(res.statusCode, url.slice(0, 40)).toBe(414);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.json()).toEqual({ error: { code: "bad_request", message: "A part of the path is longer than 512 characters" } });
      expect(res.body.length).toBeLessThan(200);
    }
  });

  it("a valid id or visitor of 101 to 256 characters reaches its route (Fastify's default limit was 100)", async () => {
    const long = "v".repeat(256);
    const timeline = await call(t.app, owner, "GET", `/api/visitors/${long}/timeline`);
    // Answered by the route: no such visitor in this account.
    expect(timeline.statusCode).toBe(404);
    expect(timeline.json()).toMatchObject({ error: { code: "not_found", message: expect.stringMatching(/^No visitor "v{256}"/) as unknown } });
    const experience = await call(t.app, owner, "GET", `/api/experiences/${"e".repeat(128)}`);
    expect(experience.statusCode).toBe(404);
    expect(experience.json()).toMatchObject({ error: { code: "not_found" } });
  });
});
