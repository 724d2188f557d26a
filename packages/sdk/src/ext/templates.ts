// Popup and custom-block templates (spec §3 Template, §4, §5, §9; product.md Appendix A): a
// template config's HTML is inserted at parentElement (before nextSibling) when its trigger
// fires — on entry, on a click of listed elements, on exit intent after a delay, after timers, or
// at a scroll depth — unless its visibility setting or the visitor's close memory says no.
// The display rules govern all of the config's markup: HTML the provider put in the config's
// element changes instead (innerHTML at element_path, edit_elem_action) is applied by the core's
// engine when the template shows, never before, and undone when it is closed.
// A page that removes the template gets it back at most 5 times; single-page teardown removes it.

import { TEMPLATE_REINSERT_LIMIT } from "@storefit/contract";
import type { Config, Template } from "@storefit/contract";
import type { ExtContext } from "../core/ext.js";
import { STORAGE_KEYS } from "../core/storage-keys.js";
import { doc, now, safe, win } from "../env/globals.js";
import { jssUrl } from "../dom/cdn.js";
import { scrollDepth } from "../track/measures.js";
import { delaysMs, suppressed, templateOf, visibleOn } from "./template-rules.js";

const CLOSE_SELECTOR = "[data-storefit-close],.cf-template-close";

const query = (selector: string | undefined): Element | null =>
  selector ? safe(() => doc.querySelector(selector), null) : null;

function setUp(ctx: ExtContext, c: Config, t: Template): void {
  const s = t.properties?.settings ?? { config_selected: "on_entry" as const };
  const device = ctx.visitor.user.properties?.cf_device_type === "desktop" ? "desktop" : "mobile";
  if (!visibleOn(s.visibility_selected, device)) return;
  const key = ctx.prefix + STORAGE_KEYS.templateClosed + t.id;
  const closedUntil = Number(ctx.storageGet("localStorage", key)) || null;
  if (suppressed(ctx.storageGet("sessionStorage", key) === "1", closedUntil, now())) return;

  let root: HTMLElement | null = null;
  /** The config's element changes, applied when shown (ExtContext.applyConfig). */
  let markup: ReturnType<NonNullable<ExtContext["applyConfig"]>> | undefined;
  let shown = false;
  let closed = false;
  let inserts = 0;
  const meta = { template_id: t.id, config_id: c.config_id };

  const insert = () => {
    const parent = query(t.parentElement) ?? doc.body;
    if (!parent) return;
    const next = query(t.nextSibling);
    const el = doc.createElement("div");
    el.id = "cf-template-" + t.id;
    el.setAttribute("data-storefit-template", t.id);
    el.innerHTML = t.html ?? "";
    const style = t.properties?.template_properties?.root_style;
    if (style) el.setAttribute("style", style);
    parent.insertBefore(el, next && next.parentNode === parent ? next : null);
    root = el;
    inserts++;
  };

  const close = () => {
    closed = true;
    root?.remove();
    markup?.revert();
    const memory = s.close_settings;
    if (memory?.close_config_selected === "duration" && Number(memory.expiry) > 0) {
      ctx.storageSet("localStorage", key, String(now() + Number(memory.expiry) * 1000));
    } else {
      // next_session, and the default: closed for the rest of this session.
      ctx.storageSet("sessionStorage", key, "1");
    }
  };

  const show = () =>
    safe(() => {
      if (shown || closed) return;
      shown = true;
      if (t.html) insert();
      markup = ctx.applyConfig?.(c);
      ctx.tracker.track("TEMPLATE_VIEW", "template_view_" + t.id, meta);
      const script = t.properties?.template_properties?.js_script;
      const url = script && !ctx.preview ? jssUrl(ctx.settings, c, "template") : null;
      if (url) {
        const el = doc.createElement("script");
        el.src = url;
        el.async = true;
        (doc.head || doc.documentElement).appendChild(el);
        ctx.scope.add(() => el.remove());
      }
    });

  // Close and button clicks inside the template (delegated: the page may replace its content).
  ctx.scope.listen(doc, "click", (e) =>
    safe(() => {
      const target = e.target as Element | null;
      if (closed || !target || !(root?.contains(target) || markup?.owns(target))) return;
      if (target.closest(CLOSE_SELECTOR)) return close();
      const button = target.closest("a,button,[role=button]");
      if (button) ctx.tracker.track("TEMPLATE_BUTTON_CLICK", "template_button_click_" + t.id, { ...meta, button_text: (button.textContent ?? "").trim().slice(0, 100) });
    }),
  );

  // spec §9: re-inserted at most 5 times when the page removes it.
  const observer = new MutationObserver(() => {
    if (shown && !closed && root && !root.isConnected && inserts <= TEMPLATE_REINSERT_LIMIT) insert();
  });
  observer.observe(doc.documentElement, { childList: true, subtree: true });
  ctx.scope.add(() => {
    observer.disconnect();
    root?.remove();
  });

  switch (s.config_selected) {
    case "on_click":
      ctx.scope.listen(doc, "click", (e) => {
        const target = e.target as Element | null;
        if (target && (s.elements ?? []).some((sel) => safe(() => !!target.closest(sel), false))) show();
      });
      break;
    case "at_exit": {
      // Exit intent: the pointer leaves through the top of the window, armed after the delay.
      const arm = () =>
        ctx.scope.listen(doc, "mouseout", (e) => {
          const m = e as MouseEvent;
          if (!m.relatedTarget && m.clientY <= 0) show();
        });
      const [delay] = delaysMs(s.delay);
      if (delay) ctx.scope.timeout(arm, delay);
      else arm();
      break;
    }
    case "timerbased":
      for (const d of delaysMs(s.timeout)) ctx.scope.timeout(show, d);
      break;
    case "on_scroll": {
      const at = Number(s.scroll_percentage) || 0;
      const check = () => {
        if (scrollDepth(win.scrollY, win.innerHeight, doc.documentElement.scrollHeight) >= at) show();
      };
      ctx.scope.listen(win, "scroll", check, { passive: true });
      check();
      break;
    }
    default:
      show();
  }
}

export function templates(ctx: ExtContext): void {
  for (const c of ctx.configs) {
    const t = templateOf(c);
    if (t) safe(() => setUp(ctx, c, t));
  }
}
