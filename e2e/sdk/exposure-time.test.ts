// When a page view's exposures happened (docs/results.md "Conversions"): their `requested_time` is
// the moment the script began the view, so what the exposed view itself does (a custom event the
// page tracks while it loads, at DOMContentLoaded or at load) counts after exposure. Found by an
// operator's custom-event goal that counted 0 of 6 shoppers: the exposures were stamped when they
// were sent, after the revealed page's first frame, later than everything the page tracked.

import { describe, expect, it } from "vitest";
import { eventually } from "../browser.js";
import { useSdkHarness } from "./sdk-harness.js";
import { answer, el } from "./fixtures/configs.js";

const h = useSdkHarness();

const TRACKS = `<script>
  (window.storefitQueue = window.storefitQueue || []).push(["track", "in_head"]);
  document.addEventListener("DOMContentLoaded", function () { storefitQueue.push(["track", "at_ready"]); });
  window.addEventListener("load", function () { storefitQueue.push(["track", "at_load"]); });
</script>`;

type Sent = { event_type: string; name: string; event_timestamp: number };

describe("the exposures' requested_time", () => {
  it("is the start of the page view: events the exposed view tracks while it loads are at or after it", async () => {
    // The answer comes after the page has loaded, as on a slow network.
    h.fake.answer("/v1/users/configs/", () => ({ json: answer(el("#price", { innerHTML: "$8.00" }, { id: "price" })), delayMs: 200 }));
    const o = await h.open("/products/soap", { body: `<span id="price">$10.00</span>`, head: TRACKS });
    const summary = await eventually(() => h.fake.to("/v1/config/request/summary/")[0], 5000, "the config summaries");
    const tracked = await eventually(() => {
      const sent: Sent[] = h.fake.to("/v1/cfe/").flatMap((r) => r.body.events);
      const mine = sent.filter((e) => e.event_type === "TRACK" && ["in_head", "at_ready", "at_load"].includes(e.name));
      return mine.length === 3 ? mine : false;
    }, 5000, "the three tracked events");
    const requested = summary.body.summaries[0].requested_time as number;
    for (const e of tracked) expect(e.event_timestamp, e.name).toBeGreaterThanOrEqual(requested);
    // The view's own start, not a time after the answer: the answer came 200 ms after the request.
    const call = h.fake.to("/v1/users/configs/")[0]!;
    expect(requested).toBeLessThanOrEqual(call.at);
    expect(await o.page.locator("#price").innerText()).toBe("$8.00");
    expect(o.errors).toEqual([]);
  });
});
