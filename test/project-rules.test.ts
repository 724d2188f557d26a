// The project's own guard rails must be able to fail: the import rules of ARCHITECTURE.md and
// the byte budget of storefit.js; the Node versions the README promises against the locked packages.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");

describe("import rules (eslint.config.js)", () => {
  const eslint = new ESLint({ cwd: root });
  const cases: [file: string, source: string, allowed: boolean][] = [
    ["packages/sdk/src/x.ts", 'import { buildApp } from "@storefit/server";\nexport const x = buildApp;\n', false],
    ["packages/sdk/src/x.ts", 'import { readFileSync } from "node:fs";\nexport const x = readFileSync;\n', false],
    ["packages/sdk/src/x.ts", 'import { SDK_VERSION } from "@storefit/contract";\nexport const x = SDK_VERSION;\n', true],
    ["packages/contract/src/x.ts", 'import { x as y } from "@storefit/stats";\nexport const x = y;\n', false],
    ["packages/server/src/x.ts", 'import { x as y } from "@storefit/sdk";\nexport const x = y;\n', false],
    ["packages/server/src/x.ts", 'import { SDK_VERSION } from "@storefit/contract";\nexport const x = SDK_VERSION;\n', true],
    ["packages/dashboard/src/x.ts", 'import { x as y } from "@storefit/server";\nexport const x = y;\n', false],
    ["packages/stats/src/x.ts", 'import { SDK_VERSION } from "@storefit/contract";\nexport const x = SDK_VERSION;\n', false],
  ];
  for (const [file, source, allowed] of cases) {
    it(`${file}: ${source.split("\n")[0]} is ${allowed ? "allowed" : "refused"}`, async () => {
      const [result] = await eslint.lintText(source, { filePath: join(root, file) });
      const importErrors = result!.messages.filter((m) => m.ruleId === "no-restricted-imports");
      expect(importErrors.length > 0).toBe(!allowed);
    });
  }
});

describe("size budget (npm run size)", () => {
  const size = (file?: string) =>
    spawnSync(process.execPath, ["packages/sdk/size.mjs", ...(file ? [file] : [])], { cwd: root, encoding: "utf8" });

  it("prints the gzip size of storefit.js and passes within 16 KiB", () => {
    const r = size();
    expect(r.stdout).toMatch(/storefit\.js: \d+ bytes, \d+ bytes gzip \(budget 16384 bytes gzip/);
    expect(r.status).toBe(0);
  });

  it("storefit.js asks V8 to compile it eagerly (its first line, packages/sdk/compile-hint.mjs); the files loaded after the reveal do not", () => {
    const first = (name: string) => readFileSync(join(root, "packages/sdk/dist", name), "utf8").split("\n", 1)[0];
    expect(first("storefit.js")).toBe("//# allFunctionsCalledOnLoad");
    expect(first("storefit-ext.js")).not.toContain("allFunctionsCalledOnLoad");
  });

  it("the Shopify pixel stays ES2019 (pasted into Shopify's editor): no `?.` or `??`, which storefit.js (ES2020) has", () => {
    const dist = (name: string) => readFileSync(join(root, "packages/sdk/dist", name), "utf8");
    expect(dist("shopify-pixel.js")).not.toMatch(/\?\.|\?\?/);
    expect(dist("storefit.js")).toMatch(/\?\.|\?\?/);
  });

  it("fails for a file over 16 KiB gzip", () => {
    const big = join(mkdtempSync(join(tmpdir(), "storefit-size-")), "big.js");
    writeFileSync(big, randomBytes(20_000).toString("base64"));
    const r = size(big);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/over its gzip budget/);
  });
});

// ---- Node versions: the README's promise that `npm install` accepts them without warnings ----

type Version = [number, number, number];
const cmp = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `v` satisfies an npm `engines` range, for the forms the lock file uses; throws on others. */
function satisfies(v: Version, range: string): boolean {
  return range.split("||").some((alternative) => {
    const parts = alternative
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, "$1")
      .trim()
      .split(/\s+/)
      .filter((p) => p !== "");
    return parts.length === 0 || parts.every((part) => comparator(v, part));
  });
}

