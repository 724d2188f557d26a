// The editor's highlight (docs/visual-editor.md): boxes over the hovered element and over the
// selection (every element a path matches), with a label. It lives in a closed shadow root of
// one custom element appended to <html>, not <body>, with a fixed position, no size and no
// pointer events, so it
// - never changes the page's layout (fixed, 0×0, outside the body's flow),
// - is never under the pointer (pointer-events: none) and never selected,
// - never shifts a path (`:nth-of-type` of the body's children, `div` counts: its tag is its own),
// - is styled by nothing of the page's (the shadow root, `all: initial` on the host),
// and it is removed from the document whenever it shows nothing.

export const OVERLAY_TAG = "storefit-editor-overlay";

/** 0: the hover box, 1: the selection. */
export type OverlayKind = 0 | 1;

export type Overlay = {
  /** Boxes `els` (at most 50) as `kind`, the label on the first. */
  _show: (kind: OverlayKind, els: Element[], label: string) => void;
  _hide: (kind: OverlayKind) => void;
  /** Puts the boxes back over their elements (after a scroll, a resize, a change of the page). */
  _update: () => void;
  _remove: () => void;
};

const MAX_BOXES = 50;

const HOST_STYLE =
  "all:initial!important;display:block!important;position:fixed!important;top:0!important;left:0!important;" +
  "width:0!important;height:0!important;overflow:visible!important;z-index:2147483647!important;pointer-events:none!important";

const CSS =
  ".b{position:fixed;box-sizing:border-box;pointer-events:none;border:2px dashed #2563eb;background:rgba(37,99,235,.08)}" +
  ".s{border:2px solid #db2777;background:rgba(219,39,119,.08)}" +
  ".l{position:fixed;pointer-events:none;font:12px/18px system-ui,sans-serif;color:#fff;background:#db2777;padding:0 6px;" +
  "border-radius:3px;white-space:nowrap;max-width:60vw;overflow:hidden;text-overflow:ellipsis}" +
  ".h{background:#2563eb}";

export function createOverlay(doc: Document): Overlay {
  let host: HTMLElement | null = null;
  let layer: HTMLElement | null = null;
  const shown: [[Element[], string], [Element[], string]] = [
    [[], ""],
    [[], ""],
  ];

  const attach = () => {
    if (!host) {
      host = doc.createElement(OVERLAY_TAG);
      host.setAttribute("style", HOST_STYLE);
      host.setAttribute("aria-hidden", "true");
      const root = host.attachShadow({ mode: "closed" });
      const style = doc.createElement("style");
      style.textContent = CSS;
      layer = doc.createElement("div");
      root.append(style, layer);
    }
    if (!host.isConnected) doc.documentElement.appendChild(host);
  };

  const draw = () => {
    if (!shown[0][0].length && !shown[1][0].length) {
      host?.remove();
      return;
    }
    attach();
    const out: HTMLElement[] = [];
    for (const kind of [0, 1] as const) {
      const [els, label] = shown[kind];
      els.forEach((el, i) => {
        if (!el.isConnected) return;
        const r = el.getBoundingClientRect();
        const box = doc.createElement("div");
        box.className = kind ? "b s" : "b";
        box.style.cssText = `left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px`;
        out.push(box);
        if (i === 0 && label) {
          const tag = doc.createElement("div");
          tag.className = kind ? "l" : "l h";
          tag.textContent = label;
          // Above the box, or inside its top edge when the box touches the top of the frame.
          tag.style.cssText = `left:${Math.max(0, r.left)}px;top:${r.top >= 20 ? r.top - 20 : Math.max(0, r.top) + 2}px`;
          out.push(tag);
        }
      });
    }
    layer!.replaceChildren(...out);
  };

  return {
    _show: (kind, els, label) => {
      shown[kind] = [els.slice(0, MAX_BOXES), label];
      draw();
    },
    _hide: (kind) => {
      shown[kind] = [[], ""];
      draw();
    },
    _update: draw,
    _remove: () => {
      shown[0] = [[], ""];
      shown[1] = [[], ""];
      host?.remove();
    },
  };
}
