// Many nodes, one answer (issue #18, item 4), in a browser: two real service NODES — separate
// processes of the built service (packages/server/dist/main.js) — on one throwaway PostgreSQL
// database, behind a round-robin balancer (e2e/support/balancer.ts, standing in for a real one),
// with the demo shop's pages pointing their snippet at the balancer, and Chromium as the shoppers.
//   1. shoppers whose config calls alternate between the nodes keep their variation;
//   2. an experience published through node A is on the very next page view served by node B;
//   3. the same event batch sent to both nodes, and retried, is stored once;
//   4. killing one node (SIGKILL) under a steady load of event batches loses no acknowledged
//      event, and the other node keeps answering, config calls included.
// The steps share the nodes and run in order; step 4 kills node A, so it comes last.

import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { ConfigsRequest, ConfigsResponse, ExperienceDetail, SessionInfo } from "@storefit/contract";
import { createDemoShop } from "../apps/demo-shop/src/index.js";
import { DEMO_ACCOUNT_ID, DEMO_CLIENT_KEY } from "../packages/server/src/seed/demo.js";
import { DEMO_DOMAIN } from "../packages/server/src/seed/demo-pages.js";
import { freshDatabase } from "../packages/server/test/support/postgres.js";
import type { FreshDatabase } from "../packages/server/test/support/postgres.js";
import { eventually, launchBrowser, newVisitor } from "./browser.js";
import { startBalancer } from "./support/balancer.js";
import type { Balancer, Routed } from "./support/balancer.js";

const MAIN = resolve(import.meta.dirname, "../packages/server/dist/main.js");
const ADMIN = { email: "owner@multi-node.e2e.example", password: "multi-node-password-123" };
const CONFIGS_PATH = "/v1/users/configs/";
const EVENTS_PATH = "/v1/cfe/";
/** A product page of the demo's running A/B test of the price message (seed/demo.ts). */
const PRODUCT = "/products/gentle-baby-wash";
const PRICE_TEXT = "$12.00";
const FREE_SHIPPING = "var_price_free_shipping";
const CONTROL = "var_price_control";
const HERO_BEFORE = "Gentle care for little skin";
const HERO_AFTER = "Published through node A";
const A = 0;
const B = 1;

type NodeProcess = { name: string; url: string; child: ChildProcess; output: () => string };

let db: FreshDatabase;
let balancer: Balancer;
let shop: Server;
let shopPort = 0;
let browser: Browser;
let dataDir = "";
const nodes: NodeProcess[] = [];
const killAll = () => nodes.forEach((n) => n.child.exitCode === null && n.child.signalCode === null && n.child.kill("SIGKILL"));

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One service node: `node dist/main.js` on its own port, answering /healthz on PostgreSQL. */
function spawnNode(name: string, port: number, env: Record<string, string>): NodeProcess {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  return { name, url: `http://127.0.0.1:${port}`, child, output: () => output };
}

async function waitReady(node: NodeProcess): Promise<void> {
  await eventually(
    async () => {
      if (exited(node.child)) throw new Error(`node ${node.name} exited (${node.child.signalCode ?? node.child.exitCode}):\n${node.output()}`);
      const res = await fetch(`${node.url}/healthz`).catch(() => null);
      // main.ts prints where its data is once it listens: a dist/main.js from before the
      // PostgreSQL store would quietly run on SQLite instead.
      return res?.status === 200 && node.output().includes("Storefit service on");
    },
    90_000,
    `node ${node.name} to answer /healthz`,
  );
  if (!node.output().includes("(data in PostgreSQL")) {
    throw new Error(`node ${node.name} is not on PostgreSQL (is dist/main.js stale? npm run build -w @storefit/server):\n${node.output()}`);
  }
}

async function stopNode(node: NodeProcess): Promise<void> {
  if (exited(node.child)) return;
  const gone = new Promise<void>((r) => node.child.once("exit", () => r()));
  node.child.kill("SIGTERM");
  const timer = setTimeout(() => node.child.kill("SIGKILL"), 10_000);
  await gone;
  clearTimeout(timer);
}