function comparator(v: Version, part: string): boolean {
  const m = /^(>=|<=|>|<|=|\^|~)?v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/.exec(part);
  if (!m) throw new Error(`engines range part not understood: ${part}`);
  const op = m[1] ?? "";
  const nums = [m[2], m[3], m[4]].map((n) => (n === undefined || /[xX*]/.test(n) ? null : Number(n)));
  const given = nums.findIndex((n) => n === null);
  const precision = given === -1 ? 3 : given; // how many leading numbers are given
  const low: Version = [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 0];
  if (precision === 0) return true; // "*", "x"
  const bump = (p: number): Version => (p === 0 ? [low[0] + 1, 0, 0] : p === 1 ? [low[0], low[1] + 1, 0] : [low[0], low[1], low[2] + 1]);
  switch (op) {
    case ">=":
      return cmp(v, low) >= 0;
    case ">":
      return cmp(v, bump(precision - 1)) >= 0;
    case "<":
      return cmp(v, low) < 0;
    case "<=":
      return cmp(v, bump(precision - 1)) < 0;
    case "^":
      return cmp(v, low) >= 0 && cmp(v, bump(low[0] !== 0 || precision === 1 ? 0 : low[1] !== 0 || precision === 2 ? 1 : 2)) < 0;
    case "~":
      return cmp(v, low) >= 0 && cmp(v, bump(precision === 1 ? 0 : 1)) < 0;
    default: // "=", or a bare (partial) version: an x-range
      return cmp(v, low) >= 0 && cmp(v, bump(precision - 1)) < 0;
  }
}

describe("Node versions (README Quick start, package.json engines, package-lock.json)", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const documented = /^Node\.js ((?:\d+(?:\.\d+)?\+(?:, | or )?)+)/m.exec(readme);
  // "20.19+, 22.13+ or 24+": each named line from its first accepted release, and the last line's later majors.
  const versions: Version[] = [...(documented?.[1] ?? "").matchAll(/(\d+)(?:\.(\d+))?\+/g)].map((m) => [Number(m[1]), Number(m[2] ?? 0), 0]);
  const last = versions.at(-1);
  if (last) versions.push([last[0] + 2, 0, 0]);
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };

  it("the README names the Node versions in the form this test reads", () => {
    expect(documented, "README: a line starting `Node.js 20.19+, 22.13+ or 24+`").not.toBeNull();
    expect(versions.length).toBeGreaterThanOrEqual(2);
  });

  it("every package in the lock file accepts every documented Node version (no EBADENGINE on npm install)", () => {
    const refused: string[] = [];
    for (const [path, pkg] of Object.entries(lock.packages)) {
      const range = !Array.isArray(pkg.engines) ? pkg.engines?.node : undefined;
      if (!range) continue;
      for (const v of versions) if (!satisfies(v, range)) refused.push(`${path || "(root)"}@${pkg.version ?? ""} needs node ${range}, not ${v.join(".")}`);
    }
    expect(refused).toEqual([]);
  });

  it("reads npm ranges as npm does", () => {
    expect(satisfies([20, 19, 0], ">=20.19")).toBe(true);
    expect(satisfies([20, 18, 9], ">=20.19")).toBe(false);
    expect(satisfies([20, 19, 0], ">=22")).toBe(false);
    expect(satisfies([22, 12, 0], "^20.19.0 || ^22.13.0 || >=24")).toBe(false);
    expect(satisfies([22, 13, 0], "^20.19.0 || ^22.13.0 || >=24")).toBe(true);
    expect(satisfies([21, 0, 0], "^20.19.0 || >=22.12.0")).toBe(false);
    expect(satisfies([26, 0, 0], "18 || 20 || >=22")).toBe(true);
    expect(satisfies([19, 0, 0], "18 || 20 || >=22")).toBe(false);
    expect(satisfies([20, 0, 0], "^18.18.0 || ^20.9.0 || >=21.1.0")).toBe(false);
    expect(satisfies([17, 0, 0], ">= 14.17.0 < 17")).toBe(false);
    expect(satisfies([16, 20, 0], ">=14.17 <17")).toBe(true);
    expect(satisfies([20, 0, 0], "*")).toBe(true);
    expect(() => satisfies([20, 0, 0], "node-20")).toThrow(/not understood/);
  });
});
