// The one transport (spec §7, §8; conventions, habit 7): POST bodies are JSON text under a
// form-encoded content type, so requests stay CORS-simple (no preflight); the client key travels
// as the `cfenc` query parameter; paths end with a slash. With `unload`, a beacon is sent and no
// answer awaited. A call that gets no response is retried: 3 attempts, 500 ms apart.

import { CALL_MAX_ATTEMPTS, CALL_RETRY_DELAY_MS, CLIENT_PATHS } from "@storefit/contract";
import type { ErrorCode } from "@storefit/contract";
import { consent, safe, whenConsented, win } from "../env/globals.js";

const FORM = "application/x-www-form-urlencoded";

export type CallResult =
  | { ok: true; status: number; data: unknown; code?: "CFJSSDK000" }
  | { ok: false; code: ErrorCode; status: number; data?: unknown };

export type Endpoint = { apiHost: string; clientKey: string };

export function urlFor(ep: Endpoint, path: string): string {
  return `${ep.apiHost.replace(/\/+$/, "")}${path}?cfenc=${encodeURIComponent(ep.clientKey)}`;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function post(
  ep: Endpoint,
  path: string,
  body: unknown,
  unload = false,
): Promise<CallResult> {
  // Without consent only the config call goes out (the page must render); the rest waits for
  // consent, or never goes out once it is denied (core/consent.ts).
  if (path !== CLIENT_PATHS.configs && consent() !== "granted") {
    return new Promise((resolve) => whenConsented(() => void post(ep, path, body, unload).then(resolve)));
  }
  const url = urlFor(ep, path);
  const text = JSON.stringify(body);
  if (unload) {
    const sent = safe(() => win.navigator.sendBeacon(url, new Blob([text], { type: FORM })), false);
    if (sent) return { ok: true, status: 0, data: null, code: "CFJSSDK000" };
  }
  for (let attempt = 1; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: { "content-type": FORM },
        body: text,
        credentials: "omit",
        // keepalive: a request still in flight when the visitor leaves is delivered, not dropped.
        keepalive: true,
      });
    } catch {
      // No response at all: network down, DNS, or CORS refused (spec §8: retry, then CFJSSDK004).
      if (attempt >= CALL_MAX_ATTEMPTS) return { ok: false, code: "CFJSSDK004", status: 0 };
      await wait(CALL_RETRY_DELAY_MS);
      continue;
    }
    const data: unknown = await res.json().catch(() => null);
    if (res.status >= 200 && res.status < 203) return { ok: true, status: res.status, data };
    // spec §8: status 203 or above → CFJSSDK001; below 200 (never expected) → CFJSSDK002.
    return { ok: false, code: res.status >= 203 ? "CFJSSDK001" : "CFJSSDK002", status: res.status, data };
  }
}
