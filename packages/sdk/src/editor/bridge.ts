// The editor bridge (docs/visual-editor.md): runs in the shop page inside the dashboard's editor
// frame and speaks the protocol of packages/contract/src/editor-protocol.ts with it.
// - Select mode (on at start): the element under the pointer is highlighted and reported; a click
//   selects it instead of acting (the page's own pointer handlers do not see it); arrow keys move
//   the selection to the parent (↑), first child (↓) and siblings (← →), Escape clears it.
// - The selection is reported with a unique CSS path (css-path.ts) and what the panel needs.
// - A preview applies the configs the dashboard sends with the script's own apply engine, after
//   reverting the previous one: switching variations is revert + apply.
// Only messages from the dashboard origin, sent by the parent frame, are obeyed; everything is
// posted to that origin only. Nothing here throws into the page.

import type {
  BridgeReport,
  Config,
  EditorDevice,
  EditorRect,
  ElementInfo,
  HtmlElementVariation,
  SelectionDirection,
  StorefitSettings,
} from "@storefit/contract";
import {
  EDITOR_PROTOCOL_VERSION,
  EDITOR_SOURCES,
  SELECTION_DIRECTIONS,
  isDashboardMessage,
} from "@storefit/contract";
import { createScope } from "../core/scope.js";
import { doc, safe, win } from "../env/globals.js";
import { MARK, createEngine } from "../dom/engine.js";
import { templateOf, visibleOn } from "../ext/template-rules.js";
import { countMatches, cssPath } from "./css-path.js";
import { OVERLAY_TAG, createOverlay } from "./overlay.js";

export type Bridge = {
  /** Reverts the preview, removes the highlight, stops listening. */
  stop: () => void;
};

/** The computed styles the panel shows and edits. */
const STYLE_KEYS = [
  "color",
  "background-color",
  "background-image",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "line-height",
  "text-align",
  "text-decoration-line",
  "display",
  "visibility",
  "opacity",
  "width",
  "height",
  "margin",
  "padding",
  "border",
  "border-radius",
];

/** Elements there is no point in selecting: invisible, or the page's frame. */
const UNSELECTABLE = /^(?:html|head|body|script|style|link|meta|title|template|noscript|base)$/;

const TEXT_MAX = 200;
const textOf = (el: Element) =>
  (el.textContent || "").replace(/\s+/g, " ").trim().slice(0, TEXT_MAX);
const HTML_MAX = 10_000;
const ATTRIBUTE_MAX = 500;

const rectOf = (el: Element): EditorRect => {
  const r = el.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
};

const query = (path: string): Element[] => {
  try {
    return Array.from(doc.querySelectorAll(path));
  } catch {
    return [];
  }
};

/**
 * A global redirection would take the frame off the page being edited: it is left out of the
 * preview (and reported as skipped). Other actions preview as on the shop.
 */
function withoutRedirection(c: Config, skipped: string[]): Config {
  if (
    !c ||
    c.variation_data_type !== "HTML_ELEMENT" ||
    !c.variation ||
    typeof c.variation !== "object"
  )
    return c;
  const strip = (v: HtmlElementVariation | undefined): HtmlElementVariation | undefined => {
    const m = v && v.customfit_meta;
    const g = m && m.global_actions;
    if (!g || !g.redirection) return v;
    if (!skipped.includes(c.config_id)) skipped.push(c.config_id);
    const { redirection: _, ...rest } = g;
    return { ...v, customfit_meta: { ...m, global_actions: rest } };
  };
  const v = c.variation as HtmlElementVariation;
  return {
    ...c,
    variation: {
      ...strip(v),
      ...(v.mobile ? { mobile: strip(v.mobile as HtmlElementVariation) } : {}),
      ...(v.desktop ? { desktop: strip(v.desktop as HtmlElementVariation) } : {}),
    },
  };
}

