// Preview tokens (issue #17; docs/security.md "Preview links"): preview mode shows draft and
// paused experiences, so the config call honours `preview_mode` only with a token that the admin
// API minted for an operator of the same account, and only until it expires. The public client
// key alone gets running experiences.
//
// A token is `<expiry in ms, base 36>.<HMAC-SHA256 of "preview|<account id>|<expiry>">`, keyed by
// a secret made once per installation and kept in the database (every node reads the same one).
// Nothing is stored per token: a token is checked by recomputing its MAC.

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Store } from "../store/types.js";

/** How long a preview link works after the dashboard made it. */
export const PREVIEW_TOKEN_TTL_MS = 60 * 60 * 1000;

/** The longest token the client API takes (a real one is about 56 characters). */
export const PREVIEW_TOKEN_MAX_LENGTH = 128;

const SECRET_NAME = "preview_token_key";

const mac = (key: Buffer, accountId: string, expiry: string) =>
  createHmac("sha256", key).update(`preview|${accountId}|${expiry}`).digest();

export function mintPreviewToken(key: Buffer, accountId: string, nowMs: number, ttlMs = PREVIEW_TOKEN_TTL_MS): { token: string; expiresAt: number } {
  const expiresAt = nowMs + ttlMs;
  const expiry = expiresAt.toString(36);
  return { token: `${expiry}.${mac(key, accountId, expiry).toString("base64url")}`, expiresAt };
}

/** True for a token this installation minted for `accountId` that has not expired at `nowMs`. */
export function isValidPreviewToken(key: Buffer, accountId: string, token: string | undefined, nowMs: number): boolean {
  if (!token || token.length > PREVIEW_TOKEN_MAX_LENGTH) return false;
  const dot = token.indexOf(".");
  const expiry = token.slice(0, dot);
  if (dot <= 0 || !/^[0-9a-z]{1,11}$/.test(expiry) || !(parseInt(expiry, 36) > nowMs)) return false;
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const expected = mac(key, accountId, expiry);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// One read of the secret per store (process): the config call then checks a token without I/O.
const keys = new WeakMap<Store, Promise<Buffer>>();

/** The installation's signing key, made on first use and kept in the database. */
export function previewTokenKey(store: Store): Promise<Buffer> {
  let key = keys.get(store);
  if (!key) {
    key = Promise.resolve(store.serviceSecret(SECRET_NAME, () => randomBytes(32).toString("base64url"))).then((v) => Buffer.from(v, "base64url"));
    // A failed read is not remembered: the next call tries again.
    key.catch(() => keys.delete(store));
    keys.set(store, key);
  }
  return key;
}
