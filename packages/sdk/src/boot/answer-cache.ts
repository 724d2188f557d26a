// The repeat-view answer cache (docs/api.md "Answer cache"): the last config answer the service
// marked cacheable, per visitor and page, kept in localStorage under a key of its own (a view reads
// only its page's answer), with a list of the pages kept for evicting the oldest. A repeat view applies it and
// reveals the page without waiting for the network when the snippet names the revision it was
// decided at and the visitor attributes it depends on hold the same values; the config call then
// runs behind the reveal and its answer replaces the kept one (boot/index.ts reconciles).

import type { AnswerCache, Config, StorefitSettings, User } from "@storefit/contract";
import { now, storageGetJson, storageRemove, storageSetJson } from "../env/globals.js";
import { STORAGE_KEYS } from "../core/storage-keys.js";

/** Pages kept per browser; the least recently answered goes first. */
const PAGES_KEPT = 20;
/** A kept answer older than this is not used. */
const MAX_AGE_MS = 7 * 86_400_000;

type Entry = {
  /** AnswerCache.revision */
  r: number;
  /** AnswerCache.attributes */
  a: readonly string[];
  /** Those attributes' values in the user the call sent, as JSON. */
  v: string;
  c: Config[];
  /** When it was kept (ms). */
  t: number;
};

/**
 * An attribute's value as the service's audience conditions read it from the user
 * (server decide/conditions.ts `attributesOf`): a User field, else a user property; `url` is the
 * page address property, `private` and `session` the scoped fields (compared whole).
 */
function attribute(user: User, name: string): unknown {
  const u = user as Record<string, unknown>;
  const props = (u.properties || {}) as Record<string, unknown>;
  if (name === "private" || name === "session") return u[name + "_fields"];
  if (name === "url") return props.cf_current_page_url;
  return name in u ? u[name] : props[name];
}

const valuesOf = (user: User, names: readonly string[]) => JSON.stringify(names.map((n) => attribute(user, n)));

/** The pages kept, newest first (JSON list); each page's answer is under this key + " " + page. */
const listKey = (prefix: string) => prefix + STORAGE_KEYS.answerCache;

/** The page's key: this visitor on this address (the decision reads the path and the query). */
export const answerPage = (user: User, loc: Location) => user.user_customer_id + " " + loc.hostname + loc.pathname + loc.search;

/** The kept answer's configs, when they may be shown on this view without asking; else null. */
export function keptAnswer(prefix: string, settings: StorefitSettings, user: User, page: string): Config[] | null {
  const e = storageGetJson<Entry | null>("localStorage", listKey(prefix) + " " + page, null);
  return e && e.r === settings.revision && now() - e.t < MAX_AGE_MS && Array.isArray(e.a) && Array.isArray(e.c) && e.v === valuesOf(user, e.a) ? e.c : null;
}

/** Keeps an answer the service marked cacheable, or forgets the page's answer (cache absent). */
export function keepAnswer(prefix: string, page: string, sentUser: User, cache: AnswerCache | undefined, configs: Config[]): void {
  const key = listKey(prefix);
  const list = storageGetJson<unknown>("localStorage", key, []);
  const pages = (Array.isArray(list) ? (list as string[]) : []).filter((p) => p !== page);
  if (cache) {
    pages.unshift(page);
    storageSetJson("localStorage", key + " " + page, { r: cache.revision, a: cache.attributes, v: valuesOf(sentUser, cache.attributes), c: configs, t: now() } satisfies Entry);
  } else storageRemove("localStorage", key + " " + page);
  for (const old of pages.splice(PAGES_KEPT)) storageRemove("localStorage", key + " " + old);
  storageSetJson("localStorage", key, pages);
}
