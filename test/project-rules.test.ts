// The project's own guard rails must be able to fail: the import rules of ARCHITECTURE.md and
// the byte budget of storefit.js.

import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
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

  it("fails for a file over 16 KiB gzip", () => {
    const big = join(mkdtempSync(join(tmpdir(), "storefit-size-")), "big.js");
    writeFileSync(big, randomBytes(20_000).toString("base64"));
    const r = size(big);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/over its gzip budget/);
  });
});
