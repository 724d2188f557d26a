// Makes sure PostgreSQL's server programs (initdb, pg_ctl, postgres) are there: the tests start a
// throwaway PostgreSQL of their own (packages/server/test/support/postgres.ts) and need no running
// service. Missing and root on Debian: installs Debian's postgresql with apt-get. Otherwise it says
// exactly what to install and fails. Imported, it only exports findPostgresBin().
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, realpathSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PROGRAMS = ["initdb", "pg_ctl", "postgres"];

const hasAll = (dir) => PROGRAMS.every((p) => existsSync(join(dir, p)));

/**
 * The folder holding initdb, pg_ctl and postgres, or null: $PG_BIN, then the newest
 * /usr/lib/postgresql/<version>/bin (Debian's layout, not on PATH), then the folder of the initdb
 * found on PATH (followed through symlinks, since postgres must sit beside it).
 */
export function findPostgresBin() {
  if (process.env.PG_BIN) return hasAll(process.env.PG_BIN) ? process.env.PG_BIN : null;

  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
      const dir = join(root, v, "bin");
      if (hasAll(dir)) return dir;
    }
  }

  for (const dir of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const initdb = join(dir, "initdb");
    if (!existsSync(initdb)) continue;
    const real = dirname(realpathSync(initdb));
    if (hasAll(real)) return real;
  }
  return null;
}

function main() {
  const describe = (dir) => `postgresql: ${dir}`;
  let dir = findPostgresBin();
  if (dir) {
    console.log(describe(dir));
    return 0;
  }
  if (process.env.PG_BIN) {
    console.error(`PG_BIN=${process.env.PG_BIN} does not hold ${PROGRAMS.join(", ")}.`);
    return 1;
  }

  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const isDebian = existsSync("/etc/debian_version");
  if (isRoot && isDebian) {
    console.log(
      "postgresql is missing: installing Debian's postgresql (apt-get install -y postgresql) …",
    );
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    execFileSync("apt-get", ["install", "-y", "-qq", "postgresql"], { stdio: "inherit", env });
    dir = findPostgresBin();
    if (dir) {
      console.log(describe(dir));
      return 0;
    }
  }
  console.error(
    [
      "The tests start a throwaway PostgreSQL and need its server programs (initdb, pg_ctl, postgres);",
      "none were found in /usr/lib/postgresql/*/bin or on PATH.",
      isDebian
        ? "Install them as root:  apt-get update && apt-get install -y postgresql"
        : "Install the PostgreSQL 15 server with your system's package manager (Debian/Ubuntu: apt-get install -y postgresql),",
      "or point PG_BIN at the folder that holds initdb, pg_ctl and postgres.",
    ].join("\n"),
  );
  return 1;
}

function invokedAsScript() {
  try {
    return (
      !!process.argv[1] &&
      realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
    );
  } catch {
    return false;
  }
}
if (invokedAsScript()) process.exit(main());
