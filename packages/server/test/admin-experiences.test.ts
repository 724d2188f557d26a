// Experiences through the admin API: CRUD, validation, status changes, publishing that takes
// effect on every node's next config call, sticky assignments across edits, and results.
import { describe, expect, it, vi } from "vitest";
import type { ConfigsResponse, ExperienceDetail, ExperienceResults } from "@storefit/contract";
import { buildApp } from "../src/app.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import { userIdFor } from "../src/routes/client.js";
import { DEMO_CLIENT_KEY } from "../src/seed/demo.js";
import { addOperator, anotherNodeWritesAt, call, experienceBody, FIXED_NOW, FORM, MEMBER_PASSWORD, SHOP_ORIGIN, signedInEachTest, signIn, user, insertExposures } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;

signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

async function create(body: unknown = experienceBody(), auth: Auth = owner): Promise<ExperienceDetail> {
  const res = await call(t.app, auth, "POST", "/api/experiences", body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ExperienceDetail;
}

const setStatus = (id: string, status: string, auth: Auth = owner) => call(t.app, auth, "POST", `/api/experiences/${id}/status`, { status });

function configsFor(app = t.app, visitor = "visitor-1", path = "/") {
  return app
    .inject({
      method: "POST",
      url: `/v1/users/configs/?cfenc=${DEMO_CLIENT_KEY}`,
      headers: { "content-type": FORM, origin: SHOP_ORIGIN },
      payload: JSON.stringify({ user: user(visitor), current_page_path: path, current_domain: "littlesprouts.localhost" }),
    })
    .then((r) => r.json() as ConfigsResponse);
}

describe("CRUD", () => {
  it("creates a draft with the ids it was given, reads it, lists it", async () => {
    const created = await create();
    expect(created.id).toMatch(/^exp_/);
    expect(created).toMatchObject({ status: "draft", name: "Hero headline test", priority: 3 });
    expect(created.rules[0]!.behaviour.variations.map((v) => v.id)).toEqual(["var_a", "var_b"]);
    const read = await call(t.app, owner, "GET", `/api/experiences/${created.id}`);
    expect(read.json()).toEqual(created);
    const list = (await call(t.app, owner, "GET", "/api/experiences")).json() as { experiences: { id: string }[] };
    expect(list.experiences.map((e) => e.id)).toContain(created.id);
  });

  it("stores goals with their ids, assigns missing ones, and refuses fields a kind does not use", async () => {
    const goals = [
      { name: "Checkout", kind: "page_view", page: { page_path: "/checkout", page_match: "exact_match" } },
      { id: "goal_cart", name: "Add to cart", kind: "track", event_name: "add_to_cart" },
      { name: "Revenue", kind: "revenue", revenue_cap: 300 },
    ];
    const created = await create({ ...experienceBody(), goals });
    expect(created.goals.map((g) => g.name)).toEqual(["Checkout", "Add to cart", "Revenue"]);
    expect(created.goals[0]!.id).toMatch(/^goal_/);
    expect(created.goals[1]).toEqual(goals[1]);
    expect((await call(t.app, owner, "GET", `/api/experiences/${created.id}`)).json()).toEqual(created);
    // Without goals an experience has none.
    expect((await create()).goals).toEqual([]);

    const refused = [
      [{ name: "P", kind: "page_view" }, "needs its page"],
      [{ name: "P", kind: "page_view", page: { page_path: "(", page_match: "regex" } }, "not a valid regular expression"],
      [{ name: "C", kind: "click", page: { page_path: "/", page_match: "exact_match" } }, "only page-view goals"],
      [{ name: "R", kind: "revenue", event_name: "x" }, "only click, form and custom-event goals"],
      [{ name: "T", kind: "track", revenue_cap: 5 }, "only revenue goals"],
      [{ name: "R", kind: "revenue", revenue_cap: 0 }, "revenue_cap"],
      [{ name: "X", kind: "scroll" }, "kind"],
    ] as const;
    const before = (await call(t.app, owner, "GET", "/api/experiences")).json().experiences.length;
    for (const [goal, message] of refused) {
      const res = await call(t.app, owner, "POST", "/api/experiences", { ...experienceBody(), goals: [goal] });
      expect(res.statusCode, JSON.stringify(goal)).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    const dup = await call(t.app, owner, "POST", "/api/experiences", { ...experienceBody(), goals: [goals[1], goals[1]] });
    expect(dup.json().error.message).toContain('Duplicate goal id "goal_cart"');
    expect((await call(t.app, owner, "GET", "/api/experiences")).json().experiences.length).toBe(before);
  });

  it("assigns the ids a caller leaves out", async () => {
    const body = experienceBody();
    const rule = body.rules[0]!;
    delete (rule as { id?: string }).id;
    delete (rule as { audience_id?: unknown }).audience_id;
    delete (rule.behaviour as { id?: string }).id;
    for (const v of rule.behaviour.variations) delete (v as { id?: string }).id;
    const created = await create(body);
    const r = created.rules[0]!;
    expect(r.id).toMatch(/^rule_/);
    expect(r.audience_id).toBeNull();
    expect(r.behaviour.id).toMatch(/^beh_/);
    expect(new Set(r.behaviour.variations.map((v) => v.id)).size).toBe(2);
  });

  it("PUT replaces, PATCH replaces some fields, both keep the status; DELETE removes a non-running one", async () => {
    const created = await create();
    const put = await call(t.app, owner, "PUT", `/api/experiences/${created.id}`, experienceBody({ name: "Renamed", priority: 7 }));
    expect(put.json()).toMatchObject({ id: created.id, name: "Renamed", priority: 7, status: "draft", created_at: created.created_at });
    const patch = await call(t.app, owner, "PATCH", `/api/experiences/${created.id}`, { kind: "personalization" });
    expect(patch.json()).toMatchObject({ name: "Renamed", kind: "personalization", status: "draft" });
    expect((await call(t.app, owner, "DELETE", `/api/experiences/${created.id}`)).statusCode).toBe(204);
    expect((await call(t.app, owner, "GET", `/api/experiences/${created.id}`)).statusCode).toBe(404);
  });

  it("a seeded experience round-trips through PUT unchanged (the schema covers every config it uses)", async () => {
    for (const id of ["exp_price_message", "exp_uk_tax_line", "exp_welcome_popup", "exp_gallery_device"]) {
      const current = (await call(t.app, owner, "GET", `/api/experiences/${id}`)).json() as ExperienceDetail;
      const { name, kind, priority, pages, rules } = current;
      const res = await call(t.app, owner, "PUT", `/api/experiences/${id}`, { name, kind, priority, pages, rules });
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as ExperienceDetail).rules).toEqual(rules);
    }
  });
});

