// The client API of spec §7: the storefront script's five calls. Every route here is scoped to
// the account named by `cfenc` (query parameter or header) and answers only the account's own
// domains (CORS). Requests are CORS-simple: JSON text under a form-encoded or text content type.

import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { eventCustomerId, isConfiguredDomain, normalizeEventType } from "@storefit/contract";
import type {
  AlertRequest,
  ConfigSummary,
  ConfigsRequest,
  DevicesRequest,
  EventsRequest,
  SummariesRequest,
  TrackedEvent,
} from "@storefit/contract";
import { assignmentKey } from "../store/types.js";
import type { Account, Assignment, ClientWrite, InsertResult, Store } from "../store/types.js";
import { GroupCommit } from "../store/group-commit.js";
import { WriteBehind } from "../store/write-behind.js";
import { attributesOf } from "../decide/conditions.js";
import { decide } from "../decide/decide.js";
import { drawnAssignment } from "../decide/drawn.js";
import { answerBytes } from "../decide/answer.js";
import { isValidPreviewToken, previewTokenKey } from "../auth/preview-token.js";
import type { AccountRead, AccountSnapshots, PreparedAccount } from "../decide/snapshots.js";
import { RecentVisitors } from "../decide/visitors.js";
import type { VisitorEntry } from "../decide/visitors.js";
import { HttpError, sendError, sendRateLimited } from "../http/errors.js";
import { addressKey } from "../http/rate-limit.js";
import type { TokenBuckets } from "../http/rate-limit.js";
import { errorResponses } from "../schemas/common.js";
import {
  CLIENT_CONTENT_TYPES,
  CLIENT_SECURITY,
  acceptedAnswer,
  alertBody,
  cfencQuery,
  configsAnswer,
  configsBody,
  devicesAnswer,
  devicesBody,
  devicesParams,
  eventsBody,
  summariesBody,
} from "./client-schemas.js";

declare module "fastify" {
  interface FastifyRequest {
    account?: Account;
    prepared?: PreparedAccount;
    /** The config call's revision read (resolveConfigCall). */
    accountRead?: AccountRead;
  }
  interface FastifyInstance {
    /** The config calls' writes behind the answer: `drain()` settles once all submitted so far have committed. */
    clientWritesBehind: { drain(): Promise<void> };
  }
}

/** The visitor id the service answers with: derived, so every node agrees without a lookup. */
export function userIdFor(accountId: string, userCustomerId: string): string {
  return "u_" + createHash("sha256").update(`${accountId}:${userCustomerId}`).digest("hex").slice(0, 24);
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).hostname;
  } catch {
    return null;
  }
}

/** Origins remembered per account revision; beyond this, the account's start again. */
export const ORIGIN_CACHE_SIZE = 100;

/**
 * Whether an Origin header names the account's domain or one of its subdomains, remembered per
 * prepared account (so a settings change, which moves the revision, is checked afresh). A shop's
 * pages send a handful of origins; parsing one and matching it against the domains cost each
 * call a URL parse and a dozen regular-expression replaces (contract normalizeHost): 2–3 % of the
 * node's busy CPU in profiles of bench/service.bench.mjs. Measured 2026-11-27 with the
 * assignment literal of decide.ts: 105 against 108 µs per call (0.98×, load 7), within one run's noise.
 */
export function originAllowed(prepared: PreparedAccount, origin: string): boolean {
  let allowed = prepared.origins.get(origin);
  if (allowed === undefined) {
    const host = originHost(origin);
    const { domain, subdomains } = prepared.account.settings;
    allowed = !!host && isConfiguredDomain(host, domain, subdomains);
    // Only allowed origins are remembered: refused ones, which anyone can send, never push the
    // shop's own out of the memo.
    if (allowed && origin.length <= REMEMBERED_TEXT_MAX_LENGTH) {
      if (prepared.origins.size >= ORIGIN_CACHE_SIZE) prepared.origins.clear();
      prepared.origins.set(origin, allowed);
    }
  }
  return allowed;
}

