// The apply engine (spec §3 Variation, §4 "Config replacement", "Document visibility", §9 limits).
// Boot creates one engine per initialization, hands it the configs that match the page, awaits
// `apply` (every config applied or given up), reveals the page, and calls `revert` on teardown.
//
// How it works: each HTML_ELEMENT config with an element path becomes an item. One scan
// queries every live item's selector; elements it has not seen are applied, shallower first
// (spec §9), and bound to the item; elements it has seen are re-checked. The scan runs when
// `apply` starts (after the DOM is parsed), from ONE MutationObserver for the whole engine, and
// from the re-apply timer (reapply_timer_ms). An item waits for its element until
// element_timeout_ms, then is given up (`missing`); once applied it is watched for
// READDED_ELEMENT_WATCH_MS, so an element the page re-adds or re-renders (a new node) gets the
// change again. The same node drifting away from our value (the page rewrote its text, class or
// src) is re-applied only for cf_retain_value configs, at most TEXT_OBSERVER_MAX_REPLACEMENTS
// times per element: without cf_retain_value the page's own later update wins (a variant picker
// changing the price), and no re-rendering framework can make us spin. When nothing is waited
// for or watched, the observer and the timer stop.
//
// Every change records what it replaced in one undo log; `revert` stops the watchers and undoes
// the log backwards. Every entry point is guarded: nothing here throws into the page, and an
// invalid selector from the service is a missing element.

import type { Config, CustomfitMeta, ElementChanges, EventType, HtmlElementVariation, Properties, StorefitSettings } from "@storefit/contract";
import { READDED_ELEMENT_WATCH_MS, TEXT_OBSERVER_MAX_REPLACEMENTS } from "@storefit/contract";
import type { Scope } from "../core/scope.js";
import { log } from "../core/log.js";
import { doc, now } from "../env/globals.js";
import type { Kit } from "./apply.js";
import { clickActions, globalActions, guard, ids, onReady, qsa, scriptAction, structure, whenLoaded, xp } from "./apply.js";
import { jssUrl } from "./cdn.js";
import { sortByDepth } from "./depth.js";
import type { Field } from "./fields.js";
import { fieldsOf } from "./fields.js";
import { hideRule } from "./visibility.js";

export type EngineContext = {
  scope: Scope;
  settings: StorefitSettings;
  device: "mobile" | "desktop";
  /** Sends an event through the script's tracking (click goals, load-time events). */
  track: (type: EventType, name: string, properties?: Properties) => void;
  /** Overrides READDED_ELEMENT_WATCH_MS (tests of the watch window's end). */
  watchMs?: number;
};

/** Live counters of the engine's work; they keep counting after `apply` resolves. */
export type EngineCounts = {
  /** Elements a config was applied to (first applies and re-rendered elements). */
  applies: number;
  /** Of those, elements applied after the config's first pass: re-added or re-rendered nodes. */
  readded: number;
  /** Re-applies to an element whose content or attributes drifted (cf_retain_value). */
  drift: number;
};

export type ApplyResult = {
  applied: string[];
  missing: string[];
  /** Configs waiting for the load event or their delay (cf_defer_apply, cf_delay_apply_time). */
  pending?: string[];
  /**
   * A global redirection's URL: the engine stopped applying and did not navigate; the caller
   * keeps the page hidden, reports it, then leaves it for this URL.
   */
  redirect?: string;
  counts?: EngineCounts;
};

export type Engine = {
  apply: (configs: readonly Config[]) => Promise<ApplyResult>;
  revert: () => void;
  /** Whether `node` is, or is inside, an element this engine changed or a node it inserted. */
  owns: (node: Node) => boolean;
};

/** The attribute that marks an element we changed; its value counts our applies to it. */
export const MARK = "data-storefit";

