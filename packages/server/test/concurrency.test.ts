// Admin writes that read, check and write (product.md §3: the admin API on every node): each is
// one of the store's atomic operations, so a write from another node — a second connection to
// the same SQLite file here — cannot land between the check and the write. A handler that read
// outside the atomic write would show "landed" or null below. The If-Match cases are in
// admin-experiences.test.ts; the same rules on PostgreSQL in store-contract.test.ts.
import { describe, expect, it, vi } from "vitest";
import { hashPassword } from "../src/auth/password.js";
import { addOperator, anotherNodeWritesAt, call, experienceBody, MEMBER_PASSWORD, signedInEachTest } from "./helpers.js";
import type { Auth, TestApp } from "./helpers.js";

let t: TestApp;
let owner: Auth;

signedInEachTest((app, auth) => {
  t = app;
  owner = auth;
});

/** Runs `request` while another node tries `write` at the handler's `method` read; answers the status and what became of the other write. */
async function race(write: Parameters<typeof anotherNodeWritesAt>[1], request: () => Promise<{ statusCode: number; body: string }>) {
  const nodeB = anotherNodeWritesAt(t, write);
  try {
    const res = await request();
    return { status: res.statusCode, body: res.body, other: nodeB.outcome() };
  } finally {
    nodeB.done();
  }
}

