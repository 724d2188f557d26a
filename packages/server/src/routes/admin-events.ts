// Live events (docs/api.md "Events"): the account's stored events a page at a time, filtered by
// type, domain, text, visitor and experience; and one visitor's timeline of events and exposures.
// A popup's events name the experience and variation that show it (`template_experience`).

import type { FastifyInstance } from "fastify";
import type { EventListResponse, StoredEventView, TemplateExperience, VisitorTimelineItem, VisitorTimelineResponse } from "@storefit/contract";
import type { EventFilter, Experience, StoredEvent, Store } from "../store/types.js";
import { requireAccess } from "../auth/access.js";
import type { AccessOptions } from "../auth/access.js";
import { HttpError } from "../http/errors.js";
import { ADMIN_SECURITY, errorResponses } from "../schemas/common.js";
import { eventListSchema, eventsQuery, timelineParams, timelineQuery, timelineSchema } from "../schemas/events.js";
import { userIdFor } from "./client.js";

export const EVENTS_PAGE_SIZE = 50;
export const TIMELINE_SIZE = 200;
/** A listed property's text is cut here: the list shows a few words, not a pasted document. */
const PROPERTY_TEXT_MAX = 500;

type EventsQuery = { limit?: string; type?: string; domain?: string; q?: string; visitor?: string; experience?: string; before?: string; after?: string };

/**
 * The user ids a visitor given by the operator may have: the text itself (a user id, `u_…`), and
 * the id the service derives from it as a customer id (routes/client.ts userIdFor). Only one of
 * them can be a stored visitor's in practice; looking up both spares a table scan by customer id.
 */
function visitorIds(accountId: string, visitor: string): string[] {
  const derived = userIdFor(accountId, visitor);
  return derived === visitor ? [visitor] : [visitor, derived];
}

/** The events the storefront script sends about a template it shows (packages/sdk/src/ext/templates.ts). */
const TEMPLATE_EVENTS = new Set(["TEMPLATE_VIEW", "TEMPLATE_BUTTON_CLICK"]);

/** The config a template event names (`properties.config_id`, text), or null: stored events are the shop's input. */
function templateConfigId(e: StoredEvent): string | null {
  if (!TEMPLATE_EVENTS.has(e.event_type)) return null;
  const properties: unknown = e.event.properties;
  const id = properties !== null && typeof properties === "object" ? (properties as { config_id?: unknown }).config_id : undefined;
  return typeof id === "string" && id !== "" ? id : null;
}

/** The configs a page of events names in its template events. */
function templateConfigIds(events: readonly StoredEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const e of events) {
    const id = templateConfigId(e);
    if (id !== null) ids.add(id);
  }
  return ids;
}

/** Config id → who shows it; absent: no experience of the account holds it. */
export type TemplateOwners = ReadonlyMap<string, TemplateExperience | null>;

/**
 * Who holds each of these configs among the account's experiences. Config ids are the operator's
 * to choose, so one may sit in several places: in two experiences it names neither (null; naming
 * the wrong popup is worse than naming none), in two variations of one the experience only.
 */
export function templateOwners(experiences: readonly Experience[], configIds: ReadonlySet<string>): TemplateOwners {
  const owners = new Map<string, TemplateExperience | null>();
  if (configIds.size === 0) return owners;
  for (const x of experiences) {
    for (const rule of x.rules) {
      for (const v of rule.behaviour.variations) {
        for (const c of v.configs) {
          if (!configIds.has(c.config_id)) continue;
          const seen = owners.get(c.config_id);
          if (seen === undefined) {
            owners.set(c.config_id, { experience_id: x.id, experience_name: x.name, variation_id: v.id, variation_name: v.name });
          } else if (seen !== null && seen.experience_id !== x.id) {
            owners.set(c.config_id, null);
          } else if (seen !== null && seen.variation_id !== v.id) {
            owners.set(c.config_id, { ...seen, variation_id: null, variation_name: null });
          }
        }
      }
    }
  }
  return owners;
}

/**
 * The owners of a page's template events, from one read of the account's experiences (none when
 * the page has no template event), so the cost is per page, not per row.
 */
async function templateOwnersOf(store: Store, accountId: string, events: readonly StoredEvent[]): Promise<TemplateOwners> {
  const ids = templateConfigIds(events);
  return ids.size === 0 ? new Map() : templateOwners(await store.listExperiences(accountId), ids);
}

export function eventView(e: StoredEvent, owners: TemplateOwners): StoredEventView {
  const configId = templateConfigId(e);
  const properties: StoredEventView["properties"] = {};
  const stored = e.event.properties;
  if (stored && typeof stored === "object") {
    for (const [key, value] of Object.entries(stored)) {
      if (typeof value === "string") properties[key] = value.length > PROPERTY_TEXT_MAX ? value.slice(0, PROPERTY_TEXT_MAX) + "…" : value;
      else if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean") properties[key] = value;
    }
  }
  return {
    seq: e.seq,
    insert_id: e.insert_id,
    event_type: e.event_type,
    event_customer_id: e.event_customer_id,
    name: typeof e.event.name === "string" ? e.event.name : e.event_customer_id.slice(e.event_customer_id.indexOf("|") + 1),
    domain: e.domain,
    page_path: e.page_path,
    user_id: e.user_id,
    session_id: e.session_id,
    event_timestamp: e.event_timestamp,
    received_at: e.received_at,
    properties,
    template_experience: (configId !== null && owners.get(configId)) || null,
  };
}

