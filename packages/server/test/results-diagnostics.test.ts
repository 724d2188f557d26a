// Why a running experience has few visitors (docs/results.md "Few visitors"), against real SQLite
// through GET /api/results: each cause from stored page views, exposures and the other running
// experiences, in the documented order, with the numbers behind it.
import { describe, expect, it, vi } from "vitest";
import type { ExperienceResults, ResultsDiagnostics, TrackedEvent } from "@storefit/contract";
import { userIdFor } from "../src/routes/client.js";
import type { Experience, NewExperience } from "../src/store/types.js";
import { call, FIXED_NOW, signedInEachTest, insertEvents, insertExposures } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

// Each test starts a fresh app and signs in (scrypt, slow on purpose): on a loaded shared machine
// that set-up alone can pass vitest's default 10 s.
vi.setConfig({ hookTimeout: 60_000 });

let t: TestApp;
let owner: Auth;

signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

const NOW_ISO = new Date(FIXED_NOW).toISOString();
const SHOP = "littlesprouts.localhost";

function experience(overrides: Partial<NewExperience> = {}): NewExperience {
  return {
    id: "exp_few",
    account_id: t.account.id,
    name: "Few visitors",
    status: "running",
    kind: "ab_test",
    priority: 0,
    exclusion_group: null,
    pages: [{ domain: SHOP, page_path: "/landing", page_match: "exact_match" }],
    goals: [],
    rules: [
      {
        id: "rule_few",
        audience_id: null,
        audience_name: "Everyone",
        behaviour: {
          id: "beh_few",
          name: "B",
          traffic_allocation: 1,
          variations: ["v_a", "v_b"].map((id) => ({
            id,
            name: id.toUpperCase(),
            weight: 1,
            configs: [
              {
                config_customer_id: "title",
                config_id: "cfg_title",
                variation_data_type: "HTML_ELEMENT" as const,
                variation: { innerHTML: id },
                properties: { element_path: "#landing-title", domain: SHOP, page_path: "/landing" },
              },
            ],
          })),
        },
      },
    ],
    ...overrides,
  } as NewExperience;
}

/** Saved now; page views and exposures are placed after its updated_at (they count from its last change). */
function save(e: NewExperience): { exp: Experience; after: (minutes: number) => number } {
  const exp = t.store.saveExperience(e);
  const start = Date.parse(exp.updated_at);
  return { exp, after: (minutes) => start + minutes * 60_000 };
}

let seq = 0;
function pageView(ucid: string, path: string, at: number, domain = SHOP) {
  const event: TrackedEvent = {
    event_type: "PAGE",
    event_customer_id: `${domain}|PAGE`,
    domain,
    insert_id: `pv_${seq++}`,
    event_timestamp: at,
    properties: { page_path: path },
  };
  insertEvents(t.store, t.account.id, userIdFor(t.account.id, ucid), [event], NOW_ISO);
}
function expose(ucid: string, at: number, experienceId = "exp_few") {
  insertExposures(t.store, 
    t.account.id,
    [{ config_id: "cfg_title", user_customer_id: ucid, user_id: userIdFor(t.account.id, ucid), requested_time: at, variation_id: "v_a", experience_id: experienceId, rule_id: "rule_few", session_id: "s1", probability: 0.5 }],
    NOW_ISO,
  );
}

