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
import type { UrlParams } from "../core/params.js";
import { gate } from "../core/gate.js";
import { loadVisitor } from "../core/visitor.js";
import type { PropertyScope, TagScope } from "../core/visitor.js";
import { propertyValue, tagList, trackQueueSize, validEventName, validName } from "../core/builders.js";
import { createScope } from "../core/scope.js";
import type { Scope } from "../core/scope.js";
import { hidePage, revealPage } from "../dom/visibility.js";
import { xp } from "../dom/apply.js";
import { createEngine } from "../dom/engine.js";
import type { Engine, EngineContext } from "../dom/engine.js";
import { answerPage, keepAnswer, keptAnswer } from "./answer-cache.js";
import { templateOf } from "../ext/template-rules.js";
import { createTracker } from "../track/tracker.js";
import { post } from "../track/transport.js";
import type { CallResult } from "../track/transport.js";
import { watchPath } from "./spa.js";
import { loadExtension } from "../core/ext.js";
import type { ExtContext, Extension } from "../core/ext.js";
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

/**
 * The config call's progress, shared by the time-out and the answer; the ready event's detail.
 * `cached`: the page was shown with the answer kept from an earlier view (boot/answer-cache.ts),
 * and the call runs behind the reveal.
 */
type ConfigCall = { state: ConfigCallState; timed_out: boolean; cached?: boolean };

/**
 * One initialization: what its steps share, and what the page API acts on while it is current.
 * The extension's context (core/ext.ts) is made from it, so those fields keep that context's
 * names; the `_` fields are this file's own (the build shortens them).
 */
type Instance = Omit<ExtContext, "configs" | "post" | "storageGet" | "storageSet" | "whenConsented" | "applyConfig"> & {
  _params: UrlParams;
  _call: ConfigCall;
  /** Every config of the last answer, by config_customer_id (for getValue). */
  _configs: Record<string, Config>;
  /** The last config call's answer and the user it sent, kept after the reveal (answer-cache.ts). */
  _answer?: Partial<ConfigsResponse>;
  _sentUser?: string;
  /**
   * When this page view began, before the page's queued calls ran and the configs were asked for:
   * the `requested_time` of its exposures, so what the exposed view does counts after exposure.
   */
  _startedAt: number;
};

/** What the gate let through: the page runs, in this mode. */
type Start = Pick<Instance, "settings" | "_params" | "prefix" | "preview">;

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

/**
 * After the next frame is painted; after 100 ms when none comes (a tab in the background); at
 * once when the page is left first, so its report still goes out (keepalive requests).
 */
const painted = (scope: Scope) =>
  new Promise<void>((r) => {
    const id = setTimeout(r, 100);
    safe(() => win.requestAnimationFrame(() => setTimeout(() => (clearTimeout(id), r()))));
    scope.listen(win, "pagehide", () => r());
  });

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

/** Whether the page is one of these (rule pages, configured pages, goal pages; spec §2–§4). */
const isPage = (settings: StorefitSettings, pages: readonly Parameters<typeof matchPage>[0][] | undefined) =>
  (pages ?? []).some((p) => matchPage(p, win.location, settings.domain));

/**
 * One initialization, step by step (spec §4). It waits only where the page must (the initial
 * delay, the config call, the apply, the extension); after each wait, an initialization that is
 * no longer current (single-page teardown) stops there.
 */
