// A first view of a page that streams in (docs/decisions.md "When the page is revealed"): when the
// config answer comes while the page is still parsed, the page is revealed then and shows as it
// loads, the changed element hidden until the parsed page is changed; when the answer comes after
// the page is parsed, the page stays hidden until it is applied. Frame by frame, the original
// price is never shown.

import { describe, expect, it } from "vitest";
import type { FixturePage } from "../fake-provider.js";
import { newVisitor } from "../browser.js";
import { answer as answerOf, el } from "./fixtures/configs.js";
import { firstShown, framesOf, recordFrames } from "./frames.js";
import { useSdkHarness } from "./sdk-harness.js";

const h = useSdkHarness();

const answer = answerOf(el("#price", { innerHTML: "A" }, { id: "price" }));

// The header at once; the price 1.5 s later (the config answer comes before it, even on a busy
// machine), with more after it; the end 600 ms after that.
const streamed: FixturePage = {
  body: `<header id="top">Little Sprouts</header>`,
  parts: [
    { html: `<h1>Soap</h1><span id="price">$10.00</span><p>Made by hand.</p>`, afterMs: 1500 },
    { html: `<footer>Thanks</footer>`, afterMs: 600 },
  ],
};


/** A new visitor opens the streamed page, the config call answered after `delayMs`; its frames are recorded. */
async function visit(path: string, delayMs: number) {
  const context = await newVisitor(h.browser);
  h.contexts.push(context);
  await recordFrames(context, { target: "price", first: "top" });
  h.fake.answer("/v1/users/configs/", () => ({ json: answer, delayMs }));
  h.fake.page(path, streamed);
  const page = await context.newPage();
  await page.goto(h.fake.shopUrl(path), { waitUntil: "commit" });
  return page;
}

describe("a first view of a streamed page", () => {
  it("is revealed at an answer that comes while the page loads, and shows as it loads without the original price", async () => {
    const page = await visit("/streamed-first", 0);
    expect(await firstShown(page)).toMatchObject({ calls: 1, text: "A" });
    const seen = await framesOf(page);
    // Shown before the price arrived, and the price hidden while the page is parsed.
    expect(seen.some((f) => f.shown && f.first && f.text === null)).toBe(true);
    expect(seen.some((f) => f.shown && f.loading && f.text === "$10.00" && !f.visible)).toBe(true);
    expect(seen.filter((f) => f.shown && f.visible && f.text !== "A")).toEqual([]);
  });

  it("stays hidden until an answer that comes after the page is parsed is applied", async () => {
    const page = await visit("/streamed-late", 3000);
    expect(await firstShown(page)).toMatchObject({ calls: 1, text: "A" });
    // No frame shows the page before the answer is applied.
    expect((await framesOf(page)).filter((f) => f.shown && f.text !== "A")).toEqual([]);
  });
});
