// A tiny round-robin reverse proxy on loopback, standing in for a real load balancer in front of
// several service nodes (e2e/multi-node.test.ts). node:http only. Each request goes to the next
// node in turn; a node whose connection is refused is skipped (nothing reached it, so the request
// goes to the next one), as a balancer's health checks would take it out. A node that fails after
// the request was sent answers 502: like a real balancer, this one never replays a request that
// may have been processed; the client retries.
//
// The rotation is kept per path (not one counter for every request): a page view sends a few
// calls of different kinds, and with one shared counter the config calls of a visitor could all
// land on the same node (two calls per view: every config call on the same parity). Per path,
// successive config calls alternate whatever else comes between, as the test needs.

import { Agent, createServer, request } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request answered by a node, as the balancer saw it. */
export type Routed = { node: number; method: string; path: string; status: number };

export type Balancer = {
  /** http://127.0.0.1:port */
  url: string;
  /** Every request a node answered, in the order the answers began. */
  readonly log: readonly Routed[];
  /** How many requests `node` answered, of those `match` keeps (all without it). */
  count(node: number, match?: (r: Routed) => boolean): number;
  /** Requests sent to `node` whose answer has not fully come back yet. */
  inFlight(node: number): number;
  /** Sends everything to one node (a balancer draining the others), or back to all with null. */
  only(node: number | null): void;
  close(): Promise<void>;
};

// Hop-by-hop headers (RFC 9110 §7.6.1): they belong to one connection, not to the message.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "proxy-authorization", "proxy-authenticate"]);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
  return out;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type Attempt = { ok: true; upstream: IncomingMessage } | { ok: false; refused: boolean; error: Error };

export async function startBalancer(targets: readonly string[]): Promise<Balancer> {
  if (targets.length === 0) throw new Error("a balancer needs at least one node");
  const nodes = targets.map((t) => new URL(t));
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const log: Routed[] = [];
  const next = new Map<string, number>();
  let pinned: number | null = null;
  const pending = nodes.map(() => 0);

  const attempt = (node: number, req: IncomingMessage, body: Buffer): Promise<Attempt> =>
    new Promise((resolve) => {
      const target = nodes[node]!;
      pending[node]!++;
      let settled = false;
      const done = () => {
        if (!settled) pending[node]!--;
        settled = true;
      };
      const headers = endToEnd(req.headers);
      if (body.length > 0 || req.headers["content-length"] !== undefined) headers["content-length"] = String(body.length);
      const upstreamReq = request(
        { agent, host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        (upstream) => {
          upstream.once("close", done);
          resolve({ ok: true, upstream });
        },
      );
      upstreamReq.on("error", (error: NodeJS.ErrnoException) => {
        done();
        resolve({ ok: false, refused: error.code === "ECONNREFUSED", error });
      });
      upstreamReq.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const path = new URL(req.url ?? "/", "http://balancer.invalid").pathname;
    const first = pinned ?? (next.get(path) ?? 0) % nodes.length;
    if (pinned === null) next.set(path, first + 1);
    const order = pinned !== null ? [pinned] : nodes.map((_, i) => (first + i) % nodes.length);
    let last: Error | undefined;
    for (const node of order) {
      const result = await attempt(node, req, body);
      if (!result.ok) {
        last = result.error;
        if (result.refused) continue; // never reached the node: the next one may take it
        break; // reached it, then failed: it may have been processed, so no replay
      }
      const { upstream } = result;
      log.push({ node, method: req.method ?? "GET", path, status: upstream.statusCode ?? 0 });
      res.writeHead(upstream.statusCode ?? 502, endToEnd(upstream.headers));
      upstream.pipe(res);
      // A node dying in the middle of its answer: the client sees the connection cut, as behind
      // a real balancer.
      upstream.on("close", () => {
        if (!upstream.complete) res.destroy();
      });
      return;
    }
    res.writeHead(502, { "content-type": "text/plain; charset=utf-8", connection: "close" });
    res.end(`no node answered: ${last?.message ?? "unknown error"}\n`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502, { connection: "close" });
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    log,
    count: (node, match) => log.filter((r) => r.node === node && (!match || match(r))).length,
    inFlight: (node) => pending[node] ?? 0,
    only: (node) => {
      if (node !== null && !(node >= 0 && node < nodes.length)) throw new Error(`no node ${node}`);
      pinned = node;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
