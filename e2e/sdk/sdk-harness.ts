// Shared set-up of the storefront-script browser tests: one fake provider and one Chromium per
// test file, a fresh visitor (browser context) per page, and a recorder of the script's document
// events and of uncaught page errors.

import { afterAll, afterEach, beforeAll } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { DOCUMENT_EVENTS } from "@storefit/contract";
import { launchBrowser, newVisitor } from "../browser.js";
import { startFakeProvider } from "../fake-provider.js";
import type { FakeProvider, FixturePage } from "../fake-provider.js";
// Brings the script's `window.storefit` and `window.storefitQueue` typings into the tests.
export type { StorefitApi } from "../../packages/sdk/src/boot/index.js";

export type RecordedEvent = { type: string; detail: unknown; at: number };

export type Opened = {
  page: Page;
  context: BrowserContext;
  /** Uncaught errors and unhandled rejections of the page. */
  errors: string[];
  /** Console messages of the page, as "type: text". */
  logs: string[];
  events: () => Promise<RecordedEvent[]>;
  visible: () => Promise<boolean>;
};

export function useSdkHarness() {
  const h = {} as { fake: FakeProvider; browser: Browser; contexts: BrowserContext[] };
  h.contexts = [];
  beforeAll(async () => {
    [h.fake, h.browser] = await Promise.all([startFakeProvider(), launchBrowser()]);
  });
  afterEach(async () => {
    // Close first (a closing page's last requests belong to this test), but never wait long:
    // the fake provider is reset for the next test even when a context is slow to close (whose
    // later requests would then still reach the next test's recordings).
    const open = h.contexts.splice(0);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([Promise.all(open.map((c) => c.close())), new Promise((r) => (timer = setTimeout(r, 10_000)))]);
    } finally {
      clearTimeout(timer);
      // A closed page's beacons can still be on their way: let them land in this test, not the next.
      await h.fake.quiet(250, 3_000);
      h.fake.reset();
    }
  });
  afterAll(async () => {
    await h.browser?.close();
    await h.fake?.close();
  });

  /** Serves `fixture` at `path` and opens it as a new visitor; waits for the load event. */
  async function open(path: string, fixture: FixturePage, opts: { host?: string; userAgent?: string; waitUntil?: "load" | "commit" } = {}): Promise<Opened> {
    h.fake.page(path.split("?")[0]!, fixture);
    const context = opts.userAgent
      ? await h.browser.newContext({ userAgent: opts.userAgent })
      : await newVisitor(h.browser);
    h.contexts.push(context);
    await context.addInitScript((names: string[]) => {
      const w = window as unknown as { __sf: unknown[] };
      w.__sf = [];
      for (const n of names) {
        document.addEventListener(n, (e) =>
          w.__sf.push({ type: n, detail: (e as CustomEvent).detail ?? null, at: performance.now() }),
        );
      }
    }, Object.values(DOCUMENT_EVENTS));
    const page = await context.newPage();
    const errors: string[] = [];
    const logs: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => logs.push(`${m.type()}: ${m.text()}`));
    await page.goto(h.fake.shopUrl(path, opts.host), { waitUntil: opts.waitUntil ?? "load" });
    return {
      page,
      context,
      errors,
      logs,
      events: () => page.evaluate(() => (window as unknown as { __sf: RecordedEvent[] }).__sf),
      visible: () =>
        page.evaluate(() => getComputedStyle(document.documentElement).visibility === "visible"),
    };
  }

  return Object.assign(h, { open });
}
