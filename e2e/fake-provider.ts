// A fake provider for testing the storefront script alone (conventions, habit 9): one loopback
// server that serves the built script, fixture pages on a shop host name, and the client API on
// an API host name, recording every request with its parsed body. Answers are scripted per test.
// The real service is tested end to end elsewhere; this lets a test make the provider slow,
// broken, or answer exactly the configs a behaviour needs.

import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { ConfigsResponse, StorefitSettings } from "@storefit/contract";

const SDK_DIST = fileURLToPath(new URL("../packages/sdk/dist/", import.meta.url));

export type Captured = {
  method: string;
  host: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  raw: string;
  /** The body parsed as JSON, or null when it is not JSON. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  at: number;
};

/** How the fake answers one API call. */
export type Answer = {
  status?: number;
  json?: unknown;
  /** Sent as is (for invalid JSON). */
  text?: string;
  delayMs?: number;
  /** Destroy the socket without an answer (a dropped connection). */
  drop?: boolean;
};

export type FixturePage = {
  /** Merged over the default settings; `null` leaves `window.storefitSettings` unset. */
  settings?: Partial<StorefitSettings> | Record<string, unknown> | null;
  head?: string;
  body?: string;
  /** Load storefit.debug.js instead of storefit.js. */
  debug?: boolean;
  /** Extra script tags after the SDK's. */
  after?: string;
  /** More of the body, each part sent `afterMs` after the one before (a page that streams). */
  parts?: { html: string; afterMs: number }[];
};

export type FakeProvider = {
  port: number;
  apiUrl: string;
  shopUrl: (path?: string, host?: string) => string;
  defaultSettings: () => Partial<StorefitSettings>;
  page: (path: string, page: FixturePage) => void;
  /** Scripts the answer to a client-API path ("/v1/users/configs/" …); default: 200 `{}`-like. */
  answer: (path: string, fn: (req: Captured, attempt: number) => Answer) => void;
  configs: (answer: ConfigsResponse | ((req: Captured) => ConfigsResponse)) => void;
  requests: Captured[];
  to: (path: string) => Captured[];
  /**
   * Resolves once no request has arrived for `quietMs` (at most `maxMs`): a closed page's last
   * requests (beacons sent on pagehide) can reach the server after its context has closed.
   */
  quiet: (quietMs: number, maxMs: number) => Promise<void>;
  reset: () => void;
  close: () => Promise<void>;
};

export const SHOP_HOST = "shop.localhost";
export const API_HOST = "api.localhost";

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(""));
  });
}

export async function startFakeProvider(): Promise<FakeProvider> {
  const pages = new Map<string, FixturePage>();
  const answers = new Map<string, (req: Captured, attempt: number) => Answer>();
  const attempts = new Map<string, number>();
  const requests: Captured[] = [];
  let port = 0;

  const defaultSettings = (): Partial<StorefitSettings> => ({
    client_key: "ck_test",
    api_host: `http://${API_HOST}:${port}`,
    domain: SHOP_HOST,
    subdomains: [],
    sdk_timeout_ms: 5000,
  });

  const cors = (req: IncomingMessage, res: ServerResponse) => {
    const origin = req.headers.origin;
    if (origin) res.setHeader("access-control-allow-origin", origin);
    res.setHeader("access-control-allow-headers", "content-type, cfenc");
  };

  let lastArrival = 0;
  const server = createServer(async (req, res) => {
    lastArrival = Date.now();
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    if (url.pathname.startsWith("/sdk/")) {
      try {
        const file = readFileSync(SDK_DIST + url.pathname.slice(5));
        res.writeHead(200, { "content-type": "application/javascript", "cache-control": "no-store" });
        return res.end(file);
      } catch {
        res.writeHead(404);
        return res.end();
      }
    }
    if (url.pathname.startsWith("/v1/")) {
      cors(req, res);
      if (req.method === "OPTIONS") {
        res.writeHead(204);
        return res.end();
      }
      const raw = await readBody(req);
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        body = null;
      }
      const captured: Captured = {
        method: req.method ?? "GET",
        host,
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        raw,
        body,
        at: Date.now(),
      };
      requests.push(captured);
      const attempt = (attempts.get(url.pathname) ?? 0) + 1;
      attempts.set(url.pathname, attempt);
      const answerFor = answers.get(url.pathname);
      const a: Answer = answerFor
        ? answerFor(captured, attempt)
        : url.pathname === "/v1/users/configs/"
          ? { json: { configs: {}, user_id: "u_fake" } }
          : { json: { accepted: 1 } };
      if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
      if (a.drop) return req.socket.destroy();
      res.writeHead(a.status ?? 200, { "content-type": "application/json" });
      return res.end(a.text ?? JSON.stringify(a.json ?? {}));
    }
    const page = pages.get(url.pathname);
    if (!page) {
      res.writeHead(404, { "content-type": "text/plain" });
      return res.end("no fixture");
    }
    const settings =
      page.settings === null ? "" : `<script>window.storefitSettings=${JSON.stringify({ ...defaultSettings(), ...page.settings })};</script>`;
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>fixture</title>${settings}<script src="/sdk/${page.debug ? "storefit.debug.js" : "storefit.js"}"></script>${page.after ?? ""}${page.head ?? ""}</head><body>${page.body ?? ""}`;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.write(html);
    for (const part of page.parts ?? []) {
      await new Promise((r) => setTimeout(r, part.afterMs));
      res.write(part.html);
    }
    res.end("</body></html>");
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;

  return {
    port,
    apiUrl: `http://${API_HOST}:${port}`,
    shopUrl: (path = "/", host = SHOP_HOST) => `http://${host}:${port}${path}`,
    defaultSettings,
    page: (path, page) => void pages.set(path, page),
    answer: (path, fn) => void answers.set(path, fn),
    configs: (answer) =>
      void answers.set("/v1/users/configs/", (req) => ({ json: typeof answer === "function" ? answer(req) : answer })),
    requests,
    to: (path) => requests.filter((r) => r.path === path),
    quiet: async (quietMs, maxMs) => {
      const until = Date.now() + maxMs;
      while (Date.now() < until && Date.now() - lastArrival < quietMs) await new Promise((r) => setTimeout(r, 25));
    },
    reset: () => {
      pages.clear();
      answers.clear();
      attempts.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