describe("validation: 4xx JSON, nothing stored", () => {
  const base = experienceBody();
  const variationA = base.rules[0]!.behaviour.variations[0]!;
  const withVariation = (v: unknown) => experienceBody({ rules: [{ ...base.rules[0], behaviour: { ...base.rules[0]!.behaviour, variations: [v] } }] });
  const withConfig = (c: Record<string, unknown>) => withVariation({ ...variationA, configs: [{ ...variationA.configs[0], ...c }] });
  const cases: [string, unknown, number, string][] = [
    ["missing name", { ...base, name: undefined }, 400, "invalid_body"],
    ["unknown top-level key", { ...base, status: "running" }, 400, "invalid_body"],
    ["wrong kind", { ...base, kind: "banner" }, 400, "invalid_body"],
    ["priority as a string", { ...base, priority: "high" }, 400, "invalid_body"],
    ["bad page match", { ...base, pages: [{ domain: "", page_path: "/", page_match: "glob" }] }, 400, "invalid_body"],
    // admin/patterns.ts: a pattern with nested repetition could hold a node for seconds on one
    // crafted page path; one that does not compile would match nothing.
    ["a page regex with nested repetition", { ...base, pages: [{ domain: "", page_path: "^/(a+)+b$", page_match: "regex" }] }, 400, "invalid_body"],
    ["a page regex with overlapping alternatives (exponential, star height 1)", { ...base, pages: [{ domain: "", page_path: "^/(\\w|\\d)+$", page_match: "regex" }] }, 400, "invalid_body"],
    ["a page regex of cubic time", { ...base, pages: [{ domain: "", page_path: "a.*b.*c", page_match: "regex" }] }, 400, "invalid_body"],
    ["a page regex that does not compile", { ...base, pages: [{ domain: "", page_path: "/products/(", page_match: "regex" }] }, 400, "invalid_body"],
    ["a config page regex with nested repetition", withConfig({ properties: { ...variationA.configs[0]!.properties, page_path: "(x*)*y", page_match: "regex" } }), 400, "invalid_body"],
    ["a goal page regex with nested repetition", { ...base, goals: [{ name: "Checkout", kind: "page_view", page: { domain: "", page_path: "^/(\\w+\\/?)*$", page_match: "regex" } }] }, 400, "invalid_body"],
    ["traffic over 1", withVariation(variationA) && experienceBody({ rules: [{ ...base.rules[0], behaviour: { ...base.rules[0]!.behaviour, traffic_allocation: 1.5 } }] }), 400, "invalid_body"],
    ["negative weight", withVariation({ ...variationA, weight: -1 }), 400, "invalid_body"],
    ["an id with a colon", withVariation({ ...variationA, id: "a:b" }), 400, "invalid_body"],
    ["unknown variation field", withConfig({ variation: { innerHtml: "typo" } }), 400, "invalid_body"],
    ["a NUMBER config holding text", withConfig({ variation_data_type: "NUMBER", variation: "ten" }), 400, "invalid_body"],
    ["a template without settings' trigger", withConfig({ variation: { customfit_meta: { custom_template: { id: "t", properties: { settings: {} } } } } }), 400, "invalid_body"],
    ["a move without a position", withConfig({ variation: { customfit_meta: { move_action: { target: "#x" } } } }), 400, "invalid_body"],
    ["duplicate variation ids", withVariation(variationA) && experienceBody({ rules: [{ ...base.rules[0], behaviour: { ...base.rules[0]!.behaviour, variations: [variationA, variationA] } }] }), 400, "invalid_body"],
    ["an audience that does not exist", experienceBody({ rules: [{ ...base.rules[0], audience_id: "aud_nope" }] }), 400, "invalid_reference"],
    ["invalid JSON", "{oops", 400, "invalid_json"],
    ["a JSON array", "[]", 400, "invalid_body"],
  ];
  for (const [name, body, status, code] of cases) {
    it(`${name} → ${status} ${code}`, async () => {
      const before = t.store.listExperiences(t.account.id).length;
      const res = await call(t.app, owner, "POST", "/api/experiences", body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ error: { code } });
      expect(t.store.listExperiences(t.account.id)).toHaveLength(before);
      expect((await t.app.inject("/healthz")).statusCode).toBe(200);
    });
  }

  it("patterns operators write save: anchored, optional groups, lookbehind, quadratic .*", async () => {
    for (const page_path of ["^/products(/[a-z-]+)?$", "(?<=/p/)shoes", "/products/.*/reviews", ".*checkout.*"]) {
      const res = await call(t.app, owner, "POST", "/api/experiences", { ...base, pages: [{ domain: "", page_path, page_match: "regex" }] });
      expect(res.statusCode, `${page_path}: ${res.body}`).toBe(201);
    }
  });

  it("an experience holding a slow pattern saved before the check cannot be started (409 naming it)", async () => {
    const created = (await call(t.app, owner, "POST", "/api/experiences", base)).json() as ExperienceDetail;
    const stored = t.store.getExperience(t.account.id, created.id)!;
    t.store.saveExperience({ ...stored, pages: [{ domain: "", page_path: "^/(a|a)*$", page_match: "regex" }] });
    const res = await setStatus(created.id, "running");
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: { code: "not_publishable", message: expect.stringContaining("exponential") } });
    expect(t.store.getExperience(t.account.id, created.id)!.status).toBe("draft");
  });

  it("a safe page regex saves; a PUT with an unsafe one is refused and the stored experience stays", async () => {
    const safe = [{ domain: "", page_path: "^/products/[a-z-]+$", page_match: "regex" }];
    const created = await call(t.app, owner, "POST", "/api/experiences", { ...base, pages: safe });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as ExperienceDetail).id;
    const put = await call(t.app, owner, "PUT", `/api/experiences/${id}`, { ...base, pages: [{ domain: "", page_path: "^(/?[a-z]+)+$", page_match: "regex" }] });
    expect(put.statusCode, put.body).toBe(400);
    expect(put.json()).toMatchObject({ error: { code: "invalid_body", message: expect.stringContaining("Page 1") } });
    expect(t.store.getExperience(t.account.id, id)!.pages).toEqual(safe);
  });

  it("a body over 1 MiB → 413; a form body → 415; nothing stored", async () => {
    const big = experienceBody({ name: "x".repeat(1_100_000) });
    expect((await call(t.app, owner, "POST", "/api/experiences", big)).statusCode).toBe(413);
    const form = await call(t.app, owner, "POST", "/api/experiences", JSON.stringify(experienceBody()), { "content-type": FORM });
    expect(form.statusCode).toBe(415);
    expect(form.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
    expect(t.store.listExperiences(t.account.id)).toHaveLength(4);
  });

  it("unknown ids answer 404 JSON", async () => {
    for (const [method, url] of [["GET", "/api/experiences/exp_none"], ["DELETE", "/api/experiences/exp_none"], ["GET", "/api/results/exp_none"]] as const) {
      const res = await call(t.app, owner, method, url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: "not_found" } });
    }
  });
});

