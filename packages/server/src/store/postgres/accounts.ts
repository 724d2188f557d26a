// Accounts, their members, sessions, secret keys and the installation's secrets, on PostgreSQL.

import type pg from "pg";
import type { Role } from "@storefit/contract";
import type { Account, AccountRevision, AccountSnapshot, AccountStore, Assignment, MemberStore, NewAccount, Operator, SecretKeyRecord } from "../types.js";
import { assignmentsFromStored } from "./client-writes.js";
import type { StoredAssignments } from "./client-writes.js";
import { execute, jsonb, lockedAccount, query, snapshot, storableText, transaction } from "./db.js";
import { accountFromRow, audienceFromRow, experienceFromRow, operatorFromRow, secretKeyFromRow } from "../rows.js";

/** The member `id` of the account. */
async function memberOf(client: pg.PoolClient, accountId: string, id: string): Promise<Operator | null> {
  const [row] = await query(client, "SELECT * FROM operators WHERE id = $1 AND account_id = $2", [id, accountId]);
  return row ? operatorFromRow(row) : null;
}

/** Whether taking `op` out of the owners leaves the account without one. Read with the account locked: no owner changes meanwhile. */
async function lastOwner(client: pg.PoolClient, op: Operator): Promise<boolean> {
  if (op.role !== "owner") return false;
  const [row] = await query<{ n: number }>(client, "SELECT count(*) AS n FROM operators WHERE account_id = $1 AND role = 'owner' AND id <> $2", [
    op.account_id,
    op.id,
  ]);
  return row!.n === 0;
}

type Row = { id: string; revision: number; user_id: string | null; assignments_json: StoredAssignments | null };

/**
 * The account a client key names and its revision; with `userIds`, the same statement reads those
 * visitors' stored assignments (a config call's visitor new to this node: decide/snapshots.ts), as
 * of the same snapshot as the revision, instead of a statement each. Measured 2026-11-27
 * (bench/service.bench.mjs on PostgreSQL, five A/B runs at load 5.6–12.9): 0.18–0.21 statements
 * per config call against 0.31–0.33, the node's CPU per call 0.91–1.00× (mean 0.95×;
 * docs/benchmarks.md, "Provider service").
 */
async function readRevision(pool: pg.Pool, clientKey: string, userIds: readonly string[] = []): Promise<AccountRevision | null> {
  const rows = userIds.length
    ? // Planned for its array rather than prepared: a plan kept per connection may be chosen while
      // the table is small, and is then not sure to stay a lookup of the primary key per user id
      // (such a plan of a similar statement read ~700 rows per statement in a benchmark).
      await query<Row>(
        pool,
        `SELECT a.id, a.revision, v.user_id, v.assignments_json FROM accounts a
         LEFT JOIN visitors v ON v.account_id = a.id AND v.user_id = ANY ($2::text[])
         WHERE a.client_key = $1`,
        [clientKey, userIds],
      )
    : // Every config call needs it: prepared once per connection (the name).
      await query<Row>(pool, "SELECT id, revision, NULL AS user_id, NULL AS assignments_json FROM accounts WHERE client_key = $1", [clientKey], "account_revision");
  const first = rows[0];
  if (!first) return null;
  if (!userIds.length) return { id: first.id, revision: first.revision };
  const found = new Map<string, StoredAssignments>();
  for (const r of rows) if (r.user_id !== null && r.assignments_json) found.set(r.user_id, r.assignments_json);
  const assignments = new Map<string, Map<string, Assignment>>();
  // Matched as stored: PostgreSQL answers an id under the form it stores (db.ts storableText).
  for (const u of userIds) assignments.set(u, assignmentsFromStored(found.get(storableText(u))));
  return { id: first.id, revision: first.revision, assignments };
}

