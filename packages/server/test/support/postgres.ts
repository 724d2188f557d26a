// A throwaway PostgreSQL for the tests: a temporary data folder, a free port on 127.0.0.1 only,
// no durability (the data dies with the run), and a fresh database per test file on top.
// PostgreSQL refuses to run as root, so as root the server runs as the `postgres` system user (or
// one made for it).
import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chownSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The server every test file of the run shares (postgres-global.ts); superuser, any database. */
    postgresUrl: string;
  }
}

export type PostgresServer = { url: string; stop(): Promise<void> };
export type FreshDatabase = { url: string; drop(): Promise<void> };

/** The role initdb makes the superuser; with trust authentication no password is needed. */
const SUPERUSER = "storefit";
/** Made only when there is no `postgres` user (PostgreSQL not from Debian's package). */
const FALLBACK_USER = "storefit-pg";
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 30_000;

type RunAs = { uid: number; gid: number };

// The same search as `npm test`'s check. A plain .mjs has no types, and this tsconfig checks no
// JavaScript: a specifier typed as string keeps tsc from resolving it, and the cast gives the type.
const ENSURE_POSTGRES: string = "../../../../scripts/ensure-postgres.mjs";
type EnsurePostgres = { findPostgresBin(): string | null };

/** Who runs initdb and postgres: nobody special unless we are root. */
function serverUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = (name: string): RunAs | undefined => {
    const r = spawnSync("getent", ["passwd", name], { encoding: "utf8" });
    const fields = r.status === 0 ? r.stdout.trim().split(":") : [];
    return fields.length >= 4 ? { uid: Number(fields[2]), gid: Number(fields[3]) } : undefined;
  };
  const existing = lookup("postgres") ?? lookup(FALLBACK_USER);
  if (existing) return existing;
  spawnSync(
    "useradd",
    ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", FALLBACK_USER],
    {
      stdio: "ignore",
    },
  );
  const made = lookup(FALLBACK_USER);
  if (!made)
    throw new Error(
      `PostgreSQL will not run as root, and no user to run it could be made (useradd ${FALLBACK_USER}).`,
    );
  return made;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function run(
  file: string,
  args: string[],
  options: { cwd: string; runAs: RunAs | undefined },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      ...options.runAs,
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${file} ${args.join(" ")} failed (${signal ?? code}):\n${output}`)),
    );
  });
}

const readLog = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "(no log)");

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * For process 'exit', where nothing asynchronous runs: an immediate shutdown (SIGQUIT; the
 * postmaster ends its backends and removes its shared memory, which a SIGKILL would leave behind),
 * waited for by polling /proc, since node cannot reap the child here and a zombie still answers
 * kill(pid, 0).
 */
function stopNow(pid: number) {
  try {
    process.kill(pid, "SIGQUIT");
  } catch {
    return;
  }
  const tick = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    let state: string;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    } catch {
      return;
    }
    if (state === "Z" || state === "X") return;
    Atomics.wait(tick, 0, 0, 20);
  }
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

async function waitUntilReady(url: string, child: ChildProcess, logFile: string) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (exited(child)) return { ok: false as const };
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.end();
      return { ok: true as const };
    } catch (error) {
      lastError = error;
      await client.end().catch(() => {});
    }
    await sleep(100);
  }
  throw new Error(
    `PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s (${String(lastError)}). Server log:\n${readLog(logFile)}`,
  );
}

/**
 * Starts a PostgreSQL server of its own: initdb into a temporary folder, then `postgres` on a free
 * port of 127.0.0.1. stop() shuts it down (fast: open connections are ended) and removes the
 * folder; a test process that exits without stop() still takes the server down with it.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const { findPostgresBin } = (await import(ENSURE_POSTGRES)) as EnsurePostgres;
  const bin = findPostgresBin();
  if (!bin)
    throw new Error(
      "PostgreSQL's server programs are missing: run `node scripts/ensure-postgres.mjs`.",
    );
  const runAs = serverUser();
  const base = mkdtempSync(join(tmpdir(), "storefit-pg-"));
  const data = join(base, "data");
  const logFile = join(base, "postgres.log");
  let child: ChildProcess | undefined;
  // Until stop(), an exit of this process (a crash, a failed setup, vitest on Ctrl-C) ends the
  // server and removes its folder too.
  const onExit = () => {
    if (child?.pid !== undefined && !exited(child)) stopNow(child.pid);
    rmSync(base, { recursive: true, force: true, maxRetries: 3 });
  };
  process.on("exit", onExit);

  try {
    if (runAs) chownSync(base, runAs.uid, runAs.gid);
    await run(
      join(bin, "initdb"),
      // prettier-ignore
      ["-D", data, "-A", "trust", "-U", SUPERUSER, "--no-sync", "-E", "UTF8", "--locale=C", "--no-instructions"],
      { cwd: base, runAs },
    );

    // The port is free when looked at, not necessarily when postgres binds it: on a clash, another.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const log = openSync(logFile, "a");
      child = spawn(
        join(bin, "postgres"),
        // prettier-ignore
        [
          "-D", data,
          "-p", String(port),
          "-c", "listen_addresses=127.0.0.1",
          "-c", `unix_socket_directories=${data}`,
          // Nothing here must survive a crash: durability only costs time.
          "-c", "fsync=off",
          "-c", "synchronous_commit=off",
          "-c", "full_page_writes=off",
          // Every test worker holds pools of its own against the one server.
          "-c", "max_connections=200",
        ],
        { cwd: base, stdio: ["ignore", log, log], ...runAs },
      );
      closeSync(log);
      const url = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
      const ready = await waitUntilReady(url, child, logFile);
      if (ready.ok) {
        const server = child;
        let stopping: Promise<void> | undefined;
        const stop = () =>
          (stopping ??= (async () => {
            if (!(await waitForExit(server, 0))) {
              server.kill("SIGINT");
              if (!(await waitForExit(server, STOP_TIMEOUT_MS))) {
                server.kill("SIGQUIT");
                if (!(await waitForExit(server, 5_000))) server.kill("SIGKILL");
              }
            }
            process.off("exit", onExit);
            rmSync(base, { recursive: true, force: true, maxRetries: 3 });
          })());
        return { url, stop };
      }
      const clash = /could not (bind|create listen socket)|address already in use/i.test(
        readLog(logFile),
      );
      if (!clash || attempt >= 3) {
        throw new Error(
          `PostgreSQL exited while starting (${child.signalCode ?? child.exitCode}). Server log:\n${readLog(logFile)}`,
        );
      }
    }
  } catch (error) {
    onExit();
    process.off("exit", onExit);
    throw error;
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function withAdmin<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database on the run's server (postgres-global.ts), for one test file or test. Its
 * URL connects as the superuser. drop() ends whatever is still connected to it and drops it.
 */
export async function freshDatabase(): Promise<FreshDatabase> {
  const serverUrl = inject("postgresUrl");
  if (!serverUrl)
    throw new Error(
      "No PostgreSQL for this project: add test/support/postgres-global.ts to its globalSetup.",
    );
  const name = `sf_test_${randomBytes(8).toString("hex")}`;
  await withAdmin(serverUrl, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropping: Promise<void> | undefined;
  const drop = () =>
    (dropping ??= withAdmin(serverUrl, async (c) => {
      // FORCE ends the database's open connections first (pools a test forgot to close).
      await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    }));
  return { url: url.toString(), drop };
}