const newAudience = async (name = "Gold tier") => {
  const res = await call(t.app, owner, "POST", "/api/audiences", { name, condition: { "private.tier": "gold" } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};

describe("experiences", () => {
  it("DELETE: an experience published on another node after the check is not deleted", async () => {
    const id = (await call(t.app, owner, "POST", "/api/experiences", experienceBody())).json().id as string;
    const r = await race(
      (b) => b.saveExperience({ ...b.getExperience(t.account.id, id)!, status: "running" }),
      () => call(t.app, owner, "DELETE", `/api/experiences/${id}`),
    );
    expect(r).toMatchObject({ status: 204, other: "waited" });
  });

  it("POST: the audience its rule names cannot be deleted between the check and the insert", async () => {
    const audience = await newAudience();
    const body = experienceBody();
    body.rules[0]!.audience_id = audience as never;
    const r = await race(
      (b) => b.deleteAudience(t.account.id, audience),
      () => call(t.app, owner, "POST", "/api/experiences", body),
    );
    expect(r).toMatchObject({ status: 201, other: "waited" });
    expect(t.store.getAudience(t.account.id, audience)).not.toBeNull();
  });
});

describe("audiences", () => {
  it("PUT: an audience deleted on another node is not re-created by the replace", async () => {
    const audience = await newAudience();
    const r = await race(
      (b) => b.deleteAudience(t.account.id, audience),
      () => call(t.app, owner, "PUT", `/api/audiences/${audience}`, { name: "Renamed", condition: { "private.tier": "gold" } }),
    );
    expect(r).toMatchObject({ status: 200, other: "waited" });
  });

  it("DELETE: no experience saved on another node can be left naming the deleted audience", async () => {
    const audience = await newAudience();
    const id = (await call(t.app, owner, "POST", "/api/experiences", experienceBody())).json().id as string;
    const r = await race(
      (b) => {
        const e = b.getExperience(t.account.id, id)!;
        b.saveExperience({ ...e, rules: e.rules.map((rule) => ({ ...rule, audience_id: audience })) });
      },
      () => call(t.app, owner, "DELETE", `/api/audiences/${audience}`),
    );
    expect(r).toMatchObject({ status: 204, other: "waited" });
    expect(t.store.getExperience(t.account.id, id)!.rules[0]!.audience_id).toBeNull();
  });
});

describe("account", () => {
  it("PATCH: another node's write waits for the read-merge-write", async () => {
    const r = await race(
      (b) => b.updateAccount(t.account.id, () => ({ name: "Node B" })),
      () => call(t.app, owner, "PATCH", "/api/account", { settings: { sdk_timeout_ms: 900 } }),
    );
    expect(r).toMatchObject({ status: 200, other: "waited" });
  });

  it("PATCH merges into the settings as stored now, keeping a field changed after the request came in", async () => {
    const updateAccount = t.store.updateAccount.bind(t.store);
    // Another node changes one field after this request was authenticated (and its account read).
    const spy = vi.spyOn(t.store, "updateAccount").mockImplementationOnce((id, change) => {
      t.store.updateAccount(t.account.id, (now) => ({ settings: { ...now.settings, initial_delay_ms: 250 } }));
      return updateAccount(id, change);
    });
    try {
      const res = await call(t.app, owner, "PATCH", "/api/account", { settings: { sdk_timeout_ms: 900 } });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(t.store.getAccount(t.account.id)!.settings).toMatchObject({ initial_delay_ms: 250, sdk_timeout_ms: 900 });
  });
});

describe("members", () => {
  it("POST: the same email added meanwhile (during the password hashing) is a 409, not a failed insert", async () => {
    const createOperator = t.store.createOperator.bind(t.store);
    const hash = await hashPassword(MEMBER_PASSWORD);
    const spy = vi.spyOn(t.store, "createOperator").mockImplementationOnce((operator) => {
      t.store.createOperator({ id: "op_other_node", account_id: t.account.id, email: "new@test.example", password_hash: hash, role: "viewer" });
      return createOperator(operator);
    });
    try {
      const res = await call(t.app, owner, "POST", "/api/account/members", { email: "new@test.example", password: MEMBER_PASSWORD, role: "editor" });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.code).toBe("conflict");
    } finally {
      spy.mockRestore();
    }
  });

  for (const [what, request] of [
    ["PATCH (demote)", (id: string) => call(t.app, owner, "PATCH", `/api/account/members/${id}`, { role: "viewer" })],
    ["DELETE", (id: string) => call(t.app, owner, "DELETE", `/api/account/members/${id}`)],
  ] as const) {
    it(`${what}: two owners removed at once on two nodes cannot leave none`, async () => {
      await addOperator(t.store, t.account.id, "second-owner@test.example", "owner");
      const second = t.store.getOperatorByEmail("second-owner@test.example")!;
      const first = t.store.listOperators(t.account.id).find((o) => o.role === "owner" && o.id !== second.id)!;
      // While this node demotes or removes the second owner, another node demotes the first.
      const r = await race((b) => b.updateOperatorRole(t.account.id, first.id, "viewer"), () => request(second.id));
      expect(r.other).toBe("waited");
      expect(t.store.listOperators(t.account.id).filter((o) => o.role === "owner")).toHaveLength(1);
    });
  }
});

describe("a write lock held too long by another node", () => {
  it("answers 503 busy with Retry-After, writes nothing, and works again once the lock is gone", async () => {
    const Database = (await import("better-sqlite3")).default;
    const other = new Database(t.file);
    t.store.sqlite.db.pragma("busy_timeout = 0");
    other.exec("BEGIN IMMEDIATE");
    try {
      const res = await call(t.app, owner, "PATCH", "/api/account", { name: "Renamed" });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers["retry-after"]).toBe("1");
      expect(res.json().error.code).toBe("busy");
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect(t.store.getAccount(t.account.id)!.name).not.toBe("Renamed");
    const again = await call(t.app, owner, "PATCH", "/api/account", { name: "Renamed" });
    expect(again.statusCode, again.body).toBe(200);
  });
});

it("documents 503 on the writes that wait for another node's lock", async () => {
  const doc = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
  for (const [path, method] of [
    ["/api/experiences", "post"],
    ["/api/experiences/{id}", "put"],
    ["/api/experiences/{id}", "patch"],
    ["/api/experiences/{id}", "delete"],
    ["/api/experiences/{id}/status", "post"],
    ["/api/audiences/{id}", "put"],
    ["/api/audiences/{id}", "delete"],
    ["/api/account", "patch"],
    ["/api/account/members", "post"],
    ["/api/account/members/{id}", "patch"],
    ["/api/account/members/{id}", "delete"],
  ] as const) {
    expect(doc.paths[path]?.[method]?.responses?.["503"], `${method} ${path}`).toBeDefined();
  }
});