type Item = {
  _c: Config;
  _v: ElementChanges;
  _m: CustomfitMeta;
  _s: string;
  _f: Field[];
  /** -1 scheduled (deferred or delayed), 0 waiting for its element, 1 applied and watched, 2 done. */
  _st: number;
  /** Deadline of the current state: give up (0; none before the DOM is parsed) or stop watching (1). */
  _t: number;
  /** Ever applied. */
  _ok?: boolean;
  /** The scan in which it was first applied: structural actions run only then. */
  _p?: number;
  /** Changes something visible: hidden while not applied (spec §4). */
  _h: unknown;
  /** Its hiding rule, made when first needed (most items never need one). */
  _r?: string;
};

type Binding = { _i: Item; _u: Record<string, [field: Field, old: string | null, ours: string | null]>; _d: number };

export function createEngine(ctx: EngineContext): Engine {
  const s = ctx.settings;
  const watchMs = ctx.watchMs || READDED_ELEMENT_WATCH_MS;
  const items: Item[] = [];
  const bound = new WeakMap<Element, Binding[]>();
  const counts: EngineCounts = { applies: 0, readded: 0, drift: 0 };
  let waiters: (() => boolean)[] = [];
  let dead = false;
  let pass = 0;
  let observer: MutationObserver | undefined;
  let tick: ReturnType<typeof setInterval> | 0 = 0;
  let hideEl: HTMLStyleElement | undefined;
  let hideCss = "";

  const later = (fn: () => void, ms: number) => {
    const id = setTimeout(() => guard(fn), ms);
    ctx.scope.add(() => clearTimeout(id));
  };
  const kit: Kit = {
    _undo: [],
    _made: new WeakMap(),
    _on: (target, type, fn) => {
      target.addEventListener(type, fn);
      const off = () => target.removeEventListener(type, fn);
      ctx.scope.add(off);
      kit._undo.push(off);
    },
    // A <script> from the CDN: its load error stays on the element, an exception in its code is
    // the page's own error, and nothing of ours waits for it.
    _js: (c, trigger) => {
      const url = jssUrl(s, c, trigger);
      if (!url) return;
      const el = doc.createElement("script");
      el.src = url;
      el.async = true;
      el.onload = el.onerror = () => el.remove();
      (doc.head || doc.documentElement).appendChild(el);
      kit._undo.push(() => el.remove());
    },
    _track: (type, name, props) => guard(() => ctx.track(type, name, props)),
  };

  const find = (el: Element, it: Item) => (bound.get(el) || []).find((b) => b._i === it);

  // Our own nodes (duplicates, inserted HTML) and elements inside an element the item already
  // changed (its new innerHTML may match its own selector) are never targets of the same item.
  const skip = (el: Element, it: Item) => {
    for (let n: Node | null = el; n; n = n.parentNode)
      if (kit._made.get(n) === it || (n !== el && find(n as Element, it))) return true;
    return false;
  };

  const mark = (el: Element) => {
    const n = Number(el.getAttribute(MARK)) || 0;
    if (!n) kit._undo.push(() => el.removeAttribute(MARK));
    el.setAttribute(MARK, String(n + 1));
  };

  const put = (el: Element, b: Binding, f: Field) =>
    guard(() => {
      const old = f[1](el);
      f[2](el, f[3]);
      b._u[f[0]] = [f, old, f[1](el)];
    });

  const bind = (it: Item, el: Element, first: boolean) => {
    const b: Binding = { _i: it, _u: {}, _d: 0 };
    const list = bound.get(el) || [];
    list.push(b);
    bound.set(el, list);
    counts.applies++;
    if (!first) counts.readded++;
    // Undone after everything this binding does below (the log is undone backwards).
    kit._undo.push(() => {
      for (const k in b._u) {
        const [f, old, ours] = b._u[k]!;
        guard(() => f[1](el) === ours && f[2](el, old));
      }
    });
    for (const f of it._f) put(el, b, f);
    mark(el);
    if (first) guard(() => structure(kit, it, it._m, el));
    guard(() => clickActions(kit, it._c, it._m, el));
  };

  /**
   * Re-applies the fields of a bound element that no longer shows our value. What it replaces
   * becomes the value to restore on revert (the page's newer value) — unless it is another of our
   * own configs' values on the same element: then the page's value recorded before stays, so a
   * revert still ends on the page's own content whichever of our changes ran last.
   */
  const drift = (el: Element, b: Binding) => {
    let changed = false;
    for (const k in b._u) {
      const [f, old, ours] = b._u[k]!;
      const cur = f[1](el);
      if (cur !== ours) {
        put(el, b, f);
        if ((bound.get(el) || []).some((o) => o !== b && o._u[k] && o._u[k]![2] === cur)) b._u[k]![1] = old;
        changed = true;
      }
    }
    if (changed) {
      b._d++;
      counts.drift++;
      mark(el);
    }
  };

  /** First apply of an item: the once-per-config actions (spec §3 Variation fields). */
  const first = (it: Item, el: Element) => {
    const c = it._c;
    const v = it._v;
    it._st = 1;
    it._ok = true;
    it._t = now() + watchMs;
    scriptAction(kit, c, it._m.onload_action, "onload", "TRACK");
    if (v.cf_evt_load_time) kit._track("TRACK", "cf_load_time", { ...ids(c), load_time_ms: Math.round(performance.now()) });
    // After the scan, so a click handler of the page that changes the DOM runs outside it.
    if (v.cf_perform_click_action) later(() => (el as HTMLElement).click?.(), 0);
  };

  const hide = () => {
    const rules = items.filter((it) => it._st < 1 && it._h).map((it) => (it._r ??= hideRule(it._s, it._c.properties!.element_hint)));
    const css = rules.join("");
    if (css === hideCss) return;
    hideCss = css;
    if (!hideEl) {
      const el = (hideEl = doc.createElement("style"));
      kit._undo.push(() => el.remove());
    }
    if (!hideEl.isConnected) (doc.head || doc.documentElement).appendChild(hideEl);
    const sheet = hideEl.sheet!;
    while (sheet.cssRules.length) sheet.deleteRule(0);
    for (const r of rules)
      try {
        sheet.insertRule(r, sheet.cssRules.length);
      } catch {
        // Not one valid rule (a broken selector): that element simply is not hidden.
      }
  };

  const stop = () => {
    if (observer) observer.disconnect();
    clearInterval(tick);
    tick = 0;
  };

  const watch = () => {
    if (!observer) {
      observer = new MutationObserver(() => guard(scan));
      ctx.scope.add(stop);
    }
    // Text changes matter only to cf_retain_value items; other pages' text churn costs nothing.
    observer.observe(doc.documentElement, {
      childList: true,
      subtree: true,
      characterData: items.some((it) => it._st >= 0 && it._st < 2 && it._v.cf_retain_value),
    });
    if (!tick) tick = setInterval(() => guard(scan), s.reapply_timer_ms || 2000);
  };

  function scan(): void {
    if (dead) return;
    const t = now();
    pass++;
    for (let round = 0; round < 2; round++) {
      const fresh: [Item, Element][] = [];
      for (const it of items) {
        if (it._st < 0 || it._st > 1) continue;
        if (t > it._t) {
          if (!it._ok) log("CFRUN002", it._s);
          it._st = 2;
          continue;
        }
        const els = qsa(it._s);
        for (let i = 0; i < els.length; i++) {
          const el = els[i]!;
          const b = find(el, it);
          if (!b) {
            if (!skip(el, it)) fresh.push([it, el]);
          } else if (it._v.cf_retain_value && b._d < TEXT_OBSERVER_MAX_REPLACEMENTS) drift(el, b);
        }
      }
      let stale = false;
      for (const [it, el] of sortByDepth(fresh, (x) => x[1], (x) => (x[0]._m.move_action || { order: 0 }).order!)) {
        // A shallower change may have replaced this element: the next round finds its successor.
        if (!el.isConnected) stale = true;
        else if (!find(el, it) && !skip(el, it)) {
          const isFirst = it._st === 0;
          if (isFirst) it._p = pass;
          bind(it, el, it._p === pass);
          if (isFirst) first(it, el);
        }
      }
      if (!stale) break;
    }
    hide();
    // Our own mutations are not news.
    if (observer) observer.takeRecords();
    waiters = waiters.filter((w) => !w());
    // Watching starts after the first scan, so our own first changes are never recorded.
    if (items.some((it) => it._st === 0 || it._st === 1)) watch();
    else stop();
  }

  const activate = (it: Item) => {
    if (dead) return;
    it._st = 0;
    it._t = now() + s.element_timeout_ms;
    scan();
    later(scan, s.element_timeout_ms + 1);
  };

  const apply = async (configs: readonly Config[]): Promise<ApplyResult> => {
    const res: ApplyResult = { applied: [], missing: [], pending: [], counts };
    const batch: Item[] = [];
    try {
      for (const c of configs) {
        if (dead || res.redirect) break;
        guard(() => {
          const base = c && c.variation_data_type === "HTML_ELEMENT" ? (c.variation as HtmlElementVariation) : null;
          if (!base || typeof base !== "object") return;
          const sub = (xp(c).config_modifications || {}).device_specific && base[ctx.device];
          const v: HtmlElementVariation = sub ? { ...base, ...sub } : base;
          const m = v.customfit_meta || {};
          const p = c.properties || {};
          const sel = p.element_path;
          let did = false;
          if (m.global_actions) {
            const to = globalActions(kit, c, m.global_actions);
            if (to) res.redirect = to;
            did = true;
          }
          if (res.redirect || !sel || typeof sel !== "string") {
            // A config without an element: its load action runs now.
            if (!res.redirect && m.onload_action) {
              scriptAction(kit, c, m.onload_action, "onload", "TRACK");
              did = true;
            }
            if (did) res.applied.push(c.config_id);
            return;
          }
          const f = fieldsOf(v);
          const visible = f.length || m.move_action || m.swap_action || m.edit_elem_action || m.duplicate_actions;
          const it: Item = { _c: c, _v: v, _m: m, _s: sel, _f: f, _st: 0, _t: Infinity, _h: visible };
          items.push(it);
          batch.push(it);
          const delay = Number(v.cf_delay_apply_time) || 0;
          if (v.cf_defer_apply || delay > 0) {
            it._st = -1;
            const go = () => later(() => activate(it), delay);
            if (v.cf_defer_apply) whenLoaded(kit, go);
            else onReady(kit, go);
          }
        });
      }
      if (res.redirect || !batch.length) return res;
      // Before the DOM is parsed, pending elements are hidden one by one in case the page is
      // revealed first (sdk_timeout_ms); after it, only what the first scan could not apply.
      if (doc.readyState === "loading") guard(hide);
      await new Promise<void>((resolve) => onReady(kit, resolve));
      if (dead) return res;
      const t = now();
      for (const it of batch) if (it._st === 0) it._t = t + s.element_timeout_ms;
      guard(scan);
      await new Promise<void>((resolve) => {
        const done = () => (dead || batch.every((it) => it._st) ? (resolve(), true) : false);
        if (!done()) {
          waiters.push(done);
          later(scan, s.element_timeout_ms + 1);
        }
      });
    } catch (e) {
      log("CFRUN001", e);
    }
    for (const it of batch) {
      const id = it._c.config_id;
      (it._st < 0 ? res.pending! : it._ok ? res.applied : res.missing).push(id);
    }
    return res;
  };

  return {
    apply: (configs) => apply(configs).catch(() => ({ applied: [], missing: [] })),
    owns: (node) => {
      for (let n: Node | null = node; n; n = n.parentNode) if (kit._made.has(n) || bound.has(n as Element)) return true;
      return false;
    },
    revert: () => {
      dead = true;
      guard(stop);
      const list = kit._undo;
      kit._undo = [];
      for (let i = list.length - 1; i >= 0; i--) guard(list[i]!);
      hideEl = undefined;
      hideCss = "";
      for (const w of waiters) guard(w);
      waiters = [];
    },
  };
}
