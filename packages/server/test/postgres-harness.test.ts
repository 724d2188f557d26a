// The test PostgreSQL itself (test/support/postgres.ts): each fresh database is real, separate
// from the others, and gone after drop().
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "pg";
import { freshDatabase } from "./support/postgres.js";
import type { FreshDatabase } from "./support/postgres.js";

async function query<T extends Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

const databaseExists = async (name: string) =>
  (await query(inject("postgresUrl"), "SELECT 1 FROM pg_database WHERE datname = $1", [name]))
    .length === 1;

const nameOf = (url: string) => new URL(url).pathname.slice(1);

describe("test PostgreSQL", () => {
  const made: FreshDatabase[] = [];
  const fresh = async () => {
    const db = await freshDatabase();
    made.push(db);
    return db;
  };
  afterAll(async () => {
    for (const db of made) await db.drop();
  });

  it("is a real PostgreSQL 15 or later on loopback", async () => {
    const url = new URL(inject("postgresUrl"));
    if (!process.env.STOREFIT_TEST_DATABASE_URL) expect(url.hostname).toBe("127.0.0.1");
    const [row] = await query<{ server_version_num: string }>(
      url.toString(),
      "SHOW server_version_num",
    );
    expect(Number(row?.server_version_num)).toBeGreaterThanOrEqual(150000);
  });

  it("gives a database where tables can be made, written and read", async () => {
    const db = await fresh();
    expect(nameOf(db.url)).toMatch(/^sf_test_[0-9a-f]+$/);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query("CREATE TABLE t(x int)");
      await client.query("INSERT INTO t(x) VALUES (1), (2), (3)");
      const { rows } = await client.query<{ x: number }>("SELECT x FROM t ORDER BY x");
      expect(rows.map((r) => r.x)).toEqual([1, 2, 3]);
      const [current] = (await client.query<{ db: string }>("SELECT current_database() AS db"))
        .rows;
      expect(current?.db).toBe(nameOf(db.url));
    } finally {
      await client.end();
    }
  });

  it("gives each caller a database of its own", async () => {
    const [a, b] = await Promise.all([fresh(), fresh()]);
    expect(a.url).not.toBe(b.url);
    await query(a.url, "CREATE TABLE only_in_a(x int)");
    const seen = await query<{ name: string | null }>(
      b.url,
      "SELECT to_regclass('only_in_a')::text AS name",
    );
    expect(seen[0]?.name).toBeNull();
  });

  it("drop() removes the database, even with a connection still open", async () => {
    const db = await freshDatabase();
    const name = nameOf(db.url);
    expect(await databaseExists(name)).toBe(true);
    const forgotten = new Client({ connectionString: db.url });
    forgotten.on("error", () => {});
    await forgotten.connect();
    await db.drop();
    expect(await databaseExists(name)).toBe(false);
    await forgotten.end().catch(() => {});
    await db.drop();
  });
});
