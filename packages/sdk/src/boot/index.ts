// Entry point of storefit.js: the page API (product.md §2), the `storefitQueue` hand-off, and one
// initialization per page (or per path in single-page mode): settings → gate (mode and stops) →
// visitor → config call → apply → reveal → report. Every entry point is guarded: a failure
// reveals the page and never throws into it (conventions, habit 4).

import {
  CLIENT_PATHS,
  DOCUMENT_EVENTS,
  SDK_VERSION,
  configMatchesPage,
  matchPage,
  matchesAnyPattern,
  mergedPagePath,
  normalizePagePath,
  resolveEventDomain,
} from "@storefit/contract";
import type {
  Config,
  ConfigSummary,
  ConfigsRequest,
  ConfigsResponse,
  Json,
  Properties,
  StorefitSettings,
  SummariesRequest,
} from "@storefit/contract";
import { consent, doc, now, safe, setConsentState, storageGet, storageGetJson, storageRemove, storageSet, storageSetJson, whenConsented, win } from "../env/globals.js";
import { consentFromDataLayer, consentFromShopify } from "../core/consent.js";
import { log } from "../core/log.js";
import { emit } from "../core/emit.js";
import { readSettings, storagePrefix } from "../core/settings.js";
import { STORAGE_KEYS } from "../core/storage-keys.js";
import { parseUrlParams, withoutParams } from "../core/params.js";
import { gate } from "../core/gate.js";
import { loadVisitor } from "../core/visitor.js";
import type { PropertyScope, TagScope, Visitor } from "../core/visitor.js";
import { propertyValue, tagList, trackQueueSize, validEventName, validName } from "../core/builders.js";
import { createScope } from "../core/scope.js";
import type { Scope } from "../core/scope.js";
import { hidePage, revealPage } from "../dom/visibility.js";
import { xp } from "../dom/apply.js";
import { createEngine } from "../dom/engine.js";
import type { EngineContext } from "../dom/engine.js";
import { templateOf } from "../ext/template-rules.js";
import { createTracker } from "../track/tracker.js";
import type { Tracker } from "../track/tracker.js";
import { post } from "../track/transport.js";
import { watchPath } from "./spa.js";
import { loadExtension } from "../core/ext.js";
import { loadEditor } from "../editor/load.js";
import { valueOf } from "../core/getters.js";
import { addViewedProduct } from "../track/measures.js";
import type { ViewedProduct } from "../track/measures.js";

export type StorefitApi = {
  version: string;
  track: (name: string, properties?: Properties) => boolean;
  setUserProperty: (name: string, value: unknown) => boolean;
  setPrivateProperty: (name: string, value: unknown) => boolean;
  setSessionProperty: (name: string, value: unknown) => boolean;
  setCrmProperty: (name: string, value: unknown) => boolean;
  addTags: (tags: string[] | string, scope?: TagScope) => boolean;
  identify: (customerId: string, properties?: Properties) => boolean;
  /** spec §5 Getters: the config's value, or `defaultValue` when missing or of another type. */
  getValue: <T>(configCustomerId: string, defaultValue: T) => T;
  trackRevenue: (amount: number, properties?: Properties) => boolean;
  /** Consent for storage and tracking, when the account requires it (core/consent.ts). */
  setConsent: (granted: boolean) => void;
  viewProduct: (productId: string, variantId?: string) => boolean;
  ready: (callback: () => void) => void;
  init: () => void;
  uninit: () => void;
};

declare global {
  interface Window {
    storefitSettings?: unknown;
    storefit?: StorefitApi;
    storefitQueue?: unknown[];
  }
}

/**
 * Config call state (spec §4): not needed → sent → received | error received; a call still
 * unanswered at sdk_timeout_ms is recorded as timed out (and may still be received later).
 */
export type ConfigCallState = "not_needed" | "sent" | "received" | "error" | "timed_out";

type Instance = {
  scope: Scope;
  /** Every config of the last answer, by config_customer_id (for getValue). */
  configs: Record<string, Config>;
  settings: StorefitSettings;
  visitor: Visitor;
  tracker: Tracker;
  prefix: string;
};

let current: Instance | null = null;
let isReady = false;
let readyCallbacks: (() => void)[] = [];
let stopWatching: (() => void) | null = null;

function markReady(detail: unknown): void {
  isReady = true;
  emit(DOCUMENT_EVENTS.ready, detail);
  const callbacks = readyCallbacks;
  readyCallbacks = [];
  for (const cb of callbacks) safe(cb);
}

