// Experiences (product.md §3 "Decisions") and their results. Viewers read; editors (and secret
// keys) create, edit, publish and delete.
//
// Status is changed only by POST /api/experiences/{id}/status — never by PUT or PATCH — so a
// publish is one explicit act that can be checked (transitions, publishability) and audited
// apart from edits. A publish takes effect on every node's next config call: it bumps the
// account's revision in the database, which each config call reads (decide/snapshots.ts).

import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { REVENUE_CURRENCY_WINDOW } from "@storefit/contract";
import type {
  ExperienceDetail,
  ExperienceInput,
  ExperienceListResponse,
  ExperienceOverlapsResponse,
  ExperiencePatch,
  ExperienceResults,
  ExperienceStatusChange,
  ResultsCorrection,
  ResultsEngine,
} from "@storefit/contract";
import type { Experience, ExperienceWriteContext, NewExperience, ResultsAggregate, Store, VariationVisitors } from "../store/types.js";
import { requireAccess } from "../auth/access.js";
import { analysePatterns, checkExclusionGroup, checkKnownPatterns, checkPatterns, checkRules, checkTransition, fromInput, newId, unpublishableReason } from "../admin/experiences.js";
import { HttpError } from "../http/errors.js";
import { findOverlaps } from "../admin/overlaps.js";
import { storedExperienceCleared, storedPatternsCleared, warnOnConsole } from "../admin/patterns.js";
import { ResultsCache } from "../results/cache.js";
import { RESULTS_DEFAULTS, computeResults } from "../results/compute.js";
import type { ResultsOptions } from "../results/compute.js";
import { diagnoseFewVisitors } from "../results/diagnostics.js";
import { resultsRange } from "../results/range.js";
import { ADMIN_SECURITY, errorResponses, idParams, obj, id } from "../schemas/common.js";
import {
  experienceBody,
  experienceDetailSchema,
  experienceListSchema,
  experiencePatchBody,
  overlapsSchema,
  resultsQuery,
  resultsSchema,
  statusBody,
} from "../schemas/admin.js";
import type { AdminOptions } from "./admin.js";

/** The results query as it arrives (strings; the schema has checked the shapes). */
type ResultsQueryString = { engine?: ResultsEngine; correction?: ResultsCorrection; alpha?: string; from?: string; to?: string };

/** The schema checks the shape of alpha; its range is checked here (0 < alpha ≤ 0.5). */
function resultsOptions(q: ResultsQueryString): ResultsOptions {
  const alpha = q.alpha === undefined ? RESULTS_DEFAULTS.alpha : Number(q.alpha);
  if (!(alpha > 0 && alpha <= 0.5)) throw new HttpError(400, "invalid_body", "querystring/alpha must be > 0 and ≤ 0.5");
  return { engine: q.engine ?? RESULTS_DEFAULTS.engine, correction: q.correction ?? RESULTS_DEFAULTS.correction, alpha };
}

/**
 * A date range's answer: its visitors are those first exposed in the range, by the variation of
 * that first exposure, as its metrics count them (docs/results.md "Date range"). Counting every
 * visitor seen in the range instead put returning visitors in the summary line and the Exposures
 * table but in none of the metrics below them.
 */
function rangedResults(aggregate: ResultsAggregate): { exposed: { distinct: number; byVariation: VariationVisitors[] }; aggregate: ResultsAggregate } {
  const byVariation = new Map<string, number>();
  for (const d of aggregate.exposures) byVariation.set(d.variation_id, (byVariation.get(d.variation_id) ?? 0) + d.visitors);
  const rows = [...byVariation].map(([variation_id, visitors]) => ({ variation_id, visitors })).sort((a, b) => (a.variation_id < b.variation_id ? -1 : a.variation_id > b.variation_id ? 1 : 0));
  return { exposed: { distinct: rows.reduce((n, r) => n + r.visitors, 0), byVariation: rows }, aggregate };
}

