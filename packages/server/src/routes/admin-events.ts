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
/**
 * The events one filtered search or count looks at, at most (docs/api.md "Events"): a page whose
 * filter matches few events stops after this many and answers a cursor that continues the search.
 * At 1M events a filter matching nothing held SQLite's event loop seconds without it
 * (docs/benchmarks.md "Live events at 1M events").
 */
export const EVENTS_SEARCH_WINDOW = 50_000;
/** A filtered total stops counting here ("10,000+"). */
export const EVENTS_COUNT_CAP = 10_000;
/** Index entries one step of an unfiltered count reads before the event loop gets a turn. */
const COUNT_SLICE = 100_000;

/**
 * The event loop's turn between two reads of one request: SQLite's reads are synchronous, and
 * awaiting one is no turn, so a request's reads would otherwise hold the loop as one.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

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

/**
 * A page view's exposures to one variation, once: the script sends a summary per config shown,
 * all stamped with the view's start, so a variation with three changes is one thing the visitor saw.
 */
function onePerView<X extends { experience_id?: string | null; variation_id?: string | null; requested_time: number; session_id?: string | null; forced?: boolean }>(exposures: readonly X[]): X[] {
  const seen = new Set<string>();
  return exposures.filter((x) => {
    const key = JSON.stringify([x.experience_id ?? null, x.variation_id ?? null, x.requested_time, x.session_id ?? null, x.forced === true]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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

  /**
   * Each account's number of events up to a seq, kept per node and brought forward by what
   * arrived since: an unfiltered total costs the new events' index entries, not the account's.
   * Exact because seqs only grow in an account's commit order (one writer on SQLite, the account's
   * advisory lock on PostgreSQL) and events are never deleted. The first count reads the index in
   * slices, the event loop free between them.
   */
  const counted = new Map<string, Promise<{ n: number; upTo: number }>>();
  const totalEvents = async (accountId: string): Promise<number> => {
    const next = (counted.get(accountId) ?? Promise.resolve({ n: 0, upTo: 0 })).then(async ({ n, upTo }) => {
      for (;;) {
        const slice = await store.countEventsAfter(accountId, upTo, COUNT_SLICE);
        n += slice.n;
        if (slice.last !== null) upTo = slice.last;
        if (slice.n < COUNT_SLICE) return { n, upTo };
        await turn();
      }
    });
    counted.set(accountId, next);
    // A failed read is not kept: the next request counts from nothing again.
    next.catch(() => counted.get(accountId) === next && counted.delete(accountId));
    return (await next).n;
  };

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
      const up = after !== undefined;
      const cursor = { ...(before !== undefined ? { before: Number(before) } : {}), ...(up ? { after: Number(after) } : {}) };
      // Every read below looks at EVENTS_SEARCH_WINDOW events at most, whatever the filter.
      const page = await store.searchEvents(accountId, limit, { ...filter, ...cursor }, EVENTS_SEARCH_WINDOW);
      const rows = page.events;
      // Onward in the paging direction: past the page when more matches are known, else past
      // the window when the search stopped there (the next page continues it).
      const onward = page.more ? (up ? rows[0]!.seq : rows.at(-1)!.seq) : page.end;
      // Back the other way: from the page's far edge (an empty page's: its cursor), whether a
      // match lies there or a search would go on (one row looked for, in a window too).
      const edge = up ? (rows.at(-1)?.seq ?? Number(after) + 1) : (rows[0]?.seq ?? (before !== undefined ? Number(before) - 1 : undefined));
      let back: number | null = null;
      if (edge !== undefined) {
        await turn();
        const probe = await store.searchEvents(accountId, 1, { ...filter, ...(up ? { before: edge } : { after: edge }) }, EVENTS_SEARCH_WINDOW);
        back = probe.events.length > 0 || probe.end !== null ? edge : null;
      }
      const owners = await templateOwnersOf(store, accountId, rows);
      const filtered = Object.keys(filter).length > 0;
      await turn();
      // The newest page's search read the very window the total counts: its matches are the count.
      const total = !filtered
        ? { n: await totalEvents(accountId), exact: true }
        : before === undefined && !up && !page.more
          ? { n: rows.length, exact: page.end === null }
          : await store.countEventsBounded(accountId, filter, EVENTS_SEARCH_WINDOW, EVENTS_COUNT_CAP);
      return {
        total: total.n,
        total_exact: total.exact,
        events: rows.map((e) => eventView(e, owners)),
        older: up ? back : onward,
        newer: up ? onward : back,
        searched: !page.more && page.end !== null ? EVENTS_SEARCH_WINDOW : null,
      };
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
        ...onePerView(exposures).map((x): VisitorTimelineItem => {
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
