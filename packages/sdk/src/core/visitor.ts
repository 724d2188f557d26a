// The visitor (spec §3 User): identity, the property scopes, tags, campaign values and the derived
// `cf_*` properties. Where each part lives (spec §9) is the storage layout in core/storage-keys.ts:
// the customer id in local storage and a first-party cookie; the device id, user, private and
// CRM-sync properties, tags and first-touch campaign values in local storage; the session id,
// page-view sequence, session properties and session campaign values in session storage.
// Preview mode (spec §4) uses a fresh, unsaved visitor.

import { COOKIE_LIFETIME_DAYS } from "@storefit/contract";
import type { Properties, PropertyValue, ScopedFields, User } from "@storefit/contract";
import {
  cookieGet,
  cookieSet,
  doc,
  randomId,
  safe,
  storageGet,
  storageGetJson,
  storageSet,
  storageSetJson,
  win,
} from "../env/globals.js";
import type { UrlParams } from "./params.js";
import { CAMPAIGN_KEYS } from "./params.js";
import { STORAGE_KEYS } from "./storage-keys.js";
import { gaDeviceId, parseUserAgent } from "./ua.js";
import type { UaData } from "./ua.js";

export type PropertyScope = "user" | "private" | "session" | "crm";
export type TagScope = "public" | "private" | "session";

export type Visitor = {
  user: User;
  sessionId: string;
  pageviewSeq: number;
  setProperty: (scope: PropertyScope, name: string, value: PropertyValue) => void;
  addTags: (tags: string[], scope: TagScope) => void;
  identify: (customerId: string) => void;
};

type Saved = { properties?: Properties; tags?: string[] };

const merge = <T>(a: T[] = [], b: T[] = []) => [...new Set([...a, ...b])];

