// Event tracking (spec §3 Event, §7 /v1/cfe/): builds events and sends them through the one
// transport. Events queue up to the track queue size (default and minimum 5, spec §9) and the
// queue is flushed with a beacon when the page is hidden or left. PAGE events are sent at once:
// a page view is what every exposure and live view hangs on, and waiting for four more events
// would hide short visits until the visitor leaves. Each event gets its insert_id when it is
// created, so a retried request carries the same ids and the service stores it once. A REVENUE
// event with an `order_id` gets one made of the order and the visitor (track/order-id.ts), so a
// confirmation page that tracks its order on every load counts that order once.

import { CLIENT_PATHS, SDK_VERSION, eventCustomerId, normalizeEventType } from "@storefit/contract";
import type { EventType, EventsRequest, Properties, TrackedEvent, User } from "@storefit/contract";
import type { Scope } from "../core/scope.js";
import { doc, now, randomId, safe, win } from "../env/globals.js";
import { orderInsertId } from "./order-id.js";
import { post } from "./transport.js";
import type { Endpoint } from "./transport.js";

export type Tracker = {
  track: (type: EventType | string, name: string, properties?: Properties, extra?: Partial<TrackedEvent>) => void;
  flush: (unload?: boolean) => void;
  /**
   * Calls `listener` with every event as it is created, before it is sent (forward/: analytics
   * destinations and the contact-platform link, which may add properties). Events created before
   * the first listener — the extension subscribes after the page is shown — are replayed to it, so
   * an early `storefit.track` or `trackRevenue` is forwarded too. Optional: an older core lacks it.
   */
  onEvent?: (listener: (e: TrackedEvent) => void) => void;
};

export type TrackerContext = {
  ep: Endpoint;
  user: User;
  domain: string;
  sessionId: string;
  pagePath: string;
  /** spec §2 path-merge rules: the final path this page counts as, if a rule matches. */
  mergedPath: string | null;
  /** How long the previous page of the session was open, for PAGE events (spec §3). */
  lastPageDuration: number | null;
  queueSize: number;
  scope: Scope;
  /** False in preview mode and on blacklisted pages: nothing is sent. */
  enabled: boolean;
};

export function createTracker(ctx: TrackerContext): Tracker {
  let queue: TrackedEvent[] = [];
  const listeners: ((e: TrackedEvent) => void)[] = [];
  let early: TrackedEvent[] | null = [];
  const flush = (unload = false) => {
    if (!queue.length) return;
    const body: EventsRequest = { user: ctx.user, events: queue, cf_client_sdk_version: SDK_VERSION };
    queue = [];
    void post(ctx.ep, CLIENT_PATHS.events, body, unload);
  };
  if (ctx.enabled) {
    ctx.scope.listen(win, "pagehide", () => flush(true));
    ctx.scope.listen(doc, "visibilitychange", () => {
      if (doc.visibilityState === "hidden") flush(true);
    });
    // Teardown (single-page navigation) sends what is queued for the page being left.
    ctx.scope.add(() => flush(true));
  }
  return {
    track: (type, name, properties, extra) => {
      if (!ctx.enabled) return;
      const event_type = normalizeEventType(type);
      const order = event_type === "REVENUE" ? properties?.order_id : undefined;
      const e: TrackedEvent = {
        event_type,
        name,
        event_customer_id: eventCustomerId(name, ctx.domain),
        domain: ctx.domain,
        // The visitor is the browser's device id, not the customer id: `identify` may change the
        // customer id between two loads of the page, and may set it to something anyone can
        // guess (an email, a customer number), where the device id is random.
        insert_id:
          (typeof order === "string" && order) || typeof order === "number"
            ? orderInsertId("order", String(order), ctx.user.device_id || ctx.user.user_customer_id)
            : randomId(),
        event_timestamp: now(),
        session_id: ctx.sessionId,
        ...(event_type === "PAGE" && ctx.lastPageDuration !== null ? { last_page_duration: ctx.lastPageDuration } : {}),
        properties: {
          page_path: ctx.pagePath,
          ...(ctx.mergedPath ? { cf_merged_page_path: ctx.mergedPath } : {}),
          ...properties,
        },
        ...extra,
      };
      queue.push(e);
      if (early) early.push(e);
      for (const l of listeners) safe(() => l(e));
      if (event_type === "PAGE" || queue.length >= ctx.queueSize) flush();
    },
    flush,
    onEvent: (l) => {
      listeners.push(l);
      for (const e of early || []) safe(() => l(e));
      early = null;
    },
  };
}
