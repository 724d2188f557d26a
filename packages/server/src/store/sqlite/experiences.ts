// Experiences and audiences, on SQLite. An experience is stored as one aggregate (its rules,
// behaviours, variations and configs together): the admin API edits it whole and the decision
// reads it whole, so splitting it into tables would only add joins.

import type { Audience, Experience, ExperienceStore, ExperienceWriteContext, NewAudience, NewExperience, Sync } from "../types.js";
import { audienceFromRow, experienceFromRow } from "../rows.js";
import type { Row, SqliteDb } from "./db.js";

export function sqliteExperiences(d: SqliteDb): Sync<ExperienceStore> {
  const getExperience = (accountId: string, id: string): Experience | null => {
    const row = d.sql("SELECT * FROM experiences WHERE id = ? AND account_id = ?").get(id, accountId) as Row | undefined;
    return row ? experienceFromRow(row) : null;
  };
  const listExperiences = (accountId: string): Experience[] =>
    (d.sql("SELECT * FROM experiences WHERE account_id = ? ORDER BY created_at, id").all(accountId) as Row[]).map(experienceFromRow);
  const getAudience = (accountId: string, id: string): Audience | null => {
    const row = d.sql("SELECT * FROM audiences WHERE id = ? AND account_id = ?").get(id, accountId) as Row | undefined;
    return row ? audienceFromRow(row) : null;
  };
  const context = (accountId: string): ExperienceWriteContext => ({
    experiences: listExperiences(accountId),
    audienceIds: new Set(d.sql("SELECT id FROM audiences WHERE account_id = ?").pluck(true).all(accountId) as string[]),
  });

  /**
   * Removes the visitors' sticky assignments of an experience: of the rules given, or of all its
   * rules (null). Keys "experience:rule", and "experience" (an older node's, holding its rule
   * first). Reads every visitor row of the account: only on a delete or a removed rule.
   */
  const dropAssignments = (accountId: string, experienceId: string, ruleIds: readonly string[] | null): void => {
    const ofIt =
      ruleIds === null
        ? "(a.key = @exp OR substr(a.key, 1, length(@exp) + 1) = @exp || ':')"
        : `(a.key IN (SELECT @exp || ':' || r.value FROM json_each(@rules) AS r)
            OR (a.key = @exp AND json_extract(a.value, '$[0]') IN (SELECT r.value FROM json_each(@rules) AS r)))`;
    d.sql(
      `UPDATE visitors SET assignments_json =
         (SELECT json_group_object(a.key, json(a.value)) FROM json_each(visitors.assignments_json) AS a WHERE NOT ${ofIt})
       WHERE account_id = @account AND EXISTS (SELECT 1 FROM json_each(visitors.assignments_json) AS a WHERE ${ofIt})`,
    ).run({ exp: experienceId, account: accountId, rules: JSON.stringify(ruleIds ?? []) });
  };

  /** Inserts or replaces; a removed rule takes its visitors' assignments with it. Inside a write. */
  const writeExperience = (e: NewExperience): Experience => {
    const now = new Date().toISOString();
    const existing = d.sql("SELECT account_id, created_at, rules_json FROM experiences WHERE id = ?").get(e.id) as
      | { account_id: string; created_at: string; rules_json: string }
      | undefined;
    if (existing && existing.account_id !== e.account_id) throw new Error(`experience ${e.id} belongs to another account`);
    d.sql(
      `INSERT INTO experiences (id, account_id, name, status, kind, priority, pages_json, rules_json, goals_json, exclusion_group_json, created_at, updated_at)
       VALUES (@id, @account_id, @name, @status, @kind, @priority, @pages_json, @rules_json, @goals_json, @exclusion_group_json, @created_at, @updated_at)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status, kind = excluded.kind,
         priority = excluded.priority, pages_json = excluded.pages_json, rules_json = excluded.rules_json,
         goals_json = excluded.goals_json, exclusion_group_json = excluded.exclusion_group_json, updated_at = excluded.updated_at
       WHERE experiences.account_id = excluded.account_id`,
    ).run({
      id: e.id,
      account_id: e.account_id,
      name: e.name,
      status: e.status,
      kind: e.kind,
      priority: e.priority,
      pages_json: JSON.stringify(e.pages),
      rules_json: JSON.stringify(e.rules),
      goals_json: JSON.stringify(e.goals),
      exclusion_group_json: e.exclusion_group ? JSON.stringify(e.exclusion_group) : null,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    });
    if (existing) {
      const kept = new Set(e.rules.map((r) => r.id));
      const removed = (JSON.parse(existing.rules_json) as { id: string }[]).map((r) => r.id).filter((id) => !kept.has(id));
      if (removed.length > 0) dropAssignments(e.account_id, e.id, removed);
    }
    return { ...e, exclusion_group: e.exclusion_group ?? null, created_at: existing?.created_at ?? now, updated_at: now };
  };

  const writeAudience = (a: NewAudience): Audience => {
    const now = new Date().toISOString();
    const existing = d.sql("SELECT account_id, created_at FROM audiences WHERE id = ?").get(a.id) as { account_id: string; created_at: string } | undefined;
    if (existing && existing.account_id !== a.account_id) throw new Error(`audience ${a.id} belongs to another account`);
    d.sql(
      `INSERT INTO audiences (id, account_id, name, description, condition_json, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description,
         condition_json = excluded.condition_json, updated_at = excluded.updated_at
       WHERE audiences.account_id = excluded.account_id`,
    ).run(a.id, a.account_id, a.name, a.description, JSON.stringify(a.condition), existing?.created_at ?? now, now);
    return { id: a.id, name: a.name, description: a.description, condition: a.condition, created_at: existing?.created_at ?? now, updated_at: now };
  };

  return {
    createExperience(next, check) {
      return d.write(() => {
        if (d.sql("SELECT 1 FROM experiences WHERE id = ?").get(next.id)) throw new Error(`experience ${next.id} exists`);
        check(context(next.account_id));
        return writeExperience(next);
      });
    },

    updateExperience(accountId, id, change) {
      return d.write(() => {
        const current = getExperience(accountId, id);
        if (!current) return null;
        const next = change(current, context(accountId));
        return next === current ? current : writeExperience(next);
      });
    },

    deleteExperience(accountId, id, check) {
      return d.write(() => {
        const current = getExperience(accountId, id);
        if (!current) return false;
        check(current);
        d.sql("DELETE FROM experiences WHERE id = ? AND account_id = ?").run(id, accountId);
        dropAssignments(accountId, id, null);
        return true;
      });
    },

    saveExperience: (e) => d.write(() => writeExperience(e)),
    getExperience,
    listExperiences,

    listRunningExperiences(accountId: string): Experience[] {
      return (
        d.sql("SELECT * FROM experiences WHERE account_id = ? AND status = 'running' ORDER BY priority DESC, created_at, id").all(accountId) as Row[]
      ).map(experienceFromRow);
    },

    saveAudience: (a) => d.write(() => writeAudience(a)),

    updateAudience(accountId, id, change) {
      return d.write(() => {
        const current = getAudience(accountId, id);
        return current ? writeAudience(change(current)) : null;
      });
    },

    deleteAudience(accountId, id) {
      return d.write(() => {
        if (!getAudience(accountId, id)) return null;
        const usedBy = listExperiences(accountId)
          .filter((e) => e.rules.some((r) => r.audience_id === id))
          .map((e) => e.name);
        if (usedBy.length > 0) return { usedBy };
        d.sql("DELETE FROM audiences WHERE id = ? AND account_id = ?").run(id, accountId);
        return { deleted: true as const };
      });
    },

    getAudience,

    listAudiences(accountId: string): Audience[] {
      return (d.sql("SELECT * FROM audiences WHERE account_id = ? ORDER BY created_at, id").all(accountId) as Row[]).map(audienceFromRow);
    },
  };
}