describe("optimistic concurrency: ETag and If-Match", () => {
  const read = (id: string) => call(t.app, owner, "GET", `/api/experiences/${id}`);
  const etagOf = (res: { headers: Record<string, unknown> }) => res.headers.etag as string;

  it("sends a strong ETag with the experience on GET, POST, PUT, PATCH and status changes", async () => {
    const created = await call(t.app, owner, "POST", "/api/experiences", experienceBody());
    const tag = etagOf(created);
    expect(tag).toMatch(/^"[^"]+"$/);
    expect(tag).toContain(created.json().updated_at);
    const id = created.json().id as string;
    expect(etagOf(await read(id))).toBe(tag);
    const put = await call(t.app, owner, "PUT", `/api/experiences/${id}`, { ...experienceBody(), name: "Renamed" });
    expect(etagOf(put)).not.toBe(tag);
    // The answer's ETag is the stored one: a write can follow it without reading again.
    expect(etagOf(await read(id))).toBe(etagOf(put));
    const patch = await call(t.app, owner, "PATCH", `/api/experiences/${id}`, { priority: 9 });
    expect(etagOf(await read(id))).toBe(etagOf(patch));
    const status = await setStatus(id, "running");
    expect(etagOf(status)).not.toBe(etagOf(patch));
    expect(etagOf(await read(id))).toBe(etagOf(status));
  });

  it("PUT and PATCH with a stale If-Match answer 412 precondition_failed and store nothing", async () => {
    const created = await call(t.app, owner, "POST", "/api/experiences", experienceBody());
    const id = created.json().id as string;
    const loaded = etagOf(created);
    // Another writer (the visual editor) saves meanwhile.
    const other = await call(t.app, owner, "PATCH", `/api/experiences/${id}`, { name: "Saved by the visual editor" }, { "if-match": loaded });
    expect(other.statusCode, other.body).toBe(200);
    const stored = (await read(id)).json();

    for (const [method, body] of [["PUT", { ...experienceBody(), name: "Old tab" }], ["PATCH", { name: "Old tab" }]] as const) {
      const res = await call(t.app, owner, method, `/api/experiences/${id}`, body, { "if-match": loaded });
      expect(res.statusCode, res.body).toBe(412);
      expect(res.json()).toEqual({ error: { code: "precondition_failed", message: expect.stringContaining("changed") } });
    }
    // A weak ETag never matches (strong comparison).
    const weak = await call(t.app, owner, "PATCH", `/api/experiences/${id}`, { name: "Weak" }, { "if-match": `W/${etagOf(other)}` });
    expect(weak.statusCode).toBe(412);
    expect((await read(id)).json()).toEqual(stored);
  });

  it("saves with a matching If-Match (one of a list, or *), and without If-Match as before", async () => {
    const created = await call(t.app, owner, "POST", "/api/experiences", experienceBody());
    const id = created.json().id as string;
    const put = await call(t.app, owner, "PUT", `/api/experiences/${id}`, { ...experienceBody(), name: "One" }, { "if-match": `"nope", ${etagOf(created)}` });
    expect(put.statusCode, put.body).toBe(200);
    expect((await read(id)).json().name).toBe("One");
    const star = await call(t.app, owner, "PATCH", `/api/experiences/${id}`, { name: "Two" }, { "if-match": "*" });
    expect(star.statusCode, star.body).toBe(200);
    const plain = await call(t.app, owner, "PUT", `/api/experiences/${id}`, { ...experienceBody(), name: "Three" });
    expect(plain.statusCode, plain.body).toBe(200);
    const plainPatch = await call(t.app, owner, "PATCH", `/api/experiences/${id}`, { name: "Four" });
    expect(plainPatch.statusCode, plainPatch.body).toBe(200);
    expect((await read(id)).json().name).toBe("Four");
  });

  it("two saves in the same millisecond still conflict", async () => {
    const created = await call(t.app, owner, "POST", "/api/experiences", experienceBody());
    const id = created.json().id as string;
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T09:00:00.000Z") });
    try {
      const first = await call(t.app, owner, "PATCH", `/api/experiences/${id}`, { name: "First" }, { "if-match": etagOf(created) });
      const second = await call(t.app, owner, "PATCH", `/api/experiences/${id}`, { name: "Second" }, { "if-match": etagOf(first) });
      expect(second.statusCode, second.body).toBe(200);
      expect(second.json().updated_at).toBe(first.json().updated_at);
      expect(etagOf(second)).not.toBe(etagOf(first));
      const late = await call(t.app, owner, "PATCH", `/api/experiences/${id}`, { name: "Late" }, { "if-match": etagOf(first) });
      expect(late.statusCode, late.body).toBe(412);
      expect((await read(id)).json().name).toBe("Second");
    } finally {
      vi.useRealTimers();
    }
  });

  // Node A reads the experience, checks If-Match and writes it back; node B (another process)
  // tries to save an edit in between. It must not land there, or A's write would silently drop
  // it: B waits for A's write lock (test/concurrency.test.ts covers the other handlers).
  for (const [what, request] of [
    ["PATCH", (id: string, etag: string) => call(t.app, owner, "PATCH", `/api/experiences/${id}`, { name: "Node A" }, { "if-match": etag })],
    ["PUT", (id: string, etag: string) => call(t.app, owner, "PUT", `/api/experiences/${id}`, { ...experienceBody(), name: "Node A" }, { "if-match": etag })],
    ["a status change", (id: string) => setStatus(id, "archived")],
  ] as const) {
    it(`${what} on one node: another node's write cannot land between its read and its write`, async () => {
      const created = await call(t.app, owner, "POST", "/api/experiences", experienceBody());
      const id = created.json().id as string;
      const nodeB = anotherNodeWritesAt(t, (b) => b.saveExperience({ ...b.getExperience(t.account.id, id)!, priority: 42 }));
      try {
        const res = await request(id, etagOf(created));
        expect(res.statusCode, res.body).toBe(200);
      } finally {
        nodeB.done();
      }
      expect(nodeB.outcome()).toBe("waited");
    });
  }

  it("documents 412 for PUT and PATCH in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    const op = doc.paths["/api/experiences/{id}"];
    expect(op.put.responses["412"]).toBeDefined();
    expect(op.patch.responses["412"]).toBeDefined();
  });
});

