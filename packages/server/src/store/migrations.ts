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
  {
    version: 2,
    name: "audiences, secret keys, sticky assignments, account revision",
    sql: `
      -- The decision caches an account's parsed experiences keyed by this number (product.md §3:
      -- a publish takes effect on every node's next config call). Triggers bump it on every write
      -- that changes what a config call answers, so no code path can forget to.
      ALTER TABLE accounts ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;

      CREATE TABLE audiences (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        condition_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX audiences_account ON audiences (account_id, created_at);

      -- Only the SHA-256 of a secret key is kept: the secret is shown once, at creation.
      CREATE TABLE secret_keys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE INDEX secret_keys_account ON secret_keys (account_id);

      -- Sticky assignments (product.md §3), one per visitor and experience, kept in the visitor's
      -- row as a JSON object: experience id → [rule_id, behaviour_id, variation_id, probability,
      -- assigned_at]; probability is what the visitor had of getting that variation, stored with
      -- each exposure. One row per visitor, because every config call reads them and every new
      -- visitor writes one per experience on the page: as rows of their own, the read and the
      -- index writes were the largest costs of a config call (docs/benchmarks.md).
      -- (SQLite json_each / PostgreSQL jsonb_each list them by experience when needed.)
      ALTER TABLE visitors ADD COLUMN assignments_json TEXT NOT NULL DEFAULT '{}';

      CREATE INDEX exposures_experience ON exposures (account_id, experience_id, variation_id, user_customer_id);
      CREATE INDEX operators_account ON operators (account_id);
      CREATE INDEX experiences_account_created ON experiences (account_id, created_at, id);

      CREATE TRIGGER accounts_revision AFTER UPDATE OF name, client_key, settings_json ON accounts
      BEGIN UPDATE accounts SET revision = revision + 1 WHERE id = NEW.id; END;
      CREATE TRIGGER experiences_revision_insert AFTER INSERT ON experiences
      BEGIN UPDATE accounts SET revision = revision + 1 WHERE id = NEW.account_id; END;
      CREATE TRIGGER experiences_revision_update AFTER UPDATE ON experiences
      BEGIN UPDATE accounts SET revision = revision + 1 WHERE id IN (OLD.account_id, NEW.account_id); END;
      CREATE TRIGGER experiences_revision_delete AFTER DELETE ON experiences
      BEGIN UPDATE accounts SET revision = revision + 1 WHERE id = OLD.account_id; END;
      CREATE TRIGGER audiences_revision_insert AFTER INSERT ON audiences
      BEGIN UPDATE accounts SET revision = revision + 1 WHERE id = NEW.account_id; END;
      CREATE TRIGGER audiences_revision_update AFTER UPDATE ON audiences
      BEGIN UPDATE accounts SET revision = revision + 1 WHERE id IN (OLD.account_id, NEW.account_id); END;
      CREATE TRIGGER audiences_revision_delete AFTER DELETE ON audiences
      BEGIN UPDATE accounts SET revision = revision + 1 WHERE id = OLD.account_id; END;
    `,
  },
  {
    version: 3,
    name: "experience goals",
    sql: `
      -- What counts as a conversion in an experience's results (issue #7), stored with the
      -- experience like its pages and rules.
      ALTER TABLE experiences ADD COLUMN goals_json TEXT NOT NULL DEFAULT '[]';
    `,
  },
  {
    version: 4,
    name: "results: exposures by experience and visitor",
    sql: `
      -- The results aggregation (docs/results.md) reads each visitor's first exposure to an
      -- experience in order (requested_time, then variation_id) from this index alone; it also
      -- serves the distinct visitors per variation. It replaces exposures_experience, so an
      -- exposure insert maintains as many indexes as before, at the same rate (measured; with
      -- user_customer_id as a seventh column it cost 10–20 %: docs/benchmarks.md, "Results").
      DROP INDEX exposures_experience;
      CREATE INDEX exposures_experience_user ON exposures
        (account_id, experience_id, user_id, requested_time, variation_id, probability);
    `,
  },
  {
    version: 5,
    name: "results: split cohorts, forced exposures",
    sql: `
      -- The split each exposure's assignment was drawn from (docs/results.md, "Sample-ratio
      -- check"): the behaviour's probability of every variation at assignment time (traffic
      -- allocation × weight share), as JSON text, carried from the sticky assignment to the
      -- exposure. The check computes the expected counts per split cohort, so a weight or traffic
      -- change during the experiment is no mismatch. NULL: stored before this migration.
      ALTER TABLE exposures ADD COLUMN split TEXT;
      -- 1: an exposure no randomised assignment stands behind (a desired_experiences or preview
      -- visit, spec §2): kept, but left out of the results (metrics, SRM, visitor counts).
      ALTER TABLE exposures ADD COLUMN forced INTEGER NOT NULL DEFAULT 0;
      -- The results read each visitor's first randomised exposure from this index alone, as
      -- with migration 4's; partial, so forced exposures (few) are not in it.
      DROP INDEX exposures_experience_user;
      CREATE INDEX exposures_experience_user_random ON exposures
        (account_id, experience_id, user_id, requested_time, variation_id, probability) WHERE forced = 0;
    `,
  },
  {
    version: 6,
    name: "devices: the anonymous flag",
    sql: `
      -- The devices call's anonymous flag (spec §7): 1 or 0; NULL when not sent, or stored before.
      ALTER TABLE devices ADD COLUMN anonymous INTEGER;
    `,
  },
  {
    version: 7,
    name: "sticky assignments per experience and rule",
    sql: `
      -- Migration 2 kept one assignment per visitor and experience, under the experience id; a
      -- visitor who matched another rule in between lost the first rule's. They are now kept per
      -- experience and rule, under "experience:rule" (store/types.ts assignmentKey): re-key the
      -- old entries by the rule each holds (its first element), unless that key exists already.
      UPDATE visitors SET assignments_json = (
        SELECT json_group_object(k, json(v)) FROM (
          SELECT CASE WHEN instr(a.key, ':') = 0 THEN a.key || ':' || json_extract(a.value, '$[0]') ELSE a.key END AS k, a.value AS v
          FROM json_each(visitors.assignments_json) AS a
          WHERE instr(a.key, ':') > 0
             OR json_type(visitors.assignments_json, '$."' || a.key || ':' || json_extract(a.value, '$[0]') || '"') IS NULL
        )
      )
      WHERE EXISTS (SELECT 1 FROM json_each(visitors.assignments_json) AS a WHERE instr(a.key, ':') = 0);
    `,
  },
  {
    version: 8,
    name: "events by visitor",
    sql: `
      -- Live events filtered by visitor and a visitor's timeline (docs/api.md "Events"): one
      -- visitor's events and exposures, newest first, without reading all of the account's.
      CREATE INDEX events_account_user_seq ON events (account_id, user_id, seq);
      CREATE INDEX exposures_account_user ON exposures (account_id, user_id, requested_time);
    `,
  },
  {
    version: 9,
    name: "events: the fields results read, in columns",
    sql: `
      -- What the results and the events list read from an event, kept in columns filled at insert
      -- (SqliteStore.writeEvents), so no query parses event_json: SQLite refuses JSON nested
      -- deeper than 1,000 levels with an error, and one stored event like that made every results
      -- query of its account fail (issue #17).
      -- event_name: the event's name, else what follows the first "|" of event_customer_id.
      -- revenue_amount: a REVENUE event's properties.revenue_amount when it is a finite number
      -- > 0, or text that starts with one (as SQLite's CAST reads it); else 0; 0 for other types.
      ALTER TABLE events ADD COLUMN event_name TEXT;
      ALTER TABLE events ADD COLUMN revenue_amount REAL NOT NULL DEFAULT 0;
      -- The backfill reads event_json only where json_valid says it parses (a row nested too
      -- deep is not valid: its name comes from event_customer_id, its amount is 0). CASE is
      -- evaluated lazily, AND need not be: hence the nesting.
      UPDATE events SET
        event_name = coalesce(
          CASE WHEN json_valid(event_json) THEN
            CASE WHEN json_type(event_json, '$.name') = 'text' THEN json_extract(event_json, '$.name') END
          END,
          substr(event_customer_id, instr(event_customer_id, '|') + 1)),
        revenue_amount = CASE WHEN event_type = 'REVENUE' AND json_valid(event_json) THEN
          CASE WHEN json_type(event_json, '$.properties.revenue_amount') IN ('integer', 'real', 'text') THEN
            (SELECT CASE WHEN a > 0 AND a <= 1.7976931348623157e308 THEN a ELSE 0 END
             FROM (SELECT CAST(json_extract(event_json, '$.properties.revenue_amount') AS REAL) AS a))
          ELSE 0 END
        ELSE 0 END;
    `,
  },
  {
    version: 10,
    name: "service secrets",
    sql: `
      -- Secrets of this installation, made once and shared by every node on the database: the
      -- key that signs operators' preview tokens (auth/preview-token.ts).
      CREATE TABLE service_secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 11,
    name: "experiences: mutually exclusive group",
    sql: `
      -- The experience's mutually exclusive group as JSON {"name","start","end"} (contract
      -- ExclusionGroup), NULL when it is in none. Read whole with the experience, like its rules.
      ALTER TABLE experiences ADD COLUMN exclusion_group_json TEXT;
    `,
  },
  {
    version: 12,
    name: "results: each visitor's first exposure, kept at insert",
    sql: `
      -- Each visitor's first randomised exposure to an experience (docs/results.md "Who counts"):
      -- the smallest requested_time, at the same millisecond the smallest variation id, at the
      -- same both the one stored first. Kept by the exposure insert (store/sqlite/client-writes.ts)
      -- in its transaction, so the results read one row per visitor here instead of ranking the
      -- visitor's exposures and reading the split by rowid. seq: the exposure's, moved when an
      -- earlier exposure arrives late and takes the place.
      CREATE TABLE first_exposures (
        account_id TEXT NOT NULL,
        experience_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        variation_id TEXT,
        requested_time INTEGER NOT NULL,
        probability REAL,
        split TEXT,
        seq INTEGER NOT NULL,
        PRIMARY KEY (account_id, experience_id, user_id)
      ) WITHOUT ROWID;
      INSERT INTO first_exposures (account_id, experience_id, user_id, variation_id, requested_time, probability, split, seq)
      SELECT account_id, experience_id, user_id, variation_id, requested_time, probability, split, seq
      FROM (
        SELECT *, row_number() OVER (
          PARTITION BY account_id, experience_id, user_id ORDER BY requested_time, variation_id, seq) AS rn
        FROM exposures
        WHERE experience_id IS NOT NULL AND user_id IS NOT NULL AND forced = 0
      )
      WHERE rn = 1;
    `,
  },
  {
    version: 13,
    name: "results: the state folded incrementally",
    sql: `
      -- The results without a date range, folded from a watermark (docs/results.md "Incremental
      -- results"): per experience, the goals the state was made for, the last event and exposure
      -- seqs it covers, and its totals (JSON: visitors per variation, day and split; goal sums
      -- per goal, variation and day, float sums kept exact). Derived data only: deleting a row
      -- makes the next results call fold from nothing.
      CREATE TABLE results_state (
        account_id TEXT NOT NULL,
        experience_id TEXT NOT NULL,
        goals TEXT NOT NULL,
        event_seq INTEGER NOT NULL,
        exposure_seq INTEGER NOT NULL,
        totals TEXT NOT NULL,
        PRIMARY KEY (account_id, experience_id)
      ) WITHOUT ROWID;
      -- Per visitor counted: their first exposure and per goal their state (JSON), as counted in
      -- the totals, so that a change takes away exactly what was added.
      CREATE TABLE results_visitors (
        account_id TEXT NOT NULL,
        experience_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (account_id, experience_id, user_id)
      ) WITHOUT ROWID;
      -- The variations each visitor was exposed to (the distinct visitors per variation).
      CREATE TABLE results_seen (
        account_id TEXT NOT NULL,
        experience_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        variation_id TEXT NOT NULL,
        PRIMARY KEY (account_id, experience_id, user_id, variation_id)
      ) WITHOUT ROWID;
    `,
  },
];
