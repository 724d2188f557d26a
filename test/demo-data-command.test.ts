// `npm run demo-data` itself (scripts/demo-data.mjs), not only the fillDemoHistory it calls
// (packages/server/test/results-demo-data.test.ts): run as an operator runs it, against a
// throwaway DATA_DIR, it writes the visitors, exposures and events it reports, and a second run
// writes nothing.

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const dataDir = mkdtempSync(join(tmpdir(), "storefit-demo-data-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The command, with the database in `dataDir` (the script's DATA_DIR/storefit.sqlite). */
const demoData = () =>
  spawnSync("npm", ["run", "demo-data"], { cwd: root, encoding: "utf8", env: { ...process.env, DATA_DIR: dataDir }, timeout: 150_000 });

/** Row counts of the tables the history is written to, and the last event's and exposure's seq. */
function stored() {
  const db = new Database(join(dataDir, "storefit.sqlite"), { readonly: true });
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const last = (table: string) => (db.prepare(`SELECT max(seq) AS seq FROM ${table}`).get() as { seq: number | null }).seq;
    return { visitors: count("visitors"), exposures: count("exposures"), events: count("events"), lastEvent: last("events"), lastExposure: last("exposures") };
  } finally {
    db.close();
  }
}

const number = (text: string) => Number(text.replace(/,/g, ""));

describe("npm run demo-data", () => {
  it("fills a new database in DATA_DIR with what it reports; a second run writes nothing", () => {
    const first = demoData();
    expect(first.status, first.stderr).toBe(0);
    expect(existsSync(join(dataDir, "storefit.sqlite"))).toBe(true);
    const report = /Filled the demo account in .*: ([\d,]+) visitors, ([\d,]+) exposures, ([\d,]+) events over 14 days/.exec(first.stdout);
    expect(report, first.stdout).not.toBeNull();
    const [visitors, exposures, events] = report!.slice(1).map(number);
    const after = stored();
    expect(visitors).toBeGreaterThan(1000);
    expect(events).toBeGreaterThan(1000);
    expect(after).toMatchObject({ visitors, exposures, events });

    const second = demoData();
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/already has its simulated history: nothing written\./);
    expect(stored()).toEqual(after);
  }, 300_000);
});