describe("sticky assignments across rules", () => {
  it("a visitor who matched another rule in between keeps their variation of the first rule after its weights change", async () => {
    const audience = (await call(t.app, owner, "POST", "/api/audiences", { name: "Spring campaign", condition: { utm_campaign: "spring" } })).json() as { id: string };
    const base = experienceBody();
    const [a, b] = base.rules[0]!.behaviour.variations;
    const springRule = (weights: [number, number]) => ({
      id: "rule_spring",
      audience_id: audience.id,
      behaviour: { ...base.rules[0]!.behaviour, id: "beh_spring", variations: [{ ...a!, weight: weights[0] }, { ...b!, weight: weights[1] }] },
    });
    const everyoneRule = {
      id: "rule_everyone",
      audience_id: null,
      behaviour: { ...base.rules[0]!.behaviour, id: "beh_everyone", variations: [{ ...a!, id: "var_c", name: "C", weight: 1 }] },
    };
    const created = await create(experienceBody({ rules: [springRule([1, 1]), everyoneRule] }));
    expect((await setStatus(created.id, "running")).statusCode).toBe(200);
    const variationOf = async (visitor: string, campaign?: string) => {
      const res = await t.app.inject({
        method: "POST",
        url: `/v1/users/configs/?cfenc=${DEMO_CLIENT_KEY}`,
        headers: { "content-type": FORM, origin: SHOP_ORIGIN },
        payload: JSON.stringify({ user: user(visitor, campaign ? { utm_campaign: campaign } : {}), current_page_path: "/", current_domain: "littlesprouts.localhost" }),
      });
      return (res.json() as ConfigsResponse).configs.hero_title?.variation_id;
    };
    // A visitor the spring rule puts in A (50/50: one of the first few).
    let visitor = "";
    for (let i = 0; i < 40 && !visitor; i++) if ((await variationOf(`sticky-${i}`, "spring")) === "var_a") visitor = `sticky-${i}`;
    expect(visitor).not.toBe("");
    // They come back without the campaign: the everyone rule, its own assignment.
    expect(await variationOf(visitor)).toBe("var_c");
    // The spring rule now sends everyone new to B; the visitor assigned to A stays in A.
    const put = await call(t.app, owner, "PUT", `/api/experiences/${created.id}`, experienceBody({ rules: [springRule([0, 1]), everyoneRule] }));
    expect(put.statusCode, put.body).toBe(200);
    expect(await variationOf("sticky-newcomer", "spring")).toBe("var_b");
    expect(await variationOf(visitor, "spring")).toBe("var_a");
    expect(await variationOf(visitor)).toBe("var_c");
  });
});

