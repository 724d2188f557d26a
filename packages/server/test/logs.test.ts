// Logs (issue #17 finding 7): a 4xx answer logs no stack trace; a 5xx logs one line with the
// request id, the error and where it was thrown — not a stack trace per failed request.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEMO_CLIENT_KEY, FORM, SHOP_ORIGIN, makeApp } from "./helpers.js";
import type { TestApp } from "./helpers.js";

type Line = { level: number; msg?: string; reqId?: string; err?: unknown; [key: string]: unknown };

let t: TestApp;
let lines: string[];
const parsed = () => lines.map((l) => JSON.parse(l) as Line);

beforeEach(async () => {
  lines = [];
  t = await makeApp({ log: { stream: { write: (line: string) => void lines.push(line) } } });
});
afterEach(async () => {
  await t.close();
});

describe("logs", () => {
  it("log no stack trace for 4xx answers", async () => {
    const q = `?cfenc=${DEMO_CLIENT_KEY}`;
    const answers = [
      await t.app.inject({ method: "POST", url: `/v1/cfe/${q}`, headers: { "content-type": FORM, origin: SHOP_ORIGIN }, payload: "{not json" }),
      await t.app.inject({ method: "POST", url: `/v1/cfe/${q}`, headers: { "content-type": FORM, origin: SHOP_ORIGIN }, payload: "[".repeat(5000) }),
      await t.app.inject({ method: "POST", url: `/v1/cfe/${q}`, headers: { "content-type": FORM, origin: SHOP_ORIGIN }, payload: '{"user":1}' }),
      await t.app.inject({ method: "POST", url: `/v1/cfe/${q}`, headers: { "content-type": "image/png", origin: SHOP_ORIGIN }, payload: "x" }),
      await t.app.inject({ method: "POST", url: "/api/session", headers: { "content-type": "application/json" }, payload: '{"email":"a@b.example","password":"wrong"}' }),
      await t.app.inject({ method: "GET", url: "/api/nothing" }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([400, 400, 400, 415, 401, 404]);
    expect(lines.length).toBeGreaterThan(0); // the logger was on: request lines were written
    for (const line of lines) {
      expect(line).not.toMatch(/\\n\s+at |"stack"/);
      expect((JSON.parse(line) as Line).level, line).toBeLessThan(50);
    }
  }, 30_000); // a wrong password costs a scrypt hash, slow by design

  it("log one line with the request id for a 5xx, without the stack", async () => {
    vi.spyOn(t.store, "getAccountByClientKey").mockImplementation(() => {
      throw new Error("disk on fire\nand a second line");
    });
    const res = await t.app.inject(`/v1/accounts/${DEMO_CLIENT_KEY}/snippet.js`);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: "internal", message: "Internal error" } });
    const errors = parsed().filter((l) => l.level >= 50);
    expect(errors).toHaveLength(1);
    const [line] = errors;
    expect(line!.reqId).toMatch(/.+/);
    expect(line!.msg).toMatch(/^unhandled error: Error: disk on fire and a second line \(at .+logs\.test\.ts:\d+:\d+\)+$/);
    expect(line!.err).toBeUndefined();
    expect(lines.join("")).not.toMatch(/\\n\s+at |"stack"/);
    // The request's own lines carry the same id, so the failed request can be found.
    expect(parsed().some((l) => l.reqId === line!.reqId && l.level < 50)).toBe(true);
  });
});
