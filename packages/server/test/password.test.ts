// Passwords (product.md §3: memory-hard hashing): the stored format and cost, and sign-in paying
// the same scrypt for an unknown email as for a wrong password (no account discovery by timing).
// scrypt is wrapped in a spy that records each call's cost parameters and still derives for real.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type * as Crypto from "node:crypto";

const scryptCalls = vi.hoisted(() => [] as { N: number; r: number; p: number }[]);
vi.mock("node:crypto", async (importOriginal) => {
  const real = await importOriginal<typeof Crypto>();
  const scrypt = (...args: unknown[]) => {
    const options = args[3] as { N: number; r: number; p: number };
    scryptCalls.push({ N: options.N, r: options.r, p: options.p });
    return (real.scrypt as (...a: unknown[]) => void)(...args);
  };
  return { ...real, default: { ...real, scrypt }, scrypt };
});

const { hashPassword, verifyPassword } = await import("../src/auth/password.js");
const { OWNER, makeApp } = await import("./helpers.js");
type TestApp = Awaited<ReturnType<typeof makeApp>>;

describe("password hashes", () => {
  it("are scrypt with N = 2^15, r = 8, p = 1, a 16-byte salt and a 32-byte key", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(b).not.toBe(a); // salted
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("correct horse battery", "plain$text")).toBe(false);
  });
});

describe("sign-in", () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeApp();
  });
  afterEach(async () => {
    await t.close();
  });

  const signIn = (email: string, password: string) =>
    t.app.inject({ method: "POST", url: "/api/session", payload: { email, password } });

  it("stores the seeded owner's password as such a hash", () => {
    const owner = t.store.getOperatorByEmail(OWNER.email)!;
    expect(owner.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(owner.password_hash).not.toContain(OWNER.password);
  });

  it("derives a key at full cost for an unknown email, as for a wrong password, and answers alike", async () => {
    await signIn(OWNER.email, "warm-up"); // the unknown-email hash is made once, at first need
    await signIn("nobody@test.example", "warm-up");
    scryptCalls.length = 0;
    const wrong = await signIn(OWNER.email, "not the password");
    const afterWrong = scryptCalls.splice(0);
    const unknown = await signIn("nobody@test.example", "not the password");
    const afterUnknown = scryptCalls.splice(0);
    expect(afterWrong).toEqual([{ N: 32768, r: 8, p: 1 }]);
    expect(afterUnknown).toEqual(afterWrong);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
  });
});