function stop(code: Parameters<typeof log>[0], silent?: boolean): void {
  if (!silent) log(code);
  emit(DOCUMENT_EVENTS.error, { code });
  revealPage();
  markReady({ stopped: code });
}

const wait = (scope: Scope, ms: number) => new Promise<void>((r) => scope.timeout(r, ms));

/** Properties from a shop's call, keeping only values the builders accept (spec §5). */
function cleanProperties(props: unknown): Properties {
  const out: Properties = {};
  if (props && typeof props === "object") {
    for (const [k, v] of Object.entries(props)) {
      const value = propertyValue(v);
      if (value !== undefined) out[k] = value;
    }
  }
  return out;
}

async function init(): Promise<void> {
  hidePage();
  isReady = false;
  const s = readSettings(win.storefitSettings);
  const loc = win.location;
  const params = parseUrlParams(loc.search);
  const prefix = storagePrefix((s && s.client_key) || "");
  const previewKey = prefix + STORAGE_KEYS.preview;
  const previewTokenKey = prefix + STORAGE_KEYS.previewToken;
  if (params.preview === true) storageSet("sessionStorage", previewKey, "1");
  if (params.previewToken) storageSet("sessionStorage", previewTokenKey, params.previewToken);
  if (params.preview === false) {
    storageRemove("sessionStorage", previewKey);
    storageRemove("sessionStorage", previewTokenKey);
  }
  const outboundKey = prefix + STORAGE_KEYS.outboundMarker;
  const g = gate({
    settings: s,
    hostname: loc.hostname,
    userAgent: safe(() => win.navigator.userAgent, ""),
    hasInitElement: !!(doc.head || doc.documentElement),
    alreadyInitialized: !!current,
    editMode: params.edit || safe(() => win.self !== win.top && /^storefit-editor/.test(win.name), false),
    previewMode: storageGet("sessionStorage", previewKey) === "1",
    outboundParam: params.outbound,
    outboundMarkerAt: Number(storageGet("localStorage", outboundKey)) || null,
    now: now(),
  });
  if ("stop" in g) {
    stop(g.stop, g.silent);
    // Edit mode (spec §4): the page is shown; the visual editor's bridge takes over (docs/visual-editor.md).
    if (g.stop === "CFINIT008") void loadEditor(s!.api_host);
    return;
  }
  const settings = s!;
  if (g.setOutboundMarker) storageSet("localStorage", outboundKey, String(now()));

  // Prefixed parameters did their work (they are in the visitor below): take them out of the
  // address bar without a reload (spec §2).
  if (params.strip.length) {
    safe(() => win.history.replaceState(win.history.state, "", loc.pathname + withoutParams(loc.search, params.strip) + loc.hash));
  }

  const scope = createScope();
  let timedOut = false;
  let state: ConfigCallState = "not_needed";
  scope.timeout(() => {
    timedOut = true;
    revealPage();
    // product.md §2: ready runs once configs are applied or given up on. At the time-out they are
    // given up on, answered or not: the shop's callbacks run with the page they now show. A late
    // answer is still applied (personalize_after_timeout) and announced by storefit:applied.
    if (state === "sent") state = "timed_out";
    if (!isReady) markReady({ state, timed_out: true });
  }, settings.sdk_timeout_ms);

  const preview = g.mode === "preview";
  const domain = resolveEventDomain(loc.hostname, settings.domain, settings.subdomains)!;
  // Share the customer-id cookie across the main domain's subdomains when we are on one.
  const main = settings.domain.toLowerCase();
  const cookieDomain = domain === main || domain.endsWith("." + main) ? main.replace(/^www\./, "") : undefined;
  const visitor = loadVisitor(prefix, params, { preview, ...(cookieDomain && cookieDomain.includes(".") ? { cookieDomain } : {}) });
  const pagePath = normalizePagePath(loc.pathname);
  const ep = { apiHost: settings.api_host, clientKey: settings.client_key };
  // spec §4 preview: no tracking; spec §6: blacklisted pages and referrers are not tracked.
  const tracking =
    !preview &&
    !matchesAnyPattern(settings.page_blacklist ?? [], loc.pathname) &&
    !matchesAnyPattern(settings.referrer_blacklist ?? [], safe(() => doc.referrer, ""));
  // The previous page's duration (spec §3 last_page_duration) is written when a page is left.
  const durationKey = prefix + STORAGE_KEYS.lastPageDuration;
  const lastDuration = storageGet("sessionStorage", durationKey);
  const pageStart = now();
  scope.listen(win, "pagehide", () => storageSet("sessionStorage", durationKey, String(now() - pageStart)));
  scope.add(() => storageSet("sessionStorage", durationKey, String(now() - pageStart)));
  const tracker = createTracker({
    ep,
    user: visitor.user,
    domain,
    sessionId: visitor.sessionId,
    pagePath,
    mergedPath: mergedPagePath(settings.event_merge ?? [], domain, loc.pathname),
    lastPageDuration: lastDuration === null ? null : Number(lastDuration) || 0,
    queueSize: trackQueueSize(settings.track_queue_size),
    scope,
    enabled: tracking,
  });
  const inst: Instance = { scope, configs: {}, settings, visitor, tracker, prefix };
  current = inst;
  runQueue();

  if (settings.initial_delay_ms > 0) await wait(scope, settings.initial_delay_ms);
  if (current !== inst) return;

  // The config call (spec §7), or the session cache when intelligent code is off (spec §7).
  const cacheKey = prefix + STORAGE_KEYS.configCache + visitor.user.user_customer_id;
  // spec §2/§4 "active pages": when the account lists rule pages, experiences run on those and on
  // the configured pages only; anywhere else the call is not needed and the page shows at once.
  // With no rule pages (the deployed configuration), every page asks.
  const isPage = (p: { domain?: string; page_path: string; page_match?: string }) => matchPage(p, loc, settings.domain);
  const needed = !(settings.rule_pages || []).length || settings.rule_pages.some(isPage) || (settings.pages ?? []).some(isPage);
  let configs: Config[] | null = !needed
    ? []
    : settings.intelligent_code || preview
      ? null
      : storageGetJson<Config[] | null>("sessionStorage", cacheKey, null);
  if (!configs) {
    state = "sent";
    const request: ConfigsRequest = {
      user: visitor.user,
      current_page_path: loc.pathname + loc.search,
      current_domain: loc.hostname,
      session_id: visitor.sessionId,
      ...(params.desired.length ? { desired_experiences: params.desired } : {}),
      ...(params.preferred.length ? { preferred_experiences: params.preferred } : {}),
      ...(params.cfid ? { cfid: params.cfid } : {}),
      // Without a valid token the service answers running experiences only (auth/preview-token.ts).
      ...(preview ? { preview_mode: true, preview_token: storageGet("sessionStorage", previewTokenKey) ?? undefined } : {}),
    };
    const res = await post(ep, CLIENT_PATHS.configs, request);
    if (current !== inst) return;
    if (res.ok) {
      state = "received";
      // `|| {}` rather than `?.` here and below: the ES2019 build spells optional chaining out in full.
      const answer = (res.data || {}) as Partial<ConfigsResponse>;
      configs = Object.values(answer.configs || {});
      if (answer.user_id) visitor.user.user_id = answer.user_id;
      if (!settings.intelligent_code && !preview) storageSetJson("sessionStorage", cacheKey, configs);
    } else {
      // spec §8: log status, message and data, reveal, continue silently; report the error
      // (with fetch, never a beacon) only when error reporting is on and the status is not 403.
      state = "error";
      log(res.code, res.status, res.data);
      emit(DOCUMENT_EVENTS.error, { code: res.code, status: res.status });
      // spec §8: error-report events are tracked for diagnosis.
      tracker.track("TRACK", "cf_error_report", { code: res.code, status: res.status });
      if (settings.error_reporting && res.status !== 403) {
        void post(ep, CLIENT_PATHS.alerts, { code: res.code, status: res.status, data: (res.data ?? null) as Json, path: CLIENT_PATHS.configs });
      }
      configs = [];
    }
  }

  for (const c of configs) inst.configs[c.config_customer_id] = c;
  // spec §4: configs that arrive after the time-out are applied only with personalize-after-timeout.
  const apply = !timedOut || settings.personalize_after_timeout;
  const onPage = apply ? configs.filter((c) => configMatchesPage(c, loc, settings.domain)) : [];
  const engineContext: EngineContext = {
    scope,
    settings,
    device: (visitor.user.properties || {}).cf_device_type === "desktop" ? "desktop" : "mobile",
    track: (type, name, properties) => {
      // Clicks carry how often this goal was clicked in the session (spec §3 click_count).
      const extra: Properties = {};
      if (type === "CLICK") {
        const key = prefix + STORAGE_KEYS.clickCount + name;
        const count = (Number(storageGet("sessionStorage", key)) || 0) + 1;
        storageSet("sessionStorage", key, String(count));
        extra.click_count = count;
      }
      tracker.track(type, name, { ...properties, ...extra });
    },
  };
  const engine = createEngine(engineContext);
  scope.add(engine.revert);
  // spec §3 Template: a template config's display rules (trigger, visibility, close memory) govern
  // all of its markup, also HTML the provider put in its element changes; the extension applies
  // those when the template shows (ext/templates.ts), so they are not applied here.
  const { applied, redirect } = await engine.apply(onPage.filter((c) => !templateOf(c)));
  if (current !== inst) return;
  // A global redirection leaves the page: revealing it would flash the original until the next
  // page loads. The sdk time-out still reveals it if the navigation fails.
  if (!redirect) revealPage();
  emit(DOCUMENT_EVENTS.applied, applied);
  if (!isReady) markReady({ state, timed_out: timedOut, applied });

  const requestedTime = now();
  // A redirect leaves the page unseen: only the experience that redirected was shown to the
  // visitor (its config is the last one applied); the others' exposures would be false.
  const by = redirect && onPage.find((c) => c.config_id === applied[applied.length - 1]);
  const exposed = by ? onPage.filter((c) => xp(c).experience_id === xp(by).experience_id) : onPage;
  const summaries: ConfigSummary[] = exposed.map((c) => ({
    config_id: c.config_id,
    version: c.version,
    user_id: visitor.user.user_id,
    requested_time: requestedTime,
    variation_id: c.variation_id,
    user_customer_id: visitor.user.user_customer_id,
    session_id: visitor.sessionId,
    behaviour_id: xp(c).behaviour_id,
    experience_id: xp(c).experience_id,
    rule_id: xp(c).rule_id,
    is_template_config: !!(c.properties || {}).custom_template,
  }));
  if (summaries.length && !preview) {
    const body: SummariesRequest = { user: visitor.user, summaries };
    void post(ep, CLIENT_PATHS.summaries, body);
  }
  // A view of a goal page says so (spec §3 "Active pages"), so results need no second lookup.
  const goal: Properties = (settings.goal_pages ?? []).some(isPage) ? { cf_goal_page: true } : {};
  tracker.track("PAGE", "page_view", { cf_current_page_url: loc.href, ...goal }, { pageview_seq_number: visitor.pageviewSeq, config_summary: summaries });
  // Leave only now: the summaries and the view of this page are on their way (keepalive requests
  // outlive the page), so a redirect test counts the visitors of the page being left (issue #16).
  if (redirect) return void safe(() => loc.replace(redirect));

  // What the page needs only once it is shown comes in storefit-ext.js (core/ext.ts).
  const ext = await loadExtension(settings.api_host);
  if (ext && current === inst) {
    const applyConfig = (c: Config) => {
      const e = createEngine(engineContext);
      scope.add(e.revert);
      void e.apply([c]);
      return e;
    };
    ext({ settings, scope, visitor, tracker, ep, domain, pagePath, configs: onPage, tracking, preview, prefix, post, storageGet, storageSet, whenConsented, applyConfig });
  }
}

