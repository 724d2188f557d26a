// What one config does to the page besides its element fields (spec §3 "customfit_meta",
// product.md Appendix A): structural actions (duplicate, move, swap, edit), click actions,
// click / load script actions, and the global actions. Every change pushes its undo onto the
// engine's log, so `revert` restores the page exactly (conventions, habit 6). Nothing here
// throws into the page: the engine calls these inside its guard, and page-triggered handlers
// (clicks) are guarded themselves.

import type { Config, CustomfitMeta, EventType, ExperienceBehaviourResponse, GlobalActions, Properties, ScriptAction } from "@storefit/contract";
import { doc, win } from "../env/globals.js";
import { log } from "../core/log.js";
import type { JsTrigger } from "./cdn.js";
import { style } from "./fields.js";
import { editQuery, redirectUrl } from "./redirect.js";

/** The engine's internals these actions need. */
export type Kit = {
  _undo: (() => void)[];
  _made: WeakMap<Node, unknown>;
  _on: (target: EventTarget, type: string, fn: (e: Event) => void) => void;
  _js: (c: Config, trigger: JsTrigger) => void;
  _track: (type: EventType, name: string, properties?: Properties) => void;
};

export const guard = (fn: () => void): void => {
  try {
    fn();
  } catch (e) {
    log("CFRUN001", e);
  }
};

/** A selector from the service may be invalid ("#"): that is a missing element, not an error. */
export const qsa = (sel: string): ArrayLike<Element> => {
  try {
    return doc.querySelectorAll(sel);
  } catch {
    return [];
  }
};
export const qs = (sel: string | undefined): Element | null => (sel ? qsa(sel)[0] || null : null);

export const xp = (c: Config): Partial<ExperienceBehaviourResponse> => c.experience_behaviour_response || {};

export const ids = (c: Config): Properties => ({
  config_id: c.config_id,
  variation_id: c.variation_id,
  experience_id: xp(c).experience_id || "",
});

/** track_click / execute_javascript / both (spec §3 onclick_action, onload_action). */
export function scriptAction(k: Kit, c: Config, a: ScriptAction | undefined, trigger: JsTrigger, type: EventType): void {
  const t = a && a.action_type;
  if (!t) return;
  if (t !== "execute_javascript") k._track(type, (a.action_txt || {}).goal_name || c.config_id, ids(c));
  if (t !== "track_click") k._js(c, trigger);
}

/** A one-off change (click actions): recorded, and undone only while ours is still there. */
const change = (k: Kit, el: Element, [get, put]: ReturnType<typeof style>, v: string | null) => {
  const old = get(el);
  put(el, v);
  const ours = get(el);
  k._undo.push(() => get(el) === ours && put(el, old));
};
const display = style("display");

/** Places `nodes` next to `ref` (or in it, for append); they are ours, and revert removes them. */
const insert = (k: Kit, owner: unknown, nodes: Node[], place: (...n: Node[]) => void) => {
  for (const n of nodes) k._made.set(n, owner);
  place(...nodes);
  k._undo.push(() => nodes.forEach((n) => (n as ChildNode).remove()));
};

/** edit_elem_action types as the DOM methods that do them. */
const EDIT = {
  replace_html: "replaceWith",
  insert_before_html: "before",
  insert_after_html: "after",
  append_html: "append",
} as const;

const swap = (a: Element, b: Element) => {
  const mark = doc.createComment("");
  a.replaceWith(mark);
  b.replaceWith(a);
  mark.replaceWith(b);
};

/**
 * Duplicate, move, swap and edit, in that order (a duplicate copies the changed element, then it
 * is moved; an edit that replaces the element comes last). Run once per config, for the elements
 * found when it is first applied: a re-rendered element gets the fields and click handlers again,
 * never a second move or insert (spec §4 "marked as already acted on").
 */
