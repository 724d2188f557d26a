// Which visitors keep a stored state row (docs/results.md "Incremental results"): a fold writes
// none for a visitor with few events (counted again from their exposures and events when
// something of theirs arrives), and one for a visitor with more than STATE_ROW_EVENTS candidate
// events, whose later events are then added to it. The answers stay the definition's
// (support/results-data.ts) and equal a state made from nothing, on both backends.
import { describe, expect, it } from "vitest";
import type { TrackedEvent } from "@storefit/contract";
import { STATE_ROW_EVENTS } from "../src/results/incremental.js";
import type { ClientWrite } from "../src/store/types.js";
import { EXPERIENCE, GOALS, SHOP, expectedFold, random, round } from "./support/results-data.js";
import type { Written } from "./support/results-data.js";
import { BACKENDS, openBackend } from "./support/stores.js";

const DAY = 86_400_000;
const now = new Date(Date.UTC(2026, 11, 1)).toISOString();

/** A visitor's exposure and `clicks` clicks after it (the "Any click" goal), in one write each. */
function busyVisitor(user: string, clicks: number, from: number, written: Written): ClientWrite[] {
  const visitor = { user_customer_id: user, anonymous: true };
  const exposure = {
    config_id: "cfg", user_customer_id: user, user_id: user, session_id: `s-${user}`, requested_time: Date.UTC(2026, 10, 3),
    variation_id: "vb", experience_id: EXPERIENCE, rule_id: "r1", behaviour_id: "r1-b", probability: 0.5, split: null, forced: false,
  };
  const events: TrackedEvent[] = Array.from({ length: clicks }, (_, i) => ({
    event_type: "CLICK", event_customer_id: "shop.example|button", domain: "shop.example", insert_id: `${user}-${from + i}`,
    event_timestamp: Date.UTC(2026, 10, 3) + DAY + from + i, properties: {},
  }));
  const writes: ClientWrite[] = [];
  if (from === 0) {
    writes.push({ kind: "exposures", accountId: "acc", userId: user, user: visitor, touch: false, exposures: [exposure], now });
    written.exposures.push({ ...exposure, order: written.exposures.length + written.events.length });
  }
  writes.push({ kind: "events", accountId: "acc", userId: user, user: visitor, touch: false, events, now });
  for (const e of events) written.events.push({ ...e, user_id: user, order: written.exposures.length + written.events.length });
  return writes;
}

describe.each(BACKENDS)("stored visitor states on %s", (name) => {
  it("a fold writes rows only for visitors with many events, and stays exact", async () => {
    const b = await openBackend(name);
    await b.store.createAccount(SHOP);
    // The visitors with a state row, in the order of their ids' bytes (both backends alike).
    const rows = async () => (await b.query<{ user_id: string }>("SELECT user_id FROM results_visitors")).map((r) => r.user_id).sort();
    const next = random(404);
    const written: Written = { exposures: [], events: [] };
    await b.store.commitClientWrites(round(next, "acc", 0, 30, written));
    expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expectedFold(written));
    // The build writes a row for every visitor it counted.
    const built = await rows();
    expect(built.length).toBeGreaterThan(10);
    // New visitors with a few clicks each, and the first round's visitors again: no new rows.
    for (let r = 1; r <= 3; r++) {
      const writes = round(next, "acc", r, 15, written);
      for (let i = 0; i < 10; i++) writes.push(...busyVisitor(`light-${r}-${i}`, 1 + (i % 4), 0, written));
      await b.store.commitClientWrites(writes);
      expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expectedFold(written));
    }
    expect((await rows()).filter((u) => !built.includes(u))).toEqual([]);
    // A visitor with more than STATE_ROW_EVENTS events gets a row, and their later clicks are added to it.
    await b.store.commitClientWrites(busyVisitor("busy", STATE_ROW_EVENTS + 5, 0, written));
    expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(expectedFold(written));
    expect((await rows()).filter((u) => !built.includes(u))).toEqual(["busy"]);
    await b.store.commitClientWrites(busyVisitor("busy", 3, 1_000, written));
    const folded = await b.store.foldResults("acc", EXPERIENCE, GOALS);
    expect(folded).toEqual(expectedFold(written));
    await b.exec("DELETE FROM results_state");
    expect(await b.store.foldResults("acc", EXPERIENCE, GOALS)).toEqual(folded);
  });
});