function uninit(): void {
  const inst = current;
  current = null;
  isReady = false;
  if (inst) inst.scope.dispose();
}

function start(): void {
  init().catch((e: unknown) => {
    log("CFRUN001", e);
    revealPage();
    if (!isReady) markReady({ error: true });
  });
}

/** Runs a page-API method for the current initialization; false when there is none or it fails. */
const withInstance = (fn: (inst: Instance) => boolean | void) => () => {
  const inst = current;
  return !!inst && safe(() => fn(inst) !== false, false);
};

const setProperty = (scope: PropertyScope) => (name: string, value: unknown) =>
  withInstance((inst) => {
    const v = propertyValue(value);
    if (!validName(name) || v === undefined) return false;
    inst.visitor.setProperty(scope, name, v);
  })();

const api: StorefitApi = {
  version: SDK_VERSION,
  track: (name, properties) =>
    withInstance((inst) => {
      if (!validEventName(name)) return false;
      inst.tracker.track("TRACK", name, cleanProperties(properties));
    })(),
  setUserProperty: setProperty("user"),
  setPrivateProperty: setProperty("private"),
  setSessionProperty: setProperty("session"),
  setCrmProperty: setProperty("crm"),
  addTags: (tags, scope = "public") =>
    withInstance((inst) => {
      const list = tagList(tags);
      if (!list || !["public", "private", "session"].includes(scope)) return false;
      inst.visitor.addTags(list, scope);
    })(),
  identify: (customerId, properties) =>
    withInstance((inst) => {
      if (!validName(customerId)) return false;
      inst.visitor.identify(customerId.trim());
      for (const [k, v] of Object.entries(cleanProperties(properties))) inst.visitor.setProperty("user", k, v);
    })(),
  trackRevenue: (amount, properties) =>
    withInstance((inst) => {
      if (typeof amount !== "number" || !isFinite(amount) || amount < 0) return false;
      const props = cleanProperties(properties);
      const name = typeof props.name === "string" && props.name ? props.name : "revenue";
      inst.tracker.track("REVENUE", name, { ...props, revenue_amount: amount });
    })(),
  viewProduct: (productId, variantId) =>
    withInstance((inst) => {
      if (!validName(productId)) return false;
      const key = inst.prefix + STORAGE_KEYS.viewedProducts;
      const list = storageGetJson<ViewedProduct[]>("localStorage", key, []);
      storageSetJson("localStorage", key, addViewedProduct(Array.isArray(list) ? list : [], productId, typeof variantId === "string" ? variantId : undefined, now()));
    })(),
  getValue: (id, defaultValue) => safe(() => valueOf(current && current.configs[id], defaultValue), defaultValue),
  setConsent: (granted) => setConsentState(granted ? "granted" : "denied"),
  ready: (callback) => {
    if (typeof callback !== "function") return;
    if (isReady) safe(callback);
    else readyCallbacks.push(callback);
  },
  init: () => {
    if (current) {
      log("CFINIT007");
      emit(DOCUMENT_EVENTS.error, { code: "CFINIT007" });
      return;
    }
    start();
  },
  uninit: () => {
    if (stopWatching) stopWatching();
    stopWatching = null;
    uninit();
    revealPage();
  },
};

