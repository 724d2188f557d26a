// The one SQLite connection of a node and the two ways it writes. Statements are prepared once
// and reused: preparing is most of the cost of a small query.

import Database from "better-sqlite3";

export type Row = Record<string, unknown>;
export type SqlParams = Record<string, string | number | null>;

export const count = (row: unknown): number => (row as { n: number }).n;

export class SqliteDb {
  readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /**
   * The connection's synchronous level: FULL (every commit fsynced) but after a batch of config
   * calls only, which client writes commit at NORMAL and leave so: the next such batch then sets
   * nothing (each switch compiles a PRAGMA). Every other write switches back to FULL (`write`).
   */
  private syncLevel: "FULL" | "NORMAL" = "FULL";

  /** `file` is a path, or ":memory:" for a throwaway database (still real SQLite). */
  constructor(file: string) {
    this.db = new Database(file);
    // WAL lets the dashboard read while the client API writes.
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("foreign_keys = ON");
    // Another node's (process's) write transaction on the same file: wait for it.
    this.db.pragma("busy_timeout = 5000");
    this.db.pragma("synchronous = FULL");
  }

  /** A prepared statement, prepared on first use (after migrations created its tables). */
  sql(text: string): Database.Statement {
    let stmt = this.statements.get(text);
    if (!stmt) {
      stmt = this.db.prepare(text);
      this.statements.set(text, stmt);
    }
    return stmt;
  }

  /** Statements prepared before a migration may name what it changed. */
  forgetStatements(): void {
    this.statements.clear();
  }

  syncAt(level: "FULL" | "NORMAL"): void {
    // SQLite refuses the switch inside a transaction; whoever began it set the level first.
    if (this.syncLevel === level || this.db.inTransaction) return;
    // db.pragma(), not a cached statement: SQLite applies this pragma when the statement is
    // compiled, so a cached one would set nothing when run again.
    this.db.pragma(`synchronous = ${level}`);
    this.syncLevel = level;
  }

  /**
   * An atomic write of the admin API: fsynced, and BEGIN IMMEDIATE, which takes the write lock
   * before the first read, so what `fn` reads is what it writes over, also with other nodes
   * (processes) on the same file. `fn` is synchronous: nothing else runs on this connection
   * meanwhile. A throw rolls back and is rethrown.
   */
  write<T>(fn: () => T): T {
    this.syncAt("FULL");
    this.writes++;
    try {
      return this.db.transaction(fn).immediate();
    } finally {
      this.writes--;
    }
  }

  private writes = 0;

  /** Whether an atomic write (`write`) is open: tests play another node's write there. */
  get writing(): boolean {
    return this.writes > 0;
  }

  /** Reads that must see one snapshot. */
  read<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    this.db.close();
  }
}