export function eventRoutes(app: FastifyInstance, opts: AccessOptions & { store: Store }): void {
  const { store } = opts;

  app.get<{ Querystring: EventsQuery }>(
    "/api/events",
    {
      onRequest: requireAccess(opts, "viewer"),
      schema: {
        summary: "Stored events, newest first, a page at a time, with the number matching the filters",
        tags: ["events"],
        security: ADMIN_SECURITY,
        querystring: eventsQuery,
        response: { 200: eventListSchema, ...errorResponses(400, 401) },
      },
    },
    async (req): Promise<EventListResponse> => {
      const accountId = req.caller!.account.id;
      const { type, domain, q, visitor, experience, before, after } = req.query;
      if (before !== undefined && after !== undefined) throw new HttpError(400, "invalid_body", "querystring: give before or after, not both");
      // Stored types are spec §3's, upper case (the client API stores an unknown one as TRACK).
      const filter: EventFilter = {
        ...(type?.trim() ? { type: type.trim().toUpperCase() } : {}),
        ...(domain?.trim() ? { domain: domain.trim() } : {}),
        ...(q?.trim() ? { q: q.trim() } : {}),
        ...(visitor?.trim() ? { visitorIds: visitorIds(accountId, visitor.trim()) } : {}),
        ...(experience?.trim() ? { experience: experience.trim() } : {}),
      };
      const limit = Number(req.query.limit ?? EVENTS_PAGE_SIZE);
      const cursor = { ...(before !== undefined ? { before: Number(before) } : {}), ...(after !== undefined ? { after: Number(after) } : {}) };
      const rows = await store.listEvents(accountId, limit, { ...filter, ...cursor });
      // Whether a page lies beyond each end: one row looked up past it (the seq index's order).
      const newest = rows[0]?.seq;
      const oldest = rows.at(-1)?.seq;
      const older = oldest !== undefined && (await store.listEvents(accountId, 1, { ...filter, before: oldest })).length > 0 ? oldest : null;
      const newer = newest !== undefined && (await store.listEvents(accountId, 1, { ...filter, after: newest })).length > 0 ? newest : null;
      const owners = await templateOwnersOf(store, accountId, rows);
      return { total: await store.countEvents(accountId, filter), events: rows.map((e) => eventView(e, owners)), older, newer };
    },
  );

  app.get<{ Params: { visitor: string }; Querystring: { limit?: string } }>(
    "/api/visitors/:visitor/timeline",
    {
      onRequest: requireAccess(opts, "viewer"),
      schema: {
        summary: "One visitor's newest events and exposures (with experience and variation names), oldest first",
        tags: ["events"],
        security: ADMIN_SECURITY,
        params: timelineParams,
        querystring: timelineQuery,
        response: { 200: timelineSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (req): Promise<VisitorTimelineResponse> => {
      const accountId = req.caller!.account.id;
      const limit = Number(req.query.limit ?? TIMELINE_SIZE);
      const ids = visitorIds(accountId, req.params.visitor);
      const record = await store.findVisitor(accountId, ids);
      const events = await store.listEvents(accountId, limit, { visitorIds: record ? [record.user_id] : ids });
      const exposures = await store.listVisitorExposures(accountId, record ? [record.user_id] : ids, limit);
      if (!record && events.length === 0 && exposures.length === 0) {
        throw new HttpError(404, "not_found", `No visitor "${req.params.visitor}" in this account`);
      }
      const userId = record?.user_id ?? events[0]?.user_id ?? exposures[0]?.user_id ?? ids[0]!;

      const experiences = await store.listExperiences(accountId);
      const owners = templateOwners(experiences, templateConfigIds(events));
      const names = new Map<string, { name: string; variations: Map<string, string> }>();
      for (const x of experiences) {
        const variations = new Map<string, string>();
        for (const rule of x.rules) for (const v of rule.behaviour.variations) variations.set(v.id, v.name);
        names.set(x.id, { name: x.name, variations });
      }
      const items: VisitorTimelineItem[] = [
        ...events.map((e): VisitorTimelineItem => ({ kind: "event", at: e.event_timestamp, event: eventView(e, owners) })).reverse(),
        ...exposures.map((x): VisitorTimelineItem => {
          const experience = x.experience_id ? names.get(x.experience_id) : undefined;
          return {
            kind: "exposure",
            at: x.requested_time,
            experience_id: x.experience_id ?? null,
            experience_name: experience?.name ?? null,
            variation_id: x.variation_id ?? "",
            variation_name: (x.variation_id && experience?.variations.get(x.variation_id)) || null,
            session_id: x.session_id || null,
            forced: x.forced === true,
          };
        }),
      ];
      // Oldest first; at the same millisecond the page's events before what it showed (stable).
      items.sort((a, b) => a.at - b.at);
      // A full list may have more before its oldest: keep only the span both lists cover, so
      // that no stretch shows exposures without their events (or the reverse).
      const fullFrom = [events, exposures]
        .filter((list) => list.length === limit)
        .map((list) => Math.min(...list.map((r) => ("event_timestamp" in r ? r.event_timestamp : r.requested_time))));
      const from = fullFrom.length ? Math.max(...fullFrom) : -Infinity;
      return {
        visitor: {
          user_id: userId,
          user_customer_id: record?.user_customer_id ?? exposures[0]?.user_customer_id ?? null,
          first_seen: record?.first_seen ?? null,
          last_seen: record?.last_seen ?? null,
        },
        items: items.filter((i) => i.at >= from),
        truncated: fullFrom.length > 0,
      };
    },
  );
}
