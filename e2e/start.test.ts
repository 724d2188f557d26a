// `npm start` as the README promises: the built service (with its SQLite file in DATA_DIR, the
// demo seed, the dashboard) and the demo shop come up from scripts/start.mjs and stop together.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "./harness.js";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const dataDir = mkdtempSync(join(tmpdir(), "storefit-start-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm start", () => {
  it("brings up the service, the dashboard and the demo shop, seeded, and stops both on SIGTERM", async () => {
    const [port, shopPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: join(import.meta.dirname, ".."),
      env: { ...process.env, PORT: String(port), DEMO_SHOP_PORT: String(shopPort), DATA_DIR: dataDir, LOG: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    try {
      const api = `http://127.0.0.1:${port}`;
      await eventually(() => fetch(`${api}/healthz`).then((r) => r.ok).catch(() => false), 20_000, "the service");
      expect(existsSync(join(dataDir, "storefit.sqlite"))).toBe(true);
      expect(output).toContain("sign in as owner@littlesprouts.test");

      const dashboard = await fetch(`${api}/`);
      expect(dashboard.headers.get("content-type")).toMatch(/text\/html/);
      expect(await dashboard.text()).toContain('<div id="root">');
      const snippet = await fetch(`${api}/v1/accounts/ck_demo_littlesprouts/snippet.js`);
      expect(await snippet.text()).toMatch(/^\/\/# allFunctionsCalledOnLoad\nwindow\.storefitSettings=\{"/);

      // The new demo account comes with simulated history: the seeded A/B test has results.
      expect(output).toMatch(/Simulated 14 days of demo history: [\d,]+ visitors/);
      const signIn = await fetch(`${api}/api/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "owner@littlesprouts.test", password: "sprouts-demo-2026" }),
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      const results = await fetch(`${api}/api/results/exp_price_message`, { headers: { cookie } });
      expect(results.status).toBe(200);
      const body = (await results.json()) as { total_visitors: number; rules: { metrics: unknown[] }[] };
      expect(body.total_visitors).toBeGreaterThan(1000);
      expect(body.rules[0]!.metrics.length).toBeGreaterThan(0);

      const shop = await eventually(
        async () => {
          const r = await fetch(`http://127.0.0.1:${shopPort}/`, { headers: { host: `littlesprouts.localhost:${shopPort}` } }).catch(() => null);
          return r?.ok ? r.text() : false;
        },
        20_000,
        "the demo shop",
      );
      expect(shop).toContain(`http://localhost:${port}/v1/accounts/ck_demo_littlesprouts/snippet.js`);
    } finally {
      child.kill("SIGTERM");
    }
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(code, output).toBe(0);
  });
});
