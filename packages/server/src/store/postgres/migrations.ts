// The PostgreSQL schema as numbered migrations, and migrate(), which applies them and keeps the
// time partitions of events and exposures ahead of the clock. Append only, as on SQLite
// (store/migrations.ts): a migration that has run on a shop's database is never edited; a change
// is a new, higher number. Migration 1 is SQLite's schema after its 11 migrations, so both
// backends give the same answers:
//  - text compares byte by byte (COLLATE "C" on every text column), as SQLite's BINARY does:
//    orderings and equality never depend on the database's locale;
//  - ISO times are text as on SQLite; millisecond times are bigint; *_json columns the admin API
//    writes are jsonb (visitors.assignments_json too: a decision merges into it with ||);
//  - what a client sends is kept as json, verbatim: jsonb refuses \u0000 and lone surrogates in
//    strings, which a client may send, and would refuse the whole batch of writes with them;
//  - events and exposures are partitioned by the month the service received them (received_ms:
//    the service's clock; a browser's clock is not trusted to route rows). A unique index of a
//    partitioned table must include the partition key, so idempotence on (account, insert_id)
//    and on a summary's natural key is kept by the plain tables event_ids and exposure_keys.

import type pg from "pg";
import { query, transaction } from "./db.js";

export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: "initial: the SQLite schema of migrations 1 to 11",
    sql: `
      -- SQLite's NOCASE collation and its lower(): only A-Z fold, whatever the locale.
      CREATE FUNCTION ascii_lower(value text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT translate(value, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') $$;

      CREATE TABLE accounts (
        id text COLLATE "C" PRIMARY KEY,
        name text COLLATE "C" NOT NULL,
        client_key text COLLATE "C" NOT NULL UNIQUE,
        settings_json jsonb NOT NULL,
        -- The decision caches an account's parsed experiences keyed by this number: triggers
        -- bump it on every write that changes what a config call answers.
        revision bigint NOT NULL DEFAULT 1,
        created_at text COLLATE "C" NOT NULL,
        updated_at text COLLATE "C" NOT NULL
      );

      CREATE TABLE operators (
        id text COLLATE "C" PRIMARY KEY,
        account_id text COLLATE "C" NOT NULL REFERENCES accounts(id),
        email text COLLATE "C" NOT NULL,
        password_hash text COLLATE "C" NOT NULL,
        role text COLLATE "C" NOT NULL CHECK (role IN ('owner', 'editor', 'viewer'))
      );
      CREATE UNIQUE INDEX operators_email ON operators (ascii_lower(email));
      CREATE INDEX operators_account ON operators (account_id);

      CREATE TABLE sessions (
        token_hash text COLLATE "C" PRIMARY KEY,
        operator_id text COLLATE "C" NOT NULL REFERENCES operators(id),
        csrf_token text COLLATE "C" NOT NULL,
        expires_at bigint NOT NULL
      );
      CREATE INDEX sessions_operator ON sessions (operator_id);

      CREATE TABLE secret_keys (
        id text COLLATE "C" PRIMARY KEY,
        account_id text COLLATE "C" NOT NULL REFERENCES accounts(id),
        name text COLLATE "C" NOT NULL,
        prefix text COLLATE "C" NOT NULL,
        -- Only the SHA-256 of a secret key is kept: the secret is shown once, at creation.
        key_hash text COLLATE "C" NOT NULL UNIQUE,
        created_at text COLLATE "C" NOT NULL,
        last_used_at text COLLATE "C",
        revoked_at text COLLATE "C"
      );
      CREATE INDEX secret_keys_account ON secret_keys (account_id);

      CREATE TABLE service_secrets (
        name text COLLATE "C" PRIMARY KEY,
        value text COLLATE "C" NOT NULL,
        created_at text COLLATE "C" NOT NULL
      );

      CREATE TABLE experiences (
        id text COLLATE "C" PRIMARY KEY,
        account_id text COLLATE "C" NOT NULL REFERENCES accounts(id),
        name text COLLATE "C" NOT NULL,
        status text COLLATE "C" NOT NULL CHECK (status IN ('draft', 'running', 'paused', 'archived')),
        kind text COLLATE "C" NOT NULL CHECK (kind IN ('personalization', 'ab_test')),
        priority integer NOT NULL DEFAULT 0,
        pages_json jsonb NOT NULL,
        rules_json jsonb NOT NULL,
        goals_json jsonb NOT NULL DEFAULT '[]',
        exclusion_group_json jsonb,
        created_at text COLLATE "C" NOT NULL,
        updated_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX experiences_account_status ON experiences (account_id, status);
      CREATE INDEX experiences_account_created ON experiences (account_id, created_at, id);

      CREATE TABLE audiences (
        id text COLLATE "C" PRIMARY KEY,
        account_id text COLLATE "C" NOT NULL REFERENCES accounts(id),
        name text COLLATE "C" NOT NULL,
        description text COLLATE "C" NOT NULL DEFAULT '',
        condition_json jsonb NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        updated_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX audiences_account ON audiences (account_id, created_at);

      -- A changed account name, client key or settings bumps its revision.
      CREATE FUNCTION account_revision_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.revision := OLD.revision + 1;
        RETURN NEW;
      END $$;
      CREATE TRIGGER accounts_revision BEFORE UPDATE OF name, client_key, settings_json ON accounts
        FOR EACH ROW EXECUTE FUNCTION account_revision_bump();

      -- Any write to an experience or an audience bumps its account's revision (both accounts'
      -- if the row moved). OLD is null on an insert, NEW on a delete.
      CREATE FUNCTION owner_revision_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE accounts SET revision = revision + 1 WHERE id IN (OLD.account_id, NEW.account_id);
        RETURN NULL;
      END $$;
      CREATE TRIGGER experiences_revision AFTER INSERT OR UPDATE OR DELETE ON experiences
        FOR EACH ROW EXECUTE FUNCTION owner_revision_bump();
      CREATE TRIGGER audiences_revision AFTER INSERT OR UPDATE OR DELETE ON audiences
        FOR EACH ROW EXECUTE FUNCTION owner_revision_bump();

      CREATE TABLE visitors (
        account_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        user_customer_id text COLLATE "C" NOT NULL,
        user_json json NOT NULL,
        first_seen text COLLATE "C" NOT NULL,
        last_seen text COLLATE "C" NOT NULL,
        -- Sticky assignments, one key per experience and rule ("experience:rule", store/types.ts
        -- assignmentKey): [rule_id, behaviour_id, variation_id, probability, assigned_at, split?].
        -- One row per visitor: every config call reads them and a new visitor writes several.
        assignments_json jsonb NOT NULL DEFAULT '{}',
        PRIMARY KEY (account_id, user_id)
      );

      -- Every event stored, across all partitions of events: an insert here that conflicts is
      -- a duplicate (a retried request, or the same event sent to two nodes).
      CREATE TABLE event_ids (
        account_id text COLLATE "C" NOT NULL,
        insert_id text COLLATE "C" NOT NULL,
        PRIMARY KEY (account_id, insert_id)
      );

      CREATE TABLE events (
        -- The account's stream order (the events list's cursor).
        seq bigserial NOT NULL,
        account_id text COLLATE "C" NOT NULL,
        insert_id text COLLATE "C" NOT NULL,
        event_type text COLLATE "C" NOT NULL,
        event_customer_id text COLLATE "C" NOT NULL,
        domain text COLLATE "C" NOT NULL,
        page_path text COLLATE "C",
        user_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C",
        event_timestamp bigint NOT NULL,
        received_at text COLLATE "C" NOT NULL,
        received_ms bigint NOT NULL,
        event_json json NOT NULL,
        -- What results and the events list read, filled at insert (store/event-fields.ts).
        event_name text COLLATE "C" NOT NULL,
        revenue_amount double precision NOT NULL DEFAULT 0
      ) PARTITION BY RANGE (received_ms);
      CREATE TABLE events_default PARTITION OF events DEFAULT;
      CREATE INDEX events_account_seq ON events (account_id, seq);
      CREATE INDEX events_account_user_seq ON events (account_id, user_id, seq);

      -- Every summary stored, by its natural key (a summary has no insert id; a retried one
      -- repeats all of these).
      CREATE TABLE exposure_keys (
        account_id text COLLATE "C" NOT NULL,
        user_customer_id text COLLATE "C" NOT NULL,
        config_id text COLLATE "C" NOT NULL,
        variation_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        requested_time bigint NOT NULL,
        PRIMARY KEY (account_id, user_customer_id, config_id, variation_id, session_id, requested_time)
      );

      CREATE TABLE exposures (
        seq bigserial NOT NULL,
        account_id text COLLATE "C" NOT NULL,
        user_customer_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C",
        session_id text COLLATE "C" NOT NULL,
        config_id text COLLATE "C" NOT NULL,
        experience_id text COLLATE "C",
        rule_id text COLLATE "C",
        behaviour_id text COLLATE "C",
        variation_id text COLLATE "C" NOT NULL,
        is_template_config boolean NOT NULL DEFAULT false,
        probability double precision,
        requested_time bigint NOT NULL,
        received_at text COLLATE "C" NOT NULL,
        received_ms bigint NOT NULL,
        -- The split the assignment was drawn from (JSON text, as made by decide.ts splitOf).
        split text COLLATE "C",
        -- An exposure no randomised assignment stands behind: kept, left out of the results.
        forced boolean NOT NULL DEFAULT false
      ) PARTITION BY RANGE (received_ms);
      CREATE TABLE exposures_default PARTITION OF exposures DEFAULT;
      -- Each visitor's first randomised exposure to an experience, in order (the results).
      CREATE INDEX exposures_experience_user_random ON exposures
        (account_id, experience_id, user_id, requested_time, variation_id, probability) WHERE NOT forced;
      -- A visitor's timeline, and the events of an experience's visitors.
      CREATE INDEX exposures_account_user ON exposures (account_id, user_id, requested_time);
      -- The account's last exposure (the results cache's version).
      CREATE INDEX exposures_account_seq ON exposures (account_id, seq);

      CREATE TABLE devices (
        account_id text COLLATE "C" NOT NULL,
        device_customer_id text COLLATE "C" NOT NULL,
        device_type text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        -- The devices call's anonymous flag; NULL when not sent.
        anonymous boolean,
        PRIMARY KEY (account_id, device_customer_id)
      );

      CREATE TABLE alerts (
        seq bigserial PRIMARY KEY,
        account_id text COLLATE "C" NOT NULL,
        alert_json json NOT NULL,
        received_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX alerts_account ON alerts (account_id);
    `,
  },
  {
    version: 2,
    name: "results: each visitor's first exposure, kept at insert (SQLite's 12)",
    sql: `
      -- Each visitor's first randomised exposure to an experience (docs/results.md "Who counts"):
      -- the smallest requested_time, at the same millisecond the smallest variation id, at the
      -- same both the one stored first. Kept by the exposure insert (postgres/client-writes.ts)
      -- in its statement, so the results read one row per visitor here instead of sorting all
      -- of the experience's exposures. seq: the exposure's, moved when an earlier exposure
      -- arrives late and takes the place. Not partitioned: one row per visitor and experience.
      CREATE TABLE first_exposures (
        account_id text COLLATE "C" NOT NULL,
        experience_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        variation_id text COLLATE "C" NOT NULL,
        requested_time bigint NOT NULL,
        probability double precision,
        split text COLLATE "C",
        seq bigint NOT NULL,
        PRIMARY KEY (account_id, experience_id, user_id)
      );
      INSERT INTO first_exposures (account_id, experience_id, user_id, variation_id, requested_time, probability, split, seq)
      SELECT DISTINCT ON (account_id, experience_id, user_id)
             account_id, experience_id, user_id, variation_id, requested_time, probability, split, seq
      FROM exposures
      WHERE experience_id IS NOT NULL AND user_id IS NOT NULL AND NOT forced
      ORDER BY account_id, experience_id, user_id, requested_time, variation_id, seq;
    `,
  },
  {
    version: 3,
    name: "results: the state folded incrementally (SQLite's 13)",
    sql: `
      -- The results without a date range, folded from a watermark (docs/results.md "Incremental
      -- results"), shared by every node: per experience, the goals the state was made for, the
      -- last event and exposure seqs it covers, and its totals (JSON). A node folds while holding
      -- this row's lock, so two nodes never fold the same arrivals twice. Derived data only:
      -- deleting a row makes the next results call fold from nothing.
      CREATE TABLE results_state (
        account_id text COLLATE "C" NOT NULL,
        experience_id text COLLATE "C" NOT NULL,
        goals text NOT NULL,
        event_seq bigint NOT NULL,
        exposure_seq bigint NOT NULL,
        totals text NOT NULL,
        PRIMARY KEY (account_id, experience_id)
      );
      -- Per visitor counted: their first exposure and per goal their state (JSON), as counted in
      -- the totals, so that a change takes away exactly what was added.
      CREATE TABLE results_visitors (
        account_id text COLLATE "C" NOT NULL,
        experience_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        state text NOT NULL,
        PRIMARY KEY (account_id, experience_id, user_id)
      );
      -- The variations each visitor was exposed to (the distinct visitors per variation).
      CREATE TABLE results_seen (
        account_id text COLLATE "C" NOT NULL,
        experience_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        variation_id text COLLATE "C" NOT NULL,
        PRIMARY KEY (account_id, experience_id, user_id, variation_id)
      );
    `,
  },
];