async function sql<T>(text: string, values: unknown[]): Promise<T[]> {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** How many times each of `insertIds` is stored in the events table. */
async function storedCounts(insertIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await sql<{ insert_id: string; n: number }>(
    "SELECT insert_id, count(*)::int AS n FROM events WHERE account_id = $1 AND insert_id = ANY($2::text[]) GROUP BY insert_id",
    [DEMO_ACCOUNT_ID, insertIds],
  );
  return new Map(rows.map((r) => [r.insert_id, r.n]));
}

const shopUrl = (path: string) => `http://${DEMO_DOMAIN}:${shopPort}${path}`;
const SHOP_ORIGIN = () => `http://${DEMO_DOMAIN}:${shopPort}`;
const isConfigCall = (r: Routed) => r.method === "POST" && r.path === CONFIGS_PATH;
const isEventCall = (r: Routed) => r.method === "POST" && r.path === EVENTS_PATH;

/** A client API call as the storefront script makes it: JSON text under a form content type. */
function clientPost(base: string, path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(`${base}${path}?cfenc=${DEMO_CLIENT_KEY}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: SHOP_ORIGIN() },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

function trackEvent(insertId: string, session = "mn-session") {
  return {
    event_type: "TRACK",
    event_customer_id: `${DEMO_DOMAIN}|add_to_cart`,
    domain: DEMO_DOMAIN,
    name: "add_to_cart",
    insert_id: insertId,
    event_timestamp: Date.now(),
    session_id: session,
    properties: { page_path: PRODUCT },
  };
}

/**
 * One page view in Chromium: the config call's request and answer (whichever node the balancer
 * sent it to), once the script has revealed the page.
 */
async function view(page: Page, path: string): Promise<{ visitor: string; answer: ConfigsResponse }> {
  const call = page.waitForResponse((r) => r.url().includes(CONFIGS_PATH) && r.request().method() === "POST");
  await page.goto(shopUrl(path));
  const res = await call;
  expect(res.status()).toBe(200);
  const sent = JSON.parse(res.request().postData() ?? "{}") as ConfigsRequest;
  const answer = (await res.json()) as ConfigsResponse;
  await page.waitForFunction(() => !document.getElementById("storefit-hide"));
  return { visitor: sent.user.user_customer_id, answer };
}

const variationOf = (answer: ConfigsResponse, experienceId: string) =>
  Object.values(answer.configs).find((c) => c.experience_behaviour_response?.experience_id === experienceId)?.variation_id;

/** Reads the price line once the page shows what `variation` should show. */
async function priceLine(page: Page, variation: string | undefined): Promise<string> {
  const expected = variation === FREE_SHIPPING ? `${PRICE_TEXT} · Free shipping today` : PRICE_TEXT;
  await expect.poll(async () => (await page.locator("#product-price").textContent())?.trim()).toBe(expected);
  return expected;
}

beforeAll(async () => {
  db = await freshDatabase();
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: npm run build -w @storefit/server`);
  dataDir = mkdtempSync(join(tmpdir(), "storefit-multi-node-"));
  const ports = [await freePort(), await freePort()];
  balancer = await startBalancer(ports.map((p) => `http://127.0.0.1:${p}`));
  shop = createDemoShop({ apiUrl: balancer.url });
  shopPort = await new Promise<number>((r, reject) => {
    shop.once("error", reject);
    shop.listen(0, "127.0.0.1", () => r((shop.address() as AddressInfo).port));
  });
  process.once("exit", killAll);
  const env = {
    DATABASE_URL: db.url,
    LOG: "0",
    DEMO_HISTORY: "0",
    PUBLIC_URL: balancer.url,
    STOREFIT_ADMIN_EMAIL: ADMIN.email,
    STOREFIT_ADMIN_PASSWORD: ADMIN.password,
    DEMO_SHOP_PORT: String(shopPort),
    // Never used on PostgreSQL; set so that a stale build on SQLite could not touch ./data.
    DATA_DIR: dataDir,
  };
  // Both nodes start together on the new database: they migrate and seed it once between them.
  nodes.push(spawnNode("A", ports[0]!, env), spawnNode("B", ports[1]!, env));
  [browser] = await Promise.all([launchBrowser(), ...nodes.map(waitReady)]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(nodes.map(stopNode));
  process.off("exit", killAll);
  await balancer?.close();
  if (shop) await new Promise<void>((r) => shop.close(() => r()));
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("two service nodes on one PostgreSQL, behind a balancer", () => {
  it("shoppers whose config calls alternate between the nodes keep their variation", { timeout: 180_000 }, async () => {
    const seen = new Set<string>();
    for (let shopper = 0; shopper < 6; shopper++) {
      const context = await newVisitor(browser);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      const before = [balancer.count(A, isConfigCall), balancer.count(B, isConfigCall)];
      const views: { visitor: string; variation: string | undefined; price: string }[] = [];
      for (let i = 0; i < 3; i++) {
        const { visitor, answer } = await view(page, PRODUCT);
        const variation = variationOf(answer, "exp_price_message");
        // The page shows what the answer says (read from the DOM, not only the JSON).
        views.push({ visitor, variation, price: await priceLine(page, variation) });
      }
      // Proves the alternation really happened: this shopper's config calls reached both nodes.
      expect(balancer.count(A, isConfigCall) - before[0]!).toBeGreaterThanOrEqual(1);
      expect(balancer.count(B, isConfigCall) - before[1]!).toBeGreaterThanOrEqual(1);
      // One visitor throughout (else stickiness would mean nothing), in the A/B test...
      expect(new Set(views.map((v) => v.visitor)).size).toBe(1);
      expect([CONTROL, FREE_SHIPPING]).toContain(views[0]!.variation);
      // ...shown the same variation, and the same price line, on every view whichever node answered.
      expect(views.map((v) => v.variation)).toEqual([views[0]!.variation, views[0]!.variation, views[0]!.variation]);
      expect(views.map((v) => v.price)).toEqual([views[0]!.price, views[0]!.price, views[0]!.price]);
      expect(errors).toEqual([]);
      seen.add(views[0]!.variation!);
      await context.close();
    }
    console.log(`multi-node: variations seen across 6 shoppers: ${[...seen].join(", ")}`);
  });

  it("an experience published through node A is on the very next page view served by node B", { timeout: 120_000 }, async () => {
    // Every call of the shopper goes to node B for this step (a balancer draining node A).
    balancer.only(B);
    try {
      const context = await newVisitor(browser);
      const page = await context.newPage();
      const configsOn = () => [balancer.count(A, isConfigCall), balancer.count(B, isConfigCall)];
      const title = () => page.locator("#hero-title").textContent();

      // Node B answers this shopper first, without the experience (and keeps what it read).
      let before = configsOn();
      await view(page, "/");
      expect(configsOn()).toEqual([before[0]!, before[1]! + 1]);
      expect(await title()).toBe(HERO_BEFORE);

      // Published through node A's admin API directly, as the dashboard would.
      const experienceId = await publishHeroTitle(nodes[A]!.url);

      // The shopper's very next view, answered by node B: the change is there.
      before = configsOn();
      const { answer } = await view(page, "/");
      expect(configsOn()).toEqual([before[0]!, before[1]! + 1]);
      expect(variationOf(answer, experienceId)).toBe("var_e2e_hero");
      await expect.poll(title).toBe(HERO_AFTER);
      await context.close();
    } finally {
      balancer.only(null);
    }
  });

  it("the same event batch sent to both nodes, and retried, is stored once", async () => {
    const ids = ["both-1", "both-2", "both-3"].map((id) => `mn-${id}`);
    const batch = { user: { user_customer_id: "mn-retrying-shopper", anonymous: true }, events: ids.map((id) => trackEvent(id)) };
    // Node A and node B at the same moment, then node A again (a client retrying a lost answer).
    const together = await Promise.all([nodes[A]!, nodes[B]!].map((n) => clientPost(n.url, EVENTS_PATH, batch)));
    const retry = await clientPost(nodes[A]!.url, EVENTS_PATH, batch);
    const answers = [...together, retry];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as { accepted: number; duplicates?: number }[];
    // Each event accepted by exactly one of the three calls; the others call it a duplicate.
    expect(bodies.reduce((n, b) => n + b.accepted, 0)).toBe(ids.length);
    expect(bodies.reduce((n, b) => n + (b.duplicates ?? 0), 0)).toBe(2 * ids.length);
    expect(bodies[2]).toEqual({ accepted: 0, duplicates: ids.length });
    // And the database holds each once.
    const stored = await storedCounts(ids);
    expect(ids.map((id) => stored.get(id) ?? 0)).toEqual([1, 1, 1]);
  });

  it("killing one node under load loses no acknowledged event, and the other keeps answering", { timeout: 180_000 }, async () => {
    const SENDERS = 20;
    const PER_BATCH = 5;
    const run = `mn-load-${Date.now().toString(36)}`;
    const acknowledged: string[] = [];
    let ackedAfterKill = 0;
    let killed = false;
    let inFlightAtKill = 0;
    let stop = false;
    const failures: string[] = [];
    const retried: Record<string, number> = {};

    /** Sends one batch until a 200 answers it: a lost connection, a 5xx or a 429 is retried. */
    const sendBatch = async (ids: string[]) => {
      const body = { user: { user_customer_id: `${run}-shopper`, anonymous: true }, events: ids.map((id) => trackEvent(id, run)) };
      for (let attempt = 1; attempt <= 40; attempt++) {
        let why: string;
        try {
          const res = await clientPost(balancer.url, EVENTS_PATH, body, AbortSignal.timeout(20_000));
          if (res.status === 200) {
            const answer = (await res.json()) as { accepted: number; duplicates?: number };
            // Acknowledged: every event of the batch is stored now or was before (a retry).
            if (answer.accepted + (answer.duplicates ?? 0) !== ids.length) failures.push(`batch ${ids[0]} answered ${JSON.stringify(answer)}`);
            acknowledged.push(...ids);
            if (killed) ackedAfterKill++;
            return;
          }
          why = String(res.status);
          const text = await res.text();
          if (res.status < 500 && res.status !== 429) {
            failures.push(`batch ${ids[0]}: ${res.status} ${text}`);
            return;
          }
        } catch (error) {
          why = (error as Error).name === "TimeoutError" ? "timeout" : "connection";
        }
        retried[why] = (retried[why] ?? 0) + 1;
        await sleep(Math.min(1000, 50 * attempt));
      }
      failures.push(`batch ${ids[0]} never acknowledged`);
    };

    const sender = async (s: number) => {
      for (let seq = 0; !stop; seq++) {
        await sendBatch(Array.from({ length: PER_BATCH }, (_, i) => `${run}-${s}-${seq}-${i}`));
        // A steady pace (well under the per-node limit of a client address, 100/s).
        await sleep(250);
      }
    };

    const eventsOn = () => [balancer.count(A, isEventCall), balancer.count(B, isEventCall)];
    const start = eventsOn();
    const senders = Array.from({ length: SENDERS }, (_, s) => sender(s));
    try {
      // Both nodes take the load first.
      await eventually(() => {
        const now = eventsOn();
        return now[0]! - start[0]! >= 20 && now[1]! - start[1]! >= 20;
      }, 60_000, "both nodes to answer event batches");

      // Killed while event batches are on their way to it (checked on every turn of the event
      // loop), so some may be cut off mid-request: their senders must retry them.
      await eventually(async () => {
        const deadline = Date.now() + 1_000;
        while (Date.now() < deadline) {
          if (balancer.inFlight(A) > 0) return true;
          await new Promise((r) => setImmediate(r));
        }
        return false;
      }, 30_000, "an event batch in flight to node A");
      inFlightAtKill = balancer.inFlight(A);
      nodes[A]!.child.kill("SIGKILL");
      killed = true;
      await new Promise<void>((r) => (exited(nodes[A]!.child) ? r() : nodes[A]!.child.once("exit", () => r())));
      expect(nodes[A]!.child.signalCode).toBe("SIGKILL");
      const onBAtKill = balancer.count(B, isEventCall);

      // The load goes on, on node B alone: many batches acknowledged after the kill, and node B
      // answered at least as many event calls since (the few answers node A sent just before it
      // died, still on their way, cannot account for them).
      await eventually(
        () => ackedAfterKill >= 3 * SENDERS && balancer.count(B, isEventCall) - onBAtKill >= 3 * SENDERS,
        90_000,
        "batches acknowledged by node B after the kill",
      );
      stop = true;
      await Promise.all(senders);
    } finally {
      stop = true;
      await Promise.all(senders);
    }

    // Every batch was acknowledged in the end, each with all of its events.
    expect(failures).toEqual([]);
    // No acknowledged event is lost, and none is stored twice.
    const stored = await storedCounts(acknowledged);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.filter((id) => stored.get(id) !== 1)).toEqual([]);
    expect(new Set(acknowledged).size).toBe(acknowledged.length);

    // Node A is really gone: its port refuses connections.
    await expect(fetch(`${nodes[A]!.url}/healthz`)).rejects.toThrow();
    // Config calls through the balancer still answer, all from node B (node A's turn is skipped).
    const configsBefore = [balancer.count(A, isConfigCall), balancer.count(B, isConfigCall)];
    for (let i = 0; i < 4; i++) {
      const res = await clientPost(balancer.url, CONFIGS_PATH, {
        user: { user_customer_id: `${run}-after-${i}`, anonymous: true },
        current_page_path: PRODUCT,
        current_domain: DEMO_DOMAIN,
        session_id: run,
      });
      expect(res.status).toBe(200);
      expect([CONTROL, FREE_SHIPPING]).toContain(variationOf((await res.json()) as ConfigsResponse, "exp_price_message"));
    }
    expect([balancer.count(A, isConfigCall), balancer.count(B, isConfigCall)]).toEqual([configsBefore[0]!, configsBefore[1]! + 4]);
    // And so does a shopper's page in Chromium.
    const context = await newVisitor(browser);
    const page = await context.newPage();
    const { answer } = await view(page, PRODUCT);
    await priceLine(page, variationOf(answer, "exp_price_message"));
    await context.close();
    console.log(
      `multi-node: ${acknowledged.length} events acknowledged (${ackedAfterKill} batches after the kill; ${inFlightAtKill} in flight to node A at the kill), retries: ${JSON.stringify(retried)}`,
    );
  });
});

/**
 * Creates and starts, through `nodeUrl`'s admin API (sign-in, then cookie + CSRF token), an
 * experience that rewrites the home page's hero title for everyone.
 */
async function publishHeroTitle(nodeUrl: string): Promise<string> {
  const signIn = await fetch(`${nodeUrl}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (signIn.status !== 200) throw new Error(`signing in answered ${signIn.status}: ${await signIn.text()}`);
  const session = (await signIn.json()) as SessionInfo;
  const headers = {
    "content-type": "application/json",
    cookie: signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; "),
    "x-csrf-token": session.csrf_token,
  };
  const where = { domain: DEMO_DOMAIN, page_path: "/", page_match: "exact_match" };
  const created = await fetch(`${nodeUrl}/api/experiences`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      name: "Hero title from node A",
      kind: "ab_test",
      priority: 5,
      pages: [where],
      goals: [],
      rules: [
        {
          id: "rule_e2e_hero",
          audience_id: null,
          audience_name: "Everyone",
          behaviour: {
            id: "beh_e2e_hero",
            name: "Hero title",
            traffic_allocation: 1,
            variations: [
              {
                id: "var_e2e_hero",
                name: "New title",
                weight: 1,
                configs: [
                  {
                    config_customer_id: "e2e_hero_title",
                    config_id: "cfg_e2e_hero_title",
                    variation_data_type: "HTML_ELEMENT",
                    variation: { innerHTML: HERO_AFTER },
                    properties: { ...where, element_path: "#hero-title" },
                  },
                ],
              },
            ],
          },
        },
      ],
    }),
  });
  if (created.status !== 201) throw new Error(`creating the experience answered ${created.status}: ${await created.text()}`);
  const id = ((await created.json()) as ExperienceDetail).id;
  const started = await fetch(`${nodeUrl}/api/experiences/${id}/status`, { method: "POST", headers, body: JSON.stringify({ status: "running" }) });
  if (!started.ok) throw new Error(`starting answered ${started.status}: ${await started.text()}`);
  return id;
}