function clientKeyOf(req: FastifyRequest): string | undefined {
  const q = (req.query as Record<string, unknown> | undefined)?.cfenc;
  if (typeof q === "string" && q) return q;
  const h = req.headers.cfenc;
  return typeof h === "string" && h ? h : undefined;
}

function allowOrigin(reply: FastifyReply, origin: string): void {
  reply.header("access-control-allow-origin", origin);
  reply.header("vary", "Origin");
}

/**
 * The full URL of the page the decision was made for (spec §7 answers `long_url`; what it holds
 * is not shown — our choice): the page URL the script reports (cf_current_page_url) when it is on
 * the current domain, else the calling page's origin plus the current path.
 */
export function longUrlOf(request: ConfigsRequest, origin: string | undefined): string {
  const reported = request.user.properties?.cf_current_page_url;
  if (typeof reported === "string") {
    const url = pageUrl(reported);
    if (url && url.hostname === request.current_domain.toLowerCase()) return url.href;
  }
  const path = request.current_page_path.startsWith("/") ? request.current_page_path : `/${request.current_page_path}`;
  const base = origin && originHost(origin) === request.current_domain.toLowerCase() ? origin : `https://${request.current_domain}`;
  return base.replace(/\/+$/, "") + path;
}

/**
 * Reported page URLs already parsed: shoppers of one shop report the same pages over and over.
 * Measured 2026-11-27: 0.07 µs of CPU per call against 0.7 µs for the parse (0.5 % of the
 * node's CPU in a profile of bench/service.bench.mjs). Cleared when full.
 */
const pageUrls = new Map<string, { hostname: string; href: string } | null>();
const PAGE_URL_CACHE_SIZE = 10_000;
/**
 * Longer texts (user ids, URLs) are not remembered: a client choosing them must not fill the
 * node's memory (10,000 URLs or 50,000 ids of 8 KiB each would be hundreds of megabytes).
 */
export const REMEMBERED_TEXT_MAX_LENGTH = 512;

/** How many reported page URLs are remembered (tests). */
export const rememberedPageUrls = () => pageUrls.size;

/** A reported page URL's host name and its href without the fragment; null: not a URL. */
export function pageUrl(text: string): { hostname: string; href: string } | null {
  if (text.length > REMEMBERED_TEXT_MAX_LENGTH) return parsePageUrl(text);
  let url = pageUrls.get(text);
  if (url === undefined) {
    if (pageUrls.size >= PAGE_URL_CACHE_SIZE) pageUrls.clear();
    pageUrls.set(text, (url = parsePageUrl(text)));
  }
  return url;
}

function parsePageUrl(text: string): { hostname: string; href: string } | null {
  try {
    const url = new URL(text);
    url.hash = "";
    return { hostname: url.hostname.toLowerCase(), href: url.href };
  } catch {
    return null;
  }
}

/**
 * How long an exposure waits, read after read, for an assignment another node may still be
 * committing behind its answer (the summaries route): that node gathers its writes for
 * DECISION_COMMIT_DELAY_MS, then commits. About 0.9 s in all; past it, the exposure is stored as
 * forced (docs/storage.md "Durability of a config call").
 */
export const OTHER_NODE_WAITS_MS: readonly number[] = [20, 50, 100, 250, 500];

/** How long config calls' writes gather before they commit (see clientRoutes). */
export const DECISION_COMMIT_DELAY_MS = 10;

/**
 * userIdFor, remembered per account: every client call names its visitor, and most visitors
 * call again. Measured 2026-11-27: the SHA-256 took 0.9 µs of CPU per call (0.65 % of the
 * node's CPU in a profile of bench/service.bench.mjs), a lookup 0.05 µs. Cleared when full.
 */
export class UserIds {
  private readonly byAccount = new Map<string, Map<string, string>>();
  /** How many ids are remembered. */
  size = 0;

  constructor(private readonly maxEntries = 50_000) {}