export function loadVisitor(
  prefix: string,
  params: UrlParams,
  opts: { preview: boolean; cookieDomain?: string },
): Visitor {
  const k = (name: string) => prefix + name;
  // Preview: read nothing and write nothing that outlives the page (spec §4 "the user is fresh").
  const persist = !opts.preview;
  const get = (kind: "localStorage" | "sessionStorage", name: string) =>
    persist ? storageGet(kind, k(name)) : null;
  const set = (kind: "localStorage" | "sessionStorage", name: string, value: string) => {
    if (persist) storageSet(kind, k(name), value);
  };
  const getJson = <T>(kind: "localStorage" | "sessionStorage", name: string, fallback: T): T =>
    persist ? storageGetJson(kind, k(name), fallback) : fallback;
  const setJson = (kind: "localStorage" | "sessionStorage", name: string, value: unknown) => {
    if (persist) storageSetJson(kind, k(name), value);
  };

  // Identity: a URL parameter wins (cfup_user_customer_id, then cfid for cross-domain hand-off),
  // then what is stored, then a new id (spec §6 "A customer id is generated unless supplied").
  const stored = get("localStorage", STORAGE_KEYS.customerId) ?? (persist ? cookieGet(k(STORAGE_KEYS.customerId)) : null);
  let customerId = params.customerId ?? params.cfid ?? stored;
  const generated = !customerId ? true : customerId === stored ? get("localStorage", STORAGE_KEYS.customerIdGenerated) === "1" : false;
  if (!customerId) customerId = randomId();
  const saveId = (id: string, gen: boolean) => {
    set("localStorage", STORAGE_KEYS.customerId, id);
    set("localStorage", STORAGE_KEYS.customerIdGenerated, gen ? "1" : "0");
    if (persist) cookieSet(k(STORAGE_KEYS.customerId), id, COOKIE_LIFETIME_DAYS, opts.cookieDomain);
  };
  saveId(customerId, generated);

  let deviceId = get("localStorage", STORAGE_KEYS.deviceId);
  if (!deviceId) {
    deviceId = randomId();
    set("localStorage", STORAGE_KEYS.deviceId, deviceId);
  }

  let sessionId = params.cfsid ?? get("sessionStorage", STORAGE_KEYS.sessionId);
  const newSession = !sessionId;
  if (!sessionId) sessionId = randomId();
  set("sessionStorage", STORAGE_KEYS.sessionId, sessionId);
  // First-time visitor: this is the visitor's first session on this browser.
  let firstSession = get("localStorage", STORAGE_KEYS.firstSession);
  if (!firstSession || (stored === null && newSession)) {
    firstSession = sessionId;
    set("localStorage", STORAGE_KEYS.firstSession, sessionId);
  }

  const pageviewSeq = (Number(get("sessionStorage", STORAGE_KEYS.pageviewSeq)) || 0) + 1;
  set("sessionStorage", STORAGE_KEYS.pageviewSeq, String(pageviewSeq));

  // Campaign values: the first ever seen are kept on the user (first touch); this session's
  // copies become session_* properties.
  const firstTouch = getJson<Record<string, string>>("localStorage", STORAGE_KEYS.firstTouch, {});
  const sessionTouch = getJson<Record<string, string>>("sessionStorage", STORAGE_KEYS.sessionTouch, {});
  for (const key of CAMPAIGN_KEYS) {
    const v = params.campaign[key];
    if (v) {
      firstTouch[key] ??= v;
      sessionTouch[key] = v;
    }
  }
  setJson("localStorage", STORAGE_KEYS.firstTouch, firstTouch);
  setJson("sessionStorage", STORAGE_KEYS.sessionTouch, sessionTouch);

  const pub = getJson<Saved>("localStorage", STORAGE_KEYS.userProperties, {});
  const priv = getJson<Saved>("localStorage", STORAGE_KEYS.privateProperties, {});
  const sess = getJson<Saved>("sessionStorage", STORAGE_KEYS.sessionProperties, {});
  const crm = getJson<Saved>("localStorage", STORAGE_KEYS.crmProperties, {});
  Object.assign((pub.properties ??= {}), params.userProps);
  Object.assign((priv.properties ??= {}), params.privateProps);
  Object.assign((sess.properties ??= {}), params.sessionProps);
  Object.assign((crm.properties ??= {}), params.crmProps);
  pub.tags = merge(pub.tags, params.tags.public);
  priv.tags = merge(priv.tags, params.tags.private);
  sess.tags = merge(sess.tags, params.tags.session);
  if (params.email) crm.properties.email = params.email;
  const save = () => {
    setJson("localStorage", STORAGE_KEYS.userProperties, pub);
    setJson("localStorage", STORAGE_KEYS.privateProperties, priv);
    setJson("sessionStorage", STORAGE_KEYS.sessionProperties, sess);
    setJson("localStorage", STORAGE_KEYS.crmProperties, crm);
  };
  save();

  const nav = win.navigator;
  const ua = safe(() => nav.userAgent, "");
  const info = parseUserAgent(
    ua,
    safe(() => (nav as Navigator & { userAgentData?: UaData }).userAgentData, null),
    safe(() => nav.maxTouchPoints, 0),
  );
  const href = safe(() => win.location.href, "");
  const referrerUrl = safe(() => doc.referrer, "");
  const lastPage = get("sessionStorage", STORAGE_KEYS.lastPage);
  set("sessionStorage", STORAGE_KEYS.lastPage, href);
  const hubspotutk = cookieGet("hubspotutk") || undefined;

  const derived: Properties = {
    // Sign inverted (spec §3): UTC+2 is 120. `0 -` avoids -0 at UTC.
    cf_timezone: 0 - new Date().getTimezoneOffset(),
    cf_browser_name: info.browser_name,
    cf_browser_version: info.browser_version,
    cf_browser_preferred_languages: safe(() => [...nav.languages], []),
    cf_browser_primary_language: safe(() => nav.language, ""),
    cf_os_name: info.os_name,
    cf_os_version: info.os_version,
    cf_device_model: info.device_model,
    cf_device_type: info.device_type,
    cf_device_vendor: info.device_vendor,
    cf_cpu_architecture: info.cpu_architecture,
    cf_ua: ua,
    cf_screen_height: safe(() => win.screen.height, 0),
    cf_screen_width: safe(() => win.screen.width, 0),
    referrer: safe(() => (referrerUrl ? new URL(referrerUrl).hostname : ""), ""),
    referrer_url: referrerUrl,
    cf_current_page_url: href,
    cf_last_page_url: lastPage || "",
    is_first_time_visitor: firstSession === sessionId,
  };
  const ga = gaDeviceId(cookieGet("_ga"));
  if (ga) derived.ga_device_id = ga;
  if (hubspotutk) derived.hubspotutk = hubspotutk;
  for (const key of CAMPAIGN_KEYS) {
    const v = sessionTouch[key];
    if (v) derived["session_" + key] = v;
  }

  // Both are set above for the three scopes this is used on.
  const scoped = (s: Saved): ScopedFields => ({ properties: s.properties!, tags: s.tags! });
  const user: User = {
    user_customer_id: customerId,
    device_id: deviceId,
    anonymous: true,
    tags: pub.tags,
    properties: { ...pub.properties, ...derived },
    private_fields: scoped(priv),
    session_fields: scoped(sess),
    hs_fields: {
      properties: crm.properties,
      ...(typeof crm.properties.email === "string" ? { email: crm.properties.email } : {}),
      ...(typeof crm.properties.phone === "string" ? { phone: crm.properties.phone } : {}),
    },
    sdk_generated_user_customer_id: generated,
    latest_session_id: sessionId,
    form_update_detected: false,
    ...firstTouch,
    ...(hubspotutk ? { hubspotutk } : {}),
  };

  const scopes: Record<PropertyScope, Saved> = { user: pub, private: priv, session: sess, crm };
  const tagScopes: Record<TagScope, Saved> = { public: pub, private: priv, session: sess };
  return {
    user,
    sessionId,
    pageviewSeq,
    setProperty: (scope, name, value) => {
      scopes[scope].properties![name] = value;
      if (scope === "user") user.properties![name] = value;
      if (scope === "crm") {
        if (name === "email" && typeof value === "string") user.hs_fields!.email = value;
        if (name === "phone" && typeof value === "string") user.hs_fields!.phone = value;
      }
      save();
    },
    addTags: (tags, scope) => {
      const s = tagScopes[scope];
      s.tags = merge(s.tags, tags);
      if (scope === "public") user.tags = s.tags;
      else (scope === "private" ? user.private_fields! : user.session_fields!).tags = s.tags;
      save();
    },
    identify: (id) => {
      user.user_customer_id = id;
      user.sdk_generated_user_customer_id = false;
      saveId(id, false);
    },
  };
}
