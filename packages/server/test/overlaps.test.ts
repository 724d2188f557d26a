// Overlaps (issue #16): experiences that can change the same element on the same page are named,
// with who wins, and mutually exclusive groups keep both measurable. Pure checks of
// admin/overlaps.ts, then the admin API against real SQLite with the demo account, whose running
// A/B test "Price message" (priority 10) rewrites #product-price on every US product page.
import { describe, expect, it } from "vitest";
import type { ExperienceDetail, ExperienceListResponse, ExperienceOverlapsResponse } from "@storefit/contract";
import { findOverlaps } from "../src/admin/overlaps.js";
import type { Experience } from "../src/store/types.js";
import { call, experienceBody, signedInEachTest } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

const DOMAIN = "shop.example";

function exp(id: string, over: Partial<Experience> & { element?: string; path?: string; match?: "exact_match" | "contains" } = {}): Experience {
  const { element = "#title", path = "/products/soap", match = "exact_match", ...rest } = over;
  return {
    id,
    account_id: "acc",
    name: `Experience ${id}`,
    status: "running",
    kind: "ab_test",
    priority: 0,
    exclusion_group: null,
    pages: [{ domain: DOMAIN, page_path: path, page_match: match }],
    rules: [
      {
        id: `rule_${id}`,
        audience_id: null,
        behaviour: {
          id: `beh_${id}`,
          name: "b",
          traffic_allocation: 1,
          variations: [
            { id: `${id}_control`, name: "Control", weight: 1, configs: [] },
            {
              id: `${id}_treat`,
              name: "Treatment",
              weight: 1,
              configs: [{ config_customer_id: `c_${id}`, config_id: `c_${id}`, variation_data_type: "HTML_ELEMENT", variation: { innerHTML: "x" }, properties: { element_path: element } }],
            },
          ],
        },
      },
    ],
    goals: [],
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...rest,
  };
}

describe("findOverlaps", () => {
  it("names the other experience, the page and the element both change, and who wins by priority", () => {
    const mine = exp("mine");
    const theirs = exp("theirs", { priority: 5, path: "/products/", match: "contains" });
    const [o, ...rest] = findOverlaps(mine, [theirs], DOMAIN);
    expect(rest).toEqual([]);
    expect(o).toEqual({
      experience: { id: "theirs", name: "Experience theirs", status: "running", priority: 5 },
      pages: ["shop.example/products/soap"],
      elements: ["#title"],
      winner: "other",
      exclusive: false,
    });
    // Seen from the other side, the same overlap is won.
    expect(findOverlaps(theirs, [mine], DOMAIN)[0]!.winner).toBe("this");
  });

  it("on equal priority the older experience wins, as the decision does", () => {
    const older = exp("older", { created_at: "2025-01-01T00:00:00.000Z" });
    expect(findOverlaps(exp("newer"), [older], DOMAIN)[0]!.winner).toBe("other");
  });

  it("finds no overlap on other elements, other pages, or itself", () => {
    const mine = exp("mine");
    expect(findOverlaps(mine, [exp("el", { element: "#price" }), exp("page", { path: "/cart" }), mine], DOMAIN)).toEqual([]);
  });

  it("checks two patterns on the sample pages it is given (pages shoppers viewed)", () => {
    const a = exp("a", { path: "/products/", match: "contains" });
    const b = exp("b", { path: "soap", match: "contains", priority: 2 });
    expect(findOverlaps(a, [b], DOMAIN)).toEqual([]);
    const [o] = findOverlaps(a, [b], DOMAIN, [{ domain: DOMAIN, page_path: "/products/soap-bar" }, { domain: DOMAIN, page_path: "/about" }]);
    expect(o!.pages).toEqual(["shop.example/products/soap-bar"]);
  });

  it("marks two members of one mutually exclusive group with separate slices as exclusive", () => {
    const a = exp("a", { exclusion_group: { name: "g", start: 0, end: 0.5 } });
    const b = exp("b", { exclusion_group: { name: "g", start: 0.5, end: 1 } });
    const c = exp("c", { exclusion_group: { name: "other", start: 0.5, end: 1 } });
    expect(findOverlaps(a, [b], DOMAIN)[0]!.exclusive).toBe(true);
    expect(findOverlaps(a, [c], DOMAIN)[0]!.exclusive).toBe(false);
  });
});

