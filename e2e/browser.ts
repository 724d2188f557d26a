// Browser-side helpers every browser test shares: Debian's Chromium launched through
// playwright-core with the flags this machine needs, a normal desktop visitor, and polling.

import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import type { Browser, BrowserContext } from "playwright-core";

/** A normal desktop browser: headless Chromium's own UA says HeadlessChrome, a bot (spec §6). */
export const DESKTOP_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-quic",
  "--disable-sync",
];

export function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
    (p): p is string => !!p && existsSync(p),
  );
  if (!found) throw new Error("Chromium is missing: run `node scripts/ensure-chromium.mjs` (npm test does).");
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
}

export async function newVisitor(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ userAgent: DESKTOP_UA, viewport: { width: 1280, height: 800 } });
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000, what = "condition"): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
