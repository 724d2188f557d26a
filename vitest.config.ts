import { defineConfig } from "vitest/config";

// Two projects: fast unit/integration tests (no browser), and browser tests that drive Debian's
// Chromium through playwright-core against servers the tests start on loopback.
export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // Sign-ins hash with scrypt and some tests run ESLint or whole app set-ups: vitest's 5 s
          // default is too short on a shared two-core machine. A longer limit changes no assertion.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          include: ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts", "test/**/*.test.ts"],
          environment: "node",
          globalSetup: ["packages/server/test/support/postgres-global.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["packages/server/test/support/postgres-global.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // expect.poll waits for a page to reach a state; vitest's default (1 s) is too short on
          // a shared two-core machine running two Chromiums, where one step can take longer. A
          // longer wait changes no assertion: the state must still be reached.
          expect: { poll: { timeout: 5_000 } },
          // Each file launches one Chromium; two cores cannot run many at once.
          maxWorkers: 2,
          fileParallelism: true,
          // After the unit tests, so the two never compete for the two cores.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