describe("status and publishing", () => {
  it("publishing takes effect on the next config call; pausing removes it", async () => {
    const created = await create();
    expect((await configsFor()).configs).toEqual({});
    const published = await setStatus(created.id, "running");
    expect(published.json()).toMatchObject({ status: "running" });
    const answer = await configsFor();
    expect(answer.configs.hero_title?.experience_behaviour_response?.experience_id).toBe(created.id);
    // An edit of a running experience shows at once too.
    await call(t.app, owner, "PATCH", `/api/experiences/${created.id}`, { pages: [{ domain: "", page_path: "/cart", page_match: "exact_match" }] });
    expect((await configsFor()).configs).toEqual({});
    expect((await configsFor(t.app, "visitor-1", "/cart")).configs.hero_title).toBeDefined();
    await setStatus(created.id, "paused");
    expect((await configsFor(t.app, "visitor-1", "/cart")).configs).toEqual({});
  });

  it("takes effect on every node: a second service on the same database sees the publish", async () => {
    const nodeB = openSqliteStore(t.file);
    const appB = await buildApp({ store: nodeB, clock: () => FIXED_NOW });
    try {
      const created = await create();
      expect((await configsFor(appB)).configs).toEqual({}); // node B caches the account now
      await setStatus(created.id, "running"); // through node A
      expect((await configsFor(appB)).configs.hero_title?.experience_behaviour_response?.experience_id).toBe(created.id);
    } finally {
      await appB.close();
      nodeB.close();
    }
  });

  it("allows only the documented transitions", async () => {
    const created = await create();
    const steps: [string, number][] = [
      ["paused", 409],
      ["running", 200],
      ["draft", 409],
      ["paused", 200],
      ["running", 200],
      ["archived", 200],
      ["running", 409],
      ["draft", 200],
    ];
    for (const [status, code] of steps) {
      const res = await setStatus(created.id, status);
      expect(res.statusCode, `→ ${status}`).toBe(code);
      if (code === 409) expect(res.json()).toMatchObject({ error: { code: "invalid_transition" } });
    }
    expect((await setStatus(created.id, "live")).statusCode).toBe(400);
  });

  it("refuses to publish what cannot run, and to break a running experience by an edit", async () => {
    const noPages = await create(experienceBody({ pages: [] }));
    const res = await setStatus(noPages.id, "running");
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: { code: "not_publishable" } });
    const running = await create();
    await setStatus(running.id, "running");
    const edit = await call(t.app, owner, "PATCH", `/api/experiences/${running.id}`, { rules: [] });
    expect(edit.statusCode).toBe(409);
    expect(t.store.getExperience(t.account.id, running.id)!.rules).toHaveLength(1);
    expect((await call(t.app, owner, "DELETE", `/api/experiences/${running.id}`)).statusCode).toBe(409);
  });
});