export function startBridge(settings: StorefitSettings, origin: string): Bridge {
  const parent = win.parent;
  const scope = createScope();
  const overlay = createOverlay(doc);
  let selectMode = true;
  let hovered: Element | null = null;
  let selected: Element | null = null;
  let selectedPath = "";
  let stopPreview: (() => void) | null = null;
  /**
   * The content of the elements whose innerHTML the preview changes, as the page had it before
   * (`[text, html]`): the panel compares an edit with the element's own content, not with the
   * previewed one, to tell a change taken back from one that repeats the saved value.
   */
  let originals = new WeakMap<Element, [string, string]>();
  let generation = 0;
  let href = "";
  let frame = 0;
  let stopped = false;

  const post = (m: BridgeReport, re?: string) =>
    safe(
      () =>
        parent.postMessage(
          {
            source: EDITOR_SOURCES.bridge,
            v: EDITOR_PROTOCOL_VERSION,
            ...m,
            ...(re === undefined ? {} : { re }),
          },
          origin,
        ),
      undefined,
    );

  const ready = (re?: string) => {
    href = win.location.href;
    post(
      {
        type: "ready",
        url: href,
        title: doc.title,
        viewport: { width: win.innerWidth, height: win.innerHeight },
      },
      re,
    );
  };

  const selectable = (n: unknown): n is Element => {
    const el = n as Element;
    return (
      !!el &&
      el.nodeType === 1 &&
      !UNSELECTABLE.test(el.localName) &&
      el.localName !== OVERLAY_TAG &&
      !!doc.body &&
      doc.body.contains(el)
    );
  };

  // ---- moving the selection ----

  const up = (el: Element) => (selectable(el.parentElement) ? el.parentElement : null);
  const down = (el: Element) => Array.from(el.children).find(selectable) || null;
  const side = (el: Element, forward: boolean) => {
    let s = forward ? el.nextElementSibling : el.previousElementSibling;
    while (s && !selectable(s as unknown))
      s = forward ? s.nextElementSibling : s.previousElementSibling;
    return s;
  };
  const MOVES: Record<SelectionDirection, (el: Element) => Element | null> = {
    parent: up,
    child: down,
    next: (el) => side(el, true),
    previous: (el) => side(el, false),
  };

  const label = (el: Element, count: number) =>
    `${el.localName} · ${count} ${count === 1 ? "match" : "matches"}`;

  const info = (el: Element, path: string, count: number): ElementInfo => {
    const attributes: Record<string, string> = {};
    for (const a of Array.from(el.attributes))
      if (a.name !== MARK) attributes[a.name] = a.value.slice(0, ATTRIBUTE_MAX);
    const computed = getComputedStyle(el);
    const styles: Record<string, string> = {};
    for (const k of STYLE_KEYS) styles[k] = computed.getPropertyValue(k);
    const html = el.innerHTML;
    const was = originals.get(el);
    const can = {} as Record<SelectionDirection, boolean>;
    for (const d of SELECTION_DIRECTIONS) can[d] = !!MOVES[d](el);
    const near = (forward: boolean) => {
      const s = side(el, forward);
      return s ? cssPath(s) : null;
    };
    return {
      path,
      matchCount: count,
      tagName: el.localName,
      text: textOf(el),
      html: html.slice(0, HTML_MAX),
      htmlTruncated: html.length > HTML_MAX,
      ...(was && was[1] !== html
        ? { original: { text: was[0], html: was[1].slice(0, HTML_MAX) } }
        : {}),
      attributes,
      rect: rectOf(el),
      styles,
      can,
      siblings: { previous: near(false), next: near(true) },
    };
  };

  /** Selects `el` (the first of `all`, what `path` matches) and reports it. */
  const select = (
    el: Element | null,
    re?: string,
    path = el ? cssPath(el) : "",
    all = el ? query(path) : [],
  ) => {
    selected = el;
    selectedPath = path;
    if (!el) {
      overlay._hide(1);
      return post({ type: "selected", selection: null }, re);
    }
    const count = all.length;
    overlay._show(1, all.length ? all : [el], label(el, count));
    post({ type: "selected", selection: info(el, path, count) }, re);
  };

  const hover = (
    el: Element | null,
    re?: string,
    path = el ? cssPath(el) : null,
    all = el && path ? query(path) : [],
  ) => {
    hovered = el;
    if (!el || !path) {
      overlay._hide(0);
      return post(
        { type: "hover", path: path || null, matchCount: 0, tagName: null, rect: null },
        re,
      );
    }
    overlay._show(0, all.length ? all : [el], label(el, all.length));
    post(
      { type: "hover", path, matchCount: all.length, tagName: el.localName, rect: rectOf(el) },
      re,
    );
  };

  /** After the page changed (a preview, a navigation): find the selection again by its path. */
  const refresh = () => {
    if (selected && !selected.isConnected) {
      const found = query(selectedPath);
      selected = found[0] || null;
      if (selected) overlay._show(1, found, label(selected, found.length));
      else overlay._hide(1);
    }
    if (hovered && !hovered.isConnected) hover(null);
    overlay._update();
  };

  // ---- preview ----

  const clearPreview = () => {
    generation++;
    originals = new WeakMap();
    const stop = stopPreview;
    stopPreview = null;
    if (stop) stop();
  };

  const preview = async (configs: Config[], device: EditorDevice, re?: string) => {
    clearPreview();
    const mine = generation;
    const s = createScope();
    stopPreview = s.dispose;
    const engine = createEngine({ scope: s, settings, device, track: () => undefined });
    s.add(engine.revert);
    const skipped: string[] = [];
    const list = configs.map((c) => withoutRedirection(c, skipped));
    // The page is as the shop has it (the previous preview is reverted): keep the content of what
    // this one replaces. An element that appears later is not kept: it reports no original.
    for (const c of list) {
      const v = c.variation as HtmlElementVariation | null;
      const path = c.properties?.element_path;
      if (path && v && [v, v.mobile, v.desktop].some((x) => x && typeof x.innerHTML === "string"))
        for (const el of query(path)) originals.set(el, [textOf(el), el.innerHTML]);
    }
    // Templates show at once, whatever their trigger, without their script: the operator is
    // placing them. On the shop, storefit-ext.js shows them on their trigger (ext/templates.ts).
    const templates: string[] = [];
    for (const c of list) {
      const t = safe(() => templateOf(c), null);
      if (!t || !visibleOn(t.properties?.settings?.visibility_selected, device)) continue;
      safe(() => {
        const at = (t.parentElement && query(t.parentElement)[0]) || doc.body;
        const next = t.nextSibling ? query(t.nextSibling)[0] : null;
        const el = doc.createElement("div");
        el.id = "cf-template-" + t.id;
        el.setAttribute("data-storefit-template", t.id);
        el.innerHTML = t.html || "";
        const style = t.properties?.template_properties?.root_style;
        if (style) el.setAttribute("style", style);
        at.insertBefore(el, next && next.parentNode === at ? next : null);
        s.add(() => el.remove());
        templates.push(c.config_id);
      }, undefined);
    }
    const r = await engine.apply(list);
    if (mine !== generation || stopped) return;
    refresh();
    post(
      {
        type: "preview-applied",
        applied: [...r.applied, ...templates.filter((id) => !r.applied.includes(id))],
        missing: r.missing,
        pending: r.pending || [],
        skipped,
      },
      re,
    );
  };

  // ---- messages from the dashboard ----

  const onMessage = (e: Event) =>
    safe(() => {
      const ev = e as MessageEvent;
      // Only the dashboard, from the frame that holds us (docs/visual-editor.md "Origins").
      if (ev.origin !== origin || ev.source !== parent) return;
      const m: unknown = ev.data;
      if (!isDashboardMessage(m)) {
        const d = m as { source?: unknown; v?: unknown; id?: unknown } | null;
        if (d && typeof d === "object" && d.source === EDITOR_SOURCES.dashboard) {
          const re = typeof d.id === "string" ? d.id : undefined;
          if (d.v !== EDITOR_PROTOCOL_VERSION)
            post(
              {
                type: "error",
                code: "unsupported-version",
                message: `protocol version ${EDITOR_PROTOCOL_VERSION} only`,
              },
              re,
            );
          else
            post(
              { type: "error", code: "invalid-message", message: "not a message of this protocol" },
              re,
            );
        }
        return;
      }
      const re = m.id;
      switch (m.type) {
        case "hello":
          return ready(re);
        case "select-mode":
          selectMode = m.on;
          if (!m.on) hover(null);
          return;
        case "hover-path": {
          if (m.path === null) return hover(null, re);
          if (countMatches(m.path, doc) < 0)
            return post({ type: "error", code: "invalid-path", message: m.path }, re);
          const all = query(m.path);
          return hover(all[0] || null, re, m.path, all);
        }
        case "select-path": {
          if (countMatches(m.path, doc) < 0)
            return post({ type: "error", code: "invalid-path", message: m.path }, re);
          const all = query(m.path);
          if (!all.length) return post({ type: "error", code: "no-match", message: m.path }, re);
          return select(all[0]!, re, m.path, all);
        }
        case "navigate-selection": {
          if (!selected)
            return post(
              { type: "error", code: "no-selection", message: "nothing is selected" },
              re,
            );
          const next = MOVES[m.direction](selected);
          // A move that leads nowhere answers with the selection as it is.
          return next ? select(next, re) : select(selected, re, selectedPath, query(selectedPath));
        }
        case "clear-selection":
          return select(null, re);
        case "preview":
          void preview(m.configs, m.device || "desktop", re);
          return;
        case "clear-preview":
          clearPreview();
          refresh();
          return post({ type: "preview-cleared" }, re);
        case "teardown":
          return stop();
      }
    }, undefined);

  // ---- the pointer and the keyboard, while selecting ----

  const block = (e: Event) => {
    if (!selectMode) return;
    e.preventDefault();
    e.stopImmediatePropagation();
  };

  const onMove = (e: Event) =>
    safe(() => {
      if (!selectMode) return;
      const t = e.target;
      if (selectable(t)) {
        if (t !== hovered) hover(t);
      } else if (hovered) hover(null);
    }, undefined);

  const onClick = (e: Event) => {
    if (!selectMode) return;
    block(e);
    safe(() => {
      if (selectable(e.target)) {
        win.focus();
        select(e.target);
      }
    }, undefined);
  };

  const KEYS: Record<string, SelectionDirection> = {
    ArrowUp: "parent",
    ArrowDown: "child",
    ArrowLeft: "previous",
    ArrowRight: "next",
  };
  const onKey = (e: Event) =>
    safe(() => {
      const k = (e as KeyboardEvent).key;
      if (!selectMode || !selected || (!KEYS[k] && k !== "Escape")) return;
      block(e);
      if (k === "Escape") return select(null);
      const next = MOVES[KEYS[k]!](selected);
      if (next) select(next);
    }, undefined);

  const schedule = () => {
    if (!frame)
      frame = requestAnimationFrame(() => ((frame = 0), safe(overlay._update, undefined)));
  };

  function stop(): void {
    if (stopped) return;
    stopped = true;
    clearPreview();
    scope.dispose();
    if (frame) cancelAnimationFrame(frame);
    overlay._remove();
    selected = hovered = null;
    if (win.storefitEditor) delete win.storefitEditor;
  }

  const capture = { capture: true };
  scope.listen(win, "message", onMessage);
  scope.listen(win, "mousemove", onMove, capture);
  // The pointer left the frame.
  scope.listen(win, "mouseout", (e) =>
    safe(() => !(e as MouseEvent).relatedTarget && hovered && hover(null), undefined),
  );
  scope.listen(win, "click", onClick, capture);
  // The page's own handlers must not act on a press that selects (menus opening on mousedown).
  for (const type of [
    "pointerdown",
    "mousedown",
    "pointerup",
    "mouseup",
    "dblclick",
    "auxclick",
    "contextmenu",
    "submit",
  ])
    scope.listen(win, type, block, capture);
  scope.listen(win, "keydown", onKey, capture);
  scope.listen(win, "scroll", schedule, { capture: true, passive: true });
  scope.listen(win, "resize", schedule);
  // A single-page shop changes its URL without a load: say so, and let the highlight follow
  // elements the page re-renders.
  scope.interval(
    () =>
      safe(() => {
        if (win.location.href !== href) {
          if (hovered) hover(null);
          ready();
        }
        refresh();
      }, undefined),
    1000,
  );
  if (doc.readyState === "loading") scope.listen(doc, "DOMContentLoaded", () => ready());
  else ready();

  return { stop };
}
