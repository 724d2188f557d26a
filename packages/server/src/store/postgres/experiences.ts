// Experiences and audiences, on PostgreSQL. An experience is stored as one aggregate (its rules,
// behaviours, variations and configs in jsonb columns): the admin API edits it whole and the
// decision reads it whole. Every write runs in a transaction that first locks the account's row
// (db.ts lockedAccount), so writers of one account take turns on every node, and the checks of
// the atomic writes see what the writer before them committed.

import type pg from "pg";
import type { Audience, Experience, ExperienceStore, ExperienceWriteContext, NewAudience, NewExperience } from "../types.js";
import { execute, jsonb, lockedAccount, query, transaction } from "./db.js";
import type { Queryable } from "./db.js";
import { audienceFromRow, experienceFromRow } from "../rows.js";

const listExperiences = async (db: Queryable, accountId: string): Promise<Experience[]> =>
  (await query(db, "SELECT * FROM experiences WHERE account_id = $1 ORDER BY created_at, id", [accountId])).map(experienceFromRow);

async function getAudience(db: Queryable, accountId: string, id: string): Promise<Audience | null> {
  const [row] = await query(db, "SELECT * FROM audiences WHERE id = $1 AND account_id = $2", [id, accountId]);
  return row ? audienceFromRow(row) : null;
}

async function writeContext(client: pg.PoolClient, accountId: string): Promise<ExperienceWriteContext> {
  const audiences = await query<{ id: string }>(client, "SELECT id FROM audiences WHERE account_id = $1", [accountId]);
  return { experiences: await listExperiences(client, accountId), audienceIds: new Set(audiences.map((a) => a.id)) };
}

/**
 * Removes the visitors' sticky assignments of an experience: of the rules given, or of all its
 * rules (null). Keys "experience:rule", and "experience" (a key of SQLite's before its migration 7,
 * holding its rule first). Reads every visitor row of the account: only on a delete or a removed
 * rule. The rows are locked in user id order first, the order in which the client writes lock
 * visitors (client-writes.ts), so the two never wait for each other in a circle.
 */
async function dropAssignments(client: pg.PoolClient, accountId: string, experienceId: string, ruleIds: readonly string[] | null): Promise<void> {
  const ofIt =
    ruleIds === null
      ? "(a.key = $2 OR starts_with(a.key, $2 || ':'))"
      : "(a.key = ANY (SELECT $2 || ':' || r FROM unnest($3::text[]) AS r) OR (a.key = $2 AND a.value ->> 0 = ANY ($3::text[])))";
  await execute(
    client,
    `UPDATE visitors SET assignments_json =
       (SELECT coalesce(jsonb_object_agg(a.key, a.value), '{}') FROM jsonb_each(visitors.assignments_json) AS a WHERE NOT ${ofIt})
     WHERE account_id = $1 AND user_id IN (
       SELECT v.user_id FROM visitors v
       WHERE v.account_id = $1 AND EXISTS (SELECT 1 FROM jsonb_each(v.assignments_json) AS a WHERE ${ofIt})
       ORDER BY v.user_id FOR UPDATE)`,
    ruleIds === null ? [accountId, experienceId] : [accountId, experienceId, ruleIds],
  );
}

/** Inserts or replaces; a removed rule takes its visitors' assignments with it. Inside a transaction holding the account. */
async function writeExperience(client: pg.PoolClient, e: NewExperience): Promise<Experience> {
  const [existing] = await query<{ account_id: string; rules_json: { id: string }[] }>(
    client,
    "SELECT account_id, rules_json FROM experiences WHERE id = $1",
    [e.id],
  );
  if (existing && existing.account_id !== e.account_id) throw new Error(`experience ${e.id} belongs to another account`);
  const now = new Date().toISOString();
  // Answered as stored (RETURNING): jsonb orders object keys its own way, and the experience's
  // ETag hashes its JSON, so every answer must come from the stored form.
  const [row] = await query(
    client,
    `INSERT INTO experiences (id, account_id, name, status, kind, priority, pages_json, rules_json, goals_json, exclusion_group_json, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status, kind = excluded.kind,
       priority = excluded.priority, pages_json = excluded.pages_json, rules_json = excluded.rules_json,
       goals_json = excluded.goals_json, exclusion_group_json = excluded.exclusion_group_json, updated_at = excluded.updated_at
     RETURNING *`,
    [
      e.id,
      e.account_id,
      e.name,
      e.status,
      e.kind,
      e.priority,
      jsonb(e.pages),
      jsonb(e.rules),
      jsonb(e.goals),
      e.exclusion_group ? jsonb(e.exclusion_group) : null,
      now,
    ],
  );
  if (existing) {
    const kept = new Set(e.rules.map((r) => r.id));
    const removed = existing.rules_json.map((r) => r.id).filter((id) => !kept.has(id));
    if (removed.length > 0) await dropAssignments(client, e.account_id, e.id, removed);
  }
  return experienceFromRow(row!);
}

