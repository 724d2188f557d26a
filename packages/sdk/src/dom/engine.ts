// The apply engine (spec §3 Variation, §4 "Config replacement", "Document visibility", §9 limits).
// Boot creates one engine per initialization, hands it the configs that match the page, awaits
// `apply` (every config that changes something visible applied or given up), reveals the page,
// and calls `revert` on teardown.
// Configs handed over while the page is still parsed reveal it at once, their elements hidden
// one by one until the parsed page is changed (see `apply`).
//
// How it works: each HTML_ELEMENT config with an element path becomes an item. A scan queries
// the selectors of the live items it is given; elements it has not seen are applied, shallower
// first (spec §9), and bound to the item; elements it has seen are re-checked. Every live item is
// scanned once the DOM is parsed and from the re-apply timer
// (reapply_timer_ms). ONE MutationObserver for the whole engine scans only the items the added
// nodes could concern: items are indexed by what their selector needs of its element
// (selector-keys.ts: an id, a class or a tag), and the added subtrees are looked up in that index,
// so a page's unrelated churn queries no selector. Items whose selector any change may concern,
// and cf_retain_value items (their drift is checked on every change), are scanned on every
// mutation. An item waits for its element until
// element_timeout_ms (one that changes nothing visible, behind the reveal, until
// READDED_ELEMENT_WATCH_MS), then is given up (`missing`); once applied it is watched for
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

import type { Config, CustomfitMeta, EventType, HtmlElementVariation, Properties, StorefitSettings } from "@storefit/contract";
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
import { selectorKeys } from "./selector-keys.js";
import { hideRule, revealPage } from "./visibility.js";

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
  /**
   * Configs waiting for the load event or their delay (cf_defer_apply, cf_delay_apply_time), or,
   * changing nothing visible, for their element behind the reveal.
   */
  pending?: string[];
  /**
   * A global redirection's URL: the engine stopped applying and did not navigate; the caller
   * keeps the page hidden, reports it, then leaves it for this URL.
   */
  redirect?: string;
  counts?: EngineCounts;
};

export type Engine = {
  /**
   * Applies `configs`; resolves once each that changes something visible is applied or given up
   * (the others are `pending` while they wait for their element). Called while the page is parsed
   * (and no global redirection leaves it), it reveals the page at once: every element the configs
   * wait for is hidden by a rule of its own until the parsed page is changed (docs/decisions.md
   * "When the page is revealed").
   */
  apply: (configs: readonly Config[]) => Promise<ApplyResult>;
  revert: () => void;
  /** Whether `node` is, or is inside, an element this engine changed or a node it inserted. */
  owns: (node: Node) => boolean;
};

/** The attribute that marks an element we changed; its value counts our applies to it. */
export const MARK = "data-storefit";

/**
 * An item's states, in the order it goes through them: scheduled (cf_defer_apply or
 * cf_delay_apply_time: not looked for yet), waiting for its element, applied and watched for
 * re-added elements, done (given up, or its watch ended). Only waiting and applied items are live:
 * the scan looks for their elements and the observer runs for them.
 */
const ITEM = { scheduled: -1, waiting: 0, applied: 1, done: 2 } as const;
type ItemState = (typeof ITEM)[keyof typeof ITEM];

/** One HTML_ELEMENT config with an element path. `_` names are shortened by the build. */
type Item = {
  _config: Config;
  /** The variation's element changes, the device's own merged in (config_modifications). */
  _changes: HtmlElementVariation;
  _meta: CustomfitMeta;
  _selector: string;
  /**
   * What its element needs (selector-keys.ts); null: scanned on every mutation. Worked out when
   * the observer first needs it, not on the way to the reveal.
   */
  _keys?: string[] | null;
  _fields: Field[];
  _state: ItemState;
  /** When the current state ends: waiting gives up (none before the DOM is parsed), applied stops watching. */
  _deadline: number;
  _everApplied?: boolean;
  /** The scan in which it was first applied: structural actions run only then. */
  _firstScan?: number;
  /** Changes something visible: hidden while not applied (spec §4). */
  _visible: unknown;
  /** Its hiding rule, made when first needed (most items never need one). */
  _hideRule?: string;
};

/** What a field of one item replaced on one element, and what it wrote (read back from the page). */
type Written = [field: Field, old: string | null, ours: string | null];

/** One item applied to one element. */
type Binding = {
  _item: Item;
  /** By field key. */
  _written: Record<string, Written>;
  /** Times its values were re-applied after the page changed them (cf_retain_value). */
  _drifts: number;
};

