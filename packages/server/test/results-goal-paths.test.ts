// A fold matches goal pages against what arrived only (docs/results.md "Incremental results"): an
// account with more distinct page paths than a SQLite node remembers (goalPagePaths.cachePaths,
// lowered here) had every PAGE event of the account read again on each fold; a fold now reads
// only the new events' paths, and its answers stay exact.
import { afterAll, afterEach, beforeEach, expect, it } from "vitest";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type { TrackedEvent } from "@storefit/contract";
import { goalPagePaths } from "../src/store/sqlite/results.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { ClientWrite } from "../src/store/types.js";
import { EXPERIENCE, GOALS, expectedAggregate, expectedExposed, random, round } from "./support/results-data.js";
import type { Written } from "./support/results-data.js";

const store = openSqliteStore(":memory:");
store.migrate();
store.createAccount({ id: "acc", name: "Shop", client_key: "key-acc", settings: { ...SETTINGS_DEFAULTS, domain: "shop.example" } });
afterAll(() => store.close());

const defaultLimit = goalPagePaths.cachePaths;
beforeEach(() => {
  goalPagePaths.cachePaths = 20;
});
afterEach(() => {
  goalPagePaths.cachePaths = defaultLimit;
});

const expected = (written: Written) => ({ aggregate: expectedAggregate(written, GOALS), exposed: expectedExposed(written) });

/** Page views of `count` paths never seen before (every other one on the checkout goal's), by visitors u0…u9. */
function newPaths(tag: string, count: number, written: Written): ClientWrite[] {
  const writes: ClientWrite[] = [];
  for (let i = 0; i < count; i++) {
    const user = `u${i % 10}`;
    const event: TrackedEvent = {
      event_type: "PAGE",
      event_customer_id: "x|page",
      domain: "shop.example",
      insert_id: `path-${tag}-${i}`,
      event_timestamp: Date.UTC(2026, 10, 20) + i,
      properties: { page_path: i % 2 ? `/checkout/${tag}/${i}` : `/page/${tag}/${i}` },
    };
    writes.push({ kind: "events", accountId: "acc", userId: user, user: { user_customer_id: user, anonymous: true }, touch: false, events: [event], now: new Date(Date.UTC(2026, 11, 1)).toISOString() });
    written.events.push({ ...event, user_id: user, order: written.exposures.length + written.events.length });
  }
  return writes;
}

it("an account above the remembered paths: a fold reads only the new events' paths, and equals the definition", async () => {
  const next = random(77);
  const written: Written = { exposures: [], events: [] };
  store.commitClientWrites([...round(next, "acc", 0, 40, written), ...newPaths("a", 100, written)]);
  expect(await store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expected(written));
  for (let r = 1; r <= 3; r++) {
    const read = goalPagePaths.rowsRead;
    store.commitClientWrites([...round(next, "acc", r, 10, written), ...newPaths(`b${r}`, 6, written)]);
    const folded = await store.foldResults("acc", EXPERIENCE, GOALS);
    expect(folded).toEqual(expected(written));
    // The round's paths (4 of round() and 6 new ones) at most: not the account's 100 and more.
    expect(goalPagePaths.rowsRead - read).toBeLessThanOrEqual(10);
    expect(goalPagePaths.rowsRead - read).toBeGreaterThan(0);
  }
  // A full recompute lists every path (not remembered above the limit) and agrees.
  expect(store.resultsAggregate("acc", EXPERIENCE, GOALS)).toEqual(expected(written).aggregate);
});
