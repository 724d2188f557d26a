// The dashboard's half of the editor protocol (packages/contract/src/editor-protocol.ts,
// docs/visual-editor.md "Origins"). A message is accepted only when it comes from the editor
// frame's window, from the origin of the page opened in it, and is a well-formed bridge message;
// after a navigation inside the frame, a `ready` from another origin is accepted only when that
// origin is one of the account's shop domains and its `url` is on it. Requests are posted to the
// frame with that origin as targetOrigin, never "*".
import { useCallback, useEffect, useRef } from "react";
import type { RefObject } from "react";
import type { BridgeMessage, DashboardRequest } from "@storefit/contract";
import {
  EDITOR_PROTOCOL_VERSION,
  EDITOR_SOURCES,
  isBridgeMessage,
  isConfiguredDomain,
  originOf,
} from "@storefit/contract";

export type ShopDomains = { domain: string; subdomains: readonly string[] };

/** True when `origin` (scheme://host[:port]) is on one of the account's shop domains. */
export function isShopOrigin(origin: string, domains: ShopDomains): boolean {
  if (originOf(origin) !== origin) return false;
  const host = origin.replace(/^https?:\/\//, "").replace(/:\d+$/, "");
  return isConfiguredDomain(host, domains.domain, domains.subdomains);
}

export function useBridge(
  frameRef: RefObject<HTMLIFrameElement | null>,
  /** The origin of the page opened in the frame; null while nothing is open. */
  pageOrigin: string | null,
  domains: ShopDomains,
  onMessage: (message: BridgeMessage) => void,
) {
  const originRef = useRef(pageOrigin);
  const handlerRef = useRef(onMessage);
  const domainsRef = useRef(domains);
  useEffect(() => {
    handlerRef.current = onMessage;
    domainsRef.current = domains;
  });
  useEffect(() => {
    originRef.current = pageOrigin;
  }, [pageOrigin]);

  useEffect(() => {
    const listener = (event: MessageEvent) => {
      const frame = frameRef.current;
      if (!frame || !frame.contentWindow || event.source !== frame.contentWindow) return;
      if (!originRef.current || !isBridgeMessage(event.data)) return;
      const message = event.data;
      if (event.origin !== originRef.current) {
        // The operator followed a link inside the frame to another of the shop's origins.
        if (
          message.type !== "ready" ||
          originOf(message.url) !== event.origin ||
          !isShopOrigin(event.origin, domainsRef.current)
        )
          return;
        originRef.current = event.origin;
      }
      handlerRef.current(message);
    };
    window.addEventListener("message", listener);
    return () => window.removeEventListener("message", listener);
  }, [frameRef]);

  return useCallback(
    (request: DashboardRequest) => {
      const target = frameRef.current?.contentWindow;
      const origin = originRef.current;
      if (!target || !origin) return;
      target.postMessage(
        { source: EDITOR_SOURCES.dashboard, v: EDITOR_PROTOCOL_VERSION, ...request },
        origin,
      );
    },
    [frameRef],
  );
}