const live = (item: Item) => item._state === ITEM.waiting || item._state === ITEM.applied;

export function createEngine(ctx: EngineContext): Engine {
  const settings = ctx.settings;
  const watchMs = ctx.watchMs || READDED_ELEMENT_WATCH_MS;
  const items: Item[] = [];
  const bound = new WeakMap<Element, Binding[]>();
  const counts: EngineCounts = { applies: 0, readded: 0, drift: 0 };
  let waiters: (() => boolean)[] = [];
  let dead = false;
  let scanNumber = 0;
  let observer: MutationObserver | undefined;
  /** The options the observer runs with: whether it watches text (undefined: stopped). */
  let observing: boolean | undefined;
  /**
   * Items by key (selector-keys.ts), rebuilt when `apply` added items since (`indexed` counts
   * them); `always`: whether some item is scanned on every mutation. `found` collects the items
   * the added nodes concern.
   */
  let index = new Map<string, Item[]>();
  let indexed = 0;
  let always = false;
  const found = new Set<Item>();
  const look = (key: string) => {
    const list = index.get(key);
    if (list) for (const item of list) found.add(item);
  };
  const visit = (el: Element) => {
    if (el.id) look("#" + el.id);
    const classes = el.classList;
    for (let i = 0; i < classes.length; i++) look("." + classes[i]!);
    look(el.localName);
  };
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
    _js: (config, trigger) => {
      const url = jssUrl(settings, config, trigger);
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

  const bindingOf = (el: Element, item: Item) => (bound.get(el) || []).find((binding) => binding._item === item);

  // Our own nodes (duplicates, inserted HTML) and elements inside an element the item already
  // changed (its new innerHTML may match its own selector) are never targets of the same item.
  const skip = (el: Element, item: Item) => {
    for (let n: Node | null = el; n; n = n.parentNode)
      if (kit._made.get(n) === item || (n !== el && bindingOf(n as Element, item))) return true;
    return false;
  };

  const mark = (el: Element) => {
    const n = Number(el.getAttribute(MARK)) || 0;
    if (!n) kit._undo.push(() => el.removeAttribute(MARK));
    el.setAttribute(MARK, String(n + 1));
  };

  const write = (el: Element, binding: Binding, field: Field) =>
    guard(() => {
      const old = field._get(el);
      field._put(el, field._value);
      binding._written[field._key] = [field, old, field._get(el)];
    });

  const bind = (item: Item, el: Element, firstScan: boolean) => {
    const binding: Binding = { _item: item, _written: {}, _drifts: 0 };
    const list = bound.get(el) || [];
    list.push(binding);
    bound.set(el, list);
    counts.applies++;
    if (!firstScan) counts.readded++;
    // Undone after everything this binding does below (the log is undone backwards).
    kit._undo.push(() => {
      for (const key in binding._written) {
        const [field, old, ours] = binding._written[key]!;
        guard(() => field._get(el) === ours && field._put(el, old));
      }
    });
    for (const field of item._fields) write(el, binding, field);
    mark(el);
    if (firstScan) guard(() => structure(kit, item, item._meta, el));
    guard(() => clickActions(kit, item._config, item._meta, el));
  };

  /**
   * Re-applies the fields of a bound element that no longer shows our value. What it replaces
   * becomes the value to restore on revert (the page's newer value) — unless it is another of our
   * own configs' values on the same element: then the page's value recorded before stays, so a
   * revert still ends on the page's own content whichever of our changes ran last.
   */
  const drift = (el: Element, binding: Binding) => {
    let changed = false;
    for (const key in binding._written) {
      const [field, old, ours] = binding._written[key]!;
      const current = field._get(el);
      if (current !== ours) {
        write(el, binding, field);
        if ((bound.get(el) || []).some((other) => other !== binding && other._written[key] && other._written[key]![2] === current))
          binding._written[key]![1] = old;
        changed = true;
      }
    }
    if (changed) {
      binding._drifts++;
      counts.drift++;
      mark(el);
    }
  };

  /** First apply of an item: the once-per-config actions (spec §3 Variation fields). */
  const firstApply = (item: Item, el: Element) => {
    const config = item._config;
    const changes = item._changes;
    item._state = ITEM.applied;
    item._everApplied = true;
    item._deadline = now() + watchMs;
    scriptAction(kit, config, item._meta.onload_action, "onload", "TRACK");
    if (changes.cf_evt_load_time) kit._track("TRACK", "cf_load_time", { ...ids(config), load_time_ms: Math.round(performance.now()) });
    // After the scan, so a click handler of the page that changes the DOM runs outside it.
    if (changes.cf_perform_click_action) later(() => (el as HTMLElement).click?.(), 0);
  };

  const hide = () => {
    const rules = items
      .filter((item) => item._state < ITEM.applied && item._visible)
      .map((item) => (item._hideRule ??= hideRule(item._selector, item._config.properties!.element_hint)));
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
    for (const rule of rules)
      try {
        sheet.insertRule(rule, sheet.cssRules.length);
      } catch {
        // Not one valid rule (a broken selector): that element simply is not hidden.
      }
  };

  const stop = () => {
    if (observer) observer.disconnect();
    observing = undefined;
    clearInterval(tick);
    tick = 0;
  };

  const watch = () => {
    if (!observer) {
      observer = new MutationObserver((records) => guard(() => changed(records)));
      ctx.scope.add(stop);
    }
    // Text changes matter only to cf_retain_value items; other pages' text churn costs nothing.
    const text = items.some((item) => live(item) && item._changes.cf_retain_value);
    if (observing !== text) observer.observe(doc.documentElement, { childList: true, subtree: true, characterData: (observing = text) });
    if (!tick) tick = setInterval(() => guard(scan), settings.reapply_timer_ms || 2000);
  };

  /** Scans the live items the added nodes of `records` could concern (see the header). */
  const changed = (records: MutationRecord[]) => {
    if (dead) return;
    if (indexed !== items.length) {
      indexed = items.length;
      index = new Map();
      for (const item of items) {
        // A quirks-mode page matches ids and classes in any case: no keys there.
        if (item._keys === undefined) item._keys = doc.compatMode === "BackCompat" ? null : selectorKeys(item._selector);
        for (const key of item._keys || []) index.set(key, [...(index.get(key) || []), item]);
      }
      always = items.some((item) => !item._keys || item._changes.cf_retain_value);
    }
    let every = false;
    for (const record of records)
      for (let n = 0, nodes = record.addedNodes; n < nodes.length; n++) {
        const root = nodes[n] as Element;
        if (root.nodeType !== 1 || !root.isConnected) continue;
        look("*");
        const all = root.getElementsByTagName("*");
        // A subtree with more elements than the index has keys (a re-rendered block) is not
        // visited: querying every config costs less (bench/sdk-churn.bench.mjs, re-render storm).
        if (all.length >= index.size) every = true;
        else {
          visit(root);
          for (let i = 0; i < all.length; i++) visit(all[i]!);
        }
      }
    if (!every && !found.size && !always) return;
    const some = items.filter((item) => live(item) && (every || found.has(item) || !item._keys || item._changes.cf_retain_value));
    found.clear();
    if (some.length) scan(some);
  };

  function scan(some: Item[] = items): void {
    if (dead) return;
    const time = now();
    scanNumber++;
    for (let round = 0; round < 2; round++) {
      const fresh: [Item, Element][] = [];
      for (const item of some) {
        if (!live(item)) continue;
        if (time > item._deadline) {
          if (!item._everApplied) log("CFRUN002", item._selector);
          item._state = ITEM.done;
          continue;
        }
        const els = qsa(item._selector);
        for (let i = 0; i < els.length; i++) {
          const el = els[i]!;
          const binding = bindingOf(el, item);
          if (!binding) {
            if (!skip(el, item)) fresh.push([item, el]);
          } else if (item._changes.cf_retain_value && binding._drifts < TEXT_OBSERVER_MAX_REPLACEMENTS) drift(el, binding);
        }
      }
      let stale = false;
      // A shallower change's new content may also hold elements of items not scanned: the
      // second round scans them all.
      some = items;
      for (const [item, el] of sortByDepth(fresh, (x) => x[1], (x) => (x[0]._meta.move_action || { order: 0 }).order!)) {
        // A shallower change may have replaced this element: the next round finds its successor.
        if (!el.isConnected) stale = true;
        else if (!bindingOf(el, item) && !skip(el, item)) {
          const isFirst = item._state === ITEM.waiting;
          if (isFirst) item._firstScan = scanNumber;
          bind(item, el, item._firstScan === scanNumber);
          if (isFirst) firstApply(item, el);
        }
      }
      if (!stale) break;
    }
    hide();
    // Our own mutations are not news.
    if (observer) observer.takeRecords();
    waiters = waiters.filter((waiter) => !waiter());
    // Watching starts after the first scan, so our own first changes are never recorded.
    if (items.some(live)) watch();
    else stop();
  }

  // How long an item waits for its element: element_timeout_ms while the page may be hidden for
  // it; an item that changes nothing visible (a click goal, a load action) waits behind the reveal
  // for the watch window, as its element may come later (a popup's button shown after a delay).
  const waitMs = (item: Item) => (item._visible ? settings.element_timeout_ms : watchMs);

  const activate = (item: Item) => {
    if (dead) return;
    item._state = ITEM.waiting;
    item._deadline = now() + waitMs(item);
    scan();
    later(scan, settings.element_timeout_ms + 1);
  };

  const apply = async (configs: readonly Config[]): Promise<ApplyResult> => {
    const result: ApplyResult = { applied: [], missing: [], pending: [], counts };
    const batch: Item[] = [];
    try {
      for (const config of configs) {
        if (dead || result.redirect) break;
        guard(() => {
          const base = config && config.variation_data_type === "HTML_ELEMENT" ? (config.variation as HtmlElementVariation) : null;
          if (!base || typeof base !== "object") return;
          const forDevice = (xp(config).config_modifications || {}).device_specific && base[ctx.device];
          const changes: HtmlElementVariation = forDevice ? { ...base, ...forDevice } : base;
          const meta = changes.customfit_meta || {};
          const selector = (config.properties || {}).element_path;
          let did = false;
          if (meta.global_actions) {
            const to = globalActions(kit, config, meta.global_actions);
            if (to) result.redirect = to;
            did = true;
          }
          if (result.redirect || !selector || typeof selector !== "string") {
            // A config without an element: its load action runs now.
            if (!result.redirect && meta.onload_action) {
              scriptAction(kit, config, meta.onload_action, "onload", "TRACK");
              did = true;
            }
            if (did) result.applied.push(config.config_id);
            return;
          }
          const fields = fieldsOf(changes);
          const visible = fields.length || meta.move_action || meta.swap_action || meta.edit_elem_action || meta.duplicate_actions;
          const item: Item = {
            _config: config,
            _changes: changes,
            _meta: meta,
            _selector: selector,
            _fields: fields,
            _state: ITEM.waiting,
            _deadline: Infinity,
            _visible: visible,
          };
          items.push(item);
          batch.push(item);
          const delay = Number(changes.cf_delay_apply_time) || 0;
          if (changes.cf_defer_apply || delay > 0) {
            item._state = ITEM.scheduled;
            const go = () => later(() => activate(item), delay);
            if (changes.cf_defer_apply) whenLoaded(kit, go);
            else onReady(kit, go);
          }
        });
      }
      if (result.redirect || !batch.length) return result;
      // Before the DOM is parsed, the elements the configs wait for are hidden one by one, so the
      // page is shown now and renders as it parses; they are changed once it is parsed (changing
      // them while the parser may still add to them, or to the elements a selector counts, gives
      // half-changed and wrong elements). After it, only what the first scan could not apply is
      // hidden.
      if (doc.readyState === "loading") {
        guard(hide);
        revealPage();
      }
      await new Promise<void>((resolve) => onReady(kit, resolve));
      if (dead) return result;
      const time = now();
      for (const item of batch) if (item._state === ITEM.waiting) item._deadline = time + waitMs(item);
      guard(scan);
      // Resolved (and the page revealed) once nothing visible waits. An item that changes nothing
      // visible itself (click and load actions, a click to perform) keeps waiting for its element
      // behind the reveal: it may be one that comes only after it, as a popup's button, and
      // holding the page hidden for it showed nothing sooner (the goal counters of a control wait
      // for elements it never has).
      await new Promise<void>((resolve) => {
        const done = () => (dead || batch.every((item) => item._state !== ITEM.waiting || !item._visible) ? (resolve(), true) : false);
        if (!done()) {
          waiters.push(done);
          later(scan, settings.element_timeout_ms + 1);
        }
      });
    } catch (e) {
      log("CFRUN001", e);
    }
    for (const item of batch) {
      const id = item._config.config_id;
      const waits = item._state === ITEM.scheduled || (item._state === ITEM.waiting && !item._visible && !dead);
      (waits ? result.pending! : item._everApplied ? result.applied : result.missing).push(id);
    }
    return result;
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
      for (const waiter of waiters) guard(waiter);
      waiters = [];
    },
  };
}
