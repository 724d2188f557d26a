// Entry point of storefit.js. The walking skeleton of the whole loop: read the settings, hide the
// page, ask for configs, apply them, reveal, and report the page view. One catch around all of
// it reveals the page (conventions, habit 4): the script never blanks or breaks a shop.

import {
  CLIENT_PATHS,
  DOCUMENT_EVENTS,
  SDK_VERSION,
  eventCustomerId,
  matchPage,
  normalizePagePath,
  resolveEventDomain,
} from "@storefit/contract";
import type {
  Config,
  ConfigSummary,
  ConfigsRequest,
  ConfigsResponse,
  ErrorCode,
  EventsRequest,
  SummariesRequest,
} from "@storefit/contract";
import { now, randomId, win } from "../env/globals.js";
import { log } from "../core/log.js";
import { emit } from "../core/emit.js";
import { readSettings, storagePrefix } from "../core/settings.js";
import { loadVisitor } from "../core/visitor.js";
import { hidePage, revealPage } from "../dom/visibility.js";
import { createEngine } from "../dom/engine.js";
import { createScope } from "../core/scope.js";
import { post } from "../track/transport.js";

declare global {
  interface Window {
    storefitSettings?: unknown;
    storefit?: { version: string };
  }
}

function stop(code: ErrorCode): void {
  log(code);
  emit(DOCUMENT_EVENTS.error, { code });
  revealPage();
}

async function start(): Promise<void> {
  // spec §8: a second copy of the script on the page stops (single-page mode re-inits instead).
  if (win.storefit) return stop("CFINIT007");
  win.storefit = { version: SDK_VERSION };
  hidePage();
  const s = readSettings(win.storefitSettings);
  if (!s || !s.client_key) return stop("CFINIT006");
  const revealTimer = setTimeout(revealPage, s.sdk_timeout_ms);
  const loc = win.location;
  const domain = resolveEventDomain(loc.hostname, s.domain, s.subdomains);
  if (!domain) return stop("CFINIT005");

  const { user, sessionId, pageviewSeq } = loadVisitor(storagePrefix(s.client_key));
  const ep = { apiHost: s.api_host, clientKey: s.client_key };
  const pagePath = normalizePagePath(loc.pathname);

  const request: ConfigsRequest = {
    user,
    current_page_path: loc.pathname + loc.search,
    current_domain: loc.hostname,
    session_id: sessionId,
  };
  const res = await post(ep, CLIENT_PATHS.configs, request);
  let configs: Config[] = [];
  if (res.ok) {
    const answer = res.data as ConfigsResponse | null;
    configs = Object.values(answer?.configs ?? {});
    if (answer?.user_id) user.user_id = answer.user_id;
  } else {
    log(res.code, res.status, res.data);
    emit(DOCUMENT_EVENTS.error, { code: res.code, status: res.status });
  }

  const scope = createScope();
  const engine = createEngine({
    scope,
    settings: s,
    device: "desktop",
    track: () => {},
  });
  scope.add(engine.revert);
  const summaries: ConfigSummary[] = [];
  const requestedTime = now();
  const onPage = configs.filter((c) => {
    const p = c.properties;
    return !p?.page_path || matchPage({ domain: p.domain ?? "", page_path: p.page_path, page_match: p.page_match ?? "exact_match" }, loc);
  });
  const { applied } = await engine.apply(onPage);
  for (const c of onPage) {
    const xp = c.experience_behaviour_response;
    summaries.push({
      config_id: c.config_id,
      version: c.version,
      user_id: user.user_id,
      requested_time: requestedTime,
      variation_id: c.variation_id,
      user_customer_id: user.user_customer_id,
      session_id: sessionId,
      behaviour_id: xp?.behaviour_id,
      experience_id: xp?.experience_id,
      rule_id: xp?.rule_id,
    });
  }
  clearTimeout(revealTimer);
  revealPage();
  emit(DOCUMENT_EVENTS.applied, applied);
  emit(DOCUMENT_EVENTS.ready);

  if (summaries.length) {
    const body: SummariesRequest = { user, summaries };
    void post(ep, CLIENT_PATHS.summaries, body);
  }
  const events: EventsRequest = {
    user,
    cf_client_sdk_version: SDK_VERSION,
    events: [
      {
        event_type: "PAGE",
        name: "page_view",
        event_customer_id: eventCustomerId("page_view", domain),
        domain,
        insert_id: randomId(),
        event_timestamp: now(),
        session_id: sessionId,
        pageview_seq_number: pageviewSeq,
        properties: { page_path: pagePath, cf_current_page_url: loc.href },
        config_summary: summaries,
      },
    ],
  };
  await post(ep, CLIENT_PATHS.events, events);
}

start().catch((e: unknown) => {
  log("CFRUN001", e);
  revealPage();
});