  of(accountId: string, userCustomerId: string): string {
    if (userCustomerId.length > REMEMBERED_TEXT_MAX_LENGTH) return userIdFor(accountId, userCustomerId);
    let ids = this.byAccount.get(accountId);
    if (!ids) this.byAccount.set(accountId, (ids = new Map()));
    let id = ids.get(userCustomerId);
    if (id === undefined) {
      if (this.size >= this.maxEntries) {
        this.byAccount.clear();
        this.byAccount.set(accountId, (ids = new Map()));
        this.size = 0;
      }
      ids.set(userCustomerId, (id = userIdFor(accountId, userCustomerId)));
      this.size++;
    }
    return id;
  }
}

export function clientRoutes(
  app: FastifyInstance,
  opts: { store: Store; clock: () => number; snapshots: AccountSnapshots; limiter: TokenBuckets | null; ipLimiter?: TokenBuckets | null },
): void {
  const { store, clock, snapshots, limiter, ipLimiter } = opts;

  // Preflight, needed only when a caller sends cfenc as a header or a JSON content type. With
  // cfenc in the query the origin is checked as the real request will be, and a foreign one gets
  // no CORS headers (the browser then sends nothing). A preflight never carries header values,
  // so with cfenc as a header the origin is reflected and the real request is checked.
  app.options("/v1/*", { schema: { summary: "CORS preflight", tags: ["client"] } }, async (req, reply) => {
    const origin = req.headers.origin;
    const q = (req.query as Record<string, unknown> | undefined)?.cfenc;
    if (origin && typeof q === "string" && q) {
      const prepared = await snapshots.byClientKey(q);
      // Vary: a cache must not answer another origin's preflight with this one.
      if (!prepared || !originAllowed(prepared, origin)) return reply.header("vary", "Origin").code(204).send();
    }
    if (origin) allowOrigin(reply, origin);
    reply.header("access-control-allow-methods", "POST, GET, OPTIONS");
    reply.header("access-control-allow-headers", "content-type, cfenc");
    reply.header("access-control-max-age", "86400");
    return reply.code(204).send();
  });

  // Runs before the body is read: the key, origin and rate limit decide first, so a foreign
  // caller learns nothing about body validation, and CORS headers ride on every answer the
  // script can read (a 429 included, so the script sees it rather than a CORS error).
  const resolveAccount = async (req: FastifyRequest, reply: FastifyReply) => {
    const key = clientKeyOf(req);
    if (!key) return sendError(reply, 401, "missing_client_key");
    return admit(req, reply, await snapshots.byClientKey(key));
  };

  // The config call does not wait for its revision read before its body is read: it checks the
  // key, origin and rate limit against the account as this node last read it (the read is on its
  // way), so that its handler can add the visitor to that read, whose one statement then also
  // reads their stored assignments (store/postgres/accounts.ts) instead of a statement of its own.
  // The decision waits for the read, and the origin is checked again if the revision moved. What
  // would be refused — a key this node has not read, an origin the account as last read does not
  // allow (a publish may have added it) — waits for the read here, as the other calls do.
  const resolveConfigCall = async (req: FastifyRequest, reply: FastifyReply) => {
    const key = clientKeyOf(req);
    if (!key) return sendError(reply, 401, "missing_client_key");
    const read = snapshots.read(key);
    req.accountRead = read;
    const cached = snapshots.cached(key);
    const origin = req.headers.origin;
    const admitted = cached && (!origin || originAllowed(cached, origin)) ? cached : ((await read.answer)?.prepared ?? null);
    return admit(req, reply, admitted);
  };

  const admit = (req: FastifyRequest, reply: FastifyReply, prepared: PreparedAccount | null) => {
    if (!prepared) return sendError(reply, 401, "unknown_client_key");
    const { account } = prepared;
    const origin = req.headers.origin;
    if (origin) {
      if (!originAllowed(prepared, origin)) return sendError(reply, 403, "forbidden_origin");
      allowOrigin(reply, origin);
    }
    // The sender's own bucket first: one address spends it long before the shop's (rate-limit.ts).
    const address = ipLimiter ? addressKey(req.ip) : null;
    if (ipLimiter && address !== null) {
      const taken = ipLimiter.take(address);
      if (!taken.ok) return sendRateLimited(reply, taken.retryAfterS);
    }
    if (limiter) {
      const taken = limiter.take(account.id);
      if (!taken.ok) return sendRateLimited(reply, taken.retryAfterS);
    }
    req.account = account;
    req.prepared = prepared;
  };

  const now = () => new Date(clock()).toISOString();

  // Every write of the client API goes through one group commit (store/group-commit.ts), and
  // concurrent requests share the commit. Events, exposures, devices and alerts answer once their
  // writes are committed ("accepted" means stored); a config call answers before its decision's
  // write commits (store/write-behind.ts; docs/storage.md "Durability of a config call").
  const writes = new GroupCommit<ClientWrite, InsertResult>((batch) => store.commitClientWrites(batch));
  // Config calls' writes have a group commit of their own: nobody waits for them, so they gather
  // for DECISION_COMMIT_DELAY_MS into larger transactions, and on SQLite never share the fsync of
  // a batch with events (store/sqlite: batches of decisions alone commit at synchronous=NORMAL).
  // Measured 2026-11-27 (SQLite, a visitor with 8 assignments): 14 µs of CPU per visitor write
  // in batches of 30 against 19–22 µs in batches of 5; in a profile of bench/service.bench.mjs
  // before and after, the commit's share of the node's busy CPU went from 12 % to 9 %.
  const decisions = new GroupCommit<ClientWrite, InsertResult>((batch) => store.commitClientWrites(batch), undefined, DECISION_COMMIT_DELAY_MS);
  const visitors = new RecentVisitors(store);
  const userIds = new UserIds();
  // Keyed by user id: it names the account too (userIdFor).
  const decisionWrites = new WriteBehind<{ write: ClientWrite; visitor: VisitorEntry }>(
    ({ write }) => decisions.submit(write),
    (userId, { visitor }, error) => {
      app.log.error(`a config call's write of visitor ${userId} failed after retries, to be written by their next call: ${error instanceof Error ? error.message : String(error)}`);
      visitors.forget(visitor);
    },
  );
  app.decorate("clientWritesBehind", { drain: () => decisionWrites.drain() });
  app.addHook("onClose", async () => {
    await writes.flush();
    await decisions.flush();
    await decisionWrites.drain();
  });

  app.post<{ Body: ConfigsRequest }>(
    "/v1/users/configs/",
    {
      onRequest: resolveConfigCall,
      schema: {
        summary: "Configs for a visitor on a page (spec §7 config call)",
        description:
          "Decides the running experiences whose pages match, first matching rule, sticky assignment, traffic allocation, weighted variation, priority per element. preview_mode with a valid preview_token of the account (POST /api/preview-token): any status but archived, no audience or traffic check, nothing stored; without one, a normal visit. desired_experiences: \"expId\" or \"expId:variationId\" forces; preferred_experiences win element conflicts over priority.",
        tags: ["client"],
        security: CLIENT_SECURITY,
        querystring: cfencQuery,
        body: configsBody,
        consumes: CLIENT_CONTENT_TYPES,
        response: { 200: configsAnswer, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (req, reply) => {
      const body = req.body;
      const checked = req.prepared!;
      let userId = userIds.of(checked.account.id, body.user.user_customer_id);
      // A visitor this node must read (new to it at this revision, no write of theirs pending here)
      // is read by the revision read, if it has not gone yet.
      const read = req.accountRead!;
      const stored =
        body.preview_mode !== true && !visitors.known(checked.account.id, userId, checked.account.revision) && !decisionWrites.settled(userId) && read.withVisitor(userId);
      const fresh = await read.answer;
      if (!fresh) {
        reply.removeHeader("access-control-allow-origin");
        return sendError(reply, 401, "unknown_client_key");
      }
      const { account, experiences, audiences, planCache } = fresh.prepared;
      if (fresh.prepared !== checked) {
        // Published since the account the checks used: its origins may be others now.
        const origin = req.headers.origin;
        if (origin && !originAllowed(fresh.prepared, origin)) {
          reply.removeHeader("access-control-allow-origin");
          return sendError(reply, 403, "forbidden_origin");
        }
        if (account.id !== checked.account.id) userId = userIds.of(account.id, body.user.user_customer_id);
      }
      const nowMs = clock();
      // Preview shows drafts: only with a token an operator of this account got from the admin
      // API. Without one the call is a normal visit (no error: a stale link shows the live shop).
      const preview = body.preview_mode === true && isValidPreviewToken(await previewTokenKey(store), account.id, body.preview_token, nowMs);
      const visitor = preview
        ? null
        : await visitors.entry(account.id, userId, account.revision, decisionWrites.settled(userId), stored ? fresh.assignments?.get(userId) : undefined);
      const decision = decide({
        request: body.preview_mode === true && !preview ? { ...body, preview_mode: false } : body,
        visitorId: body.user.user_customer_id,
        experiences,
        audiences,
        // Preview: "the user is fresh" (spec §2) — no stored assignment is read, none written.
        assignments: visitor ? visitor.assignments : new Map<string, Assignment>(),
        attributes: attributesOf(body.user as unknown as Record<string, unknown>, {
          path: body.current_page_path.split("?")[0] ?? "/",
          domain: body.current_domain,
          now: nowMs,
        }),
        mainDomain: account.settings.domain,
        planCache,
      });
      // A config call writes only what changed: new or changed assignments, and the visitor when
      // this node has not recorded them within VISITOR_REFRESH_MS (decide/visitors.ts). The write
      // goes behind the answer: the answer does not depend on it (an assignment is the same
      // hash on every node within a revision), and the page is hidden until the answer arrives.
      if (visitor && (decision.assignments.length > 0 || visitors.stale(visitor, nowMs))) {
        const write: ClientWrite = { kind: "decision", accountId: account.id, userId, user: body.user, assignments: decision.assignments, now: now() };
        decisionWrites.write(userId, { write, visitor });
        visitors.recorded(visitor, decision.assignments, nowMs);
      }
      const answer = answerBytes(decision.configMembers, {
        userId,
        pagePaths: decision.page_paths,
        longUrl: longUrlOf(body, req.headers.origin),
        cache: decision.cache && { revision: account.revision, attributes: decision.cache.attributes },
      });
      return reply.type("application/json; charset=utf-8").send(answer);
    },
  );

  app.post<{ Body: AcceptedEventsRequest }>(
    "/v1/cfe/",
    {
      onRequest: resolveAccount,
      schema: {
        summary: "Track events (spec §7); idempotent on insert_id",
        tags: ["client"],
        security: CLIENT_SECURITY,
        querystring: cfencQuery,
        body: eventsBody,
        consumes: CLIENT_CONTENT_TYPES,
        response: { 200: acceptedAnswer, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (req) => {
      const account = req.account!;
      const userId = userIds.of(account.id, req.body.user.user_customer_id);
      // Looser forms a client may send (product.md Appendix A) are stored in the one form.
      const events = req.body.events.map(({ config_summary, ...e }, i): TrackedEvent => ({
        ...e,
        event_type: normalizeEventType(e.event_type),
        event_customer_id: e.event_customer_id ?? eventCustomerId(e.name!, e.domain ?? account.settings.domain),
        event_timestamp: epochMs(e.event_timestamp, `events[${i}].event_timestamp`),
        ...(config_summary ? { config_summary: config_summary.map((s, j) => ({ ...s, requested_time: epochMs(s.requested_time, `events[${i}].config_summary[${j}].requested_time`) })) } : {}),
      }));
      const nowMs = clock();
      const visitor = visitors.seen(account.id, userId);
      const touch = visitors.stale(visitor, nowMs);
      const result = await writes.submit({ kind: "events", accountId: account.id, userId, user: req.body.user, touch, events, now: now() });
      if (touch) visitors.recorded(visitor, [], nowMs);
      return result;
    },
  );

  app.post<{ Body: AcceptedSummariesRequest }>(
    "/v1/config/request/summary/",
    {
      onRequest: resolveAccount,
      schema: {
        summary: "Config summaries: exposures (spec §7), stored with the assignment probability",
        tags: ["client"],
        security: CLIENT_SECURITY,
        querystring: cfencQuery,
        body: summariesBody,
        consumes: CLIENT_CONTENT_TYPES,
        response: { 200: acceptedAnswer, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (req) => {
      const account = req.account!;
      const userId = userIds.of(account.id, req.body.user.user_customer_id);
      // product.md §3: each exposure carries the probability the visitor had of getting the
      // variation shown and the split it was drawn from, read from their stored assignment. An
      // exposure to an experience with no matching assignment was not randomised (a
      // desired_experiences or preview visit: never stored as assignments, decide.ts): stored
      // as forced, and left out of the results (docs/results.md).
      //
      // The config call stores assignments behind its answer, and the page reports exposures
      // right after it: this node's pending write of the visitor is waited for before the read.
      // One pending on another node cannot be seen: see OTHER_NODE_WAITS_MS.
      const summaries = req.body.summaries;
      const requestedTimes = summaries.map((s, i) => epochMs(s.requested_time, `summaries[${i}].requested_time`));
      const uids = summaries.map((s) => userIds.of(account.id, s.user_customer_id));
      const assignmentsByUser = new Map<string, Map<string, Assignment>>();
      for (const uid of new Set(uids)) {
        const pending = decisionWrites.settled(uid);
        if (pending) await pending;
        assignmentsByUser.set(uid, await store.getAssignments(account.id, uid));
      }
      const { experiences } = req.prepared!;
      // Assignments are kept per experience and rule: the summary's rule names the one (the
      // script sends it); without a rule, the variation shown does (variation ids are unique
      // within an experience, across its rules).
      const assignmentShown = (i: number): Assignment | undefined => {
        const s = summaries[i]!;
        const mine = assignmentsByUser.get(uids[i]!)!;
        const a = s.rule_id ? mine.get(assignmentKey(s.experience_id!, s.rule_id)) : [...mine.values()].find((x) => x.experience_id === s.experience_id && x.variation_id === s.variation_id);
        return a && a.variation_id === s.variation_id ? a : undefined;
      };
      // An exposure no stored assignment matches may be one whose assignment another node is
      // still committing — when the visitor's draw (decide/drawn.ts: the same hashes as decide.ts)
      // gives the variation shown, in a running experience, and no stored assignment of the rule
      // to a variation that still exists (that one would have been kept) says otherwise. Only
      // those are read again, after each of OTHER_NODE_WAITS_MS; a forced visit that is not the
      // draw is stored as forced at once, and one that is, after the waits.
      // Only the request's own visitor is waited for (the script's summaries are all theirs): a
      // batch naming many other visitors could otherwise hold the database with a read of each
      // after every wait.
      const mayBeCommitting = (i: number): boolean => {
        const s = summaries[i]!;
        if (uids[i] !== userId || !s.experience_id || !s.rule_id || !s.variation_id) return false;
        const exp = experiences.find((e) => e.id === s.experience_id);
        const rule = exp?.status === "running" ? exp.rules.find((r) => r.id === s.rule_id) : undefined;
        if (!exp || !rule) return false;
        const stored = assignmentsByUser.get(uids[i]!)!.get(assignmentKey(exp.id, rule.id));
        if (stored && rule.behaviour.variations.some((v) => v.id === stored.variation_id)) return false;
        return drawnAssignment(exp, rule.id, s.variation_id, s.user_customer_id) !== null;
      };
      let unmatched = summaries.map((_, i) => i).filter((i) => summaries[i]!.experience_id && !assignmentShown(i) && mayBeCommitting(i));
      for (const wait of OTHER_NODE_WAITS_MS) {
        if (unmatched.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, wait));
        for (const uid of new Set(unmatched.map((i) => uids[i]!))) assignmentsByUser.set(uid, await store.getAssignments(account.id, uid));
        unmatched = unmatched.filter((i) => !assignmentShown(i));
      }
      const exposures = summaries.map((s, i) => {
        const matched = s.experience_id ? assignmentShown(i) : undefined;
        return {
          ...s,
          requested_time: requestedTimes[i]!,
          // The service's id for the visitor, never the client's: results count visitors by it,
          // and the assignment above was read under it (a summary naming its own user_id could
          // count one assignment as any number of visitors).
          user_id: uids[i]!,
          probability: matched ? matched.probability : null,
          split: matched?.split ?? null,
          forced: !!s.experience_id && !matched,
        };
      });
      const nowMs = clock();
      const visitor = visitors.seen(account.id, userId);
      const touch = visitors.stale(visitor, nowMs);
      const result = await writes.submit({ kind: "exposures", accountId: account.id, userId, user: req.body.user, touch, exposures, now: now() });
      if (touch) visitors.recorded(visitor, [], nowMs);
      return result;
    },
  );

  app.post<{ Body: DevicesRequest; Params: { userId: string } }>(
    "/v1/users/:userId/devices/",
    {
      onRequest: resolveAccount,
      schema: {
        summary: "Register the visitor's devices (spec §7)",
        tags: ["client"],
        security: CLIENT_SECURITY,
        querystring: cfencQuery,
        params: devicesParams,
        body: devicesBody,
        consumes: CLIENT_CONTENT_TYPES,
        response: { 200: devicesAnswer, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (req) => {
      // The path names the visitor the devices belong to; a device of anyone else is refused.
      const other = req.body.add_devices.findIndex((d) => d.user_id !== req.params.userId);
      if (other >= 0) {
        throw new HttpError(400, "invalid_body", `add_devices[${other}].user_id is not the user id of the path (${JSON.stringify(req.params.userId)})`);
      }
      const { anonymous } = req.body;
      const devices = req.body.add_devices.map((d) => (anonymous === undefined ? d : { ...d, anonymous }));
      const result = await writes.submit({ kind: "devices", accountId: req.account!.id, devices, now: now() });
      return { ...result, device_ids: req.body.add_devices.map((d) => d.device_customer_id) };
    },
  );

  app.post<{ Body: AlertRequest }>(
    "/v1/alerts/",
    {
      onRequest: resolveAccount,
      schema: {
        summary: "Error report from the script (spec §7, §8)",
        tags: ["client"],
        security: CLIENT_SECURITY,
        querystring: cfencQuery,
        body: alertBody,
        consumes: CLIENT_CONTENT_TYPES,
        response: { 200: acceptedAnswer, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (req) => {
      await writes.submit({ kind: "alert", accountId: req.account!.id, alert: req.body, now: now() });
      return { accepted: 1 };
    },
  );
}

/**
 * What the client API accepts: the contract's shapes (what the script sends), with the looser
 * forms product.md Appendix A allows; the routes store the contract's form.
 */
type AcceptedSummary = Omit<ConfigSummary, "requested_time"> & { requested_time: number | string };
type AcceptedEvent = Omit<TrackedEvent, "event_customer_id" | "event_timestamp" | "config_summary"> & {
  event_customer_id?: string;
  event_timestamp: number | string;
  config_summary?: AcceptedSummary[];
};
type AcceptedEventsRequest = Omit<EventsRequest, "events"> & { events: AcceptedEvent[] };
type AcceptedSummariesRequest = Omit<SummariesRequest, "summaries"> & { summaries: AcceptedSummary[] };

/**
 * A time the client API accepts: epoch milliseconds (what the script sends) or ISO 8601 text
 * (product.md Appendix A: accept the looser form, store the one form). Text that is no date is
 * refused by name, before anything is stored.
 */
export function epochMs(value: number | string, field: string): number {
  if (typeof value === "number") return value;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new HttpError(400, "invalid_body", `${field} must be epoch milliseconds or an ISO 8601 date (got ${JSON.stringify(value.slice(0, 40))})`);
  return ms;
}