export function experienceDetail(e: Experience): ExperienceDetail {
  return {
    id: e.id,
    name: e.name,
    status: e.status,
    kind: e.kind,
    priority: e.priority,
    exclusion_group: e.exclusion_group,
    pages: e.pages,
    rules: e.rules,
    goals: e.goals,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}

/**
 * The experience's strong ETag: its updated_at and a hash of the whole representation. updated_at
 * alone has millisecond resolution, so two saves in the same millisecond would share it; with the
 * hash they still differ unless they stored exactly the same experience (then nothing is lost).
 */
export function experienceEtag(detail: ExperienceDetail): string {
  const hash = createHash("sha256").update(JSON.stringify(detail)).digest("base64url").slice(0, 22);
  return `"${detail.updated_at}~${hash}"`;
}

/** Sends the experience with its ETag (GET, and the answers of every write). */
function sendExperience(reply: FastifyReply, e: Experience, status = 200): FastifyReply {
  const detail = experienceDetail(e);
  return reply.code(status).header("etag", experienceEtag(detail)).send(detail);
}

/**
 * Optimistic concurrency for PUT and PATCH (RFC 9110 §13.1.1): with If-Match, the write is made
 * only if the stored experience still has one of the listed ETags (or any, for "*"); a weak
 * ETag never matches. Without If-Match the write is made as before (server-to-server callers).
 * Runs between the read and the write inside store.exclusive, so no other request on this node,
 * nor a write from another node, comes in between.
 */
function checkIfMatch(req: FastifyRequest, current: Experience): void {
  const header = req.headers["if-match"];
  if (header === undefined) return;
  const listed = header.split(",").map((t) => t.trim());
  if (listed.includes("*") || listed.includes(experienceEtag(experienceDetail(current)))) return;
  throw new HttpError(
    412,
    "precondition_failed",
    "The experience was changed since you loaded it (If-Match does not match its ETag); load it again and reapply your edit",
  );
}

const toInput = (e: Experience): ExperienceInput => ({
  name: e.name,
  kind: e.kind,
  priority: e.priority,
  exclusion_group: e.exclusion_group,
  pages: e.pages,
  rules: e.rules,
  goals: e.goals,
});

/** The overlap check looks at the pages viewed in this window, the most viewed first. */
const OVERLAP_PAGES_WINDOW_MS = 30 * 24 * 3600 * 1000;
const OVERLAP_SAMPLE_PAGES = 500;

export function experienceRoutes(app: FastifyInstance, opts: AdminOptions): void {
  const { store } = opts;
  const resultsCache = new ResultsCache();
  const viewer = requireAccess(opts, "viewer");
  const editor = requireAccess(opts, "editor");
  const doc = (summary: string, tags = ["experiences"]) => ({ summary, tags, security: ADMIN_SECURITY });

  const load = async (s: Store, accountId: string, expId: string): Promise<Experience> => {
    const e = await s.getExperience(accountId, expId);
    if (!e) throw new HttpError(404, "not_found", `No experience "${expId}" in this account`);
    return e;
  };

  /**
   * An edited experience, checked against the account as committed (run inside the store's
   * atomic write): its audiences exist, a running one stays publishable, its group share is free.
   */
  const check = (ctx: ExperienceWriteContext, next: NewExperience): NewExperience => {
    checkKnownPatterns(next);
    checkRules(ctx.audienceIds, next.rules);
    const reason = next.status === "running" ? unpublishableReason(next) : null;
    if (reason) throw new HttpError(409, "not_publishable", `${reason}; pause it before such an edit`);
    if (next.status === "running" || next.status === "paused") checkExclusionGroup(ctx.experiences, next);
    return next;
  };
  const notFound = (expId: string) => new HttpError(404, "not_found", `No experience "${expId}" in this account`);

  app.get(
    "/api/experiences",
    {
      onRequest: viewer,
      schema: { ...doc("All experiences, oldest first"), response: { 200: experienceListSchema, ...errorResponses(401) } },
    },
    async (req): Promise<ExperienceListResponse> => ({
      experiences: (await store.listExperiences(req.caller!.account.id)).map((e) => ({
        id: e.id,
        name: e.name,
        status: e.status,
        kind: e.kind,
        priority: e.priority,
        exclusion_group: e.exclusion_group,
        pages: e.pages,
        variation_count: e.rules.reduce((n, r) => n + r.behaviour.variations.length, 0),
        traffic: e.rules.map((r) => ({
          rule_id: r.id,
          traffic_allocation: r.behaviour.traffic_allocation,
          weights: r.behaviour.variations.map((v) => v.weight),
        })),
        updated_at: e.updated_at,
      })),
    }),
  );

  app.post<{ Body: ExperienceInput }>(
    "/api/experiences",
    {
      onRequest: editor,
      schema: {
        ...doc("Create an experience (a draft); ids left out are assigned"),
        body: experienceBody,
        response: { 201: experienceDetailSchema, ...errorResponses(400, 401, 403, 413, 415, 503) },
      },
    },
    async (req, reply) => {
      // Atomic: the audiences its rules name are checked and the experience stored with no
      // audience deleted in between.
      await checkPatterns(req.body);
      const accountId = req.caller!.account.id;
      const next = fromInput(accountId, newId("exp"), req.body, "draft");
      const saved = await store.createExperience(next, (ctx) => void check(ctx, next));
      return sendExperience(reply, saved, 201);
    },
  );

  app.get<{ Params: { id: string } }>(
    "/api/experiences/:id",
    {
      onRequest: viewer,
      schema: { ...doc("One experience, whole"), params: idParams, response: { 200: experienceDetailSchema, ...errorResponses(400, 401, 404) } },
    },
    async (req, reply) => sendExperience(reply, await load(store, req.caller!.account.id, req.params.id)),
  );

  app.put<{ Params: { id: string }; Body: ExperienceInput }>(
    "/api/experiences/:id",
    {
      onRequest: editor,
      schema: {
        ...doc("Replace an experience (status kept). Keep variation ids to keep visitors' sticky assignments"),
        params: idParams,
        body: experienceBody,
        response: { 200: experienceDetailSchema, ...errorResponses(400, 401, 403, 404, 409, 412, 413, 415, 503) },
      },
    },
    async (req, reply) => {
      const accountId = req.caller!.account.id;
      await checkPatterns(req.body);
      const saved = await store.updateExperience(accountId, req.params.id, (current, ctx) => {
        checkIfMatch(req, current);
        return check(ctx, fromInput(accountId, current.id, req.body, current.status));
      });
      if (!saved) throw notFound(req.params.id);
      return sendExperience(reply, saved);
    },
  );

  app.patch<{ Params: { id: string }; Body: ExperiencePatch }>(
    "/api/experiences/:id",
    {
      onRequest: editor,
      schema: {
        ...doc("Replace some fields of an experience (status kept)"),
        params: idParams,
        body: experiencePatchBody,
        response: { 200: experienceDetailSchema, ...errorResponses(400, 401, 403, 404, 409, 412, 413, 415, 503) },
      },
    },
    async (req, reply) => {
      const accountId = req.caller!.account.id;
      await checkPatterns(req.body);
      // The fields not sent are kept: their patterns are checked under the write, from verdicts.
      await analysePatterns(await store.getExperience(accountId, req.params.id));
      const saved = await store.updateExperience(accountId, req.params.id, (current, ctx) => {
        checkIfMatch(req, current);
        return check(ctx, fromInput(accountId, current.id, { ...toInput(current), ...req.body }, current.status));
      });
      if (!saved) throw notFound(req.params.id);
      return sendExperience(reply, saved);
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/api/experiences/:id",
    {
      onRequest: editor,
      schema: {
        ...doc("Delete an experience that is not running; its exposures and events stay"),
        params: idParams,
        response: { 204: { description: "Deleted", type: "null" }, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (req, reply) => {
      const accountId = req.caller!.account.id;
      // Atomic: an experience published on another node after this check is not deleted.
      const deleted = await store.deleteExperience(accountId, req.params.id, (current) => {
        if (current.status === "running") {
          throw new HttpError(409, "invalid_transition", "Pause or archive a running experience before deleting it");
        }
      });
      if (!deleted) throw notFound(req.params.id);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: { id: string } }>(
    "/api/experiences/:id/overlaps",
    {
      onRequest: viewer,
      schema: {
        ...doc("Running experiences that can change the same element on the same page as this one, and which wins there (docs/dashboard.md \"Overlaps\")"),
        params: idParams,
        response: { 200: overlapsSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (req): Promise<ExperienceOverlapsResponse> => {
      const account = req.caller!.account;
      // Stored page patterns are run on sample pages only once analysed (admin/patterns.ts).
      const target = await storedExperienceCleared(await load(store, account.id, req.params.id));
      const running = await storedPatternsCleared(account.id, (await store.listExperiences(account.id)).filter((e) => e.status === "running"), [], warnOnConsole);
      // Concrete pages to check the patterns on: the account's configured pages and the pages
      // shoppers viewed in the last 30 days (admin/overlaps.ts says why).
      const viewed = await store.pageViews(account.id, { from_ms: opts.clock() - OVERLAP_PAGES_WINDOW_MS }, OVERLAP_SAMPLE_PAGES);
      const samples = [
        ...account.settings.pages.filter((p) => (p.page_match ?? "exact_match") === "exact_match").map((p) => ({ domain: p.domain, page_path: p.page_path })),
        ...viewed.pages,
      ];
      return { overlaps: findOverlaps(target, running, account.settings.domain, samples) };
    },
  );

  app.post<{ Params: { id: string }; Body: ExperienceStatusChange }>(
    "/api/experiences/:id/status",
    {
      onRequest: editor,
      schema: {
        ...doc(
          "Publish (running), pause, archive or restore (archived → draft). Allowed: draft → running | archived; running → paused | archived; paused → running | archived; archived → draft",
        ),
        params: idParams,
        body: statusBody,
        response: { 200: experienceDetailSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 503) },
      },
    },
    async (req, reply) => {
      const accountId = req.caller!.account.id;
      // A publish checks the stored patterns under the write, from verdicts made here.
      if (req.body.status === "running") await analysePatterns(await store.getExperience(accountId, req.params.id));
      // Atomic: the experience is written back whole, so an edit committed by another node
      // between this read and this write would otherwise be lost.
      const saved = await store.updateExperience(accountId, req.params.id, (current, ctx) => {
        const to = req.body.status;
        checkTransition(current.status, to);
        if (to === "running") {
          const reason = unpublishableReason(current);
          if (reason) throw new HttpError(409, "not_publishable", reason);
          checkExclusionGroup(ctx.experiences, current);
        }
        if (to === current.status) return current;
        const { created_at: _c, updated_at: _u, ...rest } = current;
        return { ...rest, status: to };
      });
      if (!saved) throw notFound(req.params.id);
      return sendExperience(reply, saved);
    },
  );

  app.get<{ Params: { experienceId: string }; Querystring: ResultsQueryString }>(
    "/api/results/:experienceId",
    {
      onRequest: viewer,
      schema: {
        ...doc(
          "Results per rule, goal and variation: visitors, conversions, rates, revenue, lift with its interval, the sample-ratio check and a daily series, optionally within a date range; when a running experience has few visitors, why (docs/results.md)",
          ["results"],
        ),
        params: obj({ experienceId: id }, ["experienceId"]),
        querystring: resultsQuery,
        response: { 200: resultsSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (req): Promise<ExperienceResults> => {
      const account = req.caller!.account;
      const accountId = account.id;
      const options = resultsOptions(req.query);
      const range = resultsRange(req.query.from, req.query.to);
      // Its goal and page patterns are run on stored page views only once analysed (admin/patterns.ts).
      const experience = await storedExperienceCleared(await load(store, accountId, req.params.experienceId));
      // Reused while nothing it depends on has changed (results/cache.ts, docs/results.md "Cache").
      const version = await store.resultsVersion(accountId);
      const key = ResultsCache.key({
        accountId,
        experienceId: experience.id,
        updatedAt: experience.updated_at,
        revision: version.revision,
        query: `${options.engine} ${options.correction} ${options.alpha} ${range.from ?? ""} ${range.to ?? ""}`,
        eventSeq: version.eventSeq,
        exposureSeq: version.exposureSeq,
      });
      const cached = resultsCache.get(key);
      if (cached) return cached;
      // Without a date range, from the state folded since the last call (docs/results.md
      // "Incremental results"); a range is computed in full.
      const { exposed, aggregate } =
        range.from === null && range.to === null
          ? await store.foldResults(accountId, experience.id, experience.goals)
          : rangedResults(await store.resultsAggregate(accountId, experience.id, experience.goals, range.ms));
      const answer = computeResults({
        experience,
        exposed,
        aggregate,
        audienceNames: new Map((await store.listAudiences(accountId)).map((a) => [a.id, a.name])),
        options,
        now: new Date(opts.clock()),
        range: { from: range.from, to: range.to },
        diagnostics: await diagnoseFewVisitors({
          store,
          account,
          experience,
          range: range.ms,
          totalVisitors: exposed.distinct,
        }),
      });
      // Revenue adds amounts as sent: say which currencies they came in (docs/results.md "Currencies").
      if (experience.goals.some((g) => g.kind === "revenue")) {
        answer.revenue_currencies = await store.recentRevenueCurrencies(accountId, experience.id, REVENUE_CURRENCY_WINDOW);
      }
      resultsCache.set(key, answer);
      return answer;
    },
  );
}
