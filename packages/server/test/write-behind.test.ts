// A config call answers before its write (the visitor, their new assignments) commits
// (routes/client.ts, store/write-behind.ts; docs/storage.md "Durability"). What that keeps: the
// write still commits (retried when it fails, logged when it cannot, written again by the
// visitor's next call); an exposure sent right after the answer carries the assignment's
// probability and split on the same node and on another node of the same database (which waits
// for the commit), and is stored as forced rather than guessed when the commit never comes; a
// write lost between answer and commit costs nothing but the row, which the next call writes again.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FastifyInstance } from "fastify";
import type { ConfigsResponse } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import { userIdFor } from "../src/routes/client.js";
import { DEMO_CLIENT_KEY } from "../src/seed/demo.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { SqliteStore } from "../src/store/sqlite/index.js";
import { WriteBehind } from "../src/store/write-behind.js";
import { FIXED_NOW, FORM, SHOP_ORIGIN, makeApp, user } from "./helpers.js";
import type { TestApp } from "./helpers.js";
import { gated } from "./support/gated-store.js";
import type { GatedStore } from "./support/gated-store.js";

describe("WriteBehind", () => {
  it("retries a failed write, and settles the key once it committed", async () => {
    const committed: string[] = [];
    let failures = 2;
    const behind = new WriteBehind<string>(
      async (item) => {
        if (failures-- > 0) throw new Error("down");
        committed.push(item);
      },
      () => expect.unreachable(),
      [1, 1],
    );
    behind.write("k", "a");
    expect(behind.settled("k")).toBeDefined();
    expect(behind.settled("other")).toBeUndefined();
    await behind.settled("k");
    expect(committed).toEqual(["a"]);
    expect(behind.settled("k")).toBeUndefined();
  });

  it("hands a write that failed every try to gaveUp, and a key settles only when all its writes have", async () => {
    const gaveUp: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const behind = new WriteBehind<string>(
      async (item) => {
        if (item === "bad") throw new Error("refused");
        if (item === "slow") await held;
      },
      (key, item, error) => gaveUp.push(`${key} ${item} ${(error as Error).message}`),
      [1],
    );
    behind.write("k", "slow");
    behind.write("k", "bad");
    let settled = false;
    void behind.settled("k")!.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(gaveUp).toEqual(["k bad refused"]);
    expect(settled).toBe(false);
    release();
    await behind.drain();
    expect(settled).toBe(true);
  });
});