export function postgresAccounts(pool: pg.Pool): AccountStore & MemberStore {
  const getAccount = async (id: string): Promise<Account | null> => {
    const [row] = await query(pool, "SELECT * FROM accounts WHERE id = $1", [id]);
    return row ? accountFromRow(row) : null;
  };
  const getOperator = async (id: string): Promise<Operator | null> => {
    const [row] = await query(pool, "SELECT * FROM operators WHERE id = $1", [id]);
    return row ? operatorFromRow(row) : null;
  };

  return {
    async createAccount(a: NewAccount): Promise<Account> {
      const now = new Date().toISOString();
      const [row] = await query(
        pool,
        "INSERT INTO accounts (id, name, client_key, settings_json, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING *",
        [a.id, a.name, a.client_key, jsonb(a.settings), now],
      );
      return accountFromRow(row!);
    },

    async getAccountByClientKey(clientKey: string): Promise<Account | null> {
      const [row] = await query(pool, "SELECT * FROM accounts WHERE client_key = $1", [clientKey]);
      return row ? accountFromRow(row) : null;
    },

    getAccount,

    getAccountRevision: (clientKey: string, userIds?: readonly string[]) => readRevision(pool, clientKey, userIds),

    loadAccountSnapshot(accountId: string): Promise<AccountSnapshot | null> {
      return snapshot(pool, async (client) => {
        const [account] = await query(client, "SELECT * FROM accounts WHERE id = $1", [accountId]);
        if (!account) return null;
        const experiences = await query(
          client,
          "SELECT * FROM experiences WHERE account_id = $1 AND status IN ('running', 'draft', 'paused') ORDER BY created_at, id",
          [accountId],
        );
        const audiences = await query(client, "SELECT * FROM audiences WHERE account_id = $1 ORDER BY created_at, id", [accountId]);
        return { account: accountFromRow(account), experiences: experiences.map(experienceFromRow), audiences: audiences.map(audienceFromRow) };
      });
    },

    updateAccount(id, change) {
      return transaction(pool, async (client) => {
        const current = await lockedAccount(client, id);
        if (!current) return null;
        const patch = change(current);
        const [row] = await query(client, "UPDATE accounts SET name = $2, settings_json = $3, updated_at = $4 WHERE id = $1 RETURNING *", [
          id,
          patch.name ?? current.name,
          jsonb(patch.settings ?? current.settings),
          new Date().toISOString(),
        ]);
        return accountFromRow(row!);
      });
    },

    async serviceSecret(name: string, make: () => string): Promise<string> {
      // Nodes starting together keep the first one's value (a later insert waits for it, then
      // does nothing), and all read it.
      await execute(pool, "INSERT INTO service_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [
        name,
        make(),
        new Date().toISOString(),
      ]);
      const [row] = await query<{ value: string }>(pool, "SELECT value FROM service_secrets WHERE name = $1", [name]);
      return row!.value;
    },

    // ---- members and sessions ----

    async createOperator(o: Operator): Promise<boolean> {
      // The unique index on the email (any case) answers a taken one, also one taken at the same
      // moment on another node.
      const added = await execute(
        pool,
        "INSERT INTO operators (id, account_id, email, password_hash, role) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (ascii_lower(email)) DO NOTHING",
        [o.id, o.account_id, o.email, o.password_hash, o.role],
      );
      return added > 0;
    },

    async getOperatorByEmail(email: string): Promise<Operator | null> {
      const [row] = await query(pool, "SELECT * FROM operators WHERE ascii_lower(email) = ascii_lower($1)", [email]);
      return row ? operatorFromRow(row) : null;
    },

    getOperator,

    async listOperators(accountId: string): Promise<Operator[]> {
      return (await query(pool, "SELECT * FROM operators WHERE account_id = $1 ORDER BY email", [accountId])).map(operatorFromRow);
    },

    // The owner rule reads the other owners: with the account's row locked first, two owners
    // demoting (or removing) each other at once, on any nodes, take turns, and one stays.
    updateOperatorRole(accountId: string, id: string, role: Role) {
      return transaction(pool, async (client) => {
        if (!(await lockedAccount(client, accountId))) return null;
        const op = await memberOf(client, accountId, id);
        if (!op) return null;
        if (role !== "owner" && (await lastOwner(client, op))) return "last_owner" as const;
        await execute(client, "UPDATE operators SET role = $2 WHERE id = $1", [id, role]);
        return { ...op, role };
      });
    },

    deleteOperator(accountId: string, id: string) {
      return transaction(pool, async (client) => {
        if (!(await lockedAccount(client, accountId))) return false;
        const op = await memberOf(client, accountId, id);
        if (!op) return false;
        if (await lastOwner(client, op)) return "last_owner" as const;
        await execute(client, "DELETE FROM sessions WHERE operator_id = $1", [id]);
        await execute(client, "DELETE FROM operators WHERE id = $1", [id]);
        return true;
      });
    },

    async createSession(tokenHash: string, operatorId: string, csrfToken: string, expiresAt: number): Promise<void> {
      await execute(pool, "INSERT INTO sessions (token_hash, operator_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4)", [
        tokenHash,
        operatorId,
        csrfToken,
        expiresAt,
      ]);
    },

    async getSession(tokenHash: string, now: number) {
      const [row] = await query<{ operator_id: string; csrf_token: string }>(
        pool,
        "SELECT operator_id, csrf_token FROM sessions WHERE token_hash = $1 AND expires_at > $2",
        [tokenHash, now],
      );
      return row ?? null;
    },

    async deleteSession(tokenHash: string): Promise<void> {
      await execute(pool, "DELETE FROM sessions WHERE token_hash = $1", [tokenHash]);
    },

    // ---- secret keys ----

    async createSecretKey(key: Omit<SecretKeyRecord, "last_used_at">, keyHash: string): Promise<SecretKeyRecord> {
      await execute(pool, "INSERT INTO secret_keys (id, account_id, name, prefix, key_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)", [
        key.id,
        key.account_id,
        key.name,
        key.prefix,
        keyHash,
        key.created_at,
      ]);
      return { ...key, last_used_at: null };
    },

    async listSecretKeys(accountId: string): Promise<SecretKeyRecord[]> {
      const rows = await query(pool, "SELECT * FROM secret_keys WHERE account_id = $1 AND revoked_at IS NULL ORDER BY created_at, id", [accountId]);
      return rows.map(secretKeyFromRow);
    },

    async useSecretKey(keyHash: string, now: string): Promise<SecretKeyRecord | null> {
      const [row] = await query(pool, "UPDATE secret_keys SET last_used_at = $2 WHERE key_hash = $1 AND revoked_at IS NULL RETURNING *", [keyHash, now]);
      return row ? secretKeyFromRow(row) : null;
    },

    async revokeSecretKey(accountId: string, id: string, now: string): Promise<boolean> {
      const revoked = await execute(pool, "UPDATE secret_keys SET revoked_at = $3 WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL", [
        id,
        accountId,
        now,
      ]);
      return revoked > 0;
    },
  };
}