describe("sticky assignments across edits", () => {
  it("visitors keep their variation when weights change; a removed variation reassigns its visitors", async () => {
    const created = await create();
    await setStatus(created.id, "running");
    const visitors = Array.from({ length: 40 }, (_, i) => `sticky-${i}`);
    const first = new Map<string, string>();
    for (const v of visitors) first.set(v, (await configsFor(t.app, v)).configs.hero_title!.variation_id);
    const onB = visitors.filter((v) => first.get(v) === "var_b");
    expect(onB.length).toBeGreaterThan(5);
    expect(onB.length).toBeLessThan(35);

    // Weights 1:1 → 1:0. Everyone assigned keeps their variation; a new visitor gets A.
    const body = experienceBody();
    body.rules[0]!.behaviour.variations[1]!.weight = 0;
    expect((await call(t.app, owner, "PUT", `/api/experiences/${created.id}`, body)).statusCode).toBe(200);
    for (const v of visitors) expect((await configsFor(t.app, v)).configs.hero_title!.variation_id).toBe(first.get(v));
    for (let i = 0; i < 10; i++) expect((await configsFor(t.app, `fresh-${i}`)).configs.hero_title!.variation_id).toBe("var_a");

    // Remove B: its visitors move to A; A's visitors stay.
    body.rules[0]!.behaviour.variations.splice(1, 1);
    expect((await call(t.app, owner, "PUT", `/api/experiences/${created.id}`, body)).statusCode).toBe(200);
    for (const v of visitors) expect((await configsFor(t.app, v)).configs.hero_title!.variation_id).toBe("var_a");
    const account = t.store.getAccountByClientKey(DEMO_CLIENT_KEY)!;
    expect(t.store.countRows("assignments", account.id)).toBe(visitors.length + 10);
  });
});