/** The advisory lock migrate() holds: nodes starting together migrate one after another. */
const MIGRATION_LOCK = 7_460_201_801;

/** The partitioned tables, each with a DEFAULT partition that takes what no month takes. */
const PARTITIONED = ["events", "exposures"] as const;
/** Months with a partition of their own, from the current one. */
const MONTHS_AHEAD = 3;

/**
 * Applies the pending migrations and makes the partitions of the current month and the next two,
 * all in one transaction under an advisory lock: a node that starts while another migrates waits,
 * then finds nothing left to do. Safe to call on every start (and now and then: a node that runs
 * for months needs its later months' partitions; until then their rows go to DEFAULT).
 */
export async function migrate(pool: pg.Pool, now = new Date()): Promise<void> {
  await transaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`,
    );
    const done = new Set((await query<{ version: number }>(client, "SELECT version FROM schema_migrations")).map((r) => r.version));
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await client.query(m.sql);
      await client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [m.version, m.name, now.toISOString()]);
    }
    // A new partition locks its table against writes while it waits for its lock: a short wait,
    // so that inserts queued behind it are held at most this long; tried again the next day
    // (partitions are made two months ahead).
    await client.query("SET LOCAL lock_timeout = '1s'");
    for (const table of PARTITIONED) {
      for (let i = 0; i < MONTHS_AHEAD; i++) await addMonth(client, table, now.getUTCFullYear(), now.getUTCMonth() + i);
    }
  });
}

/** The name of a table's partition for one month, e.g. events_2025_11. */
export const partitionName = (table: string, start: Date): string =>
  `${table}_${start.getUTCFullYear()}_${String(start.getUTCMonth() + 1).padStart(2, "0")}`;

/**
 * The partition of `table` for one month (`month` may run past 11: Date.UTC carries it into the
 * year), unless it exists. Rows that DEFAULT took for that month meanwhile move into it:
 * PostgreSQL refuses a new partition while DEFAULT holds rows of its range.
 */
async function addMonth(client: pg.PoolClient, table: (typeof PARTITIONED)[number], year: number, month: number): Promise<void> {
  const from = Date.UTC(year, month, 1);
  const to = Date.UTC(year, month + 1, 1);
  const name = partitionName(table, new Date(from));
  const [found] = await query<{ name: string | null }>(client, "SELECT to_regclass($1)::text AS name", [name]);
  if (found?.name) return;
  await client.query(`CREATE TEMP TABLE stranded (LIKE ${table}) ON COMMIT DROP`);
  await client.query(
    `WITH moved AS (DELETE FROM ${table}_default WHERE received_ms >= $1 AND received_ms < $2 RETURNING *)
     INSERT INTO stranded SELECT * FROM moved`,
    [from, to],
  );
  await client.query(`CREATE TABLE ${name} PARTITION OF ${table} FOR VALUES FROM (${from}) TO (${to})`);
  await client.query(`INSERT INTO ${table} SELECT * FROM stranded`);
  await client.query("DROP TABLE stranded");
}
