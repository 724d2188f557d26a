// A throwaway PostgreSQL server for the storage benchmark (bench/storage.bench.mjs): initdb into a
// temporary folder, `postgres` on a free port of 127.0.0.1, removed by stop(). Unlike the tests'
// server (packages/server/test/support/postgres.ts, which turns fsync, synchronous_commit and
// full_page_writes off because test data dies with the run), this one keeps PostgreSQL's durable
// defaults: the service answers an event batch only once it is stored, and SQLite fsyncs it, so a
// benchmark of both must pay for durability on both. BENCH_PG_OPTIONS adds settings
// ("shared_buffers=1GB work_mem=64MB", each passed as -c). PostgreSQL refuses to run as root: as
// root it runs as the `postgres` system user (Debian's package makes it).

import { spawn, spawnSync } from "node:child_process";
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { findPostgresBin } from "../scripts/ensure-postgres.mjs";

const SUPERUSER = "storefit";

function serverUser() {
  if (process.getuid?.() !== 0) return undefined;
  const r = spawnSync("getent", ["passwd", "postgres"], { encoding: "utf8" });
  const f = r.status === 0 ? r.stdout.trim().split(":") : [];
  if (f.length < 4) throw new Error("PostgreSQL will not run as root and there is no `postgres` user: run the benchmark as another user");
  return { uid: Number(f[2]), gid: Number(f[3]) };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const exited = (child) => child.exitCode !== null || child.signalCode !== null;

/** The CPU time (µs, user + system) of a process and of its children that it has waited for. */
function processCpu(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14–17 of proc(5): utime, stime, cutime, cstime (here from index 11, state being 0).
    const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    return { ticks, ppid: Number(f[1]) };
  } catch {
    return null;
  }
}
const TICK_US = 1e6 / Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim() || 100);

/**
 * Starts the server. Answers { url(database), createDatabase(name), cpu(), stop() }: cpu() is the
 * CPU time in µs of the whole server so far (the postmaster, its live backends and background
 * processes, and those that ended: the postmaster waits for them), read from /proc.
 */
export async function startPostgres() {
  const bin = findPostgresBin();
  if (!bin) throw new Error("PostgreSQL's server programs are missing: run `node scripts/ensure-postgres.mjs`.");
  const runAs = serverUser();
  const base = mkdtempSync(join(tmpdir(), "storefit-bench-pg-"));
  const data = join(base, "data");
  const logFile = join(base, "postgres.log");
  let child;
  const cleanup = () => {
    if (child && !exited(child)) child.kill("SIGQUIT");
    rmSync(base, { recursive: true, force: true, maxRetries: 3 });
  };
  process.on("exit", cleanup);
  if (runAs) chownSync(base, runAs.uid, runAs.gid);
  const init = spawnSync(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", SUPERUSER, "--no-sync", "-E", "UTF8", "--locale=C", "--no-instructions"], {
    cwd: base,
    encoding: "utf8",
    ...runAs,
  });
  if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}${init.stderr}`);
  const extra = (process.env.BENCH_PG_OPTIONS ?? "").split(/\s+/).filter(Boolean).flatMap((o) => ["-c", o]);
  const port = await freePort();
  const log = openSync(logFile, "a");
  child = spawn(join(bin, "postgres"), ["-D", data, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${data}`, ...extra], {
    cwd: base,
    stdio: ["ignore", log, log],
    ...runAs,
  });
  closeSync(log);
  const serverUrl = (db) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${db}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited(child)) throw new Error(`postgres exited while starting:\n${existsSync(logFile) ? readFileSync(logFile, "utf8") : ""}`);
    const c = new pg.Client({ connectionString: serverUrl("postgres") });
    c.on("error", () => {});
    try {
      await c.connect();
      await c.end();
      break;
    } catch (error) {
      await c.end().catch(() => {});
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const admin = async (sql) => {
    const c = new pg.Client({ connectionString: serverUrl("postgres") });
    await c.connect();
    try {
      return (await c.query(sql)).rows;
    } finally {
      await c.end();
    }
  };
  const [{ server_version: version }] = await admin("SHOW server_version");
  const postmaster = child.pid;
  return {
    version,
    url: serverUrl,
    async createDatabase(name) {
      await admin(`CREATE DATABASE ${name}`);
      return serverUrl(name);
    },
    cpu() {
      let ticks = processCpu(postmaster)?.ticks ?? 0;
      for (const entry of readdirSync("/proc")) {
        if (!/^\d+$/.test(entry)) continue;
        const p = processCpu(entry);
        // The children's own time only: what they waited for themselves is theirs (none here).
        if (p && p.ppid === postmaster) ticks += p.ticks;
      }
      return ticks * TICK_US;
    },
    stop() {
      return new Promise((resolve) => {
        process.off("exit", cleanup);
        const done = () => {
          rmSync(base, { recursive: true, force: true, maxRetries: 3 });
          resolve();
        };
        if (exited(child)) return done();
        child.once("exit", done);
        child.kill("SIGINT"); // fast shutdown: open connections are ended
      });
    },
  };
}