async function init(): Promise<void> {
  hidePage();
  isReady = false;
  const start = passGate();
  if (!start) return;
  stripParams(start._params);
  const inst = startInstance(start);
  const delay = inst.settings.initial_delay_ms;
  if (delay > 0) await wait(inst.scope, delay);
  if (current !== inst) return;
  let configs = configsWithoutCall(inst);
  const page = answerPage(inst.visitor.user, win.location);
  // A repeat view shows the answer kept from the last one and asks behind the reveal.
  const kept = !configs && mayKeep(inst) ? keptAnswer(inst.prefix, inst.settings, inst.visitor.user, page) : null;
  if (kept) {
    inst._call.cached = true;
    configs = kept;
  } else if (!configs) {
    const res = await post(inst.ep, CLIENT_PATHS.configs, configsRequest(inst));
    if (current !== inst) return;
    configs = configsFromAnswer(inst, res);
  }
  let onPage = configsToApply(inst, configs);
  const engineContext = engineContextOf(inst);
  let engine = createEngine(engineContext);
  inst.scope.add(engine.revert);
  const { applied, redirect } = await engine.apply(applicable(onPage));
  if (current !== inst) return;
  // A global redirection leaves the page: revealing it would flash the original until the next
  // page loads. The sdk time-out still reveals it if the navigation fails.
  if (!redirect) revealPage();
  emit(DOCUMENT_EVENTS.applied, applied);
  if (!isReady) markReady({ ...inst._call, applied });
  // The report and what follows wait for the revealed page's first frame: on a first view they
  // ran for about 10 ms in the reveal's task and held its paint back (docs/benchmarks.md).
  if (!redirect) await painted(inst.scope);
  reportPageView(inst, onPage, applied, redirect);
  if (current !== inst) return;
  // Leave only now: the summaries and the view of this page are on their way (keepalive requests
  // outlive the page), so a redirect test counts the visitors of the page being left (issue #16).
  if (redirect) return void safe(() => win.location.replace(redirect));
  if (kept) {
    const res = await post(inst.ep, CLIENT_PATHS.configs, configsRequest(inst));
    if (current !== inst) return;
    const fresh = configsFromAnswer(inst, res);
    // A failed or late call (without personalize-after-timeout) leaves the page as it is shown.
    if (res.ok && (!inst._call.timed_out || inst.settings.personalize_after_timeout)) {
      const latest = configsToApply(inst, fresh);
      if (JSON.stringify(latest) !== JSON.stringify(onPage)) {
        engine = await reconcile(inst, engine, engineContext, onPage, latest);
        if (current !== inst) return;
        onPage = latest;
      }
    }
  }
  if (mayKeep(inst) && inst._answer) keepAnswer(inst.prefix, page, JSON.parse(inst._sentUser!), inst._answer.cache, Object.values(inst._answer.configs || {}));
  const ext = await loadExtension(inst.settings.api_host);
  if (ext && current === inst) startExtension(inst, ext, onPage, engineContext);
}

/**
 * spec §3 Template: a template config's display rules (trigger, visibility, close memory) govern
 * all of its markup, also HTML the provider put in its element changes; the extension applies
 * those when the template shows (ext/templates.ts), so the engine leaves them out.
 */
const applicable = (configs: Config[]) => configs.filter((c) => !templateOf(c));

/**
 * Whether answers may be kept and shown on repeat views: with the snippet's revision, on normal
 * visits whose decision nothing in the address forces (docs/api.md "Answer cache").
 */
const mayKeep = (inst: Instance) => {
  const p = inst._params;
  return inst.settings.intelligent_code && !inst.preview && typeof inst.settings.revision === "number" && !p.desired.length && !p.preferred.length && !p.cfid;
};

/**
 * The answer behind a repeat view differs from the kept one that is shown (a publish the
 * snippet did not know of yet): the new configs replace the old ones in one task, so no frame
 * shows the page without either, and only the exposures this view had not reported are sent.
 */
async function reconcile(inst: Instance, old: Engine, context: EngineContext, shown: Config[], configs: Config[]): Promise<Engine> {
  old.revert();
  const engine = createEngine(context);
  inst.scope.add(engine.revert);
  const { applied, redirect } = await engine.apply(applicable(configs));
  emit(DOCUMENT_EVENTS.applied, applied);
  const seen = new Set(shown.map(exposureKey));
  // Shown only now, after the kept answer's: stamped now, so a visitor's first exposure stays the one they saw first.
  const summaries = summariesOf(inst, configs.filter((c) => !seen.has(exposureKey(c))), now());
  if (summaries.length) void post(inst.ep, CLIENT_PATHS.summaries, { user: inst.visitor.user, summaries } satisfies SummariesRequest);
  if (redirect && current === inst) safe(() => win.location.replace(redirect));
  return engine;
}

const exposureKey = (c: Config) => xp(c).experience_id + " " + c.variation_id + " " + c.config_id;

/** Settings, URL parameters and the gate (spec §4 modes, §8 stops); null when the script stops here. */
function passGate(): Start | null {
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
    return null;
  }
  if (g.setOutboundMarker) storageSet("localStorage", outboundKey, String(now()));
  return { settings: s!, _params: params, prefix, preview: g.mode === "preview" };
}

/**
 * Prefixed parameters did their work (they are in the visitor, loaded next): take them out of
 * the address bar without a reload (spec §2).
 */
function stripParams(params: UrlParams): void {
  if (params.strip.length) {
    safe(() => {
      const loc = win.location;
      win.history.replaceState(win.history.state, "", loc.pathname + withoutParams(loc.search, params.strip) + loc.hash);
    });
  }
}

/** Reveals the page at sdk_timeout_ms whatever the config call is doing (spec §4). */
function revealAtTimeOut(scope: Scope, settings: StorefitSettings, call: ConfigCall): void {
  scope.timeout(() => {
    call.timed_out = true;
    revealPage();
    // product.md §2: ready runs once configs are applied or given up on. At the time-out they are
    // given up on, answered or not: the shop's callbacks run with the page they now show. A late
    // answer is still applied (personalize_after_timeout) and announced by storefit:applied.
    if (call.state === "sent") call.state = "timed_out";
    if (!isReady) markReady({ ...call });
  }, settings.sdk_timeout_ms);
}

