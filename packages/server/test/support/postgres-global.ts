// vitest globalSetup: one PostgreSQL for the whole run, shared by every test file through
// inject("postgresUrl"); each file makes its own database on it (freshDatabase in postgres.ts).
// STOREFIT_TEST_DATABASE_URL points the tests at a server of your own instead (a superuser URL:
// the tests create and drop databases on it).
import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres.js";
import type { PostgresServer } from "./postgres.js";

// Both projects (unit, e2e) list this file, and vitest loads it once per project, each in its own
// module graph: the server is kept on globalThis, shared and counted, so one run starts one server.
type Shared = { server: Promise<PostgresServer>; users: number };
const KEY = Symbol.for("storefit.test.postgres");
const registry = globalThis as typeof globalThis & { [KEY]?: Shared };

let holding = false;

export async function setup({ provide }: TestProject) {
  const external = process.env.STOREFIT_TEST_DATABASE_URL;
  if (external) {
    provide("postgresUrl", external);
    return;
  }
  let shared = registry[KEY];
  if (!shared) {
    shared = { server: startPostgres(), users: 0 };
    registry[KEY] = shared;
    // A failed start is not kept: a later project may try again.
    shared.server.catch(() => {
      if (registry[KEY] === shared) delete registry[KEY];
    });
  }
  const { url } = await shared.server;
  shared.users++;
  holding = true;
  provide("postgresUrl", url);
}

export async function teardown() {
  const shared = registry[KEY];
  if (!holding || !shared) return;
  holding = false;
  if (--shared.users > 0) return;
  delete registry[KEY];
  await (await shared.server).stop();
}
