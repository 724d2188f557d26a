// Two service nodes on one PostgreSQL database (issue #18, docs/storage.md "Many nodes"): any
// node answers any call. A publish on one reaches the config calls of the other at once (each
// config call reads the account's revision), a session made on one works on the other, the same
// event sent to both is stored once, and results read on either count what was sent to both.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { FastifyInstance } from "fastify";
import type { ConfigsResponse, ExperienceResults } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import { DEMO_ACCOUNT_ID, DEMO_CLIENT_KEY, seedDemo } from "../src/seed/demo.js";
import { openPostgresStore } from "../src/store/postgres/index.js";
import type { PostgresStore } from "../src/store/postgres/index.js";
import { FIXED_NOW, FORM, OWNER, SHOP_ORIGIN, call, experienceBody, signIn, user } from "./helpers.js";
import { freshDatabase } from "./support/postgres.js";
import { gated } from "./support/gated-store.js";
import type { FreshDatabase } from "./support/postgres.js";

let db: FreshDatabase;
const stores: PostgresStore[] = [];
let a: FastifyInstance;
let b: FastifyInstance;

beforeAll(async () => {
  db = await freshDatabase();
  stores.push(await openPostgresStore(db.url), await openPostgresStore(db.url));
  // Nodes start together on a new database: the migrations run once, the demo is seeded once.
  await Promise.all(stores.map((s) => s.migrate()));
  const seeded = await Promise.all(stores.map((s) => seedDemo(s, OWNER)));
  expect(seeded.map((s) => s.created).sort()).toEqual([false, true]);
  a = await buildApp({ store: stores[0]!, clock: () => FIXED_NOW });
  b = await buildApp({ store: stores[1]!, clock: () => FIXED_NOW });
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await Promise.all(stores.map((s) => s.close()));
  await db?.drop();
});

const q = `?cfenc=${DEMO_CLIENT_KEY}`;
const post = (node: FastifyInstance, url: string, body: unknown) =>
  node.inject({ method: "POST", url: url + q, headers: { "content-type": FORM, origin: SHOP_ORIGIN }, payload: JSON.stringify(body) });

/** The experiences a config call on `node` answers for the home page. */
async function experiencesOn(node: FastifyInstance, visitor: string): Promise<string[]> {
  const res = await post(node, "/v1/users/configs/", { user: user(visitor), current_page_path: "/", current_domain: "littlesprouts.localhost", session_id: "s1" });
  expect(res.statusCode, res.body).toBe(200);
  return Object.values((res.json() as ConfigsResponse).configs).map((c) => c.experience_behaviour_response?.experience_id ?? "");
}