/** The previous page's duration (spec §3 last_page_duration); this page's is written when it is left. */
function lastPageDuration(scope: Scope, prefix: string): number | null {
  const durationKey = prefix + STORAGE_KEYS.lastPageDuration;
  const lastDuration = storageGet("sessionStorage", durationKey);
  const pageStart = now();
  const keep = () => storageSet("sessionStorage", durationKey, String(now() - pageStart));
  scope.listen(win, "pagehide", keep);
  scope.add(keep);
  return lastDuration === null ? null : Number(lastDuration) || 0;
}

/** The time-out, the visitor and the tracker; the new initialization becomes the current one. */
function startInstance(start: Start): Instance {
  const startedAt = now();
  const { settings, prefix, preview } = start;
  const loc = win.location;
  const scope = createScope();
  const call: ConfigCall = { state: "not_needed", timed_out: false };
  revealAtTimeOut(scope, settings, call);
  const domain = resolveEventDomain(loc.hostname, settings.domain, settings.subdomains)!;
  // Share the customer-id cookie across the main domain's subdomains when we are on one.
  const main = settings.domain.toLowerCase();
  const cookieDomain = domain === main || domain.endsWith("." + main) ? main.replace(/^www\./, "") : undefined;
  const visitor = loadVisitor(prefix, start._params, { preview, ...(cookieDomain && cookieDomain.includes(".") ? { cookieDomain } : {}) });
  const pagePath = normalizePagePath(loc.pathname);
  const ep = { apiHost: settings.api_host, clientKey: settings.client_key };
  // spec §4 preview: no tracking; spec §6: blacklisted pages and referrers are not tracked.
  const tracking =
    !preview &&
    !matchesAnyPattern(settings.page_blacklist ?? [], loc.pathname) &&
    !matchesAnyPattern(settings.referrer_blacklist ?? [], safe(() => doc.referrer, ""));
  const tracker = createTracker({
    ep,
    user: visitor.user,
    domain,
    sessionId: visitor.sessionId,
    pagePath,
    mergedPath: mergedPagePath(settings.event_merge ?? [], domain, loc.pathname),
    lastPageDuration: lastPageDuration(scope, prefix),
    queueSize: trackQueueSize(settings.track_queue_size),
    scope,
    enabled: tracking,
  });
  const inst: Instance = { ...start, scope, _call: call, visitor, tracker, ep, domain, pagePath, tracking, _configs: {}, _startedAt: startedAt };
  current = inst;
  runQueue();
  return inst;
}

/**
 * The configs when no call is needed (spec §7): none when the page is not active, the session
 * cache when intelligent code is off; null when the service must be asked.
 */
function configsWithoutCall(inst: Instance): Config[] | null {
  const settings = inst.settings;
  // spec §2/§4 "active pages": when the account lists rule pages, experiences run on those and on
  // the configured pages only; anywhere else the call is not needed and the page shows at once.
  // With no rule pages (the deployed configuration), every page asks.
  const needed = !(settings.rule_pages || []).length || isPage(settings, settings.rule_pages) || isPage(settings, settings.pages);
  if (!needed) return [];
  return settings.intelligent_code || inst.preview ? null : storageGetJson<Config[] | null>("sessionStorage", cacheKey(inst), null);
}

const cacheKey = (inst: Instance) => inst.prefix + STORAGE_KEYS.configCache + inst.visitor.user.user_customer_id;

/** The config call's request (spec §7); the call counts as sent from here. */
function configsRequest(inst: Instance): ConfigsRequest {
  const { _params: params, visitor } = inst;
  const loc = win.location;
  inst._call.state = "sent";
  // The user as sent, for the answer cache's attribute values (only where answers are kept).
  if (mayKeep(inst)) inst._sentUser = JSON.stringify(visitor.user);
  return {
    user: visitor.user,
    current_page_path: loc.pathname + loc.search,
    current_domain: loc.hostname,
    session_id: visitor.sessionId,
    ...(params.desired.length ? { desired_experiences: params.desired } : {}),
    ...(params.preferred.length ? { preferred_experiences: params.preferred } : {}),
    ...(params.cfid ? { cfid: params.cfid } : {}),
    // Without a valid token the service answers running experiences only (auth/preview-token.ts).
    ...(inst.preview ? { preview_mode: true, preview_token: storageGet("sessionStorage", inst.prefix + STORAGE_KEYS.previewToken) ?? undefined } : {}),
  };
}

/**
 * The configs of the call's answer, cached for the session when intelligent code is off; none
 * when the call failed.
 */