async function diagnostics(id = "exp_few", query = ""): Promise<ResultsDiagnostics | null> {
  const res = await call(t.app, owner, "GET", `/api/results/${id}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ExperienceResults).diagnostics;
}

describe("few visitors: the cause", () => {
  it("no traffic: no page view on the account's domains since the experience's last change", async () => {
    const before = Date.now() - 60 * 60_000;
    const { after } = save(experience());
    pageView("old", "/landing", before); // before its last change
    pageView("elsewhere", "/landing", after(1), "other-shop.example"); // not the account's domain
    expect(await diagnostics()).toMatchObject({ cause: "no_traffic", page_views: 0, target_page_views: 0 });
  });

  it("pages never matched: page views, none on a target page; the most viewed pages are listed", async () => {
    const { after } = save(experience());
    for (let i = 0; i < 3; i++) pageView(`v${i}`, "/landing-page", after(i));
    pageView("v9", "/", after(5));
    expect(await diagnostics()).toEqual({
      cause: "pages_never_matched",
      since: expect.any(String),
      page_views: 4,
      target_page_views: 0,
      target_visitors: 0,
      exposed_visitors: 0,
      top_pages: [
        { page: `${SHOP}/landing-page`, views: 3 },
        { page: `${SHOP}/`, views: 1 },
      ],
      overlaps: [],
    });
  });

  it("page targets are matched as the script matches them (contains, query parts, subdomains)", async () => {
    const { after } = save(experience({ pages: [{ domain: "", page_path: "/products/", page_match: "contains" }] }));
    pageView("v1", "/products/bamboo-bib?ref=mail", after(1));
    pageView("v2", "/about", after(2));
    expect(await diagnostics()).toMatchObject({ cause: "audience_or_allocation", page_views: 2, target_page_views: 1, target_visitors: 1, exposed_visitors: 0 });
  });

  it("few shoppers: the visitors of the target pages were exposed, there are just few", async () => {
    const { after } = save(experience());
    for (let i = 0; i < 4; i++) {
      pageView(`v${i}`, "/landing", after(i));
      pageView(`v${i}`, "/landing", after(i + 10)); // views, not visitors, are many
      expose(`v${i}`, after(i));
    }
    expect(await diagnostics()).toMatchObject({ cause: "few_shoppers", page_views: 8, target_page_views: 8, target_visitors: 4, exposed_visitors: 4 });
  });

  it("audience or allocation: target page visitors, few let in, no overlap", async () => {
    const { after } = save(experience());
    for (let i = 0; i < 10; i++) pageView(`v${i}`, "/landing", after(i));
    expose("v0", after(0));
    expect(await diagnostics()).toMatchObject({ cause: "audience_or_allocation", target_page_views: 10, target_visitors: 10, exposed_visitors: 1, overlaps: [] });
  });

  it("overlap lost: a running experience of higher priority changes the same element on the target page", async () => {
    const other = experience({ id: "exp_winner", name: "Landing headline", priority: 5 });
    t.store.saveExperience(other);
    const { after } = save(experience());
    for (let i = 0; i < 12; i++) pageView(`v${i}`, "/landing", after(i));
    expect(await diagnostics()).toMatchObject({
      cause: "overlap_lost",
      target_page_views: 12,
      exposed_visitors: 0,
      overlaps: [{ experience_id: "exp_winner", name: "Landing headline", priority: 5, pages: [`${SHOP}/landing`], elements: ["#landing-title"] }],
    });
    // The winner itself lost nothing to this one.
    expect((await diagnostics("exp_winner"))?.cause).toBe("audience_or_allocation");
  });

  it("an overlap inside a mutually exclusive group is no loss: the two split the traffic", async () => {
    t.store.saveExperience(experience({ id: "exp_winner", name: "Landing headline", priority: 5, exclusion_group: { name: "landing", start: 0, end: 0.5 } }));
    const { after } = save(experience({ exclusion_group: { name: "landing", start: 0.5, end: 1 } }));
    for (let i = 0; i < 12; i++) pageView(`v${i}`, "/landing", after(i));
    expect(await diagnostics()).toMatchObject({ cause: "audience_or_allocation", overlaps: [] });
  });

  it("the traffic allocation sets what 'few let in' means", async () => {
    const e = experience();
    e.rules[0]!.behaviour.traffic_allocation = 0.1;
    const { after } = save(e);
    for (let i = 0; i < 10; i++) pageView(`v${i}`, "/landing", after(i));
    expose("v0", after(0)); // 1 of 10 at a 10 % allocation: as expected
    expect(await diagnostics()).toMatchObject({ cause: "few_shoppers", target_visitors: 10, exposed_visitors: 1 });
  });

  it("a date range counts page views from its start", async () => {
    const { after } = save(experience());
    pageView("v1", "/landing", after(1));
    const nextYear = new Date(after(0) + 366 * 86_400_000).toISOString().slice(0, 10);
    expect(await diagnostics("exp_few", `?from=${nextYear}`)).toMatchObject({ cause: "no_traffic", since: `${nextYear}T00:00:00.000Z` });
  });

  it("none for an experience that is not running, or has 100 visitors or more", async () => {
    save(experience({ status: "paused" }));
    expect(await diagnostics()).toBeNull();
    const { after } = save(experience());
    for (let i = 0; i < 100; i++) expose(`v${i}`, after(1));
    expect(await diagnostics()).toBeNull();
  });
});
