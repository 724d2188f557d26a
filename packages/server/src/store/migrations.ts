// Numbered migrations. Append only: a migration that has run on a shop's database is never
// edited; a change is a new, higher number. `schema_migrations` records what has run.

export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: "initial",
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        client_key TEXT NOT NULL UNIQUE,
        settings_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE operators (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
        password_hash TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer'))
      );
      CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        operator_id TEXT NOT NULL REFERENCES operators(id),
        csrf_token TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE TABLE experiences (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('draft', 'running', 'paused', 'archived')),
        kind TEXT NOT NULL CHECK (kind IN ('personalization', 'ab_test')),
        priority INTEGER NOT NULL DEFAULT 0,
        pages_json TEXT NOT NULL,
        rules_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX experiences_account_status ON experiences (account_id, status);
      CREATE TABLE visitors (
        account_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        user_customer_id TEXT NOT NULL,
        user_json TEXT NOT NULL,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        PRIMARY KEY (account_id, user_id)
      );
      CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id TEXT NOT NULL,
        insert_id TEXT NOT NULL,
        event_type TEXT NOT NULL,
        event_customer_id TEXT NOT NULL,
        domain TEXT NOT NULL,
        page_path TEXT,
        user_id TEXT NOT NULL,
        session_id TEXT,
        event_timestamp INTEGER NOT NULL,
        received_at TEXT NOT NULL,
        event_json TEXT NOT NULL,
        UNIQUE (account_id, insert_id)
      );
      CREATE INDEX events_account_seq ON events (account_id, seq);
      CREATE TABLE exposures (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id TEXT NOT NULL,
        user_customer_id TEXT NOT NULL,
        user_id TEXT,
        session_id TEXT,
        config_id TEXT NOT NULL,
        experience_id TEXT,
        rule_id TEXT,
        behaviour_id TEXT,
        variation_id TEXT,
        is_template_config INTEGER NOT NULL DEFAULT 0,
        probability REAL,
        requested_time INTEGER NOT NULL,
        received_at TEXT NOT NULL,
        -- A summary has no insert id; a retried one repeats all of these.
        UNIQUE (account_id, user_customer_id, config_id, variation_id, session_id, requested_time)
      );
      CREATE TABLE devices (
        account_id TEXT NOT NULL,
        device_customer_id TEXT NOT NULL,
        device_type TEXT NOT NULL,
        user_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (account_id, device_customer_id)
      );
      CREATE TABLE alerts (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id TEXT NOT NULL,
        alert_json TEXT NOT NULL,
        received_at TEXT NOT NULL
      );
    `,
  },
];