export function structure(k: Kit, owner: unknown, m: CustomfitMeta, el: Element): void {
  for (const d of m.duplicate_actions || []) {
    const copy = el.cloneNode(true) as Element;
    if (d.cloned_elem_id) copy.id = d.cloned_elem_id;
    else copy.removeAttribute("id");
    insert(k, owner, [copy], (n) => el[d.position === "above" ? "before" : "after"](n));
  }
  const mv = m.move_action;
  const moved = mv && (mv.first_element ? qs(mv.first_element) : el);
  const to = mv && qs(mv.target);
  if (moved && to && !moved.contains(to)) {
    // After a move or a swap a positional selector may match another element: the ones we moved
    // count as ours, so the config never applies its fields to them by accident.
    k._made.set(moved, owner);
    const parent = moved.parentNode;
    const next = moved.nextSibling;
    if (mv.position === "below") to.after(moved);
    else to.before(moved);
    k._undo.push(() => {
      if (moved.isConnected && parent && parent.isConnected)
        parent.insertBefore(moved, next && next.parentNode === parent ? next : null);
    });
  }
  const other = m.swap_action && qs(m.swap_action.target);
  if (other && !other.contains(el) && !el.contains(other)) {
    k._made.set(other, owner);
    swap(el, other);
    k._undo.push(() => el.isConnected && other.isConnected && swap(el, other));
  }
  const ed = m.edit_elem_action;
  if (ed && typeof ed.action_txt === "string") {
    // A <template> parses without running scripts or loading anything until inserted.
    const t = doc.createElement("template");
    t.innerHTML = ed.action_txt;
    const nodes = Array.from(t.content.childNodes);
    const how = EDIT[ed.action_type];
    if (how) insert(k, owner, nodes, (...n) => el[how](...n));
    // Runs before the insert's own undo (the log is undone backwards): put the element back
    // where the new nodes are, then they are removed.
    if (how === "replaceWith")
      k._undo.push(() => {
        const at = nodes.find((n) => n.isConnected) as ChildNode | undefined;
        if (at && !el.isConnected) at.before(el);
      });
  }
}

/** One click handler per element for advanced_click_actions and onclick_action. */
export function clickActions(k: Kit, c: Config, m: CustomfitMeta, el: Element): void {
  const acts = m.advanced_click_actions || [];
  if (!acts.length && !m.onclick_action) return;
  k._on(el, "click", (e) =>
    guard(() => {
      scriptAction(k, c, m.onclick_action, "onclick", "CLICK");
      for (const a of acts) {
        const t = a.target ? qs(a.target) : el;
        const type = a.action_type;
        if (type === "redirect_to_page") {
          const to = a.redirect_url && redirectUrl(a.redirect_url, win.location.href, a.retain_params);
          if (!to) continue;
          e.preventDefault();
          if (a.open_in_new_tab) win.open(to, "_blank", "noopener");
          else win.location.assign(to);
        } else if (!t) continue;
        else if (type === "scroll_to_element") t.scrollIntoView({ behavior: "smooth", block: "start" });
        else if (type === "hide_element") change(k, t, display, "none!important");
        else if (type === "unhide_element" && getComputedStyle(t).display === "none") {
          // Hidden inline (by us or the page): drop that; hidden by a stylesheet: back to the
          // browser's own display for the tag.
          change(k, t, display, null);
          if (getComputedStyle(t).display === "none") change(k, t, display, "revert!important");
        }
      }
    }),
  );
}

export const onReady = (k: Kit, fn: () => void, load?: boolean): void => {
  const ready = load ? doc.readyState === "complete" : doc.readyState !== "loading";
  if (ready) fn();
  else k._on(load ? win : doc, load ? "load" : "DOMContentLoaded", () => guard(fn));
};
export const whenLoaded = (k: Kit, fn: () => void): void => onReady(k, fn, true);

/**
 * spec §3 global_actions, run once per config when `apply` starts (before the DOM is ready, so
 * CSS lands before the first paint). Returns the URL of a redirection without starting it: the
 * caller stops applying, reports the page being left, and only then leaves it (boot/index.ts).
 */
export function globalActions(k: Kit, c: Config, g: GlobalActions): string | null {
  const loc = win.location;
  const r = g.redirection;
  const to = r && r.url ? redirectUrl(r.url, loc.href, r.retain_params, true) : null;
  if (to) return to;
  if (typeof g.css === "string" && g.css) {
    const s = doc.createElement("style");
    s.textContent = g.css;
    (doc.head || doc.documentElement).appendChild(s);
    k._undo.push(() => s.remove());
  }
  if (Array.isArray(g.query_params) && g.query_params.length) {
    const from = loc.href;
    const next = editQuery(from, g.query_params);
    const h = win.history;
    if (next !== from) {
      h.replaceState(h.state, "", next);
      k._undo.push(() => loc.href === next && h.replaceState(h.state, "", from));
    }
  }
  const js = g.js;
  if (js) {
    const run = () => k._js(c, "global");
    if (js.execution_type === "document_load") whenLoaded(k, run);
    else if (js.execution_type === "document_ready") onReady(k, run);
    else run();
  }
  return null;
}