describe("results", () => {
  it("counts distinct exposed visitors per variation from the stored summaries", async () => {
    const summary = (visitor: string, variation: string, session: string) => ({
      config_id: "cfg_price_message_gentle-baby-wash",
      user_customer_id: visitor,
      requested_time: FIXED_NOW,
      variation_id: variation,
      experience_id: "exp_price_message",
      session_id: session,
    });
    const summaries = [
      summary("a", "var_price_control", "s1"),
      summary("a", "var_price_control", "s2"), // the same visitor again: counted once
      summary("b", "var_price_control", "s1"),
      summary("c", "var_price_free_shipping", "s1"),
      summary("d", "var_removed", "s1"),
    ];
    // Stored as randomised exposures (through the client API, a summary no stored assignment
    // stands behind is forced and left out of the results: results.test.ts).
    insertExposures(t.store, 
      t.account.id,
      summaries.map((s) => ({ ...s, user_id: userIdFor(t.account.id, s.user_customer_id), probability: 0.5 })),
      new Date(FIXED_NOW).toISOString(),
    );
    const results = (await call(t.app, owner, "GET", "/api/results/exp_price_message")).json() as ExperienceResults;
    expect(results).toMatchObject({
      experience_id: "exp_price_message",
      total_visitors: 4,
      variations: [
        { variation_id: "var_price_control", name: "Control", visitors: 2, share: 0.5, expected_share: 0.5 },
        { variation_id: "var_price_free_shipping", name: "Free shipping", visitors: 1, share: 0.25, expected_share: 0.5 },
        { variation_id: "var_removed", name: null, visitors: 1, share: 0.25, expected_share: null },
      ],
    });
    const empty = (await call(t.app, owner, "GET", "/api/results/exp_uk_tax_line")).json() as ExperienceResults;
    expect(empty).toMatchObject({
      experience_id: "exp_uk_tax_line",
      total_visitors: 0,
      variations: [{ variation_id: "var_uk_tax_line", name: "VAT included, free delivery", visitors: 0, share: 0, expected_share: 1 }],
    });
  });
});

