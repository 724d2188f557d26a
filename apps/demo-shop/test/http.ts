// Test helpers: start a shop on an ephemeral loopback port and request it with a chosen Host
// header (fetch cannot set Host, so this uses node:http).
import { request } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createDemoShop } from "../src/server";
import type { DemoShopOptions } from "../src/server";

export const US_HOST = "littlesprouts.localhost";
export const UK_HOST = "littlesprouts-uk.localhost";

export type ShopResponse = { status: number; headers: Record<string, string>; body: string };

export type RunningShop = {
  port: number;
  get(path: string, host?: string): Promise<ShopResponse>;
  send(method: string, path: string, host?: string, body?: string): Promise<ShopResponse>;
  close(): Promise<void>;
};

export async function startShop(
  options: DemoShopOptions = { apiUrl: "http://api.test:4100" },
): Promise<RunningShop> {
  const server: Server = createDemoShop(options);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const send = (method: string, path: string, host = `${US_HOST}:${port}`, body?: string) =>
    new Promise<ShopResponse>((resolve, reject) => {
      const headers: Record<string, string> = { host };
      if (body !== undefined) {
        headers["content-type"] = "application/x-www-form-urlencoded";
        headers["content-length"] = String(Buffer.byteLength(body));
      }
      const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const flat: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: flat,
            body: Buffer.concat(chunks).toString("utf8"),
          });
        });
      });
      req.on("error", reject);
      req.end(body);
    });

  return {
    port,
    get: (path, host) => send("GET", path, host),
    send,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The contents of <head>…</head>. */
export function headOf(html: string): string {
  const match = /<head>([\s\S]*?)<\/head>/.exec(html);
  if (!match?.[1]) throw new Error("page has no <head>");
  return match[1];
}

/** Every `<script …>` opening tag of a fragment, in document order. */
export function scriptTags(html: string): string[] {
  return html.match(/<script\b[^>]*>/g) ?? [];
}

/** The handles a page links to as /products/{handle}. */
export function linkedProductHandles(html: string): string[] {
  return [...html.matchAll(/href="\/products\/([a-z0-9-]+)"/g)].map((m) => m[1] ?? "");
}

/** The opening tag of the element with this id, or undefined. */
export function tagWithId(html: string, id: string): string | undefined {
  return new RegExp(`<[a-z0-9]+\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
}