function configsFromAnswer(inst: Instance, res: CallResult): Config[] {
  const call = inst._call;
  if (!res.ok) {
    // spec §8: log status, message and data, reveal, continue silently; report the error (with
    // fetch, never a beacon) only when error reporting is on and the status is not 403.
    call.state = "error";
    inst._answer = {};
    log(res.code, res.status, res.data);
    emit(DOCUMENT_EVENTS.error, { code: res.code, status: res.status });
    // spec §8: error-report events are tracked for diagnosis.
    inst.tracker.track("TRACK", "cf_error_report", { code: res.code, status: res.status });
    if (inst.settings.error_reporting && res.status !== 403) {
      void post(inst.ep, CLIENT_PATHS.alerts, { code: res.code, status: res.status, data: (res.data ?? null) as Json, path: CLIENT_PATHS.configs });
    }
    return [];
  }
  call.state = "received";
  const answer = (res.data || {}) as Partial<ConfigsResponse>;
  const configs = Object.values(answer.configs || {});
  inst._answer = answer;
  if (answer.user_id) inst.visitor.user.user_id = answer.user_id;
  if (!inst.settings.intelligent_code && !inst.preview) storageSetJson("sessionStorage", cacheKey(inst), configs);
  return configs;
}

/** Keeps the answer for getValue; the configs to apply are those for this page (spec §4). */
function configsToApply(inst: Instance, configs: Config[]): Config[] {
  const settings = inst.settings;
  for (const c of configs) inst._configs[c.config_customer_id] = c;
  // spec §4: configs that arrive after the time-out are applied only with personalize-after-timeout.
  const apply = !inst._call.timed_out || settings.personalize_after_timeout;
  return apply ? configs.filter((c) => configMatchesPage(c, win.location, settings.domain)) : [];
}

/**
 * What the engine needs from this initialization. Clicks carry how often this goal was clicked
 * in the session (spec §3 click_count).
 */
function engineContextOf(inst: Instance): EngineContext {
  return {
    scope: inst.scope,
    settings: inst.settings,
    device: (inst.visitor.user.properties || {}).cf_device_type === "desktop" ? "desktop" : "mobile",
    track: (type, name, properties) => {
      const extra: Properties = {};
      if (type === "CLICK") {
        const key = inst.prefix + STORAGE_KEYS.clickCount + name;
        const count = (Number(storageGet("sessionStorage", key)) || 0) + 1;
        storageSet("sessionStorage", key, String(count));
        extra.click_count = count;
      }
      inst.tracker.track(type, name, { ...properties, ...extra });
    },
  };
}

/** The config summaries (spec §3) and this page's view (spec §5), sent before anything else happens. */
function reportPageView(inst: Instance, onPage: Config[], applied: string[], redirect: string | undefined): void {
  const settings = inst.settings;
  const visitor = inst.visitor;
  // A redirect leaves the page unseen: only the experience that redirected was shown to the
  // visitor (its config is the last one applied); the others' exposures would be false.
  const by = redirect && onPage.find((c) => c.config_id === applied[applied.length - 1]);
  const summaries = summariesOf(inst, by ? onPage.filter((c) => xp(c).experience_id === xp(by).experience_id) : onPage);
  if (summaries.length && !inst.preview) {
    const body: SummariesRequest = { user: visitor.user, summaries };
    void post(inst.ep, CLIENT_PATHS.summaries, body);
  }
  // A view of a goal page says so (spec §3 "Active pages"), so results need no second lookup.
  const goal: Properties = isPage(settings, settings.goal_pages) ? { cf_goal_page: true } : {};
  inst.tracker.track("PAGE", "page_view", { cf_current_page_url: win.location.href, ...goal }, { pageview_seq_number: visitor.pageviewSeq, config_summary: summaries });
}

/** The config summaries (spec §3) of configs shown on this page view. */
function summariesOf(inst: Instance, exposed: Config[], at = inst._startedAt): ConfigSummary[] {
  const visitor = inst.visitor;
  return exposed.map((c) => ({
    config_id: c.config_id,
    version: c.version,
    user_id: visitor.user.user_id,
    requested_time: at,
    variation_id: c.variation_id,
    user_customer_id: visitor.user.user_customer_id,
    session_id: visitor.sessionId,
    behaviour_id: xp(c).behaviour_id,
    experience_id: xp(c).experience_id,
    rule_id: xp(c).rule_id,
    is_template_config: !!(c.properties || {}).custom_template,
  }));
}

/** What the page needs only once it is shown comes in storefit-ext.js (core/ext.ts). */
function startExtension(inst: Instance, ext: Extension, onPage: Config[], engineContext: EngineContext): void {
  const applyConfig = (c: Config) => {
    const e = createEngine(engineContext);
    inst.scope.add(e.revert);
    void e.apply([c]);
    return e;
  };
  ext({ ...inst, configs: onPage, post, storageGet, storageSet, whenConsented, applyConfig });
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
  getValue: (id, defaultValue) => safe(() => valueOf(current && current._configs[id], defaultValue), defaultValue),
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
