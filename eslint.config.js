// Lint rules, including the import rules of ARCHITECTURE.md ("Import rules"): each package may
// reach only the packages below it, so the storefront script never pulls in server code and the
// contract stays dependency-free.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

const forbid = (names, message) => ({
  "no-restricted-imports": [
    "error",
    { patterns: names.map((group) => ({ group: [group, `${group}/*`], message })) },
  ],
});

export default tseslint.config(
  {
    ignores: ["**/dist/**", "**/node_modules/**", "data/**", "**/.artifacts/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": [
        "error",
        { selector: "TSEnumDeclaration", message: "Use an `as const` map or a union (minifier-friendly)." },
      ],
    },
  },
  {
    files: ["packages/sdk/src/**", "packages/dashboard/src/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ["packages/contract/**/*.ts"],
    rules: forbid(["@storefit/*", "node:*"], "contract imports nothing: it is shared by the browser and the server."),
  },
  {
    files: ["packages/stats/src/**/*.ts"],
    rules: forbid(["@storefit/*", "node:*"], "stats is pure functions with no I/O."),
  },
  {
    files: ["packages/sdk/src/**/*.ts"],
    rules: forbid(
      ["@storefit/server", "@storefit/stats", "@storefit/dashboard", "@storefit/e2e", "@storefit/demo-shop", "node:*"],
      "sdk imports only types and pure matchers from @storefit/contract.",
    ),
  },
  {
    files: ["packages/server/src/**/*.ts"],
    rules: forbid(
      ["@storefit/sdk", "@storefit/dashboard", "@storefit/e2e", "@storefit/demo-shop"],
      "server imports @storefit/contract and @storefit/stats only (it serves the built sdk and dashboard files).",
    ),
  },
  {
    files: ["packages/dashboard/src/**/*.{ts,tsx}"],
    rules: forbid(
      ["@storefit/sdk", "@storefit/server", "@storefit/e2e", "@storefit/demo-shop", "node:*"],
      "dashboard imports @storefit/contract and @storefit/stats only; it reaches the server through /api.",
    ),
  },
  {
    files: ["apps/**/*.ts", "bench/**/*.ts", "packages/**/*.ts"],
    ignores: ["e2e/**"],
    rules: {},
  },
);