/** Inserts or replaces an audience. Inside a transaction holding the account. */
async function writeAudience(client: pg.PoolClient, a: NewAudience): Promise<Audience> {
  const [existing] = await query<{ account_id: string }>(client, "SELECT account_id FROM audiences WHERE id = $1", [a.id]);
  if (existing && existing.account_id !== a.account_id) throw new Error(`audience ${a.id} belongs to another account`);
  const [row] = await query(
    client,
    `INSERT INTO audiences (id, account_id, name, description, condition_json, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description,
       condition_json = excluded.condition_json, updated_at = excluded.updated_at
     RETURNING *`,
    [a.id, a.account_id, a.name, a.description, jsonb(a.condition), new Date().toISOString()],
  );
  return audienceFromRow(row!);
}

export function postgresExperiences(pool: pg.Pool): ExperienceStore {
  /** One write of the account's experiences or audiences: a transaction that holds the account's row. */
  const writing = <T>(accountId: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> =>
    transaction(pool, async (client) => {
      await lockedAccount(client, accountId);
      return fn(client);
    });

  return {
    createExperience(next, check) {
      return writing(next.account_id, async (client) => {
        if ((await query(client, "SELECT 1 FROM experiences WHERE id = $1", [next.id])).length) throw new Error(`experience ${next.id} exists`);
        check(await writeContext(client, next.account_id));
        return writeExperience(client, next);
      });
    },

    updateExperience(accountId, id, change) {
      return writing(accountId, async (client) => {
        const ctx = await writeContext(client, accountId);
        const current = ctx.experiences.find((e) => e.id === id);
        if (!current) return null;
        const next = change(current, ctx);
        return next === current ? current : writeExperience(client, next);
      });
    },

    deleteExperience(accountId, id, check) {
      return writing(accountId, async (client) => {
        const [row] = await query(client, "SELECT * FROM experiences WHERE id = $1 AND account_id = $2", [id, accountId]);
        if (!row) return false;
        check(experienceFromRow(row));
        await execute(client, "DELETE FROM experiences WHERE id = $1 AND account_id = $2", [id, accountId]);
        await dropAssignments(client, accountId, id, null);
        return true;
      });
    },

    saveExperience: (e) => writing(e.account_id, (client) => writeExperience(client, e)),

    async getExperience(accountId: string, id: string): Promise<Experience | null> {
      const [row] = await query(pool, "SELECT * FROM experiences WHERE id = $1 AND account_id = $2", [id, accountId]);
      return row ? experienceFromRow(row) : null;
    },

    listExperiences: (accountId) => listExperiences(pool, accountId),

    async listRunningExperiences(accountId: string): Promise<Experience[]> {
      const rows = await query(pool, "SELECT * FROM experiences WHERE account_id = $1 AND status = 'running' ORDER BY priority DESC, created_at, id", [
        accountId,
      ]);
      return rows.map(experienceFromRow);
    },

    saveAudience: (a) => writing(a.account_id, (client) => writeAudience(client, a)),

    updateAudience(accountId, id, change) {
      return writing(accountId, async (client) => {
        const current = await getAudience(client, accountId, id);
        return current ? writeAudience(client, change(current)) : null;
      });
    },

    deleteAudience(accountId, id) {
      return writing(accountId, async (client) => {
        if (!(await getAudience(client, accountId, id))) return null;
        const usedBy = (await listExperiences(client, accountId)).filter((e) => e.rules.some((r) => r.audience_id === id)).map((e) => e.name);
        if (usedBy.length > 0) return { usedBy };
        await execute(client, "DELETE FROM audiences WHERE id = $1 AND account_id = $2", [id, accountId]);
        return { deleted: true as const };
      });
    },

    getAudience: (accountId, id) => getAudience(pool, accountId, id),

    async listAudiences(accountId: string): Promise<Audience[]> {
      return (await query(pool, "SELECT * FROM audiences WHERE account_id = $1 ORDER BY created_at, id", [accountId])).map(audienceFromRow);
    },
  };
}
