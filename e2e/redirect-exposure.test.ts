// A redirect test must not lose the exposure of the page being left (issue #16): fresh shoppers
// open a product page whose running experience redirects them (customfit_meta.global_actions
// .redirection) to another page; the config summary and the page view of the ORIGINAL page are
// stored, where results read them (the exposures and events tables), for every redirected visitor.
// Real service, real SQLite, the demo shop, Chromium.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { ConfigsRequest, ExperienceDetail, SessionInfo } from "@storefit/contract";
import { DEMO_DOMAIN, DEMO_PAGES } from "../packages/server/src/seed/demo-pages.js";
import { OWNER, eventually, launchBrowser, newVisitor, startStack } from "./harness.js";
import type { Stack } from "./harness.js";

const ACCOUNT = "acc_littlesprouts";
const SHOPPERS = 3;

let stack: Stack;
let browser: Browser;
const pages = DEMO_PAGES.filter((p) => p.domain === DEMO_DOMAIN);
const from = pages[0]!.page_path;
const to = pages[1]!.page_path;
let experienceId = "";

/** Creates and starts, through the admin API as the dashboard does, an experience that redirects `from` to `to`. */
async function startRedirectExperience(): Promise<string> {
  const signIn = await fetch(`${stack.apiUrl}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(OWNER),
  });
  const session = (await signIn.json()) as SessionInfo;
  const headers = {
    "content-type": "application/json",
    cookie: signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; "),
    "x-csrf-token": session.csrf_token,
  };
  const created = await fetch(`${stack.apiUrl}/api/experiences`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      name: "Redirect to the shampoo",
      kind: "ab_test",
      priority: 5,
      pages: [{ domain: DEMO_DOMAIN, page_path: from, page_match: "exact_match" }],
      goals: [],
      rules: [
        {
          id: "rule_e2e_redirect",
          audience_id: null,
          audience_name: "Everyone",
          behaviour: {
            id: "beh_e2e_redirect",
            name: "Redirect",
            traffic_allocation: 1,
            variations: [
              {
                id: "var_e2e_redirect",
                name: "Other page",
                weight: 1,
                configs: [
                  {
                    config_customer_id: "e2e_redirect",
                    config_id: "cfg_e2e_redirect",
                    variation_data_type: "HTML_ELEMENT",
                    variation: { customfit_meta: { global_actions: { redirection: { url: to } } } },
                    properties: { domain: DEMO_DOMAIN, page_path: from, page_match: "exact_match" },
                  },
                ],
              },
            ],
          },
        },
      ],
    }),
  });
  if (created.status !== 201) throw new Error(`creating the experience answered ${created.status}: ${await created.text()}`);
  const id = ((await created.json()) as ExperienceDetail).id;
  const started = await fetch(`${stack.apiUrl}/api/experiences/${id}/status`, { method: "POST", headers, body: JSON.stringify({ status: "running" }) });
  if (!started.ok) throw new Error(`starting answered ${started.status}: ${await started.text()}`);
  return id;
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  experienceId = await startRedirectExperience();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe("redirect tests", () => {
  // Each shopper is a fresh Chromium context: slow on a loaded two-core machine.
  it("store the exposure and the page view of the page being left, for every redirected visitor", { timeout: 150_000 }, async () => {
    const redirected: string[] = [];
    for (let i = 0; i < SHOPPERS; i++) {
      const context = await newVisitor(browser);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      // Who the visitor is: the config call names them (its answer is gone with the page it answered).
      const call = page.waitForRequest((r) => r.url().includes("/v1/users/configs/"));
      // The page view of the page redirected to goes out after that page's first frame: the
      // shopper is kept there until it has (a real one stays longer than a frame).
      const arrivedView = page.waitForRequest((r) => r.url().includes("/v1/cfe/") && (r.postData() ?? "").includes(`"page_path":"${to}"`));
      // "commit": the script leaves the page before its load event, which would abort a wait for "load".
      await page.goto(stack.shopUrl(from), { waitUntil: "commit" });
      const sent = JSON.parse((await call).postData() ?? "{}") as ConfigsRequest;
      expect(sent.current_page_path).toBe(from);
      await page.waitForURL((u) => u.pathname === to);
      await page.waitForFunction(() => !document.getElementById("storefit-hide"));
      await arrivedView;
      redirected.push(sent.user.user_customer_id);
      expect(errors).toEqual([]);
      await context.close();
    }

    for (const customerId of redirected) {
      const exposure = await eventually(
        async () => (await stack.store.listExposures(ACCOUNT, 500)).find((x) => x.user_customer_id === customerId && x.experience_id === experienceId),
        10_000,
        `the exposure of ${customerId} on ${from}`,
      );
      expect(exposure).toMatchObject({ config_id: "cfg_e2e_redirect", variation_id: "var_e2e_redirect", behaviour_id: "beh_e2e_redirect", rule_id: "rule_e2e_redirect" });
      const views = await eventually(async () => {
        const list = (await stack.store.listEvents(ACCOUNT, 500)).filter((e) => e.user_id === exposure.user_id && e.event_type === "PAGE");
        return list.some((e) => e.page_path === from) && list.some((e) => e.page_path === to) ? list : undefined;
      }, 10_000, `the page views of ${customerId}`);
      // The original page's view carries the exposure, as the summary call does.
      const left = views.find((e) => e.page_path === from)!;
      expect(left.event.config_summary?.map((s) => s.config_id)).toContain("cfg_e2e_redirect");
    }
    // And results read them: every redirected visitor counts for the variation.
    const visitors = await stack.store.exposureVisitors(ACCOUNT, experienceId);
    expect(visitors.distinct).toBe(SHOPPERS);
    expect(visitors.byVariation).toEqual([{ variation_id: "var_e2e_redirect", visitors: SHOPPERS }]);
  });
});
