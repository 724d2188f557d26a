// "Why does the visual editor's page not answer?" (issue #16; docs/visual-editor.md "When the
// page does not answer"). The dashboard's own policy lets it reach nothing but the service, and a
// browser tells a page nothing about a frame of another site that failed, so the service fetches
// the page once and says what it saw: no answer, an error status, headers that refuse framing, or
// HTML without this account's snippet. Only pages on the account's own domains are fetched, and
// only at public addresses: an owner chooses the account's domain (it could be "127.0.0.1",
// "169.254.169.254" or an internal name), so a check of a loopback, private-network or link-local
// address would let any operator probe the service's own host and network. The address is checked
// where the connection is made (the lookup below), so a name that resolves twice cannot slip a
// private address past it. PAGE_CHECK_PRIVATE_ADDRESSES opens loopback ("loopback": the demo
// shop on `*.localhost`, which `npm start` sets) or every private range ("all": a shop on an
// intranet, single-tenant installs) (docs/security.md "The page check").

import { request as httpRequest } from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP } from "node:net";
import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import type { FastifyInstance } from "fastify";
import { isConfiguredDomain } from "@storefit/contract";
import { requireAccess } from "../auth/access.js";
import type { AccessOptions } from "../auth/access.js";
import { HttpError } from "../http/errors.js";
import { ADMIN_SECURITY, errorResponses, obj, str } from "../schemas/common.js";

/** How long the page may take to answer. */
export const PAGE_CHECK_TIMEOUT_MS = 5000;
/** How much of the page is read to look for the snippet (it belongs first in `<head>`). */
const PAGE_CHECK_MAX_BYTES = 256 * 1024;

export type PageCheck = {
  url: string;
  /** false: no answer (refused, unknown host, time-out); `error` says which. */
  reachable: boolean;
  status: number | null;
  error: string | null;
  /** The header that keeps the page out of the dashboard's frame, as sent; null when none does. */
  frame_refused_by: string | null;
  /** Whose snippet the HTML loads: this account's, another's, or none (null: not read). */
  snippet: "this_account" | "other_account" | "missing" | null;
};

/** Which non-public addresses the page check may fetch (PAGE_CHECK_PRIVATE_ADDRESSES). */
export type PrivateAddresses = "none" | "loopback" | "all";

export function privateAddressesFromEnv(value = process.env.PAGE_CHECK_PRIVATE_ADDRESSES): PrivateAddresses {
  return value === "loopback" || value === "all" ? value : "none";
}

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

// Every range that is not the public internet (IANA special-purpose registries): this host,
// private networks, carrier-grade NAT, link-local (cloud metadata services), benchmarking,
// documentation, multicast and reserved.
const nonPublic = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 3],
] as const) {
  nonPublic.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [["::", 127], ["64:ff9b:1::", 48], ["100::", 64], ["2001:db8::", 32], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]] as const) {
  nonPublic.addSubnet(net, prefix, "ipv6");
}

/** An IPv6 address that carries an IPv4 one (mapped, NAT64, 6to4) answers for that IPv4 address. */
function embeddedIpv4(address: string): string | null {
  const a = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a) ?? /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::|$)/.exec(a);
  if (!hex) return null;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Why the page check may not connect to `address`, or null. */
export function refusedAddress(address: string, allow: PrivateAddresses): string | null {
  if (allow === "all") return null;
  const v4 = isIP(address) === 6 ? embeddedIpv4(address) : null;
  const [a, family] = v4 ? [v4, "ipv4" as const] : [address, isIP(address) === 6 ? ("ipv6" as const) : ("ipv4" as const)];
  if (!nonPublic.check(a, family)) return null;
  if (allow === "loopback" && loopback.check(a, family)) return null;
  return `the shop's address (${address}) is not public (loopback, a private network or link-local): the service does not fetch it`;
}

class RefusedAddress extends Error {
  readonly code = "EREFUSEDADDRESS";
}

// RFC 6761: `.localhost` names are loopback. Browsers resolve them so; the system resolver may not.
// Every address a name resolves to is checked before the connection is made.
export function guardedLookup(allow: PrivateAddresses): LookupFunction {
  return (hostname, options, callback) => {
    const answer = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      const refused = error ? null : addresses.map((a) => refusedAddress(a.address, allow)).find((r) => r !== null);
      const failure = error ?? (refused ? new RefusedAddress(refused) : null);
      if (options.all) (callback as (e: NodeJS.ErrnoException | null, a: LookupAddress[]) => void)(failure, failure ? [] : addresses);
      else callback(failure, addresses[0]?.address ?? "", addresses[0]?.family ?? 4);
    };
    if (/(^|\.)localhost$/i.test(hostname)) {
      answer(null, [{ address: "127.0.0.1", family: 4 }]);
      return;
    }
    import("node:dns").then(
      (dns) => dns.lookup(hostname, { ...options, all: true }, (error, addresses) => answer(error, addresses)),
      (error: unknown) => answer(error as NodeJS.ErrnoException, []),
    );
  };
}

