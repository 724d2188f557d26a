// The Store on SQLite (better-sqlite3): synchronous, in-process, one file in DATA_DIR.
// WAL mode lets the dashboard read while the client API writes.

import Database from "better-sqlite3";
import type { TrackedEvent, User } from "@storefit/contract";
import { MIGRATIONS } from "./migrations.js";
import type {
  Account,
  Experience,
  Exposure,
  InsertResult,
  NewExperience,
  Operator,
  Store,
  StoredEvent,
} from "./types.js";

type Row = Record<string, unknown>;

function accountFromRow(row: Row): Account {
  return {
    id: row.id as string,
    name: row.name as string,
    client_key: row.client_key as string,
    settings: JSON.parse(row.settings_json as string) as Account["settings"],
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

function experienceFromRow(row: Row): Experience {
  return {
    id: row.id as string,
    account_id: row.account_id as string,
    name: row.name as string,
    status: row.status as Experience["status"],
    kind: row.kind as Experience["kind"],
    priority: row.priority as number,
    pages: JSON.parse(row.pages_json as string) as Experience["pages"],
    rules: JSON.parse(row.rules_json as string) as Experience["rules"],
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

export class SqliteStore implements Store {
  private readonly db: Database.Database;

  /** `file` is a path, or ":memory:" for a throwaway database (still real SQLite). */
  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("busy_timeout = 5000");
  }

  migrate(): void {
    this.db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    const done = new Set(
      (this.db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map(
        (r) => r.version,
      ),
    );
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      this.db.transaction(() => {
        this.db.exec(m.sql);
        this.db
          .prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
          .run(m.version, m.name, new Date().toISOString());
      })();
    }
  }

  close(): void {
    this.db.close();
  }

  createAccount(a: Omit<Account, "created_at" | "updated_at">): Account {
    const now = new Date().toISOString();
    this.db
      .prepare(
        "INSERT INTO accounts (id, name, client_key, settings_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(a.id, a.name, a.client_key, JSON.stringify(a.settings), now, now);
    return { ...a, created_at: now, updated_at: now };
  }

  getAccountByClientKey(clientKey: string): Account | null {
    const row = this.db.prepare("SELECT * FROM accounts WHERE client_key = ?").get(clientKey) as
      | Row
      | undefined;
    return row ? accountFromRow(row) : null;
  }

  getAccount(id: string): Account | null {
    const row = this.db.prepare("SELECT * FROM accounts WHERE id = ?").get(id) as Row | undefined;
    return row ? accountFromRow(row) : null;
  }

  createOperator(o: Operator): void {
    this.db
      .prepare(
        "INSERT INTO operators (id, account_id, email, password_hash, role) VALUES (?, ?, ?, ?, ?)",
      )
      .run(o.id, o.account_id, o.email, o.password_hash, o.role);
  }

  getOperatorByEmail(email: string): Operator | null {
    return (
      (this.db.prepare("SELECT * FROM operators WHERE email = ?").get(email) as
        | Operator
        | undefined) ?? null
    );
  }

  getOperator(id: string): Operator | null {
    return (
      (this.db.prepare("SELECT * FROM operators WHERE id = ?").get(id) as Operator | undefined) ??
      null
    );
  }

  createSession(tokenHash: string, operatorId: string, csrfToken: string, expiresAt: number): void {
    this.db
      .prepare(
        "INSERT INTO sessions (token_hash, operator_id, csrf_token, expires_at) VALUES (?, ?, ?, ?)",
      )
      .run(tokenHash, operatorId, csrfToken, expiresAt);
  }

  getSession(tokenHash: string, now: number): { operator_id: string; csrf_token: string } | null {
    return (
      (this.db
        .prepare(
          "SELECT operator_id, csrf_token FROM sessions WHERE token_hash = ? AND expires_at > ?",
        )
        .get(tokenHash, now) as { operator_id: string; csrf_token: string } | undefined) ?? null
    );
  }

  deleteSession(tokenHash: string): void {
    this.db.prepare("DELETE FROM sessions WHERE token_hash = ?").run(tokenHash);
  }

  saveExperience(e: NewExperience): Experience {
    const now = new Date().toISOString();
    const existing = this.db
      .prepare("SELECT created_at FROM experiences WHERE id = ?")
      .get(e.id) as { created_at: string } | undefined;
    this.db
      .prepare(
        `INSERT INTO experiences (id, account_id, name, status, kind, priority, pages_json, rules_json, created_at, updated_at)
         VALUES (@id, @account_id, @name, @status, @kind, @priority, @pages_json, @rules_json, @created_at, @updated_at)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status, kind = excluded.kind,
           priority = excluded.priority, pages_json = excluded.pages_json, rules_json = excluded.rules_json,
           updated_at = excluded.updated_at`,
      )
      .run({
        id: e.id,
        account_id: e.account_id,
        name: e.name,
        status: e.status,
        kind: e.kind,
        priority: e.priority,
        pages_json: JSON.stringify(e.pages),
        rules_json: JSON.stringify(e.rules),
        created_at: existing?.created_at ?? now,
        updated_at: now,
      });
    return { ...e, created_at: existing?.created_at ?? now, updated_at: now };
  }

  listExperiences(accountId: string): Experience[] {
    return (
      this.db
        .prepare("SELECT * FROM experiences WHERE account_id = ? ORDER BY created_at, id")
        .all(accountId) as Row[]
    ).map(experienceFromRow);
  }

  listRunningExperiences(accountId: string): Experience[] {
    return (
      this.db
        .prepare(
          "SELECT * FROM experiences WHERE account_id = ? AND status = 'running' ORDER BY priority DESC, created_at, id",
        )
        .all(accountId) as Row[]
    ).map(experienceFromRow);
  }

  touchVisitor(accountId: string, userId: string, user: User, now: string): void {
    this.db
      .prepare(
        `INSERT INTO visitors (account_id, user_id, user_customer_id, user_json, first_seen, last_seen)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, user_id) DO UPDATE SET user_json = excluded.user_json, last_seen = excluded.last_seen`,
      )
      .run(accountId, userId, user.user_customer_id, JSON.stringify(user), now, now);
  }

  insertEvents(accountId: string, userId: string, events: TrackedEvent[], now: string): InsertResult {
    const stmt = this.db.prepare(
      `INSERT INTO events (account_id, insert_id, event_type, event_customer_id, domain, page_path, user_id,
         session_id, event_timestamp, received_at, event_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, insert_id) DO NOTHING`,
    );
    return this.db.transaction(() => {
      let accepted = 0;
      for (const e of events) {
        const pagePath = e.properties?.page_path;
        const r = stmt.run(
          accountId,
          e.insert_id,
          e.event_type,
          e.event_customer_id,
          e.domain ?? "",
          typeof pagePath === "string" ? pagePath : null,
          userId,
          e.session_id ?? null,
          Math.trunc(e.event_timestamp),
          now,
          JSON.stringify(e),
        );
        accepted += r.changes;
      }
      return { accepted, duplicates: events.length - accepted };
    })();
  }

  countEvents(accountId: string): number {
    return (
      this.db.prepare("SELECT count(*) AS n FROM events WHERE account_id = ?").get(accountId) as {
        n: number;
      }
    ).n;
  }

  listEvents(accountId: string, limit: number): StoredEvent[] {
    const rows = this.db
      .prepare("SELECT * FROM events WHERE account_id = ? ORDER BY seq DESC LIMIT ?")
      .all(accountId, limit) as Row[];
    return rows.map((r) => ({
      account_id: r.account_id as string,
      insert_id: r.insert_id as string,
      event_type: r.event_type as string,
      event_customer_id: r.event_customer_id as string,
      domain: r.domain as string,
      page_path: (r.page_path as string | null) ?? null,
      user_id: r.user_id as string,
      session_id: (r.session_id as string | null) ?? null,
      event_timestamp: r.event_timestamp as number,
      received_at: r.received_at as string,
      event: JSON.parse(r.event_json as string) as TrackedEvent,
    }));
  }

  insertExposures(accountId: string, exposures: Exposure[], now: string): InsertResult {
    const stmt = this.db.prepare(
      `INSERT INTO exposures (account_id, user_customer_id, user_id, session_id, config_id, experience_id, rule_id,
         behaviour_id, variation_id, is_template_config, probability, requested_time, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
    );
    return this.db.transaction(() => {
      let accepted = 0;
      for (const x of exposures) {
        accepted += stmt.run(
          accountId,
          x.user_customer_id,
          x.user_id ?? null,
          x.session_id ?? "",
          x.config_id,
          x.experience_id ?? null,
          x.rule_id ?? null,
          x.behaviour_id ?? null,
          x.variation_id ?? "",
          x.is_template_config ? 1 : 0,
          x.probability ?? null,
          Math.trunc(x.requested_time),
          now,
        ).changes;
      }
      return { accepted, duplicates: exposures.length - accepted };
    })();
  }

  countExposures(accountId: string): number {
    return (
      this.db.prepare("SELECT count(*) AS n FROM exposures WHERE account_id = ?").get(accountId) as {
        n: number;
      }
    ).n;
  }

  addDevices(
    accountId: string,
    devices: { device_customer_id: string; device_type: string; user_id: string }[],
    now: string,
  ): InsertResult {
    const stmt = this.db.prepare(
      `INSERT INTO devices (account_id, device_customer_id, device_type, user_id, created_at)
       VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
    return this.db.transaction(() => {
      let accepted = 0;
      for (const d of devices) {
        accepted += stmt.run(accountId, d.device_customer_id, d.device_type, d.user_id, now).changes;
      }
      return { accepted, duplicates: devices.length - accepted };
    })();
  }

  addAlert(accountId: string, alert: unknown, now: string): void {
    this.db
      .prepare("INSERT INTO alerts (account_id, alert_json, received_at) VALUES (?, ?, ?)")
      .run(accountId, JSON.stringify(alert), now);
  }

  countAlerts(accountId: string): number {
    return (
      this.db.prepare("SELECT count(*) AS n FROM alerts WHERE account_id = ?").get(accountId) as {
        n: number;
      }
    ).n;
  }
}
