// /api/openapi.json describes every /api and /v1 route the app registers, with the very schemas
// the routes validate with.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configsBody } from "../src/routes/client-schemas.js";
import { accountPatchBody, experienceBody } from "../src/schemas/admin.js";
import { makeApp } from "./helpers.js";
import type { TestApp } from "./helpers.js";

type Operation = {
  summary?: string;
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, unknown>;
};
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };

let t: TestApp;
let doc: Doc;

beforeAll(async () => {
  t = await makeApp();
  const res = await t.app.inject("/api/openapi.json");
  expect(res.statusCode).toBe(200);
  doc = res.json() as Doc;
});
afterAll(async () => {
  await t.close();
});

/**
 * The routes as Fastify's router has them, read from its printed tree — independent of the
 * hook that builds the document. Each line is `<indent>── <segment> (<METHODS>)`, a segment
 * continuing its parent's path.
 */
function registeredRoutes(tree: string): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  const stack: string[] = [];
  for (const line of tree.split("\n")) {
    const m = /^(.*?)[└├]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const parent = stack[depth - 1] ?? "";
    const segment = m[2]!;
    const path = depth === 0 ? segment : parent.endsWith("/") || segment.startsWith("/") ? parent + segment : `${parent}/${segment}`;
    stack[depth] = path;
    for (const method of (m[3] ?? "").split(", ").filter(Boolean)) out.push({ method, path });
  }
  return out;
}

const bare = (p: string) => p.replace(/\/+$/, "").replace(/:([A-Za-z0-9_]+)/g, "{$1}");

describe("GET /api/openapi.json", () => {
  it("is an OpenAPI 3.1 document anyone may read", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["cfencHeader", "cfencQuery", "secretKey", "session"]);
  });

  it("describes every registered /api and /v1 route", () => {
    const routes = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter(
      (r) => r.method !== "HEAD" && /^\/(api|v1)(\/|$)/.test(r.path),
    );
    // Sanity: the parser found the routes this issue adds.
    expect(routes.length).toBeGreaterThan(30);
    expect(routes).toContainEqual({ method: "POST", path: "/api/experiences/:id/status" });
    expect(routes).toContainEqual({ method: "POST", path: "/v1/users/configs" });
    const documented = new Map(Object.entries(doc.paths).map(([p, ops]) => [bare(p), ops]));
    for (const r of routes) {
      const op = documented.get(bare(r.path))?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op!.summary, `${r.method} ${r.path}`).toBeTruthy();
      expect(Object.keys(op!.responses).length).toBeGreaterThan(0);
    }
  });

  it("uses the schemas the routes validate with, and the client API's content types", () => {
    const create = doc.paths["/api/experiences"]!.post!;
    expect(create.requestBody!.content["application/json"]!.schema).toEqual(experienceBody);
    expect(doc.paths["/api/account"]!.patch!.requestBody!.content["application/json"]!.schema).toEqual(accountPatchBody);
    const configs = doc.paths["/v1/users/configs/"]!.post!;
    expect(Object.keys(configs.requestBody!.content).sort()).toEqual(["application/json", "application/x-www-form-urlencoded", "text/plain"]);
    expect(configs.requestBody!.content["text/plain"]!.schema).toEqual(configsBody);
    expect(configs.security).toEqual([{ cfencQuery: [] }, { cfencHeader: [] }]);
    expect(doc.paths["/api/experiences/{id}"]!.get!.parameters).toEqual([expect.objectContaining({ name: "id", in: "path" })]);
  });

  it("names the security of every admin route but sign-in and this document", () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith("/api/")) continue;
      for (const [method, op] of Object.entries(ops)) {
        const open = (path === "/api/session" && method === "post") || path === "/api/openapi.json";
        expect(op.security, `${method} ${path}`).toEqual(open ? [] : expect.arrayContaining([expect.objectContaining({})]));
        if (!open) expect(op.responses["401"], `${method} ${path}`).toBeDefined();
      }
    }
  });
});