function fetchHead(url: URL, allow: PrivateAddresses): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    // An address written as the host is connected to without a lookup: checked here.
    const literal = url.hostname.replace(/^\[|\]$/g, "");
    const refused = isIP(literal) ? refusedAddress(literal, allow) : null;
    if (refused) {
      reject(new RefusedAddress(refused));
      return;
    }
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      { method: "GET", lookup: guardedLookup(allow), timeout: PAGE_CHECK_TIMEOUT_MS, headers: { accept: "text/html", "user-agent": "Storefit page check" } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
        };
        res.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= PAGE_CHECK_MAX_BYTES) done();
        });
        res.on("end", done);
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${PAGE_CHECK_TIMEOUT_MS / 1000} s`)));
    req.on("error", reject);
    req.end();
  });
}

/** The header that refuses the dashboard's frame: X-Frame-Options, or frame-ancestors without it. */
export function frameRefusal(headers: IncomingHttpHeaders, dashboardOrigin: string): string | null {
  const xfo = headers["x-frame-options"];
  if (xfo && /^\s*(deny|sameorigin)/i.test(String(xfo))) return `X-Frame-Options: ${String(xfo)}`;
  const csp = ([] as string[]).concat(headers["content-security-policy"] ?? []).join(",");
  const directive = csp
    .split(/[;,]/)
    .map((d) => d.trim())
    .find((d) => /^frame-ancestors\s/i.test(d) || /^frame-ancestors$/i.test(d));
  if (!directive) return null;
  const dashboard = new URL(dashboardOrigin);
  const allowed = directive
    .split(/\s+/)
    .slice(1)
    .some((source) => {
      const s = source.toLowerCase().replace(/\/$/, "");
      if (s === "*" || s === dashboard.protocol) return true;
      if (s === dashboard.origin.toLowerCase()) return true;
      const m = /^(?:(https?):\/\/)?\*\.([^:/]+)(?::(\d+|\*))?$/.exec(s);
      return !!m && (!m[1] || m[1] + ":" === dashboard.protocol) && dashboard.hostname.endsWith("." + m[2]!);
    });
  return allowed ? null : `Content-Security-Policy: ${directive}`;
}

function snippetOf(body: string, clientKey: string): PageCheck["snippet"] {
  if (body.includes(`/v1/accounts/${clientKey}/snippet.js`) || body.includes(`"${clientKey}"`)) return "this_account";
  return /\/v1\/accounts\/[^/"']+\/snippet\.js|storefitSettings/.test(body) ? "other_account" : "missing";
}

/** `allow`: which non-public addresses may be fetched (PAGE_CHECK_PRIVATE_ADDRESSES by default). */
export function pageCheckRoutes(app: FastifyInstance, opts: AccessOptions, allow: PrivateAddresses = privateAddressesFromEnv()): void {
  app.post<{ Body: { url: string } }>(
    "/api/page-check",
    {
      onRequest: requireAccess(opts, "viewer"),
      schema: {
        summary: "Fetch a page of the account's shop once and say why the visual editor may not start on it",
        tags: ["experiences"],
        security: ADMIN_SECURITY,
        body: obj({ url: str(2048, 1) }, ["url"]),
        response: {
          200: obj(
            {
              url: str(2048),
              reachable: { type: "boolean" },
              status: { type: ["integer", "null"] },
              error: { type: ["string", "null"] },
              frame_refused_by: { type: ["string", "null"] },
              snippet: { type: ["string", "null"], enum: ["this_account", "other_account", "missing", null] },
            },
            ["url", "reachable", "status", "error", "frame_refused_by", "snippet"],
          ),
          ...errorResponses(400, 401, 415),
        },
      },
    },
    async (req): Promise<PageCheck> => {
      const account = req.caller!.account;
      let url: URL;
      try {
        url = new URL(req.body.url);
      } catch {
        throw new HttpError(400, "invalid_body", "Not a full address (https://…)");
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new HttpError(400, "invalid_body", "Only http and https pages can be checked");
      // Only the account's own shop: this is no way to reach other hosts from the service.
      if (!isConfiguredDomain(url.hostname, account.settings.domain, account.settings.subdomains)) {
        throw new HttpError(400, "invalid_body", `${url.hostname} is not one of the account's domains`);
      }
      const dashboardOrigin = typeof req.headers.origin === "string" ? req.headers.origin : `${req.protocol}://${req.hostname}`;
      try {
        const page = await fetchHead(url, allow);
        const html = /html/i.test(String(page.headers["content-type"] ?? "text/html"));
        return {
          url: url.href,
          reachable: true,
          status: page.status,
          error: null,
          frame_refused_by: frameRefusal(page.headers, dashboardOrigin),
          // A page that is no HTML (an image, a feed) cannot load the snippet.
          snippet: page.status >= 400 ? null : html ? snippetOf(page.body, account.client_key) : "missing",
        };
      } catch (error) {
        const e = error as NodeJS.ErrnoException;
        const why =
          e instanceof RefusedAddress
            ? e.message
            : e.code === "ECONNREFUSED"
            ? "nothing answers at that address and port"
            : e.code === "ENOTFOUND"
              ? "the host name is unknown"
              : e.message || String(e.code);
        return { url: url.href, reachable: false, status: null, error: why, frame_refused_by: null, snippet: null };
      }
    },
  );
}
