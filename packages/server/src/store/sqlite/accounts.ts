// Accounts, their members, sessions, secret keys and the installation's secrets, on SQLite.

import type { Role } from "@storefit/contract";
import type { Account, AccountStore, MemberStore, NewAccount, Operator, SecretKeyRecord, Sync } from "../types.js";
import { accountFromRow, audienceFromRow, experienceFromRow, secretKeyFromRow } from "../rows.js";
import type { Row, SqliteDb } from "./db.js";

export function sqliteAccounts(d: SqliteDb): Sync<AccountStore & MemberStore> {
  const getAccount = (id: string): Account | null => {
    const row = d.sql("SELECT * FROM accounts WHERE id = ?").get(id) as Row | undefined;
    return row ? accountFromRow(row) : null;
  };
  const getOperator = (id: string): Operator | null => (d.sql("SELECT * FROM operators WHERE id = ?").get(id) as Operator | undefined) ?? null;
  const memberOf = (accountId: string, id: string): Operator | null => {
    const op = getOperator(id);
    return op && op.account_id === accountId ? op : null;
  };
  /** Whether taking `op` out of the owners leaves the account without one. */
  const lastOwner = (op: Operator): boolean =>
    op.role === "owner" &&
    (d.sql("SELECT count(*) FROM operators WHERE account_id = ? AND role = 'owner' AND id <> ?").pluck(true).get(op.account_id, op.id) as number) === 0;

  return {
    createAccount(a: NewAccount): Account {
      const now = new Date().toISOString();
      d.write(() =>
        d.sql("INSERT INTO accounts (id, name, client_key, settings_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)").run(
          a.id,
          a.name,
          a.client_key,
          JSON.stringify(a.settings),
          now,
          now,
        ),
      );
      return getAccount(a.id)!;
    },

    getAccountByClientKey(clientKey: string): Account | null {
      const row = d.sql("SELECT * FROM accounts WHERE client_key = ?").get(clientKey) as Row | undefined;
      return row ? accountFromRow(row) : null;
    },

    getAccount,

    getAccountRevision(clientKey: string): { id: string; revision: number } | null {
      // Read on every client API call: a raw row is cheaper than an object per row.
      const row = d.sql("SELECT id, revision FROM accounts WHERE client_key = ?").raw(true).get(clientKey) as [string, number] | undefined;
      return row ? { id: row[0], revision: row[1] } : null;
    },

    loadAccountSnapshot(accountId: string) {
      return d.read(() => {
        const account = getAccount(accountId);
        if (!account) return null;
        const experiences = (
          d.sql("SELECT * FROM experiences WHERE account_id = ? AND status IN ('running', 'draft', 'paused') ORDER BY created_at, id").all(accountId) as Row[]
        ).map(experienceFromRow);
        const audiences = (d.sql("SELECT * FROM audiences WHERE account_id = ? ORDER BY created_at, id").all(accountId) as Row[]).map(audienceFromRow);
        return { account, experiences, audiences };
      });
    },

    updateAccount(id, change) {
      return d.write(() => {
        const current = getAccount(id);
        if (!current) return null;
        const patch = change(current);
        d.sql("UPDATE accounts SET name = ?, settings_json = ?, updated_at = ? WHERE id = ?").run(
          patch.name ?? current.name,
          JSON.stringify(patch.settings ?? current.settings),
          new Date().toISOString(),
          id,
        );
        return getAccount(id);
      });
    },

    serviceSecret(name: string, make: () => string): string {
      // INSERT OR IGNORE: nodes starting together keep the first one's value, and all read it.
      d.write(() => d.sql("INSERT OR IGNORE INTO service_secrets (name, value, created_at) VALUES (?, ?, ?)").run(name, make(), new Date().toISOString()));
      return d.sql("SELECT value FROM service_secrets WHERE name = ?").pluck(true).get(name) as string;
    },

    // ---- members and sessions ----

    createOperator(o: Operator): boolean {
      return d.write(
        () =>
          d.sql("INSERT INTO operators (id, account_id, email, password_hash, role) VALUES (?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING").run(
            o.id,
            o.account_id,
            o.email,
            o.password_hash,
            o.role,
          ).changes > 0,
      );
    },

    getOperatorByEmail(email: string): Operator | null {
      return (d.sql("SELECT * FROM operators WHERE email = ?").get(email) as Operator | undefined) ?? null;
    },

    getOperator,

    listOperators(accountId: string): Operator[] {
      return d.sql("SELECT * FROM operators WHERE account_id = ? ORDER BY email").all(accountId) as Operator[];
    },

    updateOperatorRole(accountId: string, id: string, role: Role) {
      return d.write(() => {
        const op = memberOf(accountId, id);
        if (!op) return null;
        if (role !== "owner" && lastOwner(op)) return "last_owner" as const;
        d.sql("UPDATE operators SET role = ? WHERE id = ?").run(role, id);
        return { ...op, role };
      });
    },

    deleteOperator(accountId: string, id: string) {
      return d.write(() => {
        const op = memberOf(accountId, id);
        if (!op) return false;
        if (lastOwner(op)) return "last_owner" as const;
        d.sql("DELETE FROM sessions WHERE operator_id = ?").run(id);
        d.sql("DELETE FROM operators WHERE id = ?").run(id);
        return true;
      });
    },

    createSession(tokenHash: string, operatorId: string, csrfToken: string, expiresAt: number): void {
      d.write(() => d.sql("INSERT INTO sessions (token_hash, operator_id, csrf_token, expires_at) VALUES (?, ?, ?, ?)").run(tokenHash, operatorId, csrfToken, expiresAt));
    },

    getSession(tokenHash: string, now: number) {
      return (
        (d.sql("SELECT operator_id, csrf_token FROM sessions WHERE token_hash = ? AND expires_at > ?").get(tokenHash, now) as
          | { operator_id: string; csrf_token: string }
          | undefined) ?? null
      );
    },

    deleteSession(tokenHash: string): void {
      d.write(() => d.sql("DELETE FROM sessions WHERE token_hash = ?").run(tokenHash));
    },

    // ---- secret keys ----

    createSecretKey(key: Omit<SecretKeyRecord, "last_used_at">, keyHash: string): SecretKeyRecord {
      d.write(() =>
        d.sql("INSERT INTO secret_keys (id, account_id, name, prefix, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)").run(
          key.id,
          key.account_id,
          key.name,
          key.prefix,
          keyHash,
          key.created_at,
        ),
      );
      return { ...key, last_used_at: null };
    },

    listSecretKeys(accountId: string): SecretKeyRecord[] {
      return (d.sql("SELECT * FROM secret_keys WHERE account_id = ? AND revoked_at IS NULL ORDER BY created_at, id").all(accountId) as Row[]).map(secretKeyFromRow);
    },

    useSecretKey(keyHash: string, now: string): SecretKeyRecord | null {
      return d.write(() => {
        const row = d.sql("SELECT * FROM secret_keys WHERE key_hash = ? AND revoked_at IS NULL").get(keyHash) as Row | undefined;
        if (!row) return null;
        d.sql("UPDATE secret_keys SET last_used_at = ? WHERE id = ?").run(now, row.id);
        return { ...secretKeyFromRow(row), last_used_at: now };
      });
    },

    revokeSecretKey(accountId: string, id: string, now: string): boolean {
      return d.write(() => d.sql("UPDATE secret_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL").run(now, id, accountId).changes > 0);
    },
  };
}
