// Password hashing with scrypt, a memory-hard function (product.md §3), from Node's crypto: no
// native dependency. Format: scrypt$N$r$p$salt$hash (base64url), so parameters can grow later.

import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const N = 1 << 15; // 32 MiB of memory per hash with r = 8
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const MAX_MEM = 128 * N * R * 2;

/**
 * Hashes running at once, and waiting. scrypt runs on libuv's thread pool (4 threads by default),
 * which file reads and DNS share: a sign-in flood with fresh emails (no limit per email helps)
 * once took every thread and the dashboard's files waited seconds behind it (issue #17). Two at
 * a time leave the pool's other threads free; a full queue is answered at once (HashingBusy, a
 * 503) rather than growing with the flood.
 */
export const HASH_CONCURRENCY = 2;
export const HASH_QUEUE = 16;

/** Thrown when HASH_QUEUE hashes are already waiting: the caller answers 503 with Retry-After. */
export class HashingBusy extends Error {
  constructor() {
    super("Too many password checks at once");
  }
}

let active = 0;
let peak = 0;
const waiting: (() => void)[] = [];

/** Hashes running now, and the most that ever ran at once (for tests and diagnostics). */
export const hashingStats = () => ({ active, waiting: waiting.length, peak });

async function slot<T>(run: () => Promise<T>): Promise<T> {
  if (active < HASH_CONCURRENCY) active++;
  else if (waiting.length >= HASH_QUEUE) throw new HashingBusy();
  // A finished hash hands its slot to the first waiter (active unchanged), so no new caller can
  // slip in between and make it three.
  else await new Promise<void>((resolve) => waiting.push(resolve));
  peak = Math.max(peak, active);
  try {
    return await run();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else active--;
  }
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return slot(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password, salt, KEY_BYTES, { N: n, r, p, maxmem: Math.max(MAX_MEM, 128 * n * r * 2) }, (err, key) =>
          err ? reject(err) : resolve(key),
        );
      }),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await derive(password, Buffer.from(salt, "base64url"), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<string> | null = null;

/**
 * A hash of nothing anyone knows, made once with the same cost: sign-in verifies against it when
 * the email is unknown, so an unknown email takes as long as a wrong password and the answer's
 * timing does not tell which addresses have an account.
 */
export const unknownOperatorHash = (): Promise<string> =>
  (dummy ??= hashPassword(randomBytes(32).toString("base64url")).catch((error: unknown) => {
    dummy = null; // not kept: the next sign-in tries again
    throw error;
  }));
