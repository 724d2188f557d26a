// What a visitor could see, frame by frame: an init script records, in every animation frame
// (each runs before that frame's paint) until the page has loaded and been revealed, whether the
// page is shown (the script's hiding style gone), whether it is still parsed, and the text and
// visibility of one element. Tests of flicker read "the first text a frame showed" and "no frame
// showed the original", which a check at one moment cannot tell.

import type { BrowserContext, Page } from "playwright-core";

/** One animation frame: the page shown or not, still parsed or not, and the element's state. */
export type Frame = { shown: boolean; loading: boolean; first: boolean; text: string | null; visible: boolean };
/** At the reveal: when, and how many config calls had completed. */
export type Reveal = { at: number; calls: number };

type Recorded = { __reveal?: Reveal; __frames: Frame[] };

/**
 * Records every frame of the next pages of `context`: `target` is the id of the element whose
 * text is read; `first` the id of an element that comes before it in the page.
 */
export async function recordFrames(context: BrowserContext, ids: { target: string; first: string }): Promise<void> {
  await context.addInitScript(({ target, first }) => {
    const w = window as unknown as Recorded;
    w.__frames = [];
    document.addEventListener("storefit:revealed", () => {
      w.__reveal = {
        at: performance.now(),
        calls: performance.getEntriesByType("resource").filter((e) => e.name.includes("/v1/users/configs/")).length,
      };
    });
    let after = 0;
    const frame = () => {
      const el = document.getElementById(target);
      w.__frames.push({
        shown: !document.getElementById("storefit-hide"),
        loading: document.readyState === "loading",
        first: !!document.getElementById(first),
        text: el && el.textContent,
        visible: !!el && getComputedStyle(el).opacity !== "0",
      });
      if (!w.__reveal || document.readyState !== "complete" || ++after < 30) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, ids);
}

/** The reveal, and the element's text in the first frame that showed it. */
export async function firstShown(page: Page): Promise<Reveal & { text: string | null }> {
  await page.waitForFunction(() => (window as unknown as Recorded).__frames.some((f) => f.shown && f.visible), null, { timeout: 15_000 });
  return page.evaluate(() => {
    const w = window as unknown as Recorded;
    return { ...w.__reveal!, text: w.__frames.find((f) => f.shown && f.visible)!.text };
  });
}

/** Every frame recorded so far, once the page has loaded. */
export async function framesOf(page: Page): Promise<Frame[]> {
  await page.waitForFunction(() => document.readyState === "complete", null, { timeout: 15_000 });
  return page.evaluate(() => (window as unknown as Recorded).__frames);
}

/** Whether the reveal has happened. */
export const revealed = (page: Page) => page.waitForFunction(() => !!(window as unknown as Recorded).__reveal, null, { timeout: 15_000 });