describe("two nodes on one PostgreSQL database", () => {
  let experienceId: string;

  it("a session made on one node works on the other", async () => {
    const owner = await signIn(a);
    const res = await call(b, owner, "POST", "/api/experiences", experienceBody({ name: "Two-node test" }));
    expect(res.statusCode, res.body).toBe(201);
    experienceId = res.json().id;
    expect((await call(a, owner, "GET", `/api/experiences/${experienceId}`)).json().name).toBe("Two-node test");
  });

  it("a publish on one node is in the very next config call of the other, and so is a pause", async () => {
    const owner = await signIn(b);
    // Node A answers (and keeps its snapshot of the account) before the publish.
    expect(await experiencesOn(a, "shopper-1")).not.toContain(experienceId);
    const started = await call(b, owner, "POST", `/api/experiences/${experienceId}/status`, { status: "running" });
    expect(started.statusCode, started.body).toBe(200);
    expect(await experiencesOn(a, "shopper-1")).toContain(experienceId);
    const paused = await call(a, owner, "POST", `/api/experiences/${experienceId}/status`, { status: "paused" });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(await experiencesOn(b, "shopper-1")).not.toContain(experienceId);
    await call(a, owner, "POST", `/api/experiences/${experienceId}/status`, { status: "running" });
  });

  it("a visitor keeps their variation whichever node answers", async () => {
    const variationOn = async (node: FastifyInstance, visitor: string) => {
      const res = await post(node, "/v1/users/configs/", { user: user(visitor), current_page_path: "/", current_domain: "littlesprouts.localhost" });
      const config = Object.values((res.json() as ConfigsResponse).configs).find((c) => c.experience_behaviour_response?.experience_id === experienceId);
      return config?.variation_id;
    };
    for (let i = 0; i < 6; i++) {
      const first = await variationOn(i % 2 ? a : b, `sticky-${i}`);
      expect(first).toMatch(/^var_[ab]$/);
      expect(await variationOn(i % 2 ? b : a, `sticky-${i}`)).toBe(first);
    }
  });

  it("a visitor new to a node keeps the variation another node stored before a publish, read with the revision in one statement", async () => {
    // Over HTTP, the body in the headers' packet (one write): the handler runs in the turn the
    // request arrived, before the revision read goes, so it can add the visitor to that read.
    const origin = await b.listen({ host: "127.0.0.1", port: 0 });
    const variationOnB = (visitor: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        const payload = JSON.stringify({ user: user(visitor), current_page_path: "/", current_domain: "littlesprouts.localhost" });
        const req = http.request(`${origin}/v1/users/configs/${q}`, { method: "POST", headers: { "content-type": FORM, origin: SHOP_ORIGIN, "content-length": Buffer.byteLength(payload) } }, (res) => {
          let text = "";
          res.on("data", (d: Buffer) => (text += d.toString()));
          res.on("end", () => {
            if (res.statusCode !== 200) return reject(new Error(`${res.statusCode} ${text}`));
            const configs = Object.values((JSON.parse(text) as ConfigsResponse).configs);
            resolve(configs.find((c) => c.experience_behaviour_response?.experience_id === experienceId)?.variation_id);
          });
        });
        req.on("error", reject);
        req.end(payload);
      });
    const owner = await signIn(a);
    const res = await post(a, "/v1/users/configs/", { user: user("sticky-publish"), current_page_path: "/", current_domain: "littlesprouts.localhost" });
    const first = Object.values((res.json() as ConfigsResponse).configs).find((c) => c.experience_behaviour_response?.experience_id === experienceId)?.variation_id;
    expect(first).toMatch(/^var_[ab]$/);
    await a.clientWritesBehind.drain();
    // New weights that draw the other variation for everyone: only the stored assignment keeps theirs.
    const other = first === "var_a" ? "var_b" : "var_a";
    const reweighted = experienceBody({ name: "Two-node test" });
    for (const v of reweighted.rules[0]!.behaviour.variations) v.weight = v.id === other ? 1 : 0;
    const put = await call(a, owner, "PUT", `/api/experiences/${experienceId}`, reweighted);
    expect(put.statusCode, put.body).toBe(200);
    const reads = vi.spyOn(stores[1]!, "getAssignments");
    try {
      expect(await variationOnB("sticky-publish")).toBe(first);
      expect(await variationOnB("new-after-publish")).toBe(other);
      // Node B read neither visitor with a statement of its own: its revision read carried them.
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
      await call(a, owner, "PUT", `/api/experiences/${experienceId}`, experienceBody({ name: "Two-node test" }));
    }
  });

  it("the same event sent to both nodes at once is stored once", async () => {
    const event = {
      event_type: "TRACK",
      event_customer_id: "littlesprouts.localhost|add_to_cart",
      domain: "littlesprouts.localhost",
      name: "add_to_cart",
      insert_id: "both-nodes-1",
      event_timestamp: FIXED_NOW,
      session_id: "s1",
      properties: { page_path: "/" },
    };
    const before = await stores[0]!.countRows("events", DEMO_ACCOUNT_ID);
    const answers = await Promise.all([a, b, a, b].map((node) => post(node, "/v1/cfe/", { user: user("shopper-2"), events: [event] })));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers.map((r) => r.json().accepted).reduce((x, y) => x + y)).toBe(1);
    expect(await stores[1]!.countRows("events", DEMO_ACCOUNT_ID)).toBe(before + 1);
  });

  it("results read on one node count exposures sent to either, and move when the other node stores more", async () => {
    const owner = await signIn(a);
    const expected = new Map([["var_a", 0], ["var_b", 0]]);
    /** A shopper assigned on one node, whose page reports its exposure to the other. */
    const visit = async (visitor: string, decideOn: FastifyInstance, reportTo: FastifyInstance) => {
      const res = await post(decideOn, "/v1/users/configs/", { user: user(visitor), current_page_path: "/", current_domain: "littlesprouts.localhost", session_id: "s1" });
      const body = res.json() as ConfigsResponse;
      const config = Object.values(body.configs).find((c) => c.experience_behaviour_response?.experience_id === experienceId)!;
      const summary = {
        config_id: config.config_id,
        user_customer_id: visitor,
        user_id: body.user_id,
        requested_time: FIXED_NOW - 1000,
        variation_id: config.variation_id,
        experience_id: experienceId,
        rule_id: config.experience_behaviour_response!.rule_id,
        behaviour_id: config.experience_behaviour_response!.behaviour_id,
        session_id: "s1",
      };
      const sent = await post(reportTo, "/v1/config/request/summary/", { user: user(visitor), summaries: [summary] });
      expect(sent.statusCode, sent.body).toBe(200);
      expected.set(config.variation_id!, expected.get(config.variation_id!)! + 1);
    };
    const visitorsOn = async (node: FastifyInstance) => {
      const res = await call(node, owner, "GET", `/api/results/${experienceId}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as ExperienceResults).variations.map((v) => [v.variation_id, v.visitors]);
    };
    await visit("r-1", b, a);
    expect(await visitorsOn(b)).toEqual([...expected]);
    await visit("r-2", a, b);
    expect(await visitorsOn(a)).toEqual([...expected]);
    // Node B answered (and cached) results before: node A's write must reach them.
    await visit("r-3", b, a);
    expect(await visitorsOn(b)).toEqual([...expected]);
    expect([...expected.values()].reduce((x, y) => x + y)).toBe(3);
  });

  it("an exposure reaching the other node before the config call's write commits waits for it and carries its probability and split", async () => {
    // A third node on the same database whose config-call writes are held: its answer is out,
    // its assignment not yet stored (routes/client.ts writes it behind the answer).
    const gate = gated(stores[0]!);
    const c = await buildApp({ store: gate.store, clock: () => FIXED_NOW });
    let userId = "";
    try {
      gate.hold();
      const visitor = "behind-1";
      const res = await post(c, "/v1/users/configs/", { user: user(visitor), current_page_path: "/", current_domain: "littlesprouts.localhost", session_id: "s1" });
      const body = res.json() as ConfigsResponse;
      userId = body.user_id;
      const config = Object.values(body.configs).find((x) => x.experience_behaviour_response?.experience_id === experienceId)!;
      const rule_id = config.experience_behaviour_response!.rule_id;
      const summary = { config_id: config.config_id, user_customer_id: visitor, requested_time: FIXED_NOW, variation_id: config.variation_id, experience_id: experienceId, rule_id, session_id: "s-behind" };
      const reads = vi.spyOn(stores[1]!, "getAssignments");
      // Promise.resolve sends it now (inject's chain sends when awaited).
      const sending = Promise.resolve(post(b, "/v1/config/request/summary/", { user: user(visitor), summaries: [summary] }));
      // Node B has read the visitor's assignments (none yet); node C commits only then.
      await vi.waitFor(() => expect(reads).toHaveBeenCalledWith(DEMO_ACCOUNT_ID, body.user_id));
      reads.mockRestore();
      expect((await stores[1]!.getAssignments(DEMO_ACCOUNT_ID, body.user_id)).size).toBe(0);
      gate.release();
      const sent = await sending;
      expect(sent.statusCode, sent.body).toBe(200);
      const stored = (await stores[1]!.listExposures(DEMO_ACCOUNT_ID, 20)).find((x) => x.session_id === "s-behind");
      // experienceBody's two variations, even weights, all traffic.
      expect(stored).toMatchObject({ variation_id: config.variation_id, probability: 0.5, forced: false });
      expect(JSON.parse(stored!.split!)).toEqual({ var_a: 0.5, var_b: 0.5 });
    } finally {
      gate.release();
      await c.close();
    }
    expect((await stores[1]!.getAssignments(DEMO_ACCOUNT_ID, userId)).size).toBe(1);
  });
});