describe("the admin API", () => {
  let t: TestApp;
  let owner: Auth;
  signedInEachTest((app, auth) => {
    t = app;
    owner = auth;
  });

  /** A draft A/B test on one US product page that changes the price line, as the running price test does. */
  const priceTest = (over: Record<string, unknown> = {}) => {
    const body = experienceBody({ name: "Price colour", priority: 0, pages: [{ domain: "littlesprouts.localhost", page_path: "/products/gentle-baby-wash", page_match: "exact_match" }], ...over });
    for (const v of body.rules[0]!.behaviour.variations) for (const c of v.configs) c.properties.element_path = "#product-price";
    return body;
  };
  const create = async (body: unknown) => {
    const res = await call(t.app, owner, "POST", "/api/experiences", body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as ExperienceDetail;
  };
  const start = (id: string) => call(t.app, owner, "POST", `/api/experiences/${id}/status`, { status: "running" });

  it("GET /api/experiences/{id}/overlaps names the running price test, which wins the price line", async () => {
    const mine = await create(priceTest());
    const res = await call(t.app, owner, "GET", `/api/experiences/${mine.id}/overlaps`);
    expect(res.statusCode).toBe(200);
    const { overlaps } = res.json() as ExperienceOverlapsResponse;
    expect(overlaps).toEqual([
      {
        experience: { id: "exp_price_message", name: "Price message: free shipping", status: "running", priority: 10 },
        pages: ["littlesprouts.localhost/products/gentle-baby-wash"],
        elements: ["#product-price"],
        winner: "other",
        exclusive: false,
      },
    ]);
    expect((await call(t.app, owner, "GET", "/api/experiences/exp_nope/overlaps")).statusCode).toBe(404);
    expect((await call(t.app, null, "GET", `/api/experiences/${mine.id}/overlaps`)).statusCode).toBe(401);
  });

  it("stores a mutually exclusive group, lists it, and refuses to start a member whose slice overlaps a running one's", async () => {
    const a = await create(priceTest({ name: "A", exclusion_group: { name: "product-page", start: 0, end: 0.5 } }));
    expect(a.exclusion_group).toEqual({ name: "product-page", start: 0, end: 0.5 });
    const b = await create(priceTest({ name: "B", exclusion_group: { name: "product-page", start: 0.4, end: 1 } }));
    expect((await start(a.id)).statusCode).toBe(200);
    const refused = await start(b.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('overlaps the share of "A"');
    // A share of its own: both run.
    const moved = await call(t.app, owner, "PATCH", `/api/experiences/${b.id}`, { exclusion_group: { name: "product-page", start: 0.5, end: 1 } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await start(b.id)).statusCode).toBe(200);
    // While running, its slice cannot be moved onto A's.
    const back = await call(t.app, owner, "PATCH", `/api/experiences/${b.id}`, { exclusion_group: { name: "product-page", start: 0.2, end: 1 } });
    expect(back.statusCode).toBe(409);
    const list = (await call(t.app, owner, "GET", "/api/experiences")).json() as ExperienceListResponse;
    expect(list.experiences.find((e) => e.id === b.id)!.exclusion_group).toEqual({ name: "product-page", start: 0.5, end: 1 });
    expect(list.experiences.find((e) => e.id === "exp_price_message")!.exclusion_group).toBeNull();
  });

  it("refuses an empty slice with a 400 naming the group", async () => {
    const a = await create(priceTest({ exclusion_group: { name: "g", start: 0.5, end: 0.5 } }));
    const res = await start(a.id);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('group "g"');
    expect((await call(t.app, owner, "POST", "/api/experiences", priceTest({ exclusion_group: { name: "g", start: -1, end: 2 } }))).statusCode).toBe(400);
  });
});