/** `storefitQueue` (product.md §2): functions, or `["method", ...args]`, run in order. */
function runItem(item: unknown): void {
  safe(() => {
    if (typeof item === "function") (item as (a: StorefitApi) => void)(api);
    else if (Array.isArray(item) && typeof item[0] === "string") {
      const fn = (api as unknown as Record<string, unknown>)[item[0]];
      if (typeof fn === "function") (fn as (...a: unknown[]) => void)(...item.slice(1));
    }
  });
}

function runQueue(): void {
  const q = (win.storefitQueue = Array.isArray(win.storefitQueue) ? win.storefitQueue : []);
  const pending = q.splice(0);
  q.push = (...items: unknown[]) => {
    items.forEach(runItem);
    return q.length;
  };
  pending.forEach(runItem);
}

/** Holds storage and tracking until a consent signal says yes (checked each second until then). */
function watchConsent(s: StorefitSettings): void {
  setConsentState("pending");
  const check = () =>
    safe(() => {
      const w = win as unknown as Record<string, unknown> & { Shopify?: { customerPrivacy?: Parameters<typeof consentFromShopify>[0] } };
      const answer = consentFromShopify((w.Shopify || {}).customerPrivacy) ?? consentFromDataLayer(w[(s.ga_setup || {}).data_variable || "dataLayer"]);
      if (answer !== null) setConsentState(answer ? "granted" : "denied");
      if (consent() === "granted") clearInterval(timer);
    });
  const timer = setInterval(check, 1000);
  doc.addEventListener("visitorConsentCollected", (e) => {
    const d = (e as CustomEvent<{ analyticsAllowed?: boolean }>).detail;
    if (d && typeof d.analyticsAllowed === "boolean") setConsentState(d.analyticsAllowed ? "granted" : "denied");
  });
  check();
}

safe(() => {
  // A second copy of the script on the same page leaves the first in charge (spec §8 "Multiple
  // initialization"); it touches neither the page nor the API.
  if (win.storefit && typeof win.storefit.ready === "function") {
    log("CFINIT007");
    emit(DOCUMENT_EVENTS.error, { code: "CFINIT007" });
    return;
  }
  win.storefit = api;
  const s = readSettings(win.storefitSettings);
  if (s?.consent_required) watchConsent(s);
  if (s && (s.spa_mode || s.auto_url_change_detection)) {
    stopWatching = watchPath(() => {
      uninit();
      start();
    });
  }
  start();
});