describe("roles", () => {
  it("a viewer reads experiences and results but changes nothing; an editor edits and publishes", async () => {
    await addOperator(t.store, t.account.id, "viewer@test.example", "viewer");
    await addOperator(t.store, t.account.id, "editor@test.example", "editor");
    const viewer = await signIn(t.app, { email: "viewer@test.example", password: MEMBER_PASSWORD });
    const editor = await signIn(t.app, { email: "editor@test.example", password: MEMBER_PASSWORD });
    expect((await call(t.app, viewer, "GET", "/api/experiences/exp_price_message")).statusCode).toBe(200);
    expect((await call(t.app, viewer, "GET", "/api/results/exp_price_message")).statusCode).toBe(200);
    for (const [method, url, body] of [
      ["POST", "/api/experiences", experienceBody()],
      ["PATCH", "/api/experiences/exp_price_message", { name: "x" }],
      ["PUT", "/api/experiences/exp_price_message", experienceBody()],
      ["DELETE", "/api/experiences/exp_price_message", undefined],
      ["POST", "/api/experiences/exp_price_message/status", { status: "paused" }],
    ] as const) {
      const res = await call(t.app, viewer, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({ error: { code: "forbidden" } });
    }
    expect(t.store.getExperience(t.account.id, "exp_price_message")!.status).toBe("running");
    const made = await create(experienceBody(), editor);
    expect((await setStatus(made.id, "running", editor)).statusCode).toBe(200);
  });

  it("a write without the CSRF token is refused before anything is read or stored", async () => {
    const { cookie } = owner as { cookie: string };
    const res = await t.app.inject({ method: "POST", url: "/api/experiences", headers: { cookie, "content-type": "application/json" }, payload: JSON.stringify(experienceBody()) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: { code: "csrf" } });
    expect(t.store.listExperiences(t.account.id)).toHaveLength(4);
  });
});
