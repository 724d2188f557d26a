// A goal's event name against the names the account received (pages/experience-editor/event-names.ts,
// docs/dashboard.md "Goals"): nothing to say when it was received or nothing was; otherwise a
// warning, with the received names it differs from only by case, separators or a `domain|` prefix.
import { describe, expect, it } from "vitest";
import type { EventNames } from "../src/api/event-names";
import { humanizeName } from "../src/pages/events/labels";
import { checkEventName } from "../src/pages/experience-editor/event-names";

const received = (names: string[], complete = true): EventNames => ({
  type: "TRACK",
  names: names.map((name) => ({ name, events: 1 })),
  window: 50_000,
  complete,
});

describe("checkEventName", () => {
  const shop = received(["add_to_cart", "checkout_started", "Add_To_Cart"]);

  it("a received name, as the goal keeps it (trimmed), is received; an empty one or no names received: nothing to say", () => {
    expect(checkEventName("add_to_cart", shop)).toEqual({ kind: "received" });
    expect(checkEventName("  add_to_cart  ", shop)).toEqual({ kind: "received" });
    expect(checkEventName("Add_To_Cart", shop)).toEqual({ kind: "received" });
    expect(checkEventName("", shop)).toBeNull();
    expect(checkEventName("   ", shop)).toBeNull();
    expect(checkEventName("add_to_cart", received([]))).toBeNull();
    expect(checkEventName("add_to_cart", undefined)).toBeNull();
  });

  it("the operator's F2 names: each differs only in how it is written, and the exact received names are suggested", () => {
    for (const typed of ["Add to cart", "ADD_TO_CART", "littlesprouts.localhost|add_to_cart", "add-to-cart", "addToCart", "add.to.cart"]) {
      expect(checkEventName(typed, shop), typed).toEqual({ kind: "unknown", suggestions: ["add_to_cart", "Add_To_Cart"], complete: true, window: 50_000 });
    }
    // What Live events shows for a received name leads back to it.
    expect(checkEventName(humanizeName("checkout_started"), shop)).toMatchObject({ suggestions: ["checkout_started"] });
  });

  it("a name like none received: a warning without suggestions, saying whether every event was looked at", () => {
    expect(checkEventName("signup", shop)).toEqual({ kind: "unknown", suggestions: [], complete: true, window: 50_000 });
    expect(checkEventName("add_to_basket", received(["add_to_cart"], false))).toEqual({ kind: "unknown", suggestions: [], complete: false, window: 50_000 });
    // Another part before the bar is no domain prefix of a received name's.
    expect(checkEventName("add_to_cart|x", shop)).toMatchObject({ suggestions: [] });
  });
});