describe("config calls write behind the answer (two nodes on one SQLite file)", () => {
  let t: TestApp;
  /** Node A, whose decision writes the test holds back or fails. */
  let a: FastifyInstance;
  let aStore: SqliteStore;
  let gate: GatedStore<SqliteStore>;
  /** Node B: t.app, on the same file. */
  let b: FastifyInstance;
  let logged: string[];

  beforeEach(async () => {
    t = await makeApp();
    b = t.app;
    aStore = openSqliteStore(t.file);
    gate = gated(aStore);
    logged = [];
    a = await buildApp({ store: gate.store, clock: () => FIXED_NOW, log: { level: "error", stream: { write: (line: string) => void logged.push(line) } } });
  });
  afterEach(async () => {
    gate.release();
    await a.close();
    aStore.close();
    await t.close();
  });

  const q = `?cfenc=${DEMO_CLIENT_KEY}`;
  const product = () => t.account.settings.pages.find((p) => p.domain === t.account.settings.domain)!.page_path;
  // Async so that the request is sent when called (inject's own chain sends when awaited).
  const post = async (node: FastifyInstance, url: string, body: unknown) =>
    await node.inject({ method: "POST", url: url + q, headers: { "content-type": FORM, origin: SHOP_ORIGIN }, payload: JSON.stringify(body) });
  /** The price experience's config a visitor is answered on a product page. */
  const priceConfig = async (node: FastifyInstance, visitor: string) => {
    const res = await post(node, "/v1/users/configs/", { user: user(visitor), current_page_path: product(), current_domain: "littlesprouts.localhost" });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as ConfigsResponse;
    return Object.values(answer.configs).find((c) => c.experience_behaviour_response?.experience_id === "exp_price_message")!;
  };
  const summary = (visitor: string, variation_id: string, withRule = true) => ({
    config_id: "cfg_price",
    user_customer_id: visitor,
    requested_time: FIXED_NOW,
    variation_id,
    experience_id: "exp_price_message",
    ...(withRule ? { rule_id: "rule_price_everyone" } : {}),
    behaviour_id: "beh_price_message",
    session_id: `s-${variation_id}`,
  });
  const assignments = () => t.store.countRows("assignments", t.account.id);
  const exposures = () => t.store.listExposures(t.account.id, 10);
  const OTHER = (v: string) => (v === "var_price_control" ? "var_price_free_shipping" : "var_price_control");
  const SPLIT = JSON.stringify({ var_price_control: 0.5, var_price_free_shipping: 0.5 });

  it("answers before the write commits; the write commits behind the answer", async () => {
    gate.hold();
    const config = await priceConfig(a, "v-behind");
    expect(config.variation_id).toMatch(/^var_price_/);
    expect(assignments()).toBe(0);
    gate.release();
    await a.clientWritesBehind.drain();
    expect(assignments()).toBe(1);
    const stored = t.store.getAssignments(t.account.id, userIdFor(t.account.id, "v-behind"));
    expect([...stored.values()].map((x) => x.variation_id)).toEqual([config.variation_id]);
  });

  it("an exposure sent to the same node before the write commits waits for it (no rule named: found by the stored variation)", async () => {
    gate.hold();
    const config = await priceConfig(a, "v-same");
    const sent = post(a, "/v1/config/request/summary/", { user: user("v-same"), summaries: [summary("v-same", config.variation_id!, false)] });
    await new Promise((resolve) => setTimeout(resolve, 30));
    gate.release();
    expect((await sent).statusCode).toBe(200);
    expect(exposures()).toEqual([expect.objectContaining({ variation_id: config.variation_id, probability: 0.5, split: SPLIT, forced: false })]);
  });

  it("an exposure sent to another node before the write commits waits for it and carries its probability and split; another variation is forced at once", async () => {
    gate.hold();
    const config = await priceConfig(a, "v-other");
    const reads = vi.spyOn(t.store, "getAssignments");
    const sent = post(b, "/v1/config/request/summary/", { user: user("v-other"), summaries: [summary("v-other", config.variation_id!), summary("v-other", OTHER(config.variation_id!))] });
    // Node B has read the visitor's assignments (none yet); node A commits only then.
    await vi.waitFor(() => expect(reads).toHaveBeenCalledWith(t.account.id, userIdFor(t.account.id, "v-other")));
    expect(assignments()).toBe(0);
    gate.release();
    expect((await sent).statusCode).toBe(200);
    const byVariation = Object.fromEntries(exposures().map((x) => [x.variation_id, x]));
    expect(byVariation[config.variation_id!]).toMatchObject({ probability: 0.5, split: SPLIT, forced: false });
    expect(byVariation[OTHER(config.variation_id!)]).toMatchObject({ probability: null, forced: true });
  });

  it("an exposure whose assignment never commits is stored as forced after the waits, never with a probability it cannot read", async () => {
    gate.hold();
    const config = await priceConfig(a, "v-never");
    const sent = await post(b, "/v1/config/request/summary/", { user: user("v-never"), summaries: [summary("v-never", config.variation_id!)] });
    expect(sent.statusCode).toBe(200);
    expect(exposures()).toEqual([expect.objectContaining({ variation_id: config.variation_id, probability: null, forced: true })]);
  });

  it("a write that fails is retried until it commits", async () => {
    gate.fail(2);
    await priceConfig(a, "v-retry");
    await a.clientWritesBehind.drain();
    expect(gate.failures).toBe(2);
    expect(assignments()).toBe(1);
    expect(logged).toEqual([]);
  });

  it("a write that fails every retry is logged, and the visitor's next call writes it again", async () => {
    gate.fail(4);
    const first = await priceConfig(a, "v-lost");
    await a.clientWritesBehind.drain();
    expect(gate.failures).toBe(4);
    expect(assignments()).toBe(0);
    expect(logged.join("")).toContain("failed after retries");
    const again = await priceConfig(a, "v-lost");
    await a.clientWritesBehind.drain();
    expect(again.variation_id).toBe(first.variation_id);
    expect(assignments()).toBe(1);
  });

  it("a write lost between answer and commit: the visitor's next call, on any node, answers the same variation and stores it", async () => {
    gate.hold();
    for (let i = 0; i < 6; i++) {
      const visitor = `v-crash-${i}`;
      const answered = await priceConfig(a, visitor);
      // Node A never commits (as if it stopped here); node B answers the visitor's next page.
      const next = await priceConfig(b, visitor);
      await b.clientWritesBehind.drain();
      expect(next.variation_id).toBe(answered.variation_id);
      expect(assignments()).toBe(i + 1);
    }
  });
});
