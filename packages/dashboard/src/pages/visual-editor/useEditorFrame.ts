// The frame's lifecycle (docs/visual-editor.md "The dashboard side"): opening a page of the shop
// in the editor frame (on the account's domains only), waiting for its bridge to say ready (or
// saying it did not: PageProblem.tsx), and what the bridge reports from then on (frame-state.ts).
import { useCallback, useEffect, useReducer, useRef } from "react";
import type { BridgeMessage } from "@storefit/contract";
import { editorFrameUrl, originOf } from "@storefit/contract";
import { frameReducer, initialFrame } from "./frame-state";
import { locationOf } from "./model";
import { rememberOrigin } from "./suggested-pages";
import { isShopOrigin, useBridge } from "./useBridge";
import type { ShopDomains } from "./useBridge";

/** How long the page may take to load the script and the bridge before we say something. */
export const BRIDGE_TIMEOUT_MS = 15_000;

/** How long after the frame's load event the bridge may take to say ready (it loads after the page). */
export const BRIDGE_AFTER_LOAD_MS = 5_000;

/** The frame, what its bridge reports, and the means to open a page, type a path and send requests. */
export function useEditorFrame(domains: ShopDomains, initialPage: string | null) {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [frame, dispatch] = useReducer(frameReducer, initialFrame);

  const open = useCallback(
    (url: string) => {
      const origin = originOf(url);
      if (!origin || !locationOf(url)) {
        dispatch({
          type: "refuse",
          error: "Enter the full address of a shop page, starting with http:// or https://.",
        });
        return;
      }
      if (!isShopOrigin(origin, domains)) {
        const all = [domains.domain, ...domains.subdomains].filter(Boolean).join(", ");
        dispatch({
          type: "refuse",
          error: `That page is not on the account's domains (${all || "none set"}).`,
        });
        return;
      }
      rememberOrigin(url);
      dispatch({
        type: "open",
        page: url,
        url: editorFrameUrl(url, window.location.origin),
        origin,
      });
    },
    [domains],
  );

  // Open the page the address names when the editor starts with one (?page=).
  const openedInitial = useRef(false);
  useEffect(() => {
    if (openedInitial.current || !initialPage) return;
    openedInitial.current = true;
    open(initialPage);
  }, [initialPage, open]);

  const { opened, ready, frameLoaded } = frame;
  useEffect(() => {
    if (!opened || ready) return;
    const timer = window.setTimeout(
      () => dispatch({ type: "timed-out" }),
      frameLoaded ? BRIDGE_AFTER_LOAD_MS : BRIDGE_TIMEOUT_MS,
    );
    return () => window.clearTimeout(timer);
  }, [opened, ready, frameLoaded]);

  const onMessage = useCallback(
    (message: BridgeMessage) => dispatch({ type: "message", message }),
    [],
  );
  const send = useBridge(frameRef, opened?.origin ?? null, domains, onMessage);
  const onLoad = useCallback(() => dispatch({ type: "loaded" }), []);
  const typePath = useCallback((text: string) => dispatch({ type: "type-path", text }), []);

  return { ...frame, frameRef, open, send, onLoad, typePath };
}

export type EditorFrame = ReturnType<typeof useEditorFrame>;
