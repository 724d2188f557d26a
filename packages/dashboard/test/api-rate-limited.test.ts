// A 429 from the service reads as a clear message with the wait, wherever a screen shows its error
// (api/client.ts; docs/security.md "Rate limits and sign-in").
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiFetch, ApiRequestError } from "../src/api/client";

afterEach(() => vi.unstubAllGlobals());

const answer = (status: number, headers: Record<string, string>, body: unknown) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } }));

describe("apiFetch on a 429", () => {
  it("throws rate_limited with a message naming the wait", async () => {
    vi.stubGlobal("fetch", answer(429, { "retry-after": "3" }, { error: { code: "rate_limited", message: "Too many requests; retry after 3 s" } }));
    const error = await apiFetch("/api/events?limit=50&q=x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 429, code: "rate_limited" });
    expect((error as Error).message).toMatch(/^Too many requests for now: .* Wait about 3 s and try again\.$/);
  });

  it("says a moment without a usable Retry-After", async () => {
    vi.stubGlobal("fetch", answer(429, {}, { error: { code: "rate_limited", message: "Too many requests" } }));
    const error = (await apiFetch("/api/events").catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/Wait a moment and try again\.$/);
  });

  it("leaves other errors as the service wrote them", async () => {
    vi.stubGlobal("fetch", answer(403, {}, { error: { code: "forbidden", message: "This needs the editor role" } }));
    const error = (await apiFetch("/api/experiences").catch((e: unknown) => e)) as ApiRequestError;
    expect([error.code, error.message]).toEqual(["forbidden", "This needs the editor role"]);
  });
});
